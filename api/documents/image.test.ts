import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { normaliseImage, withoutRuledLines } from './image.ts';

/** A white 400x300 grey picture with `ink` painted black as [left, top, width, height] boxes. */
async function picture(ink: [number, number, number, number][]): Promise<Uint8Array> {
  const pixels = new Uint8Array(400 * 300).fill(255);
  for (const [left, top, width, height] of ink) for (let y = top; y < top + height; y++) pixels.fill(0, y * 400 + left, y * 400 + left + width);
  return new Uint8Array(await sharp(pixels, { raw: { width: 400, height: 300, channels: 1 } }).png().toBuffer());
}

async function inkAt(png: Uint8Array, x: number, y: number): Promise<boolean> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data[y * info.width + x]! < 128;
}

test('ruled lines are painted white for OCR; letter-sized strokes and solid shapes stay', async () => {
  // A table's rule (2 px, 300 long), a column rule (2 px, 200 tall), a letter's stroke (3x20) and a solid logo block (60x40).
  const png = await picture([[20, 50, 300, 2], [350, 60, 2, 200], [100, 100, 3, 20], [200, 200, 60, 40]]);
  const cleaned = await withoutRuledLines(png);
  assert.equal(await inkAt(cleaned, 150, 50), false, 'the horizontal rule is gone');
  assert.equal(await inkAt(cleaned, 350, 150), false, 'the vertical rule is gone');
  assert.equal(await inkAt(cleaned, 101, 110), true, 'a letter stroke stays');
  assert.equal(await inkAt(cleaned, 230, 220), true, 'the middle of a solid shape stays');
});

test('a small picture is enlarged for OCR only, and a large one is never enlarged', async () => {
  const small = await picture([]);
  const forOcr = await normaliseImage(small, { forOcr: true });
  assert.equal(Math.max(forOcr.width, forOcr.height), 1600);
  assert.equal(forOcr.scale, 4, 'boxes stay in points: four pixels a point once a 72 dpi picture is four times as large');
  const asIs = await normaliseImage(small);
  assert.deepEqual([asIs.width, asIs.height, asIs.scale], [400, 300, 1]);
});
