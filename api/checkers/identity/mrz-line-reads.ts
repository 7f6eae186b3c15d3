import sharp from 'sharp';
import { MRZ_ALPHABET, type BandLine } from '../../documents/ocr-mrz.ts';
import { bestAlignment } from './mrz-merge.ts';
import type { OcrSession } from '../../documents/ocr.ts';
import type { MrzOcrSession } from '../../documents/ocr-mrz.ts';
import type { LineReading } from './mrz-vote.ts';
import type { ParsedMrz } from './mrz.ts';

/**
 * Each line of a read zone cropped from its band and read again on its own, as one line (page segmentation
 * mode 7, the zone's alphabet only), under several preparations, for the vote of mrz-vote.ts. A band read as a
 * block can lose a line's characters to its neighbour's; a line read alone cannot, and each preparation
 * (as read, enlarged and binarised, sharpened) misreads other characters, so where they agree is what is printed.
 */

/** The two OCR sessions a zone is read with: the shape reader (legacy engine) and the line reader (LSTM). */
export interface MrzReaders {
  shapes: MrzOcrSession;
  lines: OcrSession;
}

/** How a cropped line is prepared before it is read again. */
interface LinePreparation {
  enlarge: number;
  binarise: boolean;
  sharpen: boolean;
}

const LINE_PREPARATIONS: readonly LinePreparation[] = [
  { enlarge: 1, binarise: false, sharpen: false },
  { enlarge: 1.5, binarise: true, sharpen: false },
  { enlarge: 1.25, binarise: false, sharpen: true },
];

/** Rows above and below a line's box kept in its crop, as a share of its height: OCR-B capitals fill the box. */
const LINE_MARGIN = 0.45;

/**
 * The readings of each zone line: `band` is the prepared band the zone was read from and `bandLines` what the
 * shape reader found in it, whose boxes say where each zone line is.
 */
export async function readZoneLines(band: Uint8Array, bandLines: readonly BandLine[], zone: ParsedMrz, readers: MrzReaders): Promise<LineReading[]> {
  const { width = 0, height = 0 } = await sharp(band).metadata();
  const shapes = await readers.shapes.reader();
  const lines = await readers.lines.reader();
  const readings: LineReading[] = [];
  for (const [index, zoneLine] of zone.lines.entries()) {
    const found = bestAlignment(zoneLine, bandLines.map((line) => line.text.replace(/[«‹]/g, '<')));
    const box = found === null ? undefined : bandLines.find((line) => line.text.replace(/[«‹]/g, '<') === found.read);
    if (box === undefined) continue;
    const margin = (box.bottom - box.top) * LINE_MARGIN;
    const top = Math.max(0, Math.floor(box.top - margin));
    const bottom = Math.min(height, Math.ceil(box.bottom + margin));
    if (bottom - top < 8 || width < 8) continue;
    for (const [order, preparation] of LINE_PREPARATIONS.entries()) {
      let image = sharp(band).extract({ left: 0, top, width, height: bottom - top });
      if (preparation.enlarge !== 1) image = image.resize({ width: Math.round(width * preparation.enlarge), kernel: 'lanczos3' });
      if (preparation.sharpen) image = image.normalise().sharpen({ sigma: 1.2 });
      if (preparation.binarise) image = image.normalise().threshold(128);
      const png = new Uint8Array(await image.png().toBuffer());
      // The line reader under every preparation: on a line cropped alone it reads fillers as well as letters (measured
      // on the corpus's misses, where the shape reader read alone picks up the neighbouring lines' strokes); the shape
      // reader once, on the crop as read.
      for (const text of await lines.readLines(png, MRZ_ALPHABET, 'line')) readings.push({ line: index, text: text.toUpperCase(), reader: 'lines' });
      if (order === 0) for (const read of await shapes.readBand(png, 'line')) readings.push({ line: index, text: read.text, reader: 'shapes' });
    }
  }
  return readings;
}
