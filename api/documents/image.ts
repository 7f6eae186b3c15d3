import sharp from 'sharp';
import { refusalOfImageError } from './guard.ts';
import { IMAGE_PIXEL_LIMIT } from './limits.ts';

/** Longest side handed to OCR: beyond this tesseract gains nothing and slows down. */
const maxReadingSide = 4_000;
/**
 * Shortest long side an image is read at: a small picture (a 540-pixel GIF of a sample tax invoice, a
 * web-sized screenshot) prints its text a few pixels high, too small for tesseract, which misreads its
 * ruled tables as rows of noise. Such an image is enlarged to this long side before OCR.
 */
const minReadingSide = 1_600;
/** What sharp assumes when an image states no resolution; 72 makes one pixel one point. */
const defaultDensity = 72;

/** An image ready to read: upright, first frame only, PNG. */
export interface NormalisedImage {
  png: Uint8Array;
  width: number;
  height: number;
  /** Pixels per PDF point, so OCR boxes can be given in points (1 when the image states no resolution). */
  scale: number;
}

/**
 * Decodes any image sharp reads (PNG, JPEG, WebP, GIF, TIFF, AVIF; the first frame or page), turns it
 * upright by its EXIF orientation, lays any transparency on white, shrinks it to `maxReadingSide` (or, with `forOcr`, enlarges
 * a small one to `minReadingSide`) and re-encodes it as PNG. An image
 * over the pixel limit (a 25 MB PNG can declare billions) is refused before its pixels are decoded
 * (DocumentRefused, guard.ts); other bytes sharp cannot decode throw sharp's error, which callers turn into a reason.
 */
export async function normaliseImage(bytes: Uint8Array, { forOcr = false }: { forOcr?: boolean } = {}): Promise<NormalisedImage> {
  // failOn 'error' reads a slightly damaged scan (a truncated tail still gives most of the page).
  const input = sharp(bytes, { limitInputPixels: IMAGE_PIXEL_LIMIT, failOn: 'error', autoOrient: true });
  const metadata = await input.metadata();
  const longSide = Math.max(metadata.autoOrient?.width ?? metadata.width ?? 0, metadata.autoOrient?.height ?? metadata.height ?? 0);
  const readingSide = forOcr && longSide > 0 && longSide < minReadingSide ? minReadingSide : maxReadingSide;
  const { data, info } = await input
    // Transparency on white: tesseract reads a PNG's alpha as black, so a card cut out on a transparent
    // background read as nothing at all (a green card, an insurance card and a payment card of the identity corpus).
    .flatten({ background: '#ffffff' })
    .resize({ width: readingSide, height: readingSide, fit: 'inside', withoutEnlargement: readingSide === maxReadingSide })
    .png({ compressionLevel: 1 })
    .toBuffer({ resolveWithObject: true })
    .catch((error: unknown) => {
      throw refusalOfImageError(error);
    });
  const uprightWidth = metadata.autoOrient?.width ?? metadata.width;
  const shrink = uprightWidth ? info.width / uprightWidth : 1;
  const density = metadata.density && metadata.density > 0 ? metadata.density : defaultDensity;
  return { png: new Uint8Array(data), width: info.width, height: info.height, scale: (density / 72) * shrink };
}

/** A pixel darker than this (0..255 grey) counts as ink when looking for ruled lines. */
const inkLevel = 128;
/** A straight run of ink at least this share of the image's width (rows) or height (columns) is a rule, not a letter stroke. */
const ruleShare = { row: 1 / 12, column: 1 / 24 };
/** A rule is thin: a run with ink this many pixels to one side of it is part of a solid shape (a logo, a bold bar), not a rule. */
const ruleThickness = 12;

/**
 * The picture with its ruled lines painted white, for OCR only: tesseract takes the grid of a ruled table
 * (the cells of a printed tax invoice) for letters and reads each row as noise ("I A AN NN"), losing the
 * amounts in it. A rule is a straight run of ink far longer than any letter's stroke (`ruleShare`); letters,
 * even bold ones, are left as they are. Grey PNG out (the picture itself when it has no rule); boxes keep their pixel positions.
 */
export async function withoutRuledLines(png: Uint8Array): Promise<Uint8Array> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const pixels = new Uint8Array(data.buffer, data.byteOffset, width * height);
  const rules = new Uint8Array(width * height);
  markRuns(pixels, rules, height, width, 1, width, Math.max(24, Math.round(width * ruleShare.row)));
  markRuns(pixels, rules, width, height, width, 1, Math.max(24, Math.round(height * ruleShare.column)));
  // A picture without rules goes to OCR as it came: every change of its pixels changes what tesseract reads.
  if (!rules.includes(1)) return png;
  for (let i = 0; i < pixels.length; i++) if (rules[i]) pixels[i] = 255;
  const out = await sharp(pixels, { raw: { width, height, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
  return new Uint8Array(out);
}

/** Marks every run of ink at least `minimum` long along `lines` lines of `length` pixels (step `along` within a line, `across` between lines). */
function markRuns(pixels: Uint8Array, marks: Uint8Array, lines: number, length: number, along: number, across: number, minimum: number): void {
  for (let line = 0; line < lines; line++) {
    let start = -1;
    for (let i = 0; i <= length; i++) {
      const ink = i < length && pixels[line * across + i * along]! < inkLevel;
      if (ink && start === -1) start = i;
      if (!ink && start !== -1) {
        if (i - start >= minimum && thin(pixels, line, lines, start, i, along, across)) for (let j = start; j < i; j++) marks[line * across + j * along] = 1;
        start = -1;
      }
    }
  }
}

/** Whether the run from `start` to `end` on `line` has mostly no ink `ruleThickness` lines away on both sides. */
function thin(pixels: Uint8Array, line: number, lines: number, start: number, end: number, along: number, across: number): boolean {
  const inkShare = (other: number) => {
    if (other < 0 || other >= lines) return 0;
    let ink = 0;
    for (let j = start; j < end; j++) if (pixels[other * across + j * along]! < inkLevel) ink++;
    return ink / (end - start);
  };
  return inkShare(line - ruleThickness) < 0.5 && inkShare(line + ruleThickness) < 0.5;
}
