import exifr from 'exifr';
import { z } from 'zod';

/**
 * The EXIF and XMP tags the image signals read, parsed by exifr and checked with zod: a field of an
 * unexpected type (exifr returns numbers, arrays or bytes for malformed tags) becomes absent rather than
 * failing the inspection.
 */
const text = z.string().trim().min(1).optional().catch(undefined);
const integer = z.number().int().nonnegative().optional().catch(undefined);

const historyEvent = z.object({ action: text, softwareAgent: text, when: text, changed: text }).catch({ action: undefined, softwareAgent: undefined, when: undefined, changed: undefined });

const parsedTags = z.object({
  ifd0: z.object({ Make: text, Model: text, Software: text, ModifyDate: text, Orientation: integer }).optional().catch(undefined),
  exif: z
    .object({ DateTimeOriginal: text, CreateDate: text, ExifImageWidth: integer, ExifImageHeight: integer })
    .optional()
    .catch(undefined),
  ifd1: z.object({ ThumbnailOffset: integer, ThumbnailLength: integer }).optional().catch(undefined),
  xmp: z.object({ CreatorTool: text, CreateDate: text, ModifyDate: text, MetadataDate: text }).optional().catch(undefined),
  xmpMM: z
    .object({ History: z.union([z.array(historyEvent), historyEvent.transform((event) => [event])]).optional().catch(undefined) })
    .optional()
    .catch(undefined),
  photoshop: z
    .object({ History: z.union([z.string(), z.array(z.string())]).optional().catch(undefined), DateCreated: text })
    .optional()
    .catch(undefined),
});

export type ImageTags = z.infer<typeof parsedTags>;
export type HistoryEvent = z.infer<typeof historyEvent>;

/** What exifr could read: the tags, the thumbnail's bytes, and whether the metadata itself was unreadable. */
export interface ImageMetadata {
  tags: ImageTags;
  thumbnail: Uint8Array | null;
  /** exifr's error when a metadata segment exists but could not be parsed; null when it parsed or there was none. */
  failure: string | null;
}

/** exifr reads EXIF/XMP from JPEG, TIFF, PNG and HEIC; other formats carry no metadata it can read. */
const formatsWithMetadata = new Set(['image/jpeg', 'image/tiff', 'image/png', 'image/heic', 'image/avif']);

export async function readImageMetadata(bytes: Uint8Array, mime: string): Promise<ImageMetadata> {
  if (!formatsWithMetadata.has(mime)) return { tags: {}, thumbnail: null, failure: null };
  try {
    // Raw values: EXIF dates carry no zone, and exifr's revived Date objects would read them in the host's zone.
    const raw: unknown = await exifr.parse(bytes, { tiff: true, exif: true, ifd1: true, xmp: true, gps: false, interop: false, mergeOutput: false, reviveValues: false, translateValues: false });
    const thumbnail = mime === 'image/jpeg' ? ((await exifr.thumbnail(bytes)) ?? null) : null;
    return { tags: parsedTags.parse(raw ?? {}), thumbnail: thumbnail ? new Uint8Array(thumbnail) : null, failure: null };
  } catch (error) {
    return { tags: {}, thumbnail: null, failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A date tag as the clock reading it states, in minutes since the epoch read as if it were UTC: EXIF dates
 * ("2024:01:02 10:11:12") carry no zone, XMP dates usually do, and a camera writes the same local clock
 * reading into both, so comparing readings (offset dropped) compares like with like.
 */
export function clockReading(value: string | undefined): number | null {
  if (!value) return null;
  const match = /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = match;
  const time = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(time) || Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return null;
  return time / 60_000;
}
