import sharp from 'sharp';
import type { AnalysisContext } from '../types.ts';
import { compareThumbnail, greySide } from './image-compare.ts';
import { clockReading, readImageMetadata, type ImageMetadata, type ImageTags } from './image-metadata.ts';
import { identifySoftware, softwareSignals } from './image-software.ts';
import { doubleCompressionEvidence } from './jpeg-double.ts';
import { jpegEnding, type JpegEnding } from './jpeg-ending.ts';
import { fingerprintTables, readQuantisationTables, type TableFingerprint } from './jpeg-tables.ts';
import type { Signal } from './signal.ts';

/** One minute: cameras write DateTime and DateTimeOriginal in the same second; anything wider is a later save. */
const sameMomentMinutes = 1;
/** EXIF dates carry no zone: a date counts as future only beyond the widest zone offset plus a day of slack. */
const futureSlackMinutes = 38 * 60;
/**
 * Thumbnail against image: grey squares differing by more than this mean (0–255). Measured: the same picture scores 0–5.4 on the corpus photos and 0–10.5 on exifr's real camera files
 * (a 100-pixel resize of a Hasselblad photo is the 10.5); the corpus's stale thumbnails score 39 and more.
 */
const thumbnailDifferenceLimit = 20;
/** A date before 1990 is a clock that was never set (drones and reset cameras write 1970), not evidence. */
const unsetClockMinutes = Date.UTC(1990, 0, 1) / 60_000;
/**
 * Double compression: at least this share of the well-populated histogram bins nearly empty. Measured on
 * the corpus's 18 generated camera photos: saved once 0.41 at most; decoded and saved again at quality 96,
 * 0.71 at least (a second save at a quality close to the first's leaves fewer valleys and is often missed).
 * No camera original among exifr's test photos (Canon, Google Pixel, Motorola, DJI, Parrot, Olympus) passes it.
 */
const valleyShareLimit = 0.55;
const minimumValleys = 10;

export async function imageSignals(bytes: Uint8Array, mime: string, context: AnalysisContext): Promise<{ signals: Signal[]; readable: boolean; note: string | null }> {
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes, { failOn: 'none' }).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    width = meta.width;
    height = meta.height;
    // metadata() reads headers only: decode a small rendition to prove the pixels are readable too. A file
    // cut short still decodes (its missing rows grey) and is reported below, as a viewer would show it.
    await sharp(bytes, { failOn: 'none' }).resize(8, 8, { fit: 'fill' }).raw().toBuffer();
  } catch (error) {
    return { signals: [], readable: false, note: `The image could not be decoded (${error instanceof Error ? error.message : String(error)}).` };
  }
  const metadata = await readImageMetadata(bytes, mime);
  const ending = mime === 'image/jpeg' ? jpegEnding(bytes) : null;
  // A picture cut short shows grey where its data stops, so it no longer looks like its thumbnail.
  const truncated = ending?.end === null;
  const camera = cameraName(metadata.tags);
  const signals: Signal[] = [
    ...softwareSignals(metadata, camera),
    ...formatSignals(metadata, mime, camera),
    ...dateSignals(metadata.tags, context.now),
    ...dimensionSignals(metadata.tags, width, height),
    ...historySignals(metadata.tags),
    ...(truncated ? [] : await thumbnailSignals(bytes, metadata)),
  ];
  if (metadata.failure) {
    const offset = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('Exif\0\0', 0, 'latin1');
    signals.push({
      code: 'image_metadata_unreadable',
      group: 'structure',
      severity: 'low',
      title: 'Metadata could not be read',
      found: `The image's EXIF/XMP metadata is present but could not be parsed: ${metadata.failure}.`,
      where: offset >= 0 ? { exif_tag: 'Exif', byte_offset: offset } : { exif_tag: 'Exif' },
    });
  }
  if (mime === 'image/jpeg') {
    const fingerprint = fingerprintTables(readQuantisationTables(bytes));
    const thumbnailTables = metadata.thumbnail ? fingerprintTables(readQuantisationTables(metadata.thumbnail)) : null;
    signals.push(...quantisationSignals(fingerprint, thumbnailTables, metadata.tags), ...(await doubleCompressionSignals(bytes, fingerprint)), ...endingSignals(bytes, ending, metadata.thumbnail !== null));
  }
  if (!metadata.tags.ifd0?.Make && !metadata.tags.exif?.DateTimeOriginal && !metadata.failure) {
    signals.push({
      code: 'image_no_camera_metadata',
      group: 'metadata',
      severity: 'info',
      title: 'No camera metadata',
      found: 'The image names no camera (EXIF Make) and no capture time (DateTimeOriginal): a screenshot, a scan, or a file whose metadata was removed; the date and camera checks had nothing to compare.',
      where: { exif_tag: 'Make' },
    });
  }
  const note = ['image/bmp', 'image/gif'].includes(mime) ? `A ${mime} file carries no EXIF that could be read here; only the pixels were checked.` : null;
  return { signals, readable: true, note };
}

/** The camera EXIF names, as people say it: many makers repeat the make in the model ("Canon" + "Canon EOS 80D"). */
function cameraName(tags: ImageTags): string {
  const { Make: make, Model: model } = tags.ifd0 ?? {};
  return model && make && model.toLowerCase().startsWith(make.toLowerCase()) ? model : [make, model].filter(Boolean).join(' ');
}

/** What cameras and phones save photos as; these others are written only by software. */
const softwareOnlyFormats: Record<string, string> = { 'image/webp': 'WebP', 'image/png': 'PNG', 'image/gif': 'GIF', 'image/bmp': 'BMP' };

/**
 * A photo whose EXIF names its camera and capture time, in a format no camera writes: software converted it.
 * A scanner naming itself in Make is not a camera, so a file its scanning software made is left alone.
 */
function formatSignals(metadata: ImageMetadata, mime: string, camera: string): Signal[] {
  const format = softwareOnlyFormats[mime];
  const { tags } = metadata;
  if (!format || camera === '' || !tags.exif?.DateTimeOriginal) return [];
  const scanned = [tags.ifd0?.Software, tags.xmp?.CreatorTool].some((value) => value !== undefined && identifySoftware(value, tags.ifd0?.Make)?.scanning);
  if (scanned) return [];
  return [
    {
      code: 'image_format_not_camera',
      group: 'tampering',
      severity: 'medium',
      title: 'Camera photo in a format cameras do not write',
      found: `EXIF names the camera "${camera}" and a capture time (${tags.exif.DateTimeOriginal}), but the file is ${format}, which cameras do not write: software converted the photo after the camera saved it.`,
      where: { exif_tag: 'Make' },
    },
  ];
}

function dateSignals(tags: ImageTags, now: string): Signal[] {
  const dates = [
    { tag: 'DateTimeOriginal', value: tags.exif?.DateTimeOriginal },
    { tag: 'CreateDate', value: tags.exif?.CreateDate },
    { tag: 'ModifyDate', value: tags.ifd0?.ModifyDate },
    { tag: 'xmp:CreateDate', value: tags.xmp?.CreateDate },
    { tag: 'xmp:ModifyDate', value: tags.xmp?.ModifyDate },
    { tag: 'xmp:MetadataDate', value: tags.xmp?.MetadataDate },
  ].flatMap(({ tag, value }) => {
    const minutes = clockReading(value);
    return minutes === null || value === undefined || minutes < unsetClockMinutes ? [] : [{ tag, value, minutes }];
  });
  const signals: Signal[] = [];
  const nowMinutes = Date.parse(now) / 60_000;
  for (const date of dates) {
    if (date.minutes > nowMinutes + futureSlackMinutes) {
      signals.push({ code: 'image_future_date', group: 'tampering', severity: 'medium', title: 'Date in the future', found: `${date.tag} is ${date.value}, after the inspection time ${now}.`, where: { exif_tag: date.tag } });
    }
  }
  const byTag = new Map(dates.map((date) => [date.tag, date]));
  const original = byTag.get('DateTimeOriginal');
  if (original) {
    for (const tag of ['CreateDate', 'xmp:CreateDate']) {
      const other = byTag.get(tag);
      if (other && Math.abs(other.minutes - original.minutes) > sameMomentMinutes && !(tag.startsWith('xmp:') && zoneShift(other.minutes - original.minutes))) {
        signals.push({ code: 'image_dates_inconsistent', group: 'tampering', severity: 'medium', title: 'Capture dates disagree', found: `${tag} is ${other.value} but DateTimeOriginal is ${original.value}: one capture cannot have two times.`, where: { exif_tag: tag } });
      }
    }
    for (const tag of ['ModifyDate', 'xmp:ModifyDate']) {
      const modified = byTag.get(tag);
      if (!modified) continue;
      if (modified.minutes < original.minutes - sameMomentMinutes && !(tag.startsWith('xmp:') && zoneShift(modified.minutes - original.minutes))) {
        signals.push({ code: 'image_dates_inconsistent', group: 'tampering', severity: 'medium', title: 'Modified before it was taken', found: `${tag} is ${modified.value}, earlier than DateTimeOriginal ${original.value}.`, where: { exif_tag: tag } });
      } else if (modified.minutes > original.minutes + sameMomentMinutes) {
        signals.push({ code: 'image_modified_after_capture', group: 'tampering', severity: 'low', title: 'Saved again after capture', found: `${tag} is ${modified.value}, later than DateTimeOriginal ${original.value}: the file was saved again after the photo was taken.`, where: { exif_tag: tag } });
      }
    }
  }
  return signals;
}

/**
 * Some tools write XMP dates in UTC while EXIF holds the camera's local clock: a gap of whole quarter
 * hours up to 14 hours between an XMP and an EXIF date is a time zone, not a second capture time.
 */
function zoneShift(minutes: number): boolean {
  return Math.abs(minutes) <= 14 * 60 && Math.abs(minutes) % 15 === 0;
}

function dimensionSignals(tags: ImageTags, width: number, height: number): Signal[] {
  const statedWidth = tags.exif?.ExifImageWidth;
  const statedHeight = tags.exif?.ExifImageHeight;
  if (!statedWidth || !statedHeight) return [];
  if ((statedWidth === width && statedHeight === height) || (statedWidth === height && statedHeight === width)) return [];
  return [
    {
      code: 'image_dimensions_mismatch',
      group: 'tampering',
      severity: 'medium',
      title: 'Size differs from EXIF',
      found: `The image is ${width}×${height} pixels but EXIF PixelXDimension×PixelYDimension says ${statedWidth}×${statedHeight}: it was cropped or resized by a tool that kept the old metadata.`,
      where: { exif_tag: 'PixelXDimension' },
    },
  ];
}

function historySignals(tags: ImageTags): Signal[] {
  const signals: Signal[] = [];
  const events = (tags.xmpMM?.History ?? []).filter((event) => event.action === 'saved' || event.action === 'converted' || event.action === 'derived');
  if (events.length > 0) {
    const steps = events.map((event) => [event.action, event.softwareAgent && `by ${event.softwareAgent}`, event.when && `at ${event.when}`].filter(Boolean).join(' '));
    signals.push({ code: 'image_xmp_edit_history', group: 'tampering', severity: 'medium', title: 'Edit history in XMP', found: `xmpMM:History records ${events.length} later step(s): ${steps.join('; ')}.`, where: { exif_tag: 'xmpMM:History' } });
  }
  const photoshop = tags.photoshop?.History;
  const photoshopText = Array.isArray(photoshop) ? photoshop.join('; ') : photoshop;
  if (photoshopText && photoshopText.trim() !== '') {
    signals.push({ code: 'image_xmp_edit_history', group: 'tampering', severity: 'medium', title: 'Photoshop history', found: `photoshop:History records edits: "${photoshopText.slice(0, 300)}".`, where: { exif_tag: 'photoshop:History' } });
  }
  return signals;
}

async function thumbnailSignals(bytes: Uint8Array, metadata: ImageMetadata): Promise<Signal[]> {
  if (!metadata.thumbnail) return [];
  const where = { exif_tag: 'ThumbnailImage', ...(metadata.tags.ifd1?.ThumbnailOffset !== undefined ? { byte_offset: metadata.tags.ifd1.ThumbnailOffset } : {}) };
  const difference = await compareThumbnail(bytes, metadata.thumbnail);
  if (!difference) {
    return [{ code: 'image_thumbnail_unreadable', group: 'structure', severity: 'low', title: 'Thumbnail cannot be decoded', found: `The EXIF thumbnail (${metadata.thumbnail.length} bytes) is not a decodable image.`, where }];
  }
  if (difference.meanDifference <= thumbnailDifferenceLimit) return [];
  const shapes = Math.abs(difference.thumbnailAspect / difference.imageAspect - 1) > 0.03 ? ` (shapes ${difference.thumbnailAspect.toFixed(2)}:1 and ${difference.imageAspect.toFixed(2)}:1)` : '';
  return [
    {
      code: 'image_thumbnail_mismatch',
      group: 'tampering',
      severity: 'high',
      title: 'Thumbnail differs from the image',
      found: `The embedded EXIF thumbnail does not show this image: reduced to ${greySide}×${greySide} grey, the two differ by ${difference.meanDifference.toFixed(1)} grey levels on average (more than ${thumbnailDifferenceLimit})${shapes}. The picture was changed after the thumbnail was made.`,
      where,
    },
  ];
}

function quantisationSignals(fingerprint: TableFingerprint, thumbnail: TableFingerprint | null, tags: ImageTags): Signal[] {
  const first = fingerprint.tables[0];
  if (!first) return [];
  const where = { byte_offset: first.offset, exif_tag: 'DQT' };
  const signals: Signal[] = [
    {
      code: 'jpeg_quantisation_tables',
      group: 'structure',
      severity: 'info',
      title: 'JPEG encoder fingerprint',
      found: fingerprint.family
        ? `${fingerprint.tables.length} quantisation table(s) equal the ${fingerprint.family} at quality ${fingerprint.quality}.`
        : `${fingerprint.tables.length} quantisation table(s) match no standard software table (a camera's or another encoder's own); estimated IJG quality ${fingerprint.quality}.`,
      where,
    },
  ];
  const camera = cameraName(tags);
  if (fingerprint.family && camera !== '') {
    // Many phones encode with the IJG tables themselves, so on its own this is weak; a thumbnail still
    // carrying tables of the camera's own makes it strong: the camera wrote both, software re-encoded one.
    const cameraThumbnail = thumbnail !== null && thumbnail.tables.length > 0 && thumbnail.family === null;
    signals.push({
      code: 'jpeg_tables_not_camera',
      group: 'tampering',
      severity: cameraThumbnail ? 'medium' : 'low',
      title: 'Re-saved by software',
      found: cameraThumbnail
        ? `EXIF names the camera "${camera}" and its thumbnail keeps tables of the camera's own, but the image itself has the ${fingerprint.family} at quality ${fingerprint.quality}: the picture was encoded again by software after the camera saved it.`
        : `EXIF names the camera "${camera}", but the quantisation tables are the ${fingerprint.family} at quality ${fingerprint.quality}: either the camera uses these tables itself (many phones do) or software saved the picture again.`,
      where,
    });
  }
  return signals;
}

function endingSignals(bytes: Uint8Array, ending: JpegEnding | null, hasThumbnail: boolean): Signal[] {
  if (!ending) return [];
  if (ending.end === null) {
    const thumbnail = hasThumbnail ? ' The thumbnail was not compared with it.' : '';
    return [{ code: 'jpeg_truncated', group: 'structure', severity: 'low', title: 'JPEG cut short', found: `The JPEG data stops before its end-of-image marker: the file was cut short (an incomplete download or copy), and the missing part of the picture shows grey.${thumbnail}`, where: { byte_offset: bytes.length } }];
  }
  if (ending.trailing === 0) return [];
  return [
    {
      code: 'jpeg_trailing_data',
      group: 'structure',
      severity: 'info',
      title: 'Data after the picture',
      found: `${ending.trailing} bytes follow the JPEG's end-of-image marker: phones append motion-photo video, depth or gain maps there, and other tools hide data there.`,
      where: { byte_offset: ending.end },
    },
  ];
}

async function doubleCompressionSignals(bytes: Uint8Array, fingerprint: TableFingerprint): Promise<Signal[]> {
  const luminance = fingerprint.tables.find((table) => table.id === 0);
  if (!luminance) return [];
  const evidence = await doubleCompressionEvidence(bytes, luminance.values);
  if (evidence.valleys < minimumValleys || evidence.valleys / evidence.candidates < valleyShareLimit) return [];
  return [
    {
      code: 'jpeg_double_compression',
      group: 'tampering',
      severity: 'medium',
      title: 'Saved as JPEG more than once',
      found: `${evidence.valleys} of ${evidence.candidates} well-populated bins of the low-frequency DCT coefficient histograms are nearly empty between fuller neighbours, the comb a picture leaves when it was quantised at a coarser JPEG quality before this save.`,
      where: { byte_offset: luminance.offset, exif_tag: 'DQT' },
    },
  ];
}
