import { z } from '@hono/zod-openapi';
import type { PageText, TextItem } from '../../../documents/types.ts';
import { itemBox, locatePage, placedLines, unionBox } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import { detectTables, type DetectedTable } from './tables.ts';
import type { Box, OptionInput } from './types.ts';

const blockTypes = ['heading', 'paragraph', 'list', 'table'] as const;

export const layoutSettings = z.object({}).strict().openapi('LayoutSettings');

export const layoutBlock = z
  .object({
    order: z.number().int().describe('Position in reading order over the whole document, from 0'),
    type: z.enum(blockTypes),
    level: z.number().int().nullable().describe('Heading level, 1 for the largest heading size; null for other blocks'),
    text: z.string().describe('Lines of a paragraph joined by spaces; a table as a pipe table'),
    page: z.number().int(),
    bbox: z.array(z.number()).length(4).nullable().describe('[x, y, width, height] in points from the top-left, on `page`; null for text without page geometry (.docx, plain text, HTML)'),
    heading_path: z.array(z.string()).describe('The headings this block sits under, outermost first (a heading includes itself)'),
    char_span: z.array(z.number().int()).length(2).describe('[start, end) in the reading-order text: every block text joined by a blank line'),
  })
  .openapi('LayoutBlock');

export const layoutOutput = z.object({ blocks: z.array(layoutBlock) }).openapi('LayoutOutput');

export type LayoutOutput = z.infer<typeof layoutOutput>;

/** A line of a block: its span in the reading-order text and where it sits. */
export interface BlockLine {
  page: number;
  start: number;
  end: number;
  box: Box | null;
}

export interface Block {
  type: (typeof blockTypes)[number];
  level: number | null;
  text: string;
  page: number;
  box: Box | null;
  headingPath: string[];
  start: number;
  end: number;
  lines: BlockLine[];
}

/** The document as blocks in reading order, and the text they make joined by blank lines. */
export interface DocumentLayout {
  text: string;
  blocks: Block[];
}

/** Headings, paragraphs, lists and tables with their boxes, in reading order (columns read one after the other). */
export async function layout(input: OptionInput): Promise<LayoutOutput> {
  parseSettings(layoutSettings, input.settings);
  const { blocks } = documentLayout(input.pages);
  return {
    blocks: blocks.map((block, order) => ({
      order,
      type: block.type,
      level: block.level,
      text: block.text,
      page: block.page,
      bbox: block.box,
      heading_path: block.headingPath,
      char_span: [block.start, block.end],
    })),
  };
}

/** One unit of the XY-cut: a text run or a whole table part (never cut). */
interface Atom {
  box: Box;
  item: TextItem | null;
  table: DetectedTable | null;
}

interface Line {
  page: number;
  items: TextItem[];
  /** Null for a line of text without page geometry. */
  box: Box | null;
  text: string;
  height: number;
}

type Piece = { kind: 'line'; line: Line } | { kind: 'table'; table: DetectedTable; page: number; box: Box };

export function documentLayout(pages: readonly PageText[]): DocumentLayout {
  const tables = detectTables(pages.map(locatePage));
  const pieces: Piece[] = [];
  for (const page of pages) {
    if (page.items.length === 0) {
      // Text without geometry (.docx, plain text, HTML): its lines in order, each a block of its own.
      for (const line of locatePage(page).lines) pieces.push({ kind: 'line', line: { page: page.page, items: [], box: null, text: line.text, height: 0 } });
      continue;
    }
    const tableItems = new Set<TextItem>();
    const atoms: Atom[] = [];
    for (const table of tables) {
      for (const part of table.parts) {
        if (part.page !== page.page) continue;
        for (const line of part.lines) for (const run of line.runs) tableItems.add(run.item);
        atoms.push({ box: part.box, item: null, table: part === table.parts[0] ? table : null });
      }
    }
    for (const item of page.items) if (!tableItems.has(item) && item.text.trim() !== '') atoms.push({ box: itemBox(item), item, table: null });
    for (const group of xyCut(atoms, page.width)) {
      const table = group.find((atom) => atom.table)?.table;
      if (table) pieces.push({ kind: 'table', table, page: page.page, box: group[0]!.box });
      else if (group.some((atom) => atom.item)) pieces.push(...linesOf(page.page, group.flatMap((atom) => (atom.item ? [atom.item] : []))).map((line) => ({ kind: 'line' as const, line })));
    }
  }
  return assemble(pieces);
}

/**
 * Recursive XY-cut: split the atoms at the widest empty band, across or down. A vertical cut (between
 * columns) counts only where both sides are wide enough to be columns of text, so a label and its value
 * stay on one line; tables are single atoms, so their columns are never cut apart.
 */
function xyCut(atoms: Atom[], pageWidth: number): Atom[][] {
  if (atoms.length <= 1) return [atoms];
  const across = widestGap(atoms, 1);
  const down = widestGap(atoms, 0);
  if (down && down.size >= 10 && (!across || down.size >= across.size)) {
    const [left, right] = split(atoms, 0, down.at);
    if (readsAsColumn(left, pageWidth, true) && readsAsColumn(right, pageWidth, false)) return [...xyCut(left, pageWidth), ...xyCut(right, pageWidth)];
  }
  if (across) {
    const [above, below] = split(atoms, 1, across.at);
    return [...xyCut(above, pageWidth), ...xyCut(below, pageWidth)];
  }
  return [atoms];
}

/**
 * One side of a vertical cut reads as a column of text: a fifth of the page wide, lines of 20 characters
 * or more, and (on the left) not a stack of labels ending in colons, whose values sit to their right.
 */
function readsAsColumn(side: Atom[], pageWidth: number, left: boolean): boolean {
  const extent = Math.max(...side.map((atom) => atom.box[0] + atom.box[2])) - Math.min(...side.map((atom) => atom.box[0]));
  if (extent < pageWidth * 0.2) return false;
  if (side.some((atom) => atom.table)) return true;
  const lines = linesOf(0, side.flatMap((atom) => (atom.item ? [atom.item] : []))).map((line) => line.text);
  const lengths = lines.map((line) => line.length).sort((a, b) => a - b);
  if ((lengths[Math.floor(lengths.length / 2)] ?? 0) < 20) return false;
  return !left || lines.filter((line) => line.endsWith(':')).length * 2 < lines.length;
}

/** The widest band along `axis` (0 = x, 1 = y) that no atom crosses, as its middle and size. */
function widestGap(atoms: Atom[], axis: 0 | 1): { at: number; size: number } | null {
  const spans = atoms.map((atom) => [atom.box[axis], atom.box[axis] + atom.box[axis + 2]!] as const).sort((a, b) => a[0] - b[0]);
  let best: { at: number; size: number } | null = null;
  let reach = spans[0]![1];
  for (const [start, end] of spans.slice(1)) {
    if (start > reach && (!best || start - reach > best.size)) best = { at: (start + reach) / 2, size: start - reach };
    reach = Math.max(reach, end);
  }
  return best;
}

function split(atoms: Atom[], axis: 0 | 1, at: number): [Atom[], Atom[]] {
  return [atoms.filter((atom) => atom.box[axis] < at), atoms.filter((atom) => atom.box[axis] >= at)];
}

/** Runs of one XY-cut group as lines (the page text's own grouping rule). */
function linesOf(page: number, items: TextItem[]): Line[] {
  const located = locatePage({ page, width: 0, height: 0, source: 'text_layer', items, text: '', confidence: 1 });
  return placedLines(located).map((line) => ({ page, items: line.runs.map((run) => run.item), box: line.box, text: line.text.replace(/\t/g, ' '), height: Math.max(...line.runs.map((run) => run.item.height)) }));
}

const listMarker = /^(?:[•●○▪■◦\-–*]|\(?\d{1,2}[.)]|\(?[a-z][.)]|\(?(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])\s+/i;

function assemble(pieces: Piece[]): DocumentLayout {
  const lines = pieces.flatMap((piece) => (piece.kind === 'line' ? [piece.line] : []));
  const body = bodySize(lines);
  const headingSizes = [...new Set(lines.filter((line) => isHeading(line, body)).map((line) => Math.round(line.height)))].sort((a, b) => b - a);
  const drafts: { type: Block['type']; level: number | null; page: number; lines: { page: number; text: string; box: Box | null }[] }[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'table') {
      drafts.push({ type: 'table', level: null, page: piece.page, lines: [{ page: piece.page, text: pipeTable(piece.table), box: piece.box }] });
      continue;
    }
    const { line } = piece;
    const entry = { page: line.page, text: line.text, box: line.box };
    const previous = drafts.at(-1);
    const previousBox = previous?.lines.at(-1)?.box;
    // The draft this line may join: the block just before, on the same page, ending right above it.
    const above = previous && previousBox && line.box && previous.page === line.page && follows(previousBox, line.box) ? previous : null;
    if (isHeading(line, body)) {
      const level = headingSizes.indexOf(Math.round(line.height)) + 1;
      // A heading wrapped over two lines of the same size is one heading.
      if (above?.type === 'heading' && above.level === level) above.lines.push(entry);
      else drafts.push({ type: 'heading', level, page: line.page, lines: [entry] });
    } else if (listMarker.test(line.text)) {
      if (above?.type === 'list') above.lines.push(entry);
      else drafts.push({ type: 'list', level: null, page: line.page, lines: [entry] });
    } else if (above && (above.type === 'paragraph' || (above.type === 'list' && line.box![0] > previousBox![0] + 2))) {
      // A paragraph line, or a list item's continuation indented under its marker.
      above.lines.push(entry);
    } else {
      drafts.push({ type: 'paragraph', level: null, page: line.page, lines: [entry] });
    }
  }
  let text = '';
  const blocks: Block[] = [];
  const headings: { level: number; text: string }[] = [];
  for (const draft of drafts) {
    const separator = draft.type === 'paragraph' ? ' ' : '\n';
    if (text !== '') text += '\n\n';
    const start = text.length;
    const blockLines: BlockLine[] = [];
    draft.lines.forEach((line, i) => {
      if (i > 0) text += separator;
      blockLines.push({ page: line.page, start: text.length, end: text.length + line.text.length, box: line.box });
      text += line.text;
    });
    const blockText = text.slice(start);
    if (draft.type === 'heading') {
      while (headings.length > 0 && headings.at(-1)!.level >= draft.level!) headings.pop();
      headings.push({ level: draft.level!, text: blockText.replace(/\n/g, ' ') });
    }
    const boxes = draft.lines.flatMap((line) => (line.page === draft.page && line.box ? [line.box] : []));
    blocks.push({ type: draft.type, level: draft.level, text: blockText, page: draft.page, box: unionBox(boxes), headingPath: headings.map((heading) => heading.text), start, end: text.length, lines: blockLines });
  }
  return { text, blocks };
}

/** The body text size: the line height most characters are set in. */
function bodySize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) if (line.box) weight.set(Math.round(line.height), (weight.get(Math.round(line.height)) ?? 0) + line.text.length);
  return [...weight].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

/** A heading is set at least a fifth larger than the body and is short. */
function isHeading(line: Line, body: number): boolean {
  return line.box !== null && line.height >= body * 1.2 && line.text.length <= 120;
}

/** The next line belongs to the same block: it starts within about a line's height below. */
function follows(above: Box, below: Box): boolean {
  const gap = below[1] - (above[1] + above[3]);
  return gap >= -1 && gap <= Math.max(above[3], below[3]) * 0.8;
}

/** A table's text: header and rows as a pipe table, cells' pipes escaped. */
function pipeTable(table: DetectedTable): string {
  const row = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [row(table.header), row(table.header.map(() => '---')), ...table.rows.map(row)].join('\n');
}
