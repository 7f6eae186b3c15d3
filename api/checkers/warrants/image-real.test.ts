import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { imageSignals } from './image.ts';

/** Real photos from exifr's test data (fixtures/documents/real-images/sources.json says where each came from). */
async function inspect(file: string): Promise<Map<string, string>> {
  const bytes = new Uint8Array(readFileSync(new URL(`../../../fixtures/documents/real-images/${file}`, import.meta.url)));
  const result = await imageSignals(bytes, 'image/jpeg', { now: '2026-01-15T00:00:00.000Z' });
  assert.equal(result.readable, true, file);
  return new Map(result.signals.map((signal) => [signal.code, signal.severity]));
}

const strong = (signals: Map<string, string>): string[] => [...signals].filter(([, severity]) => severity === 'medium' || severity === 'high').map(([code]) => code);

test('a camera original with a squeezed thumbnail raises nothing above information', async () => {
  const signals = await inspect('exifr-canon-dslr.jpg');
  assert.deepEqual([...signals.keys()], ['jpeg_quantisation_tables']);
});

test('a camera photo reduced by software: stale size, and IJG tables beside a thumbnail with the camera\'s own', async () => {
  const signals = await inspect('exifr-img_1771.jpg');
  assert.equal(signals.get('image_dimensions_mismatch'), 'medium');
  assert.equal(signals.get('jpeg_tables_not_camera'), 'medium');
});

test('a photo saved by Photoshop Elements: editor, history and a thumbnail of another picture', async () => {
  const signals = await inspect('exifr-issue-exifr-41-Error_Segment_Unreachable.jpg');
  assert.deepEqual(strong(signals).sort(), ['image_dimensions_mismatch', 'image_editor_software', 'image_thumbnail_mismatch', 'image_xmp_edit_history']);
});

test('1970 dates from a clock never set are not compared; IJG tables alone under a camera name are only low', async () => {
  const signals = await inspect('exifr-issue-exifr-13.jpg');
  assert.equal(signals.has('image_dates_inconsistent'), false);
  assert.equal(signals.get('jpeg_tables_not_camera'), 'low');
});

test('a JPEG cut short is read, reported, and its thumbnail not compared with the grey remainder', async () => {
  const signals = await inspect('exifr-32d08f4a5eb10332506ebedbb9bc7257.jpg');
  assert.equal(signals.get('jpeg_truncated'), 'low');
  assert.equal(signals.has('image_thumbnail_mismatch'), false);
  assert.equal(signals.get('image_editor_software'), 'medium');
});

test('an editor re-save with a coarser first save shows double compression', async () => {
  const signals = await inspect('exifr-issue-node-exif-58.jpg');
  assert.equal(signals.get('jpeg_double_compression'), 'medium');
});
