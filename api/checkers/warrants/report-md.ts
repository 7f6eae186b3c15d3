import type { WarrantBundle } from './bundle.ts';
import type { Signal, SignalGroup } from './signal.ts';

/** Group order in every report: what most needs a person's eye first. */
export const groupOrder: readonly SignalGroup[] = ['tampering', 'arithmetic', 'structure', 'metadata'];
export const groupTitles: Record<SignalGroup, string> = { tampering: 'Tampering', arithmetic: 'Arithmetic', structure: 'Structure', metadata: 'Metadata' };
const severityRank = { high: 0, medium: 1, low: 2, info: 3 } as const;

/** Signals of one group, strongest first (stable within a severity, so the engine's order is kept). */
export function signalsOf(bundle: WarrantBundle, group: SignalGroup): Signal[] {
  return bundle.signals.filter((signal) => signal.group === group).sort((a, b) => severityRank[a.severity] - severityRank[b.severity]);
}

/** "page 2, object 12 0 R, byte 1 234": the places a person opens the file at. */
export function describeWhere(where: Signal['where']): string {
  const parts: string[] = [];
  if (where.page !== undefined) parts.push(`page ${where.page}`);
  if (where.field !== undefined) parts.push(`field ${where.field}`);
  if (where.object !== undefined) parts.push(`object ${where.object}`);
  if (where.revision !== undefined) parts.push(where.revision === 0 ? 'original revision' : `revision ${where.revision}`);
  if (where.exif_tag !== undefined) parts.push(`tag ${where.exif_tag}`);
  if (where.byte_offset !== undefined) parts.push(`byte ${where.byte_offset}`);
  return parts.length > 0 ? parts.join(', ') : 'whole file';
}

/** Table cells: a pipe would end the cell and a line break the row. */
function cell(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');
}

/** The stored warrant as a Markdown report (GET /v1/warrants/{id}?format=md). */
export function warrantMarkdown(bundle: WarrantBundle): string {
  const { summary } = bundle;
  const lines = [
    `# Forensic warrant ${bundle.warrant_id}`,
    '',
    `**Risk band: ${bundle.risk_band.toUpperCase()}** · inspection quality: ${bundle.inspection_quality}`,
    '',
    `> ${summary.headline}`,
    '',
    '## Recommended action',
    '',
    bundle.recommended_action,
    '',
    '## File',
    '',
    '| | |',
    '|---|---|',
    `| File | ${cell(bundle.filename ?? '(no name given)')} (${bundle.file_kind}, ${bundle.size_bytes} bytes) |`,
    `| SHA-256 | \`${bundle.sha256}\` |`,
    `| Pages | ${summary.pages ?? 'n/a'} |`,
    `| Saved revisions | ${summary.revisions ?? 'n/a'} |`,
    `| Producer | ${cell(summary.producer ?? 'not stated')} |`,
    `| Creator | ${cell(summary.creator ?? 'not stated')} |`,
    `| Inspected at | ${bundle.inspected_at} |`,
    `| Engine | ${bundle.engine_version} (inspection ${bundle.inspection_version}) |`,
    '',
    '## How the band was chosen',
    '',
    summary.band_rule,
    '',
    `Signals: ${groupOrder.map((group) => `${summary.counts[group]} ${group}`).join(', ')}.`,
    '',
    '## Signals',
    '',
  ];
  if (bundle.signals.length === 0) lines.push('No signals were raised.', '');
  for (const group of groupOrder) {
    const signals = signalsOf(bundle, group);
    if (signals.length === 0) continue;
    lines.push(`### ${groupTitles[group]} (${signals.length})`, '', '| Severity | Signal | What was found | Where |', '|---|---|---|---|');
    for (const signal of signals) lines.push(`| ${signal.severity} | \`${signal.code}\` ${cell(signal.title)} | ${cell(signal.found)} | ${cell(describeWhere(signal.where))} |`);
    lines.push('');
  }
  lines.push('## Limitations', '', bundle.limitations, '', `Permalink: ${bundle.permalink}  `, `PDF scorecard: ${bundle.report_pdf}`, '');
  return lines.join('\n');
}
