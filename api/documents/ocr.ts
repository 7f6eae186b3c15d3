import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createWorker, type Line as OcrLine, type Word as OcrWord, type Worker } from 'tesseract.js';
import { readingOrder } from './pdf.ts';
import type { PageText, TextItem } from './types.ts';

/**
 * The English model ships inside `@tesseract.js-data/eng`; pointing tesseract.js at that folder keeps OCR
 * offline (it would otherwise download the model from a CDN on first use).
 */
const englishModelFolder = join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
/** OEM 1 = the LSTM engine, the only one the `best_int` model carries. */
const lstmOnly = 1;

/**
 * A word tesseract is less sure of than this (0..100) is left out when it has no letter or digit: such a
 * word is speckle. A low-confidence word with letters or digits is kept, since the LSTM engine often scores
 * a correctly read word 0 (a name missing from its dictionary, a lone digit, an amount at a line's end).
 */
const minimumSymbolConfidence = 20;

/** One tesseract worker, reused for every page of one analysis and closed when the analysis ends. */
export interface OcrReader {
  /**
   * Reads one image of a page. `scale` is pixels per PDF point of that image (a page rendered at 2 has 2),
   * so boxes come back in points like a text-layer page.
   */
  readPage(image: Uint8Array, pageNumber: number, scale: number): Promise<PageText>;
  /**
   * Reads a picture cropped to a few lines of text (one block, page segmentation mode 6), or to one line
   * (`line`: mode 7), with only the characters of `alphabet`, line by line, spaces dropped. The worker's own settings are restored after
   * (tesseract.js saves and restores parameters given with a recognition), so pages read after it read as before.
   */
  readLines(image: Uint8Array, alphabet: string, layout?: 'block' | 'line'): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts a tesseract worker on the bundled English model (no network); the caller closes it. */
export async function openOcrReader(): Promise<OcrReader> {
  const worker = await createWorker('eng', lstmOnly, { langPath: englishModelFolder, gzip: true, cacheMethod: 'none' });
  return {
    readPage: (image, pageNumber, scale) => recognisePage(worker, image, pageNumber, scale),
    readLines: (image, alphabet, layout = 'block') => recogniseLines(worker, image, alphabet, layout),
    close: async () => {
      await worker.terminate();
    },
  };
}

/**
 * One OCR worker shared by every page and document of one analysis: started only when a page first needs it
 * (most PDFs never do, and starting it, loading the English model, takes about a second here), then kept,
 * so ten pictures start tesseract once. The LSTM engine does not adapt between images, so a page reads the
 * same whatever was read before it in the session. The owner closes it when the analysis ends.
 */
export interface OcrSession {
  reader(): Promise<OcrReader>;
  /** Terminates the worker if one was started. */
  close(): Promise<void>;
}

/** `start` is how the worker is started (tests count starts through it). */
export function openOcrSession(start: () => Promise<OcrReader> = openOcrReader): OcrSession {
  let opened: Promise<OcrReader> | null = null;
  return {
    reader: () => (opened ??= start()),
    close: async () => {
      // A worker that failed to start has nothing to terminate; its failure was each reading page's.
      const reader = await opened?.catch(() => null);
      await reader?.close();
    },
  };
}

async function recognisePage(worker: Worker, image: Uint8Array, pageNumber: number, scale: number): Promise<PageText> {
  const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { blocks: true, text: false });
  const items: TextItem[] = [];
  const confidences: number[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words = line.words.filter(isReadWord);
        for (const word of words) confidences.push(word.confidence / 100);
        for (const run of wordRuns(words, line.bbox.y1 - line.bbox.y0)) items.push(runItem(run, line, scale));
      }
    }
  }
  const { width, height } = pixelSize(image);
  const confidence = confidences.length === 0 ? 0 : confidences.reduce((sum, value) => sum + value, 0) / confidences.length;
  return { page: pageNumber, width: width / scale, height: height / scale, source: 'ocr', items, text: readingOrder(items), confidence };
}

async function recogniseLines(worker: Worker, image: Uint8Array, alphabet: string, layout: 'block' | 'line'): Promise<string[]> {
  // PSM 6 reads a block of lines; PSM 7 one line, cropped tight, with no line finding to go wrong.
  const { data } = await worker.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), { tessedit_char_whitelist: alphabet, tessedit_pageseg_mode: layout === 'line' ? '7' : '6' } as never, { blocks: true, text: false });
  return (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines.map((line) => line.words.map((word) => word.text).join('')))).filter((line) => line !== '');
}

function isReadWord(word: OcrWord): boolean {
  return word.text.trim() !== '' && (word.confidence >= minimumSymbolConfidence || /[\p{L}\p{N}]/u.test(word.text));
}

/**
 * A line's words grouped into runs the way a PDF's text layer groups them: words a space apart form one
 * run, and a gap wider than one and a half line heights (a table column, a second column) starts another,
 * so reading order puts a tab there exactly as it does for a text-layer page.
 */
function wordRuns(words: OcrWord[], lineHeight: number): OcrWord[][] {
  const runs: OcrWord[][] = [];
  for (const word of words) {
    const run = runs.at(-1);
    if (run && word.bbox.x0 - run.at(-1)!.bbox.x1 <= lineHeight * 1.5) run.push(word);
    else runs.push([word]);
  }
  return runs;
}

/** One run as a text item in points; top and height are the line's, since a word's box shrinks to its letters. */
function runItem(run: OcrWord[], line: OcrLine, scale: number): TextItem {
  const x0 = run[0]!.bbox.x0;
  const x1 = run.at(-1)!.bbox.x1;
  return {
    text: run.map((word) => word.text.trim()).join(' '),
    x: x0 / scale,
    y: line.bbox.y0 / scale,
    width: (x1 - x0) / scale,
    height: (line.bbox.y1 - line.bbox.y0) / scale,
    font: null,
  };
}

/** Width and height from a PNG's IHDR chunk (the only format pages reach OCR in: image.ts normalises to PNG). */
function pixelSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
