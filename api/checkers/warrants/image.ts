import sharp from 'sharp';
import type { AnalysisContext } from '../types.ts';
import { compareThumbnail } from './image-compare.ts';
import { clockReading, readImageMetadata, type ImageMetadata, type ImageTags } from './image-metadata.ts';
import { fingerprintTables, readQuantisationTables, type TableFingerprint } from './jpeg-tables.ts';
import type { Signal } from './signal.ts';

/**
 * Image editors whose name in EXIF `Software` or XMP `CreatorTool` says the picture went through one
 * (Inscribe's "Software" signal; checkers-research §1.3). Converters and camera firmware are reported as
 * information only.
 */
const editorPattern =
  /photoshop|lightroom|\bgimp\b|snapseed|pixelmator|affinity photo|paint\.net|picsart|canva|fotor|pixlr|facetune|photopea|paintshop|photoscape|luminar|krita|befunky|inpixio|adobe express|photo ?director|corel/i;

/** One minute: cameras write DateTime and DateTimeOriginal in the same second; anything wider is a later save. */
const sameMomentMinutes = 1;
/** EXIF dates carry no zone: a date counts as future only beyond the widest zone offset plus a day of slack. */
const futureSlackMinutes = 38 * 60;
/** Thumbnail against image: shapes more than 5% apart, or grey squares differing by more than this mean. */
const aspectTolerance = 0.05;
const thumbnailDifferenceLimit = 12;

export async function imageSignals(bytes: Uint8Array, mime: string, context: AnalysisContext): Promise<{ signals: Signal[]; readable: boolean; note: string | null }> {
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    width = meta.width;
    height = meta.height;
    // metadata() reads headers only: decode a small rendition to prove the pixels are readable too.
    await sharp(bytes).resize(8, 8, { fit: 'fill' }).raw().toBuffer();
  } catch (error) {
    return { signals: [], readable: false, note: `The image could not be decoded (${error instanceof Error ? error.message : String(error)}).` };
  }
  const metadata = await readImageMetadata(bytes, mime);
  const signals: Signal[] = [
    ...softwareSignals(metadata.tags),
    ...dateSignals(metadata.tags, context.now),
    ...dimensionSignals(metadata.tags, width, height),
    ...historySignals(metadata.tags),
    ...(await thumbnailSignals(bytes, metadata)),
  ];
  if (metadata.failure) {
    signals.push({ code: 'image_metadata_unreadable', group: 'structure', severity: 'low', title: 'Metadata could not be read', found: `The image's EXIF/XMP metadata is present but could not be parsed: ${metadata.failure}.`, where: {} });
  }
  if (mime === 'image/jpeg') signals.push(...quantisationSignals(fingerprintTables(readQuantisationTables(bytes)), metadata.tags));
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
  const note = ['image/webp', 'image/bmp', 'image/gif'].includes(mime) ? `A ${mime} file carries no EXIF that could be read here; only the pixels were checked.` : null;
  return { signals, readable: true, note };
}

function softwareSignals(tags: ImageTags): Signal[] {
  const named: { tag: string; value: string }[] = [];
  if (tags.ifd0?.Software) named.push({ tag: 'Software', value: tags.ifd0.Software });
  if (tags.xmp?.CreatorTool) named.push({ tag: 'xmp:CreatorTool', value: tags.xmp.CreatorTool });
  const signals: Signal[] = [];
  for (const { tag, value } of named) {
    if (editorPattern.test(value)) {
      signals.push({ code: 'image_editor_software', group: 'tampering', severity: 'medium', title: 'Saved by an image editor', found: `${tag} names an image editor: "${value}".`, where: { exif_tag: tag } });
    } else {
      signals.push({ code: 'image_software', group: 'metadata', severity: 'info', title: 'Software named in metadata', found: `${tag} is "${value}" (camera firmware or a converter, not a known editor).`, where: { exif_tag: tag } });
    }
  }
  return signals;
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
    return minutes === null || value === undefined ? [] : [{ tag, value, minutes }];
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
      if (other && Math.abs(other.minutes - original.minutes) > sameMomentMinutes) {
        signals.push({ code: 'image_dates_inconsistent', group: 'tampering', severity: 'medium', title: 'Capture dates disagree', found: `${tag} is ${other.value} but DateTimeOriginal is ${original.value}: one capture cannot have two times.`, where: { exif_tag: tag } });
      }
    }
    for (const tag of ['ModifyDate', 'xmp:ModifyDate']) {
      const modified = byTag.get(tag);
      if (!modified) continue;
      if (modified.minutes < original.minutes - sameMomentMinutes) {
        signals.push({ code: 'image_dates_inconsistent', group: 'tampering', severity: 'medium', title: 'Modified before it was taken', found: `${tag} is ${modified.value}, earlier than DateTimeOriginal ${original.value}.`, where: { exif_tag: tag } });
      } else if (modified.minutes > original.minutes + sameMomentMinutes) {
        signals.push({ code: 'image_modified_after_capture', group: 'tampering', severity: 'low', title: 'Saved again after capture', found: `${tag} is ${modified.value}, later than DateTimeOriginal ${original.value}: the file was saved again after the photo was taken.`, where: { exif_tag: tag } });
      }
    }
  }
  return signals;
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
  const aspectGap = Math.abs(difference.thumbnailAspect / difference.imageAspect - 1);
  if (aspectGap <= aspectTolerance && difference.meanDifference <= thumbnailDifferenceLimit) return [];
  const why =
    aspectGap > aspectTolerance
      ? `its shape is ${difference.thumbnailAspect.toFixed(2)}:1 against the image's ${difference.imageAspect.toFixed(2)}:1`
      : `reduced to ${24}×${24} grey, the two differ by ${difference.meanDifference.toFixed(1)} grey levels on average (more than ${thumbnailDifferenceLimit})`;
  return [{ code: 'image_thumbnail_mismatch', group: 'tampering', severity: 'high', title: 'Thumbnail differs from the image', found: `The embedded EXIF thumbnail does not show this image: ${why}. The picture was changed after the thumbnail was made.`, where }];
}

function quantisationSignals(fingerprint: TableFingerprint, tags: ImageTags): Signal[] {
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
  const camera = [tags.ifd0?.Make, tags.ifd0?.Model].filter(Boolean).join(' ');
  if (fingerprint.family && camera !== '') {
    signals.push({
      code: 'jpeg_tables_not_camera',
      group: 'tampering',
      severity: 'medium',
      title: 'Re-saved by software',
      found: `EXIF names the camera "${camera}", but the quantisation tables are the ${fingerprint.family} at quality ${fingerprint.quality}, which software writes when it saves a picture again: the file is not the camera's original encoding.`,
      where,
    });
  }
  return signals;
}
