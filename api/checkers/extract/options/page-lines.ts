import type { PageText, TextItem } from '../../../documents/types.ts';
import type { Box } from './types.ts';

/** A run of text placed in its page's text: `text.slice(start, end)` is the run's text. */
export interface PlacedRun {
  item: TextItem;
  start: number;
  end: number;
}

/** One line of a page: runs left to right, their span in the page text and the box around them. */
export interface PageLine {
  page: number;
  runs: PlacedRun[];
  start: number;
  end: number;
  /** Null for text without page geometry (.docx, plain text, HTML). */
  box: Box | null;
  text: string;
}

/** A page's text as `readingOrder` (api/documents/pdf.ts) builds it, with where each run sits in it. */
export interface LocatedPage {
  page: number;
  source: PageText['source'];
  text: string;
  lines: PageLine[];
}

/**
 * The page's lines with character offsets. It groups and joins runs by the same rule as `readingOrder`
 * (centres within half a line, a tab at a wide gap, a space at a narrow one), so on a text-layer page
 * `text` equals `page.text` and an offset found by a regular expression maps back to runs and boxes.
 */
export function locatePage(page: PageText): LocatedPage {
  if (page.items.length === 0) return unplacedPage(page);
  const sorted = page.items.filter((item) => item.text.trim() !== '').sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const grouped: TextItem[][] = [];
  for (const item of sorted) {
    const line = grouped.at(-1);
    const lineCentre = line ? line[0]!.y + line[0]!.height / 2 : Number.NaN;
    if (line && Math.abs(item.y + item.height / 2 - lineCentre) <= Math.max(2, item.height / 2)) line.push(item);
    else grouped.push([item]);
  }
  const lines: PageLine[] = [];
  let text = '';
  for (const items of grouped) {
    items.sort((a, b) => a.x - b.x);
    let raw = '';
    let end = Number.NEGATIVE_INFINITY;
    const runs: { item: TextItem; start: number }[] = [];
    for (const item of items) {
      const gap = item.x - end;
      const joiner = raw === '' ? '' : gap > item.height * 1.5 ? '\t' : gap > item.height * 0.15 && !raw.endsWith(' ') && !item.text.startsWith(' ') ? ' ' : '';
      raw += joiner;
      runs.push({ item, start: raw.length });
      raw += item.text;
      end = item.x + item.width;
    }
    const lead = raw.length - raw.trimStart().length;
    const lineText = raw.trim();
    if (text !== '') text += '\n';
    const offset = text.length - lead;
    const placed = runs.map(({ item, start }) => ({ item, start: offset + start, end: offset + start + item.text.length }));
    lines.push({ page: page.page, runs: placed, start: text.length, end: text.length + lineText.length, box: unionBox(items.map(itemBox))!, text: lineText });
    text += lineText;
  }
  return { page: page.page, source: page.source, text, lines };
}

/** Text with no runs (a .docx, plain text, HTML): its own lines, without boxes. */
function unplacedPage(page: PageText): LocatedPage {
  const lines: PageLine[] = [];
  let start = 0;
  for (const text of page.text.split('\n')) {
    if (text.trim() !== '') lines.push({ page: page.page, runs: [], start, end: start + text.length, box: null, text });
    start += text.length + 1;
  }
  return { page: page.page, source: page.source, text: page.text, lines };
}

export function itemBox(item: TextItem): Box {
  return [item.x, item.y, item.width, item.height];
}

/** The smallest box holding every box given, or null for none. */
export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y, width, height] of boxes) {
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x + width);
    bottom = Math.max(bottom, y + height);
  }
  return [round(left), round(top), round(right - left), round(bottom - top)];
}

/**
 * The box around characters `start..end` of the page text (null where the text has no geometry). Within a run the characters are taken as
 * equally wide (the text layer gives a run's box, not each glyph's), so the box's left and right edges
 * are close, not exact, when the span starts or ends inside a run.
 */
export function spanBox(located: LocatedPage, start: number, end: number): Box | null {
  const boxes: Box[] = [];
  for (const line of located.lines) {
    if (line.end <= start || line.start >= end) continue;
    for (const run of line.runs) {
      const from = Math.max(start, run.start);
      const to = Math.min(end, run.end);
      if (from >= to) continue;
      const length = run.end - run.start;
      const charWidth = run.item.width / length;
      boxes.push([run.item.x + charWidth * (from - run.start), run.item.y, charWidth * (to - from), run.item.height]);
    }
  }
  return unionBox(boxes);
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The page text inside `box`: characters whose centre falls in it (equal widths within a run, as `spanBox`). */
export function textInBox(located: LocatedPage, [left, top, width, height]: Box): string {
  const parts: string[] = [];
  for (const line of located.lines) {
    let text = '';
    for (const run of line.runs) {
      const centreY = run.item.y + run.item.height / 2;
      if (centreY < top || centreY > top + height) continue;
      const charWidth = run.item.width / (run.end - run.start);
      [...run.item.text].forEach((character, i) => {
        const centreX = run.item.x + charWidth * (i + 0.5);
        if (centreX >= left && centreX <= left + width) text += character;
      });
      text += ' ';
    }
    if (text.trim() !== '') parts.push(text.replace(/\s+/g, ' ').trim());
  }
  return parts.join(' ');
}

/** A line with a box: every line of a page read from a PDF or by OCR. */
export type PlacedLine = PageLine & { box: Box };

/** The lines of the page that have boxes (none for text without page geometry). */
export function placedLines(located: LocatedPage): PlacedLine[] {
  return located.lines.filter((line): line is PlacedLine => line.box !== null);
}
