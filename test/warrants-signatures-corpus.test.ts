import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { inspectPdf, type PdfInspection } from '../api/checkers/warrants/pdf-inspect.ts';
import { modificationLevels, type ModificationLevel } from '../api/checkers/warrants/pdf-modification-level.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 28 part 1: signed PDFs from two reference validators' test suites (fixtures/corpora/signatures/,
 * README there), each with the verdict that validator's own test asserts. Measured: agreement with the
 * validators on pyHanko's ModificationLevel, and how the signature verdict is rated for files whose change
 * after signing the validator rejects and for files nothing was added to after signing.
 */
const corpus = join(import.meta.dirname, '..', 'fixtures', 'corpora', 'signatures');

const truthFile = z.object({
  file: z.string(),
  expected_level: z.enum(modificationLevels),
  expected_outcome: z.enum(['untouched', 'permitted_changes', 'disallowed_changes', 'coverage_anomaly']),
  source_test: z.string(),
});

/** Signals that carry a signature's verdict (the other signals of a file describe it, not the signature). */
const verdictCodes = new Set(['modified_after_signing', 'change_not_permitted', 'signature_byte_range_invalid']);
const rank = { none: 0, info: 0, low: 1, medium: 2, high: 3 } as const;

/**
 * The file's level as the validators state it: the earliest signature's ModificationLevel (NONE when it
 * covers the whole file), or OTHER when any signature's byte range is invalid, since a validator then
 * rejects the signature whatever came after it.
 */
function levelOf(inspection: PdfInspection): ModificationLevel | 'not judged' {
  if (inspection.signatures.some((signature) => signature.coverage.kind === 'invalid')) return 'OTHER';
  return inspection.signatures[0]?.level ?? 'not judged';
}

function ratingOf(inspection: PdfInspection): keyof typeof rank {
  let rating: keyof typeof rank = 'none';
  for (const signal of inspection.signals) if (verdictCodes.has(signal.code) && rank[signal.severity] > rank[rating]) rating = signal.severity;
  return rating;
}

test('signed PDFs: ModificationLevel agreement with the reference validators (issue 28 part 1)', async () => {
  const truths = readdirSync(corpus)
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => truthFile.parse(JSON.parse(readFileSync(join(corpus, name), 'utf8'))));
  const disagreements: string[] = [];
  const belowHigh: string[] = [];
  const anomaliesBelowHigh: string[] = [];
  const untouchedAboveLow: string[] = [];
  const permittedHigh: string[] = [];
  const confusion = new Map<string, number>();
  let agree = 0;
  for (const truth of truths) {
    const inspection = await inspectPdf(new Uint8Array(readFileSync(join(corpus, truth.file))), { now: '2026-11-24T00:00:00Z' });
    const level = levelOf(inspection);
    const rating = ratingOf(inspection);
    const cell = `${truth.expected_level} → ${level}`;
    confusion.set(cell, (confusion.get(cell) ?? 0) + 1);
    if (level === truth.expected_level) agree++;
    else disagreements.push(`${truth.file}: validators ${truth.expected_level}, here ${level} (${truth.source_test})`);
    if (truth.expected_outcome === 'disallowed_changes' && rating !== 'high') belowHigh.push(`${truth.file} (${rating})`);
    if (truth.expected_outcome === 'coverage_anomaly' && rating !== 'high') anomaliesBelowHigh.push(`${truth.file} (${rating})`);
    if (truth.expected_outcome === 'untouched' && rank[rating] > rank.low) untouchedAboveLow.push(`${truth.file} (${rating})`);
    if (truth.expected_outcome === 'permitted_changes' && rating === 'high') permittedHigh.push(`${truth.file}`);
  }
  const count = (outcome: string): number => truths.filter((truth) => truth.expected_outcome === outcome).length;
  const figures = {
    files: truths.length,
    level_agreement: agree / truths.length,
    disallowed_files: count('disallowed_changes'),
    disallowed_below_high: belowHigh.length,
    coverage_anomaly_files: count('coverage_anomaly'),
    coverage_anomalies_below_high: anomaliesBelowHigh.length,
    untouched_files: count('untouched'),
    untouched_above_low: untouchedAboveLow.length,
    permitted_files: count('permitted_changes'),
    permitted_rated_high: permittedHigh.length,
  };
  process.stdout.write(
    [
      `Signed PDFs (${truths.length} files from the DSS and iText validators' test suites)`,
      `  ModificationLevel agreement: ${agree}/${truths.length} = ${figures.level_agreement.toFixed(3)} (floor 0.95)`,
      ...disagreements.map((line) => `    disagrees ${line}`),
      `  levels (validators → here): ${[...confusion].sort().map(([cell, n]) => `${cell}: ${n}`).join('; ')}`,
      `  disallowed changes rated below high: ${belowHigh.length}/${figures.disallowed_files} (must be 0)${belowHigh.length ? `: ${belowHigh.join(', ')}` : ''}`,
      `  coverage anomalies rated below high: ${anomaliesBelowHigh.length}/${figures.coverage_anomaly_files} (must be 0)${anomaliesBelowHigh.length ? `: ${anomaliesBelowHigh.join(', ')}` : ''}`,
      `  untouched signed files rated above low: ${untouchedAboveLow.length}/${figures.untouched_files} (must be 0)${untouchedAboveLow.length ? `: ${untouchedAboveLow.join(', ')}` : ''}`,
      `  permitted changes rated high (no floor): ${permittedHigh.length}/${figures.permitted_files}${permittedHigh.length ? `: ${permittedHigh.join(', ')}` : ''}`,
      '',
    ].join('\n'),
  );
  recordMeasured('warrants-signatures', {
    corpus: `fixtures/corpora/signatures (${truths.length} signed PDFs from the esig/dss and itext-java test resources)`,
    truth: "Each file's verdict is what the validator's own test asserts (source_test in its truth file), translated into pyHanko's ModificationLevel words; three untouched files were read by hand (fixtures/corpora/signatures/README.md).",
    figures,
    floors: { level_agreement: 0.95, 'max:disallowed_below_high': 0, 'max:coverage_anomalies_below_high': 0, 'max:untouched_above_low': 0 },
  });
});
