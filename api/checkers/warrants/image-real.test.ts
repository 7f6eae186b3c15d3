import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { imageSignals } from './image.ts';
import type { Signal } from './signal.ts';

const mimes: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', tiff: 'image/tiff' };

/**
 * Real images: exifr's test photos in fixtures/documents/real-images/ (sources.json says where each came from)
 * and, as `corpora/images/<file>`, the labelled corpus of fixtures/corpora/images/ (README and PROVENANCE.tsv there).
 */
async function signalsOf(file: string): Promise<Signal[]> {
  const path = file.startsWith('corpora/') ? `../../../fixtures/${file}` : `../../../fixtures/documents/real-images/${file}`;
  const bytes = new Uint8Array(readFileSync(new URL(path, import.meta.url)));
  const result = await imageSignals(bytes, mimes[file.split('.').at(-1)!]!, { now: '2026-01-15T00:00:00.000Z' });
  assert.equal(result.readable, true, file);
  return result.signals;
}

async function inspect(file: string): Promise<Map<string, string>> {
  return new Map((await signalsOf(file)).map((signal) => [signal.code, signal.severity]));
}

const strong = (signals: Map<string, string>): string[] => [...signals].filter(([, severity]) => severity === 'medium' || severity === 'high').map(([code]) => code);

test('a camera original with a squeezed thumbnail raises nothing above information', async () => {
  const signals = await inspect('exifr-canon-dslr.jpg');
  assert.deepEqual([...signals.keys()], ['jpeg_quantisation_tables']);
});

test('a camera photo reduced by paint.net: stale size in EXIF and the editor named', async () => {
  const signals = await inspect('corpora/images/mei-issue-508.jpg');
  assert.equal(signals.get('image_dimensions_mismatch'), 'medium');
  assert.equal(signals.get('image_editor_software'), 'medium');
});

test('a camera photo re-encoded by Lightroom: IJG tables beside a thumbnail with the camera\'s own', async () => {
  const signals = await inspect('corpora/images/exifr-issue-fast-exif-2.jpg');
  assert.equal(signals.get('jpeg_tables_not_camera'), 'medium');
});

test('PNG text chunks: GIMP\'s "Created with GIMP" comment names the editor, pointing at the chunk', async () => {
  const signals = await signalsOf('corpora/images/mei-gimp-8x12-greyscale-alpha-time-background.png');
  const editor = signals.find((signal) => signal.code === 'image_editor_software');
  assert.equal(editor?.where.exif_tag, 'PNG:Comment');
  const bytes = readFileSync(new URL('../../../fixtures/corpora/images/mei-gimp-8x12-greyscale-alpha-time-background.png', import.meta.url));
  assert.equal(bytes.toString('latin1', editor?.where.byte_offset, (editor?.where.byte_offset ?? 0) + 8), 'Comment\0');
});

test('WebP files from EXIF libraries: paint.net and Picasa named from the RIFF EXIF chunk', async () => {
  const paint = await inspect('corpora/images/piexif-tool1.webp');
  assert.equal(paint.get('image_editor_software'), 'medium');
  assert.equal(paint.get('image_format_not_camera'), 'medium');
  assert.equal((await inspect('corpora/images/mei-webpvp8x.webp')).get('image_photo_app_software'), 'medium');
});

test('an old "xap" XMP packet: Lightroom in CreatorTool beside the camera\'s firmware in Software', async () => {
  const signals = await signalsOf('corpora/images/mei-olympus-fe230-x790.jpg');
  const named = signals.filter((signal) => ['Software', 'xmp:CreatorTool'].includes(signal.where.exif_tag ?? '')).map((signal) => [signal.code, signal.where.exif_tag]);
  assert.deepEqual(named, [['image_camera_firmware', 'Software'], ['image_editor_software', 'xmp:CreatorTool']]);
});

test('Windows Photo Gallery in XMP CreatorTool, the only trace, is a photo app', async () => {
  assert.equal((await inspect('corpora/images/mei-metadata-extractor-dotnet-issue-51.jpg')).get('image_photo_app_software'), 'medium');
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
  // Adobe Photoshop Album is an organiser that crops and fixes photos: the vocabulary lists it as a photo app.
  assert.equal(signals.get('image_photo_app_software'), 'medium');
});

test('an editor re-save with a coarser first save shows double compression', async () => {
  const signals = await inspect('exifr-issue-node-exif-58.jpg');
  assert.equal(signals.get('jpeg_double_compression'), 'medium');
});
