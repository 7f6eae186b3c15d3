import exifr from 'exifr';
import sharp from 'sharp';
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
  ifd0: z.object({ Make: text, Model: text, Software: text, ProcessingSoftware: text, ModifyDate: text, Orientation: integer }).optional().catch(undefined),
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

/** A PNG text chunk (tEXt, zTXt or iTXt) as sharp reads it, with where its keyword starts in the file. */
export interface PngText {
  keyword: string;
  text: string;
  byteOffset: number | null;
}

/** What could be read: the tags, PNG text, the thumbnail's bytes, and whether the metadata itself was unreadable. */
export interface ImageMetadata {
  tags: ImageTags;
  pngText: PngText[];
  thumbnail: Uint8Array | null;
  /** exifr's error when a metadata segment exists but could not be parsed; null when it parsed or there was none. */
  failure: string | null;
}

/** exifr reads EXIF/XMP from JPEG, TIFF, PNG and HEIC itself; from WebP it reads what sharp finds in the RIFF chunks. */
const formatsWithMetadata = new Set(['image/jpeg', 'image/tiff', 'image/png', 'image/heic', 'image/avif', 'image/webp']);

// Raw values: EXIF dates carry no zone, and exifr's revived Date objects would read them in the host's zone.
const exifrOptions = { tiff: true, exif: true, ifd1: true, xmp: true, gps: false, interop: false, mergeOutput: false, reviveValues: false, translateValues: false } as const;

export async function readImageMetadata(bytes: Uint8Array, mime: string): Promise<ImageMetadata> {
  if (!formatsWithMetadata.has(mime)) return { tags: {}, pngText: [], thumbnail: null, failure: null };
  const pngText = mime === 'image/png' ? await readPngText(bytes) : [];
  try {
    const raw: unknown = mime === 'image/webp' ? await readWebpTags(bytes) : await exifr.parse(bytes, exifrOptions);
    const thumbnail = mime === 'image/jpeg' ? ((await exifr.thumbnail(bytes)) ?? null) : null;
    return { tags: parsedTags.parse(withCurrentXmpPrefix(raw)), pngText, thumbnail: thumbnail ? new Uint8Array(thumbnail) : null, failure: null };
  } catch (error) {
    return { tags: {}, pngText, thumbnail: null, failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * exifr cannot open WebP, but sharp (libvips) hands over the RIFF file's EXIF and XMP chunks: the EXIF chunk
 * is a TIFF structure (some writers prefix "Exif\0\0"), which exifr parses as a TIFF file, and the XMP chunk is
 * a packet, which exifr parses as a sidecar. XMP's tiff: and exif: properties fill what the EXIF chunk lacks,
 * as exifr does inside a JPEG.
 */
async function readWebpTags(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const { exif, xmp } = await sharp(bytes, { failOn: 'none' }).metadata();
  const fromXmp = asRecord(xmp ? await exifr.sidecar(xmp, exifrOptions, 'xmp') : undefined);
  const tiffStart = exif && exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const fromExif = asRecord(exif ? await exifr.parse(exif.subarray(tiffStart), exifrOptions) : undefined);
  const { tiff: xmpTiff, exif: xmpExif, ...xmpRest } = fromXmp;
  return { ...xmpRest, ...fromExif, ifd0: { ...asRecord(xmpTiff), ...asRecord(fromExif['ifd0']) }, exif: { ...asRecord(xmpExif), ...asRecord(fromExif['exif']) } };
}

/** Old XMP writers use the prefix "xap" for the xmp namespace (XMP 1.0 drafts); exifr keeps the prefix as written. */
function withCurrentXmpPrefix(raw: unknown): Record<string, unknown> {
  const tags = asRecord(raw);
  if (tags['xap'] === undefined) return tags;
  const { xap, ...rest } = tags;
  return { ...rest, xmp: { ...asRecord(xap), ...asRecord(tags['xmp']) } };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** PNG text chunks as sharp reads them; each keyword is found again in the bytes so a signal can point at it. */
async function readPngText(bytes: Uint8Array): Promise<PngText[]> {
  const comments = (await sharp(bytes, { failOn: 'none' }).metadata().catch(() => ({ comments: undefined }))).comments ?? [];
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return comments.map(({ keyword, text }) => {
    const offset = file.indexOf(`${keyword}\0`, 8, 'latin1');
    return { keyword, text, byteOffset: offset >= 0 ? offset : null };
  });
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
