import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { withXmpSegment } from '../../../test/helpers/warrant-corpus/edits.ts';
import { withExifSegment, type ExifFields } from '../../../test/helpers/warrant-corpus/exif.ts';
import { imageSignals } from './image.ts';
import { fingerprintTables, readQuantisationTables } from './jpeg-tables.ts';

const context = { now: '2025-06-30T00:00:00.000Z' };

/** A photo-like picture: shapes under smoothed noise, so JPEG coefficients spread the way a photo's do. */
async function picture(width = 480, height = 320, sigma = 35, variant = 0): Promise<Buffer> {
  const scene = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${variant ? '#2a4d69' : '#e8d8b0'}"/><circle cx="${variant ? width * 0.7 : width * 0.3}" cy="${height / 2}" r="${height / 3}" fill="${variant ? '#f4f1de' : '#3d405b'}"/></svg>`;
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } }).png().toBuffer();
  return sharp(Buffer.from(scene))
    .composite([{ input: noise, blend: 'soft-light' }])
    .blur(1.5)
    .png()
    .toBuffer();
}

/** Encoded with mozjpeg's table 8 (a stand-in for a camera's own tables) and camera EXIF with a true thumbnail. */
async function cameraJpeg(pixels: Buffer, fields: ExifFields = {}): Promise<Uint8Array> {
  const jpeg = await sharp(pixels).jpeg({ quality: 92, quantisationTable: 8 }).toBuffer();
  const meta = await sharp(jpeg).metadata();
  const thumbnail = await sharp(jpeg).resize(160, 160, { fit: 'inside' }).jpeg({ quality: 75, quantisationTable: 8 }).toBuffer();
  const taken = '2024:11:02 14:05:31';
  return withExifSegment(jpeg, { make: 'Canon', model: 'Canon EOS 80D', modifyDate: taken, dateTimeOriginal: taken, dateTimeDigitized: taken, pixelWidth: meta.width, pixelHeight: meta.height, thumbnail, ...fields });
}

const codes = (signals: { code: string }[]): string[] => signals.map((signal) => signal.code).sort();

test('a camera original raises only information signals', async () => {
  const result = await imageSignals(await cameraJpeg(await picture()), 'image/jpeg', context);
  assert.equal(result.readable, true);
  assert.deepEqual(codes(result.signals), ['jpeg_quantisation_tables']);
  assert.match(result.signals[0]!.found, /match no standard software table/);
});

test('an editor named in Software and XMP edit history are reported with their tags', async () => {
  const xmp =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"><xmpMM:History><rdf:Seq><rdf:li stEvt:action="saved" stEvt:when="2024-11-03T09:00:00+11:00" stEvt:softwareAgent="Adobe Photoshop 25.0 (Windows)"/></rdf:Seq></xmpMM:History></rdf:Description></rdf:RDF></x:xmpmeta>';
  const edited = await sharp(await picture()).jpeg({ quality: 92, quantisationTable: 8 }).withXmp(xmp).toBuffer();
  const bytes = withExifSegment(edited, { software: 'Adobe Photoshop 25.0 (Windows)' });
  const { signals } = await imageSignals(bytes, 'image/jpeg', context);
  const software = signals.find((signal) => signal.code === 'image_editor_software');
  assert.deepEqual(software?.where, { exif_tag: 'Software' });
  assert.match(software?.found ?? '', /Adobe Photoshop 25\.0/);
  const history = signals.find((signal) => signal.code === 'image_xmp_edit_history');
  assert.equal(history?.where.exif_tag, 'xmpMM:History');
  assert.match(history?.found ?? '', /saved by Adobe Photoshop 25\.0 \(Windows\) at 2024-11-03T09:00:00\+11:00/);
});

test('dates: modified before capture, saved later, and a future date', async () => {
  const pixels = await picture();
  const before = await imageSignals(await cameraJpeg(pixels, { modifyDate: '2024:10:01 08:00:00' }), 'image/jpeg', context);
  assert.ok(before.signals.some((signal) => signal.code === 'image_dates_inconsistent' && signal.where.exif_tag === 'ModifyDate'));
  const later = await imageSignals(await cameraJpeg(pixels, { modifyDate: '2024:12:20 17:45:00' }), 'image/jpeg', context);
  assert.deepEqual(codes(later.signals), ['image_modified_after_capture', 'jpeg_quantisation_tables']);
  const future = await imageSignals(await cameraJpeg(pixels, { dateTimeOriginal: '2025:09:01 10:00:00', modifyDate: '2025:09:01 10:00:00', dateTimeDigitized: '2025:09:01 10:00:00' }), 'image/jpeg', context);
  assert.deepEqual(
    future.signals.filter((signal) => signal.code === 'image_future_date').map((signal) => signal.where.exif_tag),
    ['DateTimeOriginal', 'CreateDate', 'ModifyDate'],
  );
});

test('an XMP capture date in UTC beside the camera\'s local EXIF time is a time zone, not a second capture', async () => {
  const xmp = (when: string): string =>
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="${when}"/></rdf:RDF></x:xmpmeta>`;
  const pixels = await picture();
  const base = await cameraJpeg(pixels);
  // The camera's clock read 14:05:31 in Sydney (UTC+11): 03:05:31 UTC.
  const zoned = await imageSignals(withXmpSegment(base, xmp('2024-11-02T03:05:31Z')), 'image/jpeg', context);
  assert.equal(zoned.signals.some((signal) => signal.code === 'image_dates_inconsistent'), false);
  const shifted = await imageSignals(withXmpSegment(base, xmp('2024-11-02T09:47:00Z')), 'image/jpeg', context);
  assert.equal(shifted.signals.find((signal) => signal.code === 'image_dates_inconsistent')?.where.exif_tag, 'xmp:CreateDate');
});

test('a size that differs from PixelXDimension/PixelYDimension is reported', async () => {
  const { signals } = await imageSignals(await cameraJpeg(await picture(), { pixelWidth: 6000, pixelHeight: 4000 }), 'image/jpeg', context);
  const mismatch = signals.find((signal) => signal.code === 'image_dimensions_mismatch');
  assert.match(mismatch?.found ?? '', /480×320 pixels but EXIF PixelXDimension×PixelYDimension says 6000×4000/);
  assert.equal(mismatch?.where.exif_tag, 'PixelXDimension');
});

test('a thumbnail of another picture is reported with its byte offset', async () => {
  const original = await cameraJpeg(await picture());
  const thumbnail = await sharp(await picture(480, 320, 35, 1)).resize(160, 107).jpeg({ quality: 75 }).toBuffer();
  const swapped = await cameraJpeg(await picture(), { thumbnail });
  const { signals } = await imageSignals(swapped, 'image/jpeg', context);
  const mismatch = signals.find((signal) => signal.code === 'image_thumbnail_mismatch');
  assert.equal(mismatch?.severity, 'high');
  assert.equal(typeof mismatch?.where.byte_offset, 'number');
  assert.ok(!(await imageSignals(original, 'image/jpeg', context)).signals.some((signal) => signal.code === 'image_thumbnail_mismatch'));
});

test('a camera photo re-saved by software: IJG tables under a camera name, and double compression', async () => {
  const camera = await cameraJpeg(await picture());
  const firstSave = await sharp(camera).jpeg({ quality: 60 }).keepExif().toBuffer();
  const resaved = await sharp(firstSave).jpeg({ quality: 90 }).keepExif().toBuffer();
  const { signals } = await imageSignals(resaved, 'image/jpeg', context);
  const tables = signals.find((signal) => signal.code === 'jpeg_tables_not_camera');
  assert.match(tables?.found ?? '', /"Canon EOS 80D".*IJG libjpeg standard tables .* at quality 90/);
  assert.ok(signals.some((signal) => signal.code === 'jpeg_double_compression'));
  const once = await imageSignals(await sharp(await picture()).jpeg({ quality: 75 }).toBuffer(), 'image/jpeg', context);
  assert.ok(!once.signals.some((signal) => signal.code === 'jpeg_double_compression'));
});

test('an EXIF segment that cannot be parsed is reported at its offset, and the pixels are still checked', async () => {
  const jpeg = await sharp(await picture(64, 64)).jpeg({ quality: 80 }).toBuffer();
  // APP1 "Exif" with a TIFF header whose first IFD points past the segment.
  const payload = Buffer.from('Exif\0\0MM\0\x2a\xff\xff\xff\xff\0\0\0\0\0\0', 'latin1');
  const broken = Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1, 0, payload.length + 2]), payload, jpeg.subarray(2)]);
  const { signals, readable } = await imageSignals(broken, 'image/jpeg', context);
  assert.equal(readable, true);
  assert.deepEqual(signals.find((signal) => signal.code === 'image_metadata_unreadable')?.where, { exif_tag: 'Exif', byte_offset: 6 });
  assert.ok(signals.some((signal) => signal.code === 'jpeg_quantisation_tables'));
});

test('bytes that are not a decodable image are unreadable, with a note', async () => {
  const result = await imageSignals(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]), 'image/jpeg', context);
  assert.equal(result.readable, false);
  assert.match(result.note ?? '', /could not be decoded/);
  assert.deepEqual(result.signals, []);
});

test('quantisation tables: sharp at each quality is the IJG table at that quality, read from the DQT offset', async () => {
  for (const quality of [23, 50, 77, 95]) {
    const jpeg = await sharp(await picture(64, 64)).jpeg({ quality }).toBuffer();
    const tables = readQuantisationTables(jpeg);
    assert.equal(jpeg[tables[0]!.offset + 1], 0xdb);
    const fingerprint = fingerprintTables(tables);
    assert.equal(fingerprint.quality, quality);
    assert.match(fingerprint.family ?? '', /^IJG/);
  }
  const mozjpeg = fingerprintTables(readQuantisationTables(await sharp(await picture(64, 64)).jpeg({ quality: 80, mozjpeg: true }).toBuffer()));
  assert.deepEqual([mozjpeg.family, mozjpeg.quality], ['mozjpeg default tables (N. Robidoux)', 80]);
});

test('WebP metadata is read from its RIFF chunks: GIMP in EXIF Software or XMP CreatorTool, a camera in a format cameras do not write', async () => {
  const pixels = await picture(64, 48);
  const exifSoftware = await sharp(pixels).withExif({ IFD0: { Software: 'GIMP 2.10.34' } }).webp().toBuffer();
  const software = (await imageSignals(new Uint8Array(exifSoftware), 'image/webp', context)).signals.find((signal) => signal.code === 'image_editor_software');
  assert.deepEqual([software?.severity, software?.where], ['medium', { exif_tag: 'Software' }]);
  const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="GIMP 2.10"/></rdf:RDF></x:xmpmeta>';
  const xmpTool = await sharp(pixels).withXmp(xmp).webp().toBuffer();
  const creator = (await imageSignals(new Uint8Array(xmpTool), 'image/webp', context)).signals.find((signal) => signal.code === 'image_editor_software');
  assert.match(creator?.found ?? '', /xmp:CreatorTool names an image editor, GIMP: "GIMP 2\.10"/);
  const camera = await sharp(pixels).withExif({ IFD0: { Make: 'Canon', Model: 'Canon EOS 80D' }, IFD2: { DateTimeOriginal: '2024:11:02 14:05:31' } }).webp().toBuffer();
  const converted = await imageSignals(new Uint8Array(camera), 'image/webp', context);
  assert.equal(converted.note, null);
  assert.match(converted.signals.find((signal) => signal.code === 'image_format_not_camera')?.found ?? '', /"Canon EOS 80D" .* but the file is WebP/);
});

test('a converter is medium on a photo that still names its camera, low on a file without one; scanning software is information', async () => {
  const pixels = await picture(64, 48);
  const transferred = await imageSignals(await cameraJpeg(pixels, { software: 'Nikon Transfer 1.1 W' }), 'image/jpeg', context);
  const onPhoto = transferred.signals.find((signal) => signal.code === 'image_converter_software');
  assert.deepEqual([onPhoto?.group, onPhoto?.severity], ['tampering', 'medium']);
  const plain = withExifSegment(await sharp(pixels).jpeg({ quality: 90 }).toBuffer(), { software: 'ImageMagick 6.9.11-60 Q16 x86_64' });
  const made = (await imageSignals(plain, 'image/jpeg', context)).signals.find((signal) => signal.code === 'image_converter_software');
  assert.deepEqual([made?.group, made?.severity], ['metadata', 'low']);
  const scanned = withExifSegment(await sharp(pixels).jpeg({ quality: 90 }).toBuffer(), { make: 'Epson', model: 'PerfectionV800', software: 'VueScan 9 x64 (9.6.01)', dateTimeOriginal: '2024:11:02 14:05:31' });
  const scan = (await imageSignals(scanned, 'image/jpeg', context)).signals.filter((signal) => signal.severity === 'medium' || signal.code === 'image_scan_software');
  assert.deepEqual(scan.map((signal) => [signal.code, signal.severity]), [['image_scan_software', 'info']]);
});

test('camera firmware is named as firmware, and an unknown name as unknown, both information', async () => {
  const pixels = await picture(64, 48);
  const firmware = await imageSignals(await cameraJpeg(pixels, { software: 'Firmware Version 1.0.3' }), 'image/jpeg', context);
  assert.deepEqual(firmware.signals.filter((signal) => signal.where.exif_tag === 'Software').map((signal) => [signal.code, signal.severity]), [['image_camera_firmware', 'info']]);
  const unknown = await imageSignals(await cameraJpeg(pixels, { software: 'Frobnicator 3' }), 'image/jpeg', context);
  assert.deepEqual(unknown.signals.filter((signal) => signal.where.exif_tag === 'Software').map((signal) => [signal.code, signal.severity]), [['image_software', 'info']]);
});
