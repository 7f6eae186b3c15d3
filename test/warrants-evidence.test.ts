import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseWarrant } from '../api/checkers/warrants/analyse.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 28 part 3: every signal says where it was found (spec, Warrant: a signal is evidence a person can
 * open the file at). Run over every real file the warrant checks are measured on: the signed PDFs, the real
 * PDFs from PDF libraries' test suites and the real images from EXIF libraries' test sets.
 */
const fixtures = join(import.meta.dirname, '..', 'fixtures');
const folders = ['corpora/signatures', 'documents/real', 'corpora/images'];
const types: Record<string, { kind: 'pdf' | 'image'; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
  jpeg: { kind: 'image', mime: 'image/jpeg' },
  png: { kind: 'image', mime: 'image/png' },
  webp: { kind: 'image', mime: 'image/webp' },
  tif: { kind: 'image', mime: 'image/tiff' },
  tiff: { kind: 'image', mime: 'image/tiff' },
};

test('every signal on every real file says where it was found', async () => {
  const empty: string[] = [];
  const byCode = new Map<string, number>();
  let files = 0;
  let signals = 0;
  for (const folder of folders) {
    for (const name of readdirSync(join(fixtures, folder)).sort()) {
      const type = types[name.split('.').at(-1)!.toLowerCase()];
      if (!type) continue;
      const bytes = new Uint8Array(readFileSync(join(fixtures, folder, name)));
      const result = await analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: type.kind, mime: type.mime, filename: name }], {}, { now: '2026-11-24T00:00:00Z' });
      files++;
      for (const signal of result.signals) {
        signals++;
        byCode.set(signal.code, (byCode.get(signal.code) ?? 0) + 1);
        if (Object.values(signal.where).every((value) => value === undefined)) empty.push(`${folder}/${name}: ${signal.code}`);
      }
    }
  }
  process.stdout.write(`Evidence locations: ${signals} signals of ${byCode.size} kinds on ${files} real files; ${empty.length} without a location\n${empty.map((line) => `  ${line}\n`).join('')}`);
  assert.ok(files > 150, `expected the three folders' files, read ${files}`);
  assert.deepEqual(empty, [], 'signals without a location');
  recordMeasured('warrants-evidence', {
    corpus: `fixtures/corpora/signatures, fixtures/documents/real and fixtures/corpora/images (${files} real PDFs and images)`,
    truth: 'No labels: every signal the engine raises must carry a non-empty location (byte offset, object, page, revision, tag or field).',
    // The number of signals moves with every engine change; what is held is that none lacks a location.
    figures: { files, without_location: empty.length },
    floors: { 'max:without_location': 0 },
  });
});
