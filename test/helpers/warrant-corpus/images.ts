import sharp from 'sharp';
import type { ExifFields } from './exif.ts';
import { between, pick, type Random } from './random.ts';
import { seededRandom } from '../seeded-random.ts';

/**
 * Clean photos and scans for the warrant corpus. Pixels are computed here (no resampling by sharp, whose
 * SIMD paths may round differently on another machine) and sharp only encodes them, so the files rebuild
 * byte for byte. A "camera" JPEG uses mozjpeg's table 8 (Peterson et al.) as the stand-in for a camera's
 * own quantisation tables: no kept encoder writes arbitrary tables, and table 8 is neither the IJG nor the
 * mozjpeg default that software re-saves carry.
 */

export interface RawPicture {
  width: number;
  height: number;
  /** RGB, row-major. */
  data: Uint8Array;
}

export interface CameraShot {
  id: string;
  picture: RawPicture;
  quality: number;
  /** The camera's JPEG without metadata, its thumbnail, and the EXIF the camera wrote. */
  jpeg: Uint8Array;
  thumbnail: Uint8Array;
  exif: ExifFields;
}

const cameras = [
  { make: 'Apple', model: 'iPhone 13', software: '17.1.2' },
  { make: 'samsung', model: 'SM-G991B', software: 'G991BXXU9FXB1' },
  { make: 'Canon', model: 'Canon EOS 80D', software: 'Firmware Version 1.0.3' },
  { make: 'Google', model: 'Pixel 7', software: 'HDR+ 1.0.529175803zd' },
  { make: 'FUJIFILM', model: 'X-T30', software: 'Digital Camera X-T30 Ver2.00' },
] as const;

const palette: [number, number, number][] = [
  [222, 214, 196],
  [58, 76, 104],
  [190, 120, 80],
  [96, 140, 92],
  [240, 240, 236],
  [120, 110, 100],
];

/** Gaussian-ish noise from four uniforms: grain like a phone sensor's. */
const grain = (random: Random): number => (random() + random() + random() + random() - 2) * 10;

/** A scene: a gradient background, a paper rectangle with lines of "print", a few shapes, sensor grain, a light blur. */
export function scene(random: Random, width: number, height: number): RawPicture {
  const data = new Uint8Array(width * height * 3);
  const [from, to] = [pick(random, palette), pick(random, palette)];
  const paper = { x: between(random, 20, width / 3), y: between(random, 20, height / 4), w: between(random, width / 3, width / 2), h: between(random, height / 2, (height * 3) / 4) };
  const discs = Array.from({ length: between(random, 1, 3) }, () => ({ x: between(random, 0, width), y: between(random, 0, height), r: between(random, 15, 70), colour: pick(random, palette) }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / (width + height);
      let colour = [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
      for (const disc of discs) if ((x - disc.x) ** 2 + (y - disc.y) ** 2 < disc.r ** 2) colour = [...disc.colour];
      if (x >= paper.x && x < paper.x + paper.w && y >= paper.y && y < paper.y + paper.h) {
        const line = (y - paper.y) % 14;
        const inked = line > 8 && line < 12 && x > paper.x + 12 && x < paper.x + paper.w - 12 - ((y * 7) % 40);
        colour = inked ? [50, 50, 55] : [246, 244, 238];
      }
      const at = (y * width + x) * 3;
      const noise = grain(random);
      for (let channel = 0; channel < 3; channel++) data[at + channel] = Math.max(0, Math.min(255, Math.round(colour[channel]! + noise)));
    }
  }
  return blur({ width, height, data });
}

/** 3×3 box blur: a lens is never as sharp as the drawing. */
function blur(picture: RawPicture): RawPicture {
  const { width, height, data } = picture;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let channel = 0; channel < 3; channel++) {
        let sum = 0;
        let count = 0;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const sx = x + dx;
            const sy = y + dy;
            if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
            sum += data[(sy * width + sx) * 3 + channel]!;
            count++;
          }
        }
        out[(y * width + x) * 3 + channel] = Math.round(sum / count);
      }
    }
  }
  return { width, height, data: out };
}

/** Box-filter reduction to fit inside `width`×`height`, keeping the shape. */
export function shrink(picture: RawPicture, width: number, height: number): RawPicture {
  const scale = Math.max(picture.width / width, picture.height / height);
  const w = Math.round(picture.width / scale);
  const h = Math.round(picture.height / scale);
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * scale);
      const y0 = Math.floor(y * scale);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * scale));
      const y1 = Math.max(y0 + 1, Math.floor((y + 1) * scale));
      for (let channel = 0; channel < 3; channel++) {
        let sum = 0;
        for (let sy = y0; sy < y1; sy++) for (let sx = x0; sx < x1; sx++) sum += picture.data[(sy * picture.width + sx) * 3 + channel]!;
        data[(y * w + x) * 3 + channel] = Math.round(sum / ((x1 - x0) * (y1 - y0)));
      }
    }
  }
  return { width: w, height: h, data };
}

export function crop(picture: RawPicture, left: number, top: number, width: number, height: number): RawPicture {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(picture.data.subarray(((top + y) * picture.width + left) * 3, ((top + y) * picture.width + left + width) * 3), y * width * 3);
  return { width, height, data };
}

/** A filled rectangle painted over part of the picture: an object removed or a figure covered. */
export function paint(picture: RawPicture, left: number, top: number, width: number, height: number, colour: [number, number, number]): RawPicture {
  const data = new Uint8Array(picture.data);
  for (let y = top; y < top + height; y++) for (let x = left; x < left + width; x++) data.set(colour, (y * picture.width + x) * 3);
  return { ...picture, data };
}

export async function encodeJpeg(picture: RawPicture, options: { quality: number; quantisationTable?: number }): Promise<Uint8Array> {
  const raw = { width: picture.width, height: picture.height, channels: 3 as const };
  return new Uint8Array(await sharp(picture.data, { raw }).jpeg({ quality: options.quality, quantisationTable: options.quantisationTable ?? 0 }).toBuffer());
}

/** Pixels as decoded from a JPEG (what an editor starts from when it opens the file). */
export async function decodeJpeg(jpeg: Uint8Array): Promise<RawPicture> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

const exifDate = (instant: number): string => new Date(instant).toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');

export async function cameraShot(index: number): Promise<CameraShot> {
  const random = seededRandom(9000 + index);
  const camera = cameras[index % cameras.length]!;
  const landscape = random() < 0.7;
  const picture = scene(random, landscape ? 400 : 300, landscape ? 300 : 400);
  const quality = between(random, 78, 86);
  const jpeg = await encodeJpeg(picture, { quality, quantisationTable: 8 });
  const thumbnail = await encodeJpeg(shrink(picture, 160, 120), { quality: 70, quantisationTable: 8 });
  const taken = exifDate(Date.UTC(2024, 0, 1) + between(random, 0, 600) * 86_400_000 + between(random, 7, 18) * 3_600_000 + between(random, 0, 3599) * 1000);
  const exif: ExifFields = { make: camera.make, model: camera.model, software: camera.software, modifyDate: taken, dateTimeOriginal: taken, dateTimeDigitized: taken, pixelWidth: picture.width, pixelHeight: picture.height, thumbnail };
  return { id: `photo-${camera.make.toLowerCase()}-${String(index).padStart(2, '0')}`, picture, quality, jpeg, thumbnail, exif };
}

/** A scanned page as a greyscale PNG without metadata (a flatbed scanner's or a screenshot's output). */
export async function scannedPage(index: number): Promise<{ id: string; png: Uint8Array }> {
  const random = seededRandom(9500 + index);
  const width = 300;
  const height = 400;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const line = y % 12;
      const inked = y > 30 && y < height - 40 && line > 6 && line < 10 && x > 24 && x < width - 24 - ((y * 13) % 90);
      data[y * width + x] = Math.max(0, Math.min(255, (inked ? 40 : 244) + Math.round((random() - 0.5) * 10)));
    }
  }
  // Stored (level 0) deflate: the same bytes whichever zlib build or CPU compresses it.
  const png = await sharp(data, { raw: { width, height, channels: 1 } }).png({ compressionLevel: 0 }).toBuffer();
  return { id: `scan-${String(index).padStart(2, '0')}`, png: new Uint8Array(png) };
}

export { exifDate };
