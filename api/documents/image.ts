import sharp from 'sharp';
import { refusalOfImageError } from './guard.ts';
import { IMAGE_PIXEL_LIMIT } from './limits.ts';

/** Longest side handed to OCR: beyond this tesseract gains nothing and slows down. */
const maxReadingSide = 4_000;
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
 * upright by its EXIF orientation, lays any transparency on white, shrinks it to `maxReadingSide` and re-encodes it as PNG. An image
 * over the pixel limit (a 25 MB PNG can declare billions) is refused before its pixels are decoded
 * (DocumentRefused, guard.ts); other bytes sharp cannot decode throw sharp's error, which callers turn into a reason.
 */
export async function normaliseImage(bytes: Uint8Array): Promise<NormalisedImage> {
  // failOn 'error' reads a slightly damaged scan (a truncated tail still gives most of the page).
  const input = sharp(bytes, { limitInputPixels: IMAGE_PIXEL_LIMIT, failOn: 'error', autoOrient: true });
  const metadata = await input.metadata();
  const { data, info } = await input
    // Transparency on white: tesseract reads a PNG's alpha as black, so a card cut out on a transparent
    // background read as nothing at all (a green card, an insurance card and a payment card of the identity corpus).
    .flatten({ background: '#ffffff' })
    .resize({ width: maxReadingSide, height: maxReadingSide, fit: 'inside', withoutEnlargement: true })
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
