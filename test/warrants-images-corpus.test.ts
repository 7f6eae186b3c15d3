import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { analyseWarrant } from '../api/checkers/warrants/analyse.ts';
import type { WarrantAnalysis } from '../api/checkers/warrants/bundle.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 28 part 2: the image checks on real files from EXIF libraries' test sets
 * (fixtures/corpora/images/, README there), labelled by hand from their metadata.
 */
const corpus = join(import.meta.dirname, '..', 'fixtures', 'corpora', 'images');
const now = '2026-01-15T00:00:00.000Z';

const truthFile = z.object({ file: z.string(), label: z.enum(['camera_original', 'edited', 'scan_or_screenshot', 'unknown']), edit_evidence: z.string().nullable() });

const mimes: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', tif: 'image/tiff', tiff: 'image/tiff' };

/** Signals that name how the picture was made after the camera: the program, its history, or a format no camera writes. */
const provenanceCodes = new Set(['image_editor_software', 'image_photo_app_software', 'image_converter_software', 'image_xmp_edit_history', 'image_format_not_camera']);

async function inspect(file: string): Promise<WarrantAnalysis> {
  const bytes = new Uint8Array(readFileSync(join(corpus, file)));
  const mime = mimes[file.split('.').at(-1)!.toLowerCase()]!;
  return analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'image', mime, filename: file }], {}, { now });
}

const flagged = (result: WarrantAnalysis): boolean => result.risk_band === 'medium' || result.risk_band === 'high';
const strongCodes = (result: WarrantAnalysis): string => [...new Set(result.signals.filter((signal) => signal.severity === 'medium' || signal.severity === 'high').map((signal) => signal.code))].join(', ') || 'none';

test('real images: edited recall and camera originals flagged (issue 28 part 2)', async () => {
  const truths = readdirSync(corpus)
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => truthFile.parse(JSON.parse(readFileSync(join(corpus, name), 'utf8'))));
  const edited = { total: 0, flagged: 0, named: 0, missed: [] as string[], unnamed: [] as string[] };
  const camera = { total: 0, flagged: [] as string[] };
  const scans = { total: 0, flagged: [] as string[] };
  for (const truth of truths) {
    const result = await inspect(truth.file);
    if (truth.label === 'edited') {
      edited.total++;
      if (flagged(result)) edited.flagged++;
      else edited.missed.push(`${truth.file} (${result.risk_band}; evidence: ${truth.edit_evidence})`);
      if (result.signals.some((signal) => provenanceCodes.has(signal.code))) edited.named++;
      else edited.unnamed.push(truth.file);
    } else if (truth.label === 'camera_original') {
      camera.total++;
      if (flagged(result)) camera.flagged.push(`${truth.file} (${result.risk_band}: ${strongCodes(result)})`);
    } else if (truth.label === 'scan_or_screenshot') {
      scans.total++;
      if (flagged(result)) scans.flagged.push(`${truth.file} (${result.risk_band}: ${strongCodes(result)})`);
    }
  }
  const figures = {
    edited_files: edited.total,
    edited_recall: edited.flagged / edited.total,
    edited_named_recall: edited.named / edited.total,
    camera_files: camera.total,
    camera_flagged: camera.flagged.length,
    camera_flagged_rate: camera.flagged.length / camera.total,
    scan_files: scans.total,
    scan_flagged: scans.flagged.length,
  };
  process.stdout.write(
    [
      `Real images (${truths.length} files: ${edited.total} edited, ${camera.total} camera originals, ${scans.total} scans or screenshots)`,
      `  edited banded medium or high: ${edited.flagged}/${edited.total} = recall ${figures.edited_recall.toFixed(3)} (floor 0.90)`,
      ...edited.missed.map((line) => `    missed ${line}`),
      `  edited with a signal naming the program, its history or a non-camera format: ${edited.named}/${edited.total} = ${figures.edited_named_recall.toFixed(3)} (floor 0.90)`,
      ...edited.unnamed.map((file) => `    unnamed ${file}`),
      `  camera originals banded medium or high: ${camera.flagged.length}/${camera.total} = ${(figures.camera_flagged_rate * 100).toFixed(1)}% (ceiling 5%)`,
      ...camera.flagged.map((line) => `    ${line}`),
      `  scans and screenshots banded medium or high (no floor): ${scans.flagged.length}/${scans.total}`,
      ...scans.flagged.map((line) => `    ${line}`),
      '',
    ].join('\n'),
  );
  recordMeasured('warrants-images', {
    corpus: `fixtures/corpora/images (${truths.length} real images from EXIF libraries' test sets)`,
    truth: 'Each file labelled by hand (camera original, edited, scan or screenshot, unknown) from its metadata read with exifr and a segment walker, before the checker was run on it (fixtures/corpora/images/README.md).',
    figures,
    floors: { edited_recall: 0.9, edited_named_recall: 0.9, 'max:camera_flagged_rate': 0.05 },
  });
});
