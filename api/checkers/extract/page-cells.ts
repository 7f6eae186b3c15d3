import type { PageText, TextItem } from '../../documents/types.ts';
import { foldAccents } from './values.ts';

/**
 * A page as cells with their place: the runs of one line between wide gaps (the tab-separated parts of the
 * page text), each with its box, so a label's value is looked for where a reader looks, to its right on the
 * same line or in the cell below it. Pages without geometry (.docx, plain text) have cells without boxes.
 */
export interface PageCell {
  page: number;
  /** Index of the line on its page. */
  line: number;
  /** Index of the cell in its line. */
  index: number;
  text: string;
  /** The text folded (lowercase, no accents), one character per character of `text`. */
  folded: string;
  /** Left and right edge, top and height in points; NaN without geometry. */
  x0: number;
  x1: number;
  y: number;
  height: number;
  /** The page's reading confidence (1 for a text layer, the OCR's mean word confidence otherwise). */
  confidence: number;
  source: PageText['source'];
  /** Where the cell sits on its page, 0 at the top and 1 at the bottom (the line's share of the lines without geometry). */
  depth: number;
}

export interface CellPage {
  page: number;
  lines: PageCell[][];
  height: number;
  /** The median line height of the page: a letterhead is set larger than it. */
  bodyHeight: number;
}

/** Lines are grouped and split exactly as `readingOrder` (api/documents/pdf.ts) writes the page text. */
export function cellPages(pages: readonly PageText[]): CellPage[] {
  return pages.map((page) => (page.items.length === 0 ? unplacedCells(page) : placedCells(page)));
}

function placedCells(page: PageText): CellPage {
  const sorted = page.items.filter((item) => item.text.trim() !== '').sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const grouped: TextItem[][] = [];
  for (const item of sorted) {
    const line = grouped.at(-1);
    const lineCentre = line ? line[0]!.y + line[0]!.height / 2 : Number.NaN;
    if (line && Math.abs(item.y + item.height / 2 - lineCentre) <= Math.max(2, item.height / 2)) line.push(item);
    else grouped.push([item]);
  }
  const lines: PageCell[][] = grouped.map((items, lineIndex) => {
    items.sort((a, b) => a.x - b.x);
    const cells: PageCell[] = [];
    let current: TextItem[] = [];
    let text = '';
    let end = Number.NEGATIVE_INFINITY;
    const flush = () => {
      if (current.length === 0) return;
      const trimmed = text.trim();
      if (trimmed !== '') {
        const first = current[0]!;
        const last = current.at(-1)!;
        const top = Math.min(...current.map((item) => item.y));
        const bottom = Math.max(...current.map((item) => item.y + item.height));
        cells.push(cell(page, lineIndex, cells.length, trimmed, first.x, last.x + last.width, top, bottom - top, page.height > 0 ? top / page.height : 0));
      }
      current = [];
      text = '';
    };
    for (const item of items) {
      const gap = item.x - end;
      if (current.length > 0 && gap > item.height * 1.5) flush();
      else if (current.length > 0 && gap > item.height * 0.15 && !text.endsWith(' ') && !item.text.startsWith(' ')) text += ' ';
      current.push(item);
      text += item.text;
      end = item.x + item.width;
    }
    flush();
    return cells;
  });
  const heights = lines.flat().map((one) => one.height).sort((a, b) => a - b);
  return { page: page.page, lines: lines.filter((line) => line.length > 0), height: page.height, bodyHeight: heights[Math.floor(heights.length / 2)] ?? 10 };
}

function unplacedCells(page: PageText): CellPage {
  const texts = page.text.split('\n');
  const lines = texts.map((line, lineIndex) =>
    line
      .split('\t')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map((part, index) => cell(page, lineIndex, index, part, Number.NaN, Number.NaN, Number.NaN, Number.NaN, texts.length > 1 ? lineIndex / (texts.length - 1) : 0)),
  );
  return { page: page.page, lines: lines.filter((line) => line.length > 0), height: Number.NaN, bodyHeight: Number.NaN };
}

function cell(page: PageText, line: number, index: number, text: string, x0: number, x1: number, y: number, height: number, depth: number): PageCell {
  const folded = foldAccents(text);
  return { page: page.page, line, index, text, folded: folded.length === text.length ? folded : text.toLowerCase(), x0, x1, y, height, confidence: page.confidence, source: page.source, depth };
}

/** How much two cells overlap horizontally, as a share of the narrower (0 without geometry). */
export function horizontalOverlap(a: PageCell, b: PageCell): number {
  if (Number.isNaN(a.x0) || Number.isNaN(b.x0)) return 0;
  const overlap = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  return overlap <= 0 ? 0 : overlap / Math.max(1, Math.min(a.x1 - a.x0, b.x1 - b.x0));
}
