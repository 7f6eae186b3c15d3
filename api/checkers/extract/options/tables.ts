import { z } from '@hono/zod-openapi';
import { extractedTable } from '../result.ts';
import { locatePage, placedLines, round, unionBox, type LocatedPage, type PageLine, type PlacedLine, type PlacedRun } from './page-lines.ts';
import { classifyDocument } from '../classify.ts';
import { pageLineItems } from './line-items.ts';
import { pageReceiptLines } from './receipt-lines.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

const tableSources = ['native_pdf', 'vlm'] as const;

export const tablesSettings = z
  .object({
    source: z.enum(tableSources).default('native_pdf').describe('native_pdf reads the text layer; vlm needs a vision model (not configured here)'),
    min_rows: z.number().int().min(1).max(50).default(2).describe('Fewest body rows (after the header) for a block to count as a table'),
  })
  .strict()
  .openapi('TablesSettings');

export const tablesOutput = z
  .array(
    extractedTable.extend({
      pages: z.array(z.number().int()).describe('Every page the table covers: a table continued on the next page is joined'),
      bbox: z.array(z.number()).length(4).describe("[x, y, width, height] of the table's part on `page`, in points from the top-left"),
    }),
  )
  .openapi('TablesOutput');

export type TablesOutput = z.infer<typeof tablesOutput>;

/** A cell: the runs of one line between two wide gaps. */
interface Cell {
  text: string;
  left: number;
  right: number;
}

/** One page's share of a table: its lines and box. */
export interface TablePart {
  page: number;
  lines: PlacedLine[];
  box: Box;
}

/** A table as found: header, rows of cell texts in column order, and where it sits on each page. */
export interface DetectedTable {
  header: string[];
  rows: string[][];
  parts: TablePart[];
  /** Column spans [left, right] on the first page, for joining a continuation. */
  columns: [number, number][];
}

/**
 * Native PDF tables: line-item tables under a header of column labels (line-items.ts), and other runs
 * aligned in columns over several lines of the text layer where no line-item table is.
 */
export async function tables(input: OptionInput): Promise<TablesOutput> {
  const { source, min_rows } = parseSettings(tablesSettings, input.settings);
  // The route refuses `vlm` before analysis (capabilities: available false); reaching here is a caller bug.
  if (source !== 'native_pdf') throw new Error(`tables source ${source} is not available: no vision model is configured`);
  const pages = input.pages.map(locatePage);
  // A labelled header is evidence enough for a one-line invoice; a `min_rows` the caller sets still applies.
  const askedRows = typeof input.settings === 'object' && input.settings !== null && 'min_rows' in input.settings;
  // Line items are what invoices and receipts list; a payslip's or statement's tables are read as aligned columns.
  const itemised = !['payslip', 'bank_statement'].includes(classifyDocument(input.pages).document_type);
  const lineItems = (itemised ? joinedLineItems(pages) : []).filter((table) => table.rows.length >= (askedRows ? min_rows : 1));
  const covered = (page: number, box: Box) => lineItems.some((table) => table.parts.some((part) => part.page === page && overlaps(part.box, box)));
  const aligned = detectTables(pages, min_rows).filter((table) => !covered(table.parts[0]!.page, table.parts[0]!.box));
  const found = [...lineItems, ...aligned].sort((a, b) => a.parts[0]!.page - b.parts[0]!.page || a.parts[0]!.box[1] - b.parts[0]!.box[1]);
  return found.map((table) => ({
    page: table.parts[0]!.page,
    pages: table.parts.map((part) => part.page),
    source: 'native_pdf' as const,
    header: table.header,
    json: table.rows.map((row) => Object.fromEntries(table.header.map((name, i) => [name, row[i] ?? '']))),
    bbox: table.parts[0]!.box,
  }));
}

/** The pages' line-item tables, one left open at a page's end joined with the next page's first when the headers match. */
function joinedLineItems(pages: readonly LocatedPage[]): { header: string[]; rows: string[][]; parts: { page: number; box: Box }[] }[] {
  const found: { header: string[]; rows: string[][]; parts: { page: number; box: Box }[]; open: boolean }[] = [];
  for (const page of pages) {
    const headed = pageLineItems(page);
    const receipt = pageReceiptLines(page);
    // Where both readings cover the same lines, the one whose amounts add up to the subtotal wins; the header's on a tie.
    const rival = receipt ? headed.filter((table) => overlaps(table.box, receipt.box)) : [];
    const receiptWins = receipt !== null && (rival.length === 0 || (receipt.reconciled && !rival.some((table) => table.reconciled)));
    const tables = receiptWins ? [...headed.filter((table) => !rival.includes(table)), receipt].sort((a, b) => a.box[1] - b.box[1]) : headed;
    for (const [index, table] of tables.entries()) {
      const header = headerNames(table.header);
      const previous = found.at(-1);
      const carries = index === 0 && previous?.open && previous.parts.at(-1)!.page === page.page - 1 && previous.header.join('\u0000') === header.join('\u0000');
      if (carries) {
        previous.rows.push(...table.rows);
        previous.parts.push({ page: page.page, box: table.box });
        previous.open = !table.closed;
      } else found.push({ header, rows: table.rows, parts: [{ page: page.page, box: table.box }], open: !table.closed });
    }
  }
  return found;
}

function overlaps([x, y, width, height]: Box, [otherX, otherY, otherWidth, otherHeight]: Box): boolean {
  return x < otherX + otherWidth && otherX < x + width && y < otherY + otherHeight && otherY < y + height;
}

/** The tables of the pages in reading order, a table carried over a page break joined into one. */
export function detectTables(pages: readonly LocatedPage[], minRows = 2): DetectedTable[] {
  const found: DetectedTable[] = [];
  let previous: { table: DetectedTable; linesAfter: number } | null = null;
  for (const page of pages) {
    const blocks = pageBlocks(page);
    let last: DetectedTable | null = null;
    for (const [index, block] of blocks.entries()) {
      const carries = index === 0 && previous !== null && previous.linesAfter <= 3 && block.linesBefore <= 3;
      if (carries && continues(previous!.table, block)) {
        last = previous!.table;
        continue;
      }
      last = block.header && block.rows.length >= minRows ? { header: headerNames(block.header), rows: block.rows, parts: [block.part], columns: block.columns } : null;
      if (last) found.push(last);
    }
    const lastBlock = blocks.at(-1);
    previous = last && lastBlock ? { table: last, linesAfter: lastBlock.linesAfter } : null;
  }
  return found;
}

/** Joins `block` onto `table` when it continues it (same columns; a repeated header is dropped). */
function continues(table: DetectedTable, block: Block): boolean {
  if (block.columns.length !== table.columns.length) return false;
  const aligned = block.columns.every(([left, right], i) => {
    const [otherLeft, otherRight] = table.columns[i]!;
    return left < otherRight && otherLeft < right;
  });
  if (!aligned) return false;
  const repeatsHeader = block.header !== null && headerNames(block.header).join('\u0000').toLowerCase() === table.header.join('\u0000').toLowerCase();
  if (block.header && !repeatsHeader) return false;
  table.rows.push(...block.rows);
  table.parts.push(block.part);
  return true;
}

/** Lines aligned in columns: the header row when the first row reads as one, the other rows, and where. */
interface Block {
  header: string[] | null;
  rows: string[][];
  columns: [number, number][];
  part: TablePart;
  linesBefore: number;
  linesAfter: number;
}

function pageBlocks(page: LocatedPage): Block[] {
  const lines = placedLines(page);
  const cellsOf = lines.map(lineCells);
  const found: Block[] = [];
  let start = 0;
  while (start < lines.length) {
    if (cellsOf[start]!.length < 2) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < lines.length && closeBelow(lines[end - 1]!, lines[end]!) && (cellsOf[end]!.length >= 2 || rowWithEmptyCells(lines, cellsOf, start, end))) end++;
    const block = alignedBlock(page.page, lines.slice(start, end), cellsOf.slice(start, end));
    if (block) found.push({ ...block, linesBefore: start, linesAfter: lines.length - end });
    start = end;
  }
  return found;
}

/**
 * A one-cell line inside a table is a row whose other cells are empty: its cell lines up (left or right
 * edge) with a cell of the row above, it is short, and it keeps the rows' spacing.
 */
function rowWithEmptyCells(lines: readonly PlacedLine[], cellsOf: readonly Cell[][], start: number, index: number): boolean {
  const cell = cellsOf[index]![0];
  if (!cell || cellsOf[index]!.length !== 1 || cell.text.split(/\s+/).length > 6) return false;
  const aligned = cellsOf[index - 1]!.some((above) => Math.abs(above.left - cell.left) <= 3 || Math.abs(above.right - cell.right) <= 3);
  if (!aligned) return false;
  if (index - 2 < start) return true;
  const pitch = lines[index]!.box[1] - lines[index - 1]!.box[1];
  return Math.abs(pitch - (lines[index - 1]!.box[1] - lines[index - 2]!.box[1])) <= 2;
}

/** The next line follows within one and a half line heights: a wider gap (before totals, say) ends the block. */
function closeBelow(above: PlacedLine, below: PlacedLine): boolean {
  const gap = below.box[1] - (above.box[1] + above.box[3]);
  return gap <= 1.5 * Math.max(above.box[3], below.box[3]);
}

/**
 * A line's cells: runs split where the gap is wider than 0.8 of the line height. A word space is about
 * 0.3 em, and table columns are often set closer than the page text's tab (1.5 line heights).
 */
function lineCells(line: PageLine): Cell[] {
  const cells: Cell[] = [];
  let current: PlacedRun[] = [];
  const flush = () => {
    if (current.length === 0) return;
    const first = current[0]!;
    const last = current.at(-1)!;
    cells.push({ text: current.map((run) => run.item.text).join(' ').replace(/\s+/g, ' ').trim(), left: first.item.x, right: last.item.x + last.item.width });
    current = [];
  };
  for (const run of line.runs) {
    const previous = current.at(-1);
    if (previous && run.item.x - (previous.item.x + previous.item.width) > run.item.height * 0.8) flush();
    current.push(run);
  }
  flush();
  return cells;
}

function alignedBlock(page: number, lines: PlacedLine[], cells: Cell[][]): Omit<Block, 'linesBefore' | 'linesAfter'> | null {
  // Columns come from the rows with the most cells: a cell spanning columns elsewhere (a merged header)
  // must not fuse the columns it covers.
  const most = Math.max(...cells.map((row) => row.length));
  const columns = columnSpans(cells.filter((row) => row.length === most).flat());
  if (columns.length < 2) return null;
  // Two columns of prose side by side also align: a table's cells are short.
  const lengths = cells.flat().map((cell) => cell.text.length).sort((a, b) => a - b);
  if (lengths[Math.floor(lengths.length / 2)]! > 24) return null;
  const grid = cells.map((row) => {
    const values = columns.map(() => '');
    for (const cell of row) {
      const column = nearestColumn(columns, cell);
      values[column] = values[column] === '' ? cell.text : `${values[column]} ${cell.text}`;
    }
    return values;
  });
  // Cells that are themselves "Label: value" pairs side by side (a letterhead's details) are not a table.
  const filled = grid.slice(1).flat().filter((cell) => cell !== '');
  if (filled.filter((cell) => /^[^:]{2,40}:\s+\S/.test(cell)).length * 2 >= filled.length) return null;
  const header = looksLikeHeader(grid[0]!) ? grid[0]! : null;
  return { header, rows: header ? grid.slice(1) : grid, columns, part: { page, lines, box: unionBox(lines.map((line) => line.box))! } };
}

/** The column a cell overlaps most, or the one nearest to it when it overlaps none. */
function nearestColumn(columns: readonly [number, number][], cell: Cell): number {
  let best = 0;
  let bestScore = -Infinity;
  columns.forEach(([left, right], i) => {
    const overlap = Math.min(right, cell.right) - Math.max(left, cell.left);
    if (overlap > bestScore) [best, bestScore] = [i, overlap];
  });
  return best;
}

/** Column spans: the x-ranges of all cells merged where they overlap. */
function columnSpans(cells: Cell[]): [number, number][] {
  const spans: [number, number][] = [];
  for (const cell of [...cells].sort((a, b) => a.left - b.left)) {
    const last = spans.at(-1);
    if (last && cell.left < last[1]) last[1] = Math.max(last[1], cell.right);
    else spans.push([cell.left, cell.right]);
  }
  return spans.map(([left, right]) => [round(left), round(right)]);
}

/**
 * A header names its columns: every non-empty cell is a few words with a letter (or a year), and none is
 * a label with its value ("Invoice number:" then "INV-1", a key–value list) or ends a sentence.
 */
function looksLikeHeader(row: readonly string[]): boolean {
  const filled = row.filter((cell) => cell !== '');
  if (filled.length < 2) return false;
  return filled.every((cell) => (/\p{L}/u.test(cell) && !/\d{3}/.test(cell) && !/[:.]$/.test(cell) && cell.split(' ').length <= 5) || /^(?:19|20)\d{2}$/.test(cell));
}

function headerNames(row: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return row.map((cell, i) => {
    const name = cell === '' ? `column_${i + 1}` : cell;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}
