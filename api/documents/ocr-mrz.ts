import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, type Worker } from 'tesseract.js';

/**
 * A tesseract worker for the machine-readable zone of identity documents: the character-shape (legacy)
 * engine, restricted to the zone's alphabet, reading one cropped band as a block of lines.
 *
 * Why not the page reader's LSTM engine: on MRZ bands it reads the filler `<` as `K`, `L` or `<K`
 * (measured on the identity corpus: 1 of 77 zones exact, and most lines the wrong length), because its
 * English model has not seen runs of chevrons; the shape classifier reads fillers, and a field's type then
 * settles its O/0 and I/1 look-alikes (api/checkers/identity/mrz.ts). The legacy engine is only in the
 * full `4.0.0` English model of `@tesseract.js-data/eng` (the `best_int` one the page reader uses carries
 * LSTM alone), which ships with the package, so nothing is downloaded.
 */
const legacyModelFolder = join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0');
/** OEM 0 = the legacy (character-shape) engine. */
const legacyOnly = 0;
export const MRZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

/** A band of lines, or one line cropped from it. */
export type BandLayout = 'block' | 'line';

/** One line tesseract read in a band, in the band's pixels. */
export interface BandLine {
  text: string;
  /** Mean symbol confidence, 0..100. */
  confidence: number;
  top: number;
  bottom: number;
}

export interface MrzOcrReader {
  /**
   * Reads a PNG of the zone's band (already cropped, scaled and upright) as a block of lines, or a PNG of one
   * of its lines as a single line (page segmentation mode 7: no line finding to go wrong on a tight crop).
   */
  readBand(png: Uint8Array, layout?: BandLayout): Promise<BandLine[]>;
  close(): Promise<void>;
}

/** Starts the MRZ worker on the bundled model (no network); the caller closes it. */
export async function openMrzOcrReader(): Promise<MrzOcrReader> {
  // No dictionaries: a zone is no language, and word lists only pull its letters towards English words.
  const worker = await createWorker('eng', legacyOnly, { langPath: legacyModelFolder, gzip: true, cacheMethod: 'none' }, { load_system_dawg: '0', load_freq_dawg: '0' });
  // PSM 6: one uniform block of text, which a cropped band is. No adaptive learning: the legacy engine
  // otherwise trains on each band it reads, and a zone would read differently after other documents than
  // alone (an invoice's reference lines were read as a zone only after sixty specimens had been read).
  await worker.setParameters({ tessedit_char_whitelist: MRZ_ALPHABET, tessedit_pageseg_mode: '6' as never, classify_enable_learning: '0' });
  return {
    readBand: (png, layout = 'block') => readBand(worker, png, layout),
    close: async () => {
      await worker.terminate();
    },
  };
}

async function readBand(worker: Worker, png: Uint8Array, layout: BandLayout): Promise<BandLine[]> {
  // Parameters given with a recognition are restored after it (tesseract.js), so the block setting stands for the next band.
  const options = layout === 'line' ? ({ tessedit_pageseg_mode: '7' } as never) : {};
  const { data } = await worker.recognize(Buffer.from(png.buffer, png.byteOffset, png.byteLength), options, { blocks: true, text: false });
  const lines: BandLine[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.words.map((word) => word.text).join('').replace(/[^A-Z0-9<]/g, '');
        if (text !== '') lines.push({ text, confidence: line.confidence, top: line.bbox.y0, bottom: line.bbox.y1 });
      }
    }
  }
  return lines;
}

/** One MRZ worker per analysis, started only when a page first shows a zone, like the page reader's session. */
export interface MrzOcrSession {
  reader(): Promise<MrzOcrReader>;
  close(): Promise<void>;
}

export function openMrzOcrSession(start: () => Promise<MrzOcrReader> = openMrzOcrReader): MrzOcrSession {
  let opened: Promise<MrzOcrReader> | null = null;
  return {
    reader: () => (opened ??= start()),
    close: async () => {
      const reader = await opened?.catch(() => null);
      await reader?.close();
    },
  };
}
