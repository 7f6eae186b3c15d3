import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.d.ts';
import type { TextItem as PdfjsTextItem } from 'pdfjs-dist/types/src/display/api.d.ts';
import { guardPageCount, guardPdf } from './guard.ts';
import { IMAGE_PIXEL_LIMIT } from './limits.ts';
import type { PageText, TextItem } from './types.ts';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** pdfjs needs its own font and character-map folders to draw the 14 standard fonts and CJK text offline. */
const assets = {
  standardFontDataUrl: pathToFileURL(join(pdfjsRoot, 'standard_fonts') + '/').href,
  cMapUrl: pathToFileURL(join(pdfjsRoot, 'cmaps') + '/').href,
  cMapPacked: true,
};

export type PdfDocument = PDFDocumentProxy;

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type CreateCanvas = typeof import('@napi-rs/canvas').createCanvas;
let loaded: Promise<{ pdfjs: Pdfjs; createCanvas: CreateCanvas }> | undefined;
let createCanvas: CreateCanvas = () => {
  throw new Error('the canvas is used before pdfLibraries() loaded it');
};

/**
 * pdfjs-dist and the canvas, loaded on first use. The API's main thread imports this module through the
 * checkers' schemas but only routes documents to the analysis threads; loading pdfjs and the canvas there
 * would add about 40 MB to every server for nothing. The DOM stand-ins go first (canvas-globals.ts says why).
 */
export function pdfLibraries(): Promise<{ pdfjs: Pdfjs; createCanvas: CreateCanvas }> {
  loaded ??= (async () => {
    await import('./canvas-globals.ts');
    const canvas = await import('@napi-rs/canvas');
    createCanvas = canvas.createCanvas;
    return { pdfjs: await import('pdfjs-dist/legacy/build/pdf.mjs'), createCanvas };
  })();
  return loaded;
}

interface CanvasAndContext {
  canvas: Canvas | null;
  context: SKRSContext2D | null;
}

/**
 * pdfjs's own Node factory loads the copy of @napi-rs/canvas that pdfjs-dist nests (0.1.x) for the
 * scratch canvases it draws images through; drawing those onto our page canvas (1.x) crashes the process
 * (segmentation fault) on any page with an image. This factory makes pdfjs draw with the one copy we use.
 */
class SharedCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    const canvas = createCanvas(width, height);
    return { canvas, context: canvas.getContext('2d') };
  }

  reset(pair: CanvasAndContext, width: number, height: number): void {
    if (!pair.canvas) throw new Error('Canvas is not specified');
    pair.canvas.width = width;
    pair.canvas.height = height;
  }

  destroy(pair: CanvasAndContext): void {
    if (pair.canvas) pair.canvas.width = pair.canvas.height = 0;
    pair.canvas = null;
    pair.context = null;
  }
}

/**
 * Opens a PDF with pdfjs-dist through the guarded open (guard.ts): the file's streams are measured first
 * and a decompression bomb is refused (DocumentRefused) before pdfjs sees it; images past the pixel limit are
 * left undrawn; a page tree declaring more pages than any real file is refused. Nothing the file carries is
 * evaluated (no `eval` of fonts, no scripting). Throws pdfjs's own error for a file it cannot parse
 * (`InvalidPDFException`, `PasswordException`); callers turn that into an `error` result.
 */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  await guardPdf(bytes);
  // pdfjs transfers (detaches) the buffer it is given: hand it a copy so the caller's bytes stay readable.
  const data = new Uint8Array(bytes);
  const { pdfjs } = await pdfLibraries();
  const pdf = await pdfjs.getDocument({
    data,
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: false,
    verbosity: 0,
    maxImageSize: IMAGE_PIXEL_LIMIT,
    isOffscreenCanvasSupported: false,
    CanvasFactory: SharedCanvasFactory,
    ...assets,
  }).promise;
  try {
    guardPageCount(pdf.numPages);
  } catch (error) {
    await pdf.destroy();
    throw error;
  }
  return pdf;
}

/** The text of page `pageNumber` (1-based) with each run's box in points from the page's top-left corner. */
export async function readPageText(pdf: PdfDocument, pageNumber: number): Promise<PageText> {
  const page = await pdf.getPage(pageNumber);
  try {
    return await pageText(page);
  } finally {
    page.cleanup();
  }
}

/** Text of pages 1..min(limit, page count). */
export async function readPagesText(pdf: PdfDocument, limit = pdf.numPages): Promise<PageText[]> {
  const pages: PageText[] = [];
  for (let n = 1; n <= Math.min(limit, pdf.numPages); n++) pages.push(await readPageText(pdf, n));
  return pages;
}

async function pageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const items: TextItem[] = [];
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const item = raw as PdfjsTextItem;
    if (item.str.trim() === '') continue;
    // transform = [a b c d e f]: e,f is the baseline origin in PDF space; the viewport flips y to top-left.
    const [x, baseline] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]) as [number, number];
    const height = item.height || Math.hypot(item.transform[2], item.transform[3]);
    items.push({ text: item.str, x, y: baseline - height, width: item.width, height, font: declaredFontName(page, item.fontName) });
  }
  return { page: page.pageNumber, width: viewport.width, height: viewport.height, source: 'text_layer', items, text: readingOrder(items), confidence: 1 };
}

/** The font's PDF name (`ABCDEF+Helvetica`) once pdfjs has loaded it, else pdfjs's own id for it. */
function declaredFontName(page: PDFPageProxy, loadedName: string): string {
  if (!page.commonObjs.has(loadedName)) return loadedName;
  const font = page.commonObjs.get(loadedName) as { name?: unknown } | null;
  return typeof font?.name === 'string' ? font.name : loadedName;
}

/**
 * Lines in reading order: runs whose vertical centres fall within half a line of each other form a line,
 * lines top to bottom, runs left to right, a tab between runs with a wide gap (table cells stay apart).
 */
export function readingOrder(items: readonly TextItem[]): string {
  return readingLines(items)
    .map((line) => line.text)
    .join('\n');
}

/** The lines of `readingOrder`, each with where it starts (x of its first run) and its vertical centre. */
export function readingLines(items: readonly TextItem[]): { text: string; x: number; centre: number }[] {
  const sorted = items.filter((item) => item.text.trim() !== '').sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const lines: TextItem[][] = [];
  for (const item of sorted) {
    const centre = item.y + item.height / 2;
    const line = lines.at(-1);
    const lineCentre = line ? line[0]!.y + line[0]!.height / 2 : Number.NaN;
    if (line && Math.abs(centre - lineCentre) <= Math.max(2, item.height / 2)) line.push(item);
    else lines.push([item]);
  }
  return lines.map((line) => {
    line.sort((a, b) => a.x - b.x);
    let text = '';
    let end = Number.NEGATIVE_INFINITY;
    for (const item of line) {
      const gap = item.x - end;
      text += text === '' ? item.text : gap > item.height * 1.5 ? `\t${item.text}` : gap > item.height * 0.15 && !text.endsWith(' ') && !item.text.startsWith(' ') ? ` ${item.text}` : item.text;
      end = item.x + item.width;
    }
    const first = line.find((item) => item.text.trim() !== '') ?? line[0]!;
    return { text: text.trim(), x: first.x, centre: line[0]!.y + line[0]!.height / 2 };
  });
}

/** A file embedded in a PDF (an attachment such as a Factur-X or ZUGFeRD invoice's XML). */
export interface EmbeddedFile {
  filename: string;
  bytes: Uint8Array;
}

/** Files read from a PDF's attachments at most, and the largest kept: an e-invoice's XML is tens of kilobytes. */
const embeddedFileLimit = { count: 8, bytes: 4 * 1024 * 1024 };

/**
 * The XML files the PDF carries as attachments (pdfjs `getAttachments`, on a file the guarded open already
 * measured, so an attachment's stream was bounded before it was inflated), at most a few and each of bounded size.
 */
export async function embeddedXmlFiles(pdf: PdfDocument): Promise<EmbeddedFile[]> {
  const attachments = ((await pdf.getAttachments()) ?? {}) as Record<string, { filename?: unknown; content?: unknown }>;
  const files: EmbeddedFile[] = [];
  for (const attachment of Object.values(attachments)) {
    const filename = typeof attachment.filename === 'string' ? attachment.filename : '';
    if (!/\.xml$/i.test(filename) || !(attachment.content instanceof Uint8Array) || attachment.content.byteLength > embeddedFileLimit.bytes) continue;
    files.push({ filename, bytes: attachment.content });
    if (files.length === embeddedFileLimit.count) break;
  }
  return files;
}

/** Page `pageNumber` drawn at `scale` (1 = 72 dpi) as PNG bytes. */
export async function renderPagePng(pdf: PdfDocument, pageNumber: number, scale = 2): Promise<Uint8Array> {
  const page = await pdf.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    // pdfjs's types name the DOM canvas; @napi-rs/canvas implements the same drawing API.
    await page.render({ canvas: canvas as unknown as HTMLCanvasElement, canvasContext: context as unknown as CanvasRenderingContext2D, viewport }).promise;
    return new Uint8Array(await canvas.encode('png'));
  } finally {
    page.cleanup();
  }
}
