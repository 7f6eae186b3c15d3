import Table from 'cli-table3';
import type { Manifest } from '../data/release.ts';
import { describeChromium } from '../lib/chromium.ts';

/** The end-of-run table: per source, what changed and how long it took. */
export function summaryTable(manifest: Manifest): string {
  const table = new Table({
    head: ['source', 'status', 'records', 'new', 'updated', 'closed', 'invalid', 'time'],
    style: { head: [], border: [] },
  });
  for (const s of manifest.sources) {
    table.push([s.id, s.status, s.records, s.new, s.updated, s.closed, s.invalid, `${(s.duration_ms / 1000).toFixed(1)} s`]);
  }
  const notes = manifest.sources.filter((s) => s.why).map((s) => `  ${s.id}: ${s.why}`);
  const browser = manifest.browser
    ? `browser: ${describeChromium({ which: manifest.browser.which, version: manifest.browser.version, executablePath: manifest.browser.executable_path })}`
    : 'browser: none launched';
  const warnings = manifest.sources.flatMap((s) => warningLines(s.id, s.warnings));
  const quality = manifest.data_quality.map((f) => `  ${f.check}: ${f.detail} (${f.sources.join(', ')})`);
  return [table.toString(), '', browser, ...(notes.length ? ['', 'diagnoses:', ...notes] : []), ...(warnings.length ? ['', 'warnings:', ...warnings] : []),
    ...(quality.length ? ['', 'data quality:', ...quality] : [])].join('\n');
}

/** Warnings shown per source in the summary; the manifest keeps them all. */
const WARNINGS_SHOWN = 3;

function warningLines(id: string, warnings: string[]): string[] {
  const shown = warnings.slice(0, WARNINGS_SHOWN).map((warning) => `  ${id}: ${warning}`);
  const more = warnings.length - shown.length;
  return more > 0 ? [...shown, `  ${id}: … and ${more} more (manifest.json)`] : shown;
}
