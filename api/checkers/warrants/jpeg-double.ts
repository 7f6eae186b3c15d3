import sharp from 'sharp';

/**
 * Double JPEG compression from the DCT coefficient histograms (Lukáš & Fridrich 2003; Popescu & Farid
 * 2004). Re-quantising coefficients that were already quantised with a coarser step leaves empty bins at a
 * regular period in the histogram of coefficient / step; a once-saved photo's histogram falls off smoothly.
 * The coefficients are recomputed from the decoded pixels (no kept library exposes the entropy-coded
 * coefficients), which lands within a fraction of a step of the stored ones.
 */

/** Low-frequency positions (row, column) in the 8×8 block: enough non-zero values even in plain pictures. */
const positions = [
  [0, 1],
  [1, 0],
  [1, 1],
  [0, 2],
  [2, 0],
  [1, 2],
  [2, 1],
  [2, 2],
  [0, 3],
  [3, 0],
] as const;
/** Histogram bins either side of zero. */
const reach = 16;
/** A bin counts as a candidate only when its neighbours are well populated, so sparse tails prove nothing. */
const neighbourFloor = 48;
/** Blocks read at most: a 24-megapixel photo has 375 000; every n-th block row is enough for the histograms. */
const blockBudget = 60_000;
/** A valley: a bin below this share of its neighbours' mean. */
const valleyShare = 0.35;

export interface DoubleCompressionEvidence {
  /** Bins looked at, and of those, bins nearly empty between populated neighbours. */
  candidates: number;
  valleys: number;
}

const cosines = Array.from({ length: 8 }, (_, u) => Array.from({ length: 8 }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / 16) * (u === 0 ? Math.SQRT1_2 : 1)));

/** Counts histogram valleys of the luminance coefficients at `positions`, each divided by its table step. */
export async function doubleCompressionEvidence(bytes: Uint8Array, luminanceTable: readonly number[]): Promise<DoubleCompressionEvidence> {
  const { data, info } = await sharp(bytes, { failOn: 'none' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const width = info.width;
  const blocksAcross = Math.floor(width / 8);
  const blocksDown = Math.floor(info.height / 8);
  const histograms = positions.map(() => new Array<number>(2 * reach + 1).fill(0));
  const luma = new Float64Array(64);
  const rowStep = Math.max(1, Math.ceil((blocksAcross * blocksDown) / blockBudget));
  for (let by = 0; by < blocksDown; by += rowStep) {
    for (let bx = 0; bx < blocksAcross; bx++) {
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const at = ((by * 8 + y) * width + bx * 8 + x) * info.channels;
          // JFIF luminance, level-shifted as the encoder does.
          luma[y * 8 + x] = 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]! - 128;
        }
      }
      positions.forEach(([v, u], index) => {
        let sum = 0;
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) sum += luma[y * 8 + x]! * cosines[v]![y]! * cosines[u]![x]!;
        const level = Math.round(sum / 4 / luminanceTable[v * 8 + u]!);
        if (Math.abs(level) <= reach) histograms[index]![level + reach]!++;
      });
    }
  }
  let candidates = 0;
  let valleys = 0;
  for (const histogram of histograms) {
    for (let bin = 1; bin < histogram.length - 1; bin++) {
      if (bin === reach) continue; // zero is always the tallest bin
      const neighbours = (histogram[bin - 1]! + histogram[bin + 1]!) / 2;
      if (neighbours < neighbourFloor) continue;
      candidates++;
      if (histogram[bin]! < neighbours * valleyShare) valleys++;
    }
  }
  return { candidates, valleys };
}
