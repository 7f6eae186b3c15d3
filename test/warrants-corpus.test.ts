import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseWarrant } from '../api/checkers/warrants/analyse.ts';
import type { WarrantAnalysis } from '../api/checkers/warrants/bundle.ts';
import type { DocumentKind } from '../api/documents/types.ts';
import { corpusFolder, type CorpusEntry } from './helpers/warrant-corpus/build.ts';
import { corpusNow } from './helpers/warrant-corpus/edits.ts';
import { recordMeasured } from './helpers/measured.ts';

const recallFloor = 0.95;
const falsePositiveCeiling = 0.02;

const types: Record<string, { kind: DocumentKind; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  png: { kind: 'image', mime: 'image/png' },
};

async function inspect(file: string): Promise<WarrantAnalysis> {
  const bytes = new Uint8Array(readFileSync(join(corpusFolder, file)));
  const type = types[file.split('.').at(-1)!]!;
  return analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: type.kind, mime: type.mime, filename: file }], {}, { now: corpusNow });
}

/**
 * A clean file is a false positive when the band rule (band.ts) puts it at medium or high, or when it
 * carries any tampering signal of medium or high severity (which the rule would band medium or high unless
 * the file was too thin to read). An edited copy counts as found when every code its edit is expected to
 * raise is among its signals.
 */
function falsePositive(result: WarrantAnalysis): boolean {
  return result.risk_band === 'medium' || result.risk_band === 'high' || result.signals.some((signal) => signal.group === 'tampering' && (signal.severity === 'medium' || signal.severity === 'high'));
}

test('warrant corpus: recall per edit kind and false positives on clean originals', async () => {
  const { files } = JSON.parse(readFileSync(join(corpusFolder, 'manifest.json'), 'utf8')) as { files: CorpusEntry[] };
  const byKind = new Map<string, { found: number; total: number; missed: string[] }>();
  const falsePositives: string[] = [];
  let clean = 0;
  for (const entry of files) {
    const result = await inspect(entry.file);
    const codes = new Set(result.signals.map((signal) => signal.code));
    if (entry.status === 'clean') {
      clean++;
      if (falsePositive(result)) falsePositives.push(`${entry.file} (${result.risk_band}: ${result.summary.band_rule.split('Applied: ')[1]})`);
      continue;
    }
    const kind = byKind.get(entry.edit_kind!) ?? { found: 0, total: 0, missed: [] };
    kind.total++;
    const missing = entry.expected_codes.filter((code) => !codes.has(code));
    if (missing.length === 0) kind.found++;
    else kind.missed.push(`${entry.file} lacks ${missing.join(', ')}`);
    byKind.set(entry.edit_kind!, kind);
  }
  const rows = [...byKind].map(([kind, { found, total }]) => `  ${kind.padEnd(26)} ${found}/${total}  recall ${(found / total).toFixed(2)}`);
  const edited = [...byKind.values()].reduce((sum, kind) => sum + kind.total, 0);
  const found = [...byKind.values()].reduce((sum, kind) => sum + kind.found, 0);
  const rate = falsePositives.length / clean;
  process.stdout.write(
    [`Warrant corpus (${clean} clean, ${edited} edited over ${byKind.size} kinds of edit)`, ...rows, `  overall recall ${(found / edited).toFixed(3)}`, `  false positives ${falsePositives.length}/${clean} = ${(rate * 100).toFixed(1)}% (a clean file banded medium or high, or with a tampering signal of medium or high severity)`, ...falsePositives.map((file) => `    ${file}`), ''].join('\n'),
  );
  for (const [kind, { found: hits, total, missed }] of byKind) assert.ok(hits / total >= recallFloor, `${kind}: recall ${hits}/${total}; ${missed.join('; ')}`);
  assert.ok(found / edited >= recallFloor);
  assert.ok(rate <= falsePositiveCeiling, `false positives: ${falsePositives.join('; ')}`);
  recordMeasured('warrants-generated', {
    corpus: `fixtures/documents/generated (${clean} clean originals and ${edited} edited copies over ${byKind.size} kinds of edit, built by test/helpers/warrant-corpus/)`,
    truth: 'Each edited copy carries the signal codes its edit is expected to raise (manifest.json); a clean file must not be banded medium or high.',
    figures: {
      clean_files: clean,
      edited_files: edited,
      edit_kinds: byKind.size,
      recall: found / edited,
      weakest_kind_recall: Math.min(...[...byKind.values()].map((kind) => kind.found / kind.total)),
      false_positives: falsePositives.length,
      false_positive_rate: rate,
    },
    floors: { recall: recallFloor, weakest_kind_recall: recallFloor, 'max:false_positive_rate': falsePositiveCeiling },
  });
});
