import vocabulary from '../vocabulary.json' with { type: 'json' };
import { findAmounts, foldAccents } from '../values.ts';
import { placedLines, unionBox, type LocatedPage, type PlacedLine } from './page-lines.ts';
import type { Box } from './types.ts';

/**
 * Line-item tables of invoices and receipts, found by their header: a row of column labels from the
 * vocabulary (vocabulary.json `table_columns`, per language). The header's labels give the columns'
 * x-ranges; body lines are cut into cells by those ranges, a line with no number in a numeric column
 * (a wrapped description, an article number under its line) joins the row above, and the table stops at the
 * subtotal/total block. Every step is one pass over the page's lines.
 */

const { about: _about, ...columnLabels } = vocabulary.table_columns;
type ColumnKind = keyof typeof columnLabels | 'other';

/** Kinds whose cells hold numbers: a line with one of these filled is a row's figures. */
const numericKinds: ReadonlySet<ColumnKind> = new Set(['quantity', 'unit_price', 'amount', 'tax_rate', 'discount']);

/** A label word as matched: folded, lowercase, without the trailing `.`, `:`, `/` or footnote mark `(*)` headers often carry. */
const labelKey = (word: string) => foldAccents(word).replace(/(?:\(\*+\)|\*+)$/, '').replace(/[.:/]+$/, '');

const labelKinds = new Map<string, ColumnKind>();
for (const [kind, languages] of Object.entries(columnLabels)) {
  for (const label of Object.values(languages).flat()) {
    const key = label.split(' ').map(labelKey).join(' ');
    if (!labelKinds.has(key)) labelKinds.set(key, kind as ColumnKind);
  }
}
const longestLabel = Math.max(...[...labelKinds.keys()].map((key) => key.split(' ').length));

/** Labels that open the subtotal/total block under a line-item table. */
const closingLabels = [...new Set((['subtotal', 'total', 'tax', 'payable'] as const).flatMap((field) => Object.values(vocabulary.fields[field]).flat().map((entry) => foldAccents(String(entry[0])))))];
export const closingPattern = new RegExp(`^(?:${closingLabels.map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\d])`, 'u');

/** A word of a line, its edges estimated from its run's width (a run's glyphs taken as equally wide). */
export interface Word {
  text: string;
  left: number;
  right: number;
}

export function lineWords(line: PlacedLine): Word[] {
  const words: Word[] = [];
  for (const run of line.runs) {
    const text = run.item.text;
    const charWidth = run.item.width / Math.max(1, text.length);
    for (const match of text.matchAll(/\S+/g)) {
      const left = run.item.x + charWidth * match.index;
      words.push({ text: match[0], left, right: left + charWidth * match[0].length });
    }
  }
  return words;
}

/** A header cell: a label (or other header words) and its x-range. */
interface HeaderCell {
  name: string;
  kind: ColumnKind;
  left: number;
  right: number;
}

/** The line's words grouped into header cells: a cell starts at every label and at a wide gap. */
function headerCells(words: readonly Word[], height: number): { cells: HeaderCell[]; labelled: number } {
  const cells: HeaderCell[] = [];
  let labelled = 0;
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    let kind: ColumnKind = 'other';
    for (let count = Math.min(longestLabel, words.length - i); count >= 1 && matched === 0; count--) {
      const found = labelKinds.get(words.slice(i, i + count).map((word) => labelKey(word.text)).join(' '));
      if (found) [matched, kind] = [count, found];
    }
    const span = words.slice(i, i + Math.max(1, matched));
    const cell = { name: span.map((word) => word.text).join(' '), kind, left: span[0]!.left, right: span.at(-1)!.right };
    const previous = cells.at(-1);
    // Unlabelled words close to the cell before belong to it ("Item Code", "Art (Kategorie)"), and so do two
    // description labels side by side ("Produkt Beschreibung").
    const joins = previous && cell.left - previous.right <= height * 0.8 && (matched === 0 ? true : previous.kind === kind && kind === 'description');
    if (joins) Object.assign(previous, { name: `${previous.name} ${cell.name}`, right: cell.right, kind: previous.kind === 'other' ? kind : previous.kind });
    else cells.push(cell);
    labelled += matched;
    i += span.length;
  }
  return { cells, labelled };
}

/** A header: at least two labelled columns, one of them numeric, most words labels, and no money on the line. */
function readsAsHeader(line: PlacedLine, words: readonly Word[]): HeaderCell[] | null {
  if (words.length < 2 || words.length > 24 || /\d[.,]\d{2}(?!\d)/.test(line.text)) return null;
  const { cells, labelled } = headerCells(words, line.box[3]);
  const kinds = cells.filter((cell) => cell.kind !== 'other');
  if (kinds.length < 2 || !kinds.some((cell) => numericKinds.has(cell.kind))) return null;
  return labelled * 2 >= words.length ? cells : null;
}

/** A column: its header name, kind and the x-range its cells fall in (between the midpoints to its neighbours). */
interface Column {
  name: string;
  kind: ColumnKind;
  left: number;
  right: number;
}

export interface LineItemTable {
  page: number;
  header: string[];
  rows: string[][];
  box: Box;
  /** False when the page ended before the total block: the table may carry on over the page. */
  closed: boolean;
  /** Line amounts summing to the subtotal printed under them. */
  reconciled: boolean;
  /** The index of the rows' line-amount cell (the last column labelled as an amount), -1 when no column is. */
  amountColumn: number;
}

/** Lines just above and below the header that carry on its labels ("Prix" over "Prix HT", "Art-Nr" under "Art-Nr-Lief."). */
function headerBand(lines: readonly PlacedLine[], index: number): { first: number; last: number } {
  const part = (line: PlacedLine, other: PlacedLine) =>
    !/\d[.,]?\d/.test(line.text) && line.text.length <= 100 && Math.abs(line.box[1] - other.box[1]) <= Math.max(line.box[3], other.box[3]) * 1.3;
  let [first, last] = [index, index];
  while (first > 0 && index - first < 4 && part(lines[first - 1]!, lines[first]!)) first--;
  while (last + 1 < lines.length && last - index < 4 && part(lines[last + 1]!, lines[last]!)) last++;
  return { first, last };
}

/** The header line's cells as columns; a band line's cell names the column it overlaps, or adds one where there is none. */
function bandColumns(main: readonly HeaderCell[], above: readonly HeaderCell[], below: readonly HeaderCell[]): Column[] {
  const columns = main.map((cell) => ({ ...cell, above: [] as string[], below: [] as string[] }));
  for (const [cells, side] of [[above, 'above'], [below, 'below']] as const) {
    for (const cell of cells) {
      const overlapping = columns.find((column) => Math.min(column.right, cell.right) - Math.max(column.left, cell.left) > 0);
      if (!overlapping) columns.push({ ...cell, above: [], below: [] });
      else {
        overlapping[side].push(cell.name);
        if (overlapping.kind === 'other') overlapping.kind = cell.kind;
      }
    }
  }
  return columns
    .sort((a, b) => a.left - b.left)
    .map((column) => ({ name: [...column.above, column.name, ...column.below].join(' '), kind: column.kind, left: column.left, right: column.right }));
}

/**
 * A header that labels only the figures ("% TVA  € HT  € TTC") over rows whose text starts well to their
 * left: the unlabelled column on the left holds the descriptions.
 */
function withDescription(columns: Column[], below: readonly PlacedLine[]): Column[] {
  const first = columns[0]!;
  if (columns.some((column) => column.kind === 'description') || below.length === 0) return columns;
  const bodyLeft = Math.min(...below.map((line) => line.box[0]));
  if (bodyLeft >= first.left - below[0]!.box[3] * 2) return columns;
  return [{ name: '', kind: 'description', left: bodyLeft, right: bodyLeft }, ...columns];
}

/** The column each x falls in: the boundaries sit halfway between neighbouring header cells. */
function columnAt(columns: readonly Column[]): (x: number) => number {
  const boundaries = columns.slice(1).map((column, i) => (Math.max(columns[i]!.right, Math.min(column.left, columns[i]!.right)) + column.left) / 2);
  return (x) => {
    let index = 0;
    while (index < boundaries.length && x >= boundaries[index]!) index++;
    return index;
  };
}

/** A cell that is a number: a quantity, price, rate or amount, with a currency sign, a sign or a short unit ("20 Stk", "19 %"). */
const numberCell = /^[-+(]?\s*(?:[$€£¥₹]|rm|eur|usd|aud)?\s*[-+]?\d[\d.,' ]*(?:\s*(?:%|[$€£¥₹]|\p{L}{1,4}\.?))?\)?$/iu;

interface BodyLine {
  cells: string[];
  /** Numeric columns this line fills with a number. */
  numeric: number[];
}

function bodyLine(line: PlacedLine, columns: readonly Column[], at: (x: number) => number): BodyLine {
  const cells = columns.map(() => '');
  for (const word of lineWords(line)) {
    const index = at((word.left + word.right) / 2);
    cells[index] = cells[index] === '' ? word.text : `${cells[index]} ${word.text}`;
  }
  const numeric = cells.flatMap((cell, i) => (numericKinds.has(columns[i]!.kind) && numberCell.test(cell) ? [i] : []));
  return { cells, numeric };
}

/** Whether the line opens the subtotal/total block: its first cell starts with a subtotal, tax, total or amount-due label. */
function opensTotals(body: BodyLine): boolean {
  const first = body.cells.find((cell) => cell !== '');
  return first !== undefined && closingPattern.test(foldAccents(first).replace(/^[*\s]+/, ''));
}

interface Row {
  cells: string[];
  filled: Set<number>;
}

/** A line starts a row when it repeats figures the row has, or opens the lead column after a row's spacing; otherwise it is the row's continuation. */
function startsRow(row: Row | undefined, body: BodyLine, lead: number, spaced: boolean): boolean {
  if (!row) return true;
  if (body.numeric.length > 0) return body.numeric.some((index) => row.filled.has(index)) || (body.cells[lead] !== '' && row.cells[lead] !== '' && spaced);
  return body.cells[lead] !== '' && spaced;
}

/** The table under the header band ending at line `last`: rows until the totals, another header, a wide gap or the page's end. */
function tableBody(lines: readonly PlacedLine[], last: number, columns: readonly Column[], headers: ReadonlySet<number>) {
  const at = columnAt(columns);
  const bodies = new Map<number, BodyLine>();
  const bodyAt = (index: number) => bodies.get(index) ?? bodies.set(index, bodyLine(lines[index]!, columns, at)).get(index)!;
  const rows: Row[] = [];
  let lead = -1;
  let end = last + 1;
  for (; end < lines.length; end++) {
    const body = bodyAt(end);
    const ending = lineEnds(lines, end, body, headers);
    // Only the totals or another header close the table; after a note or a wide gap it may carry on over the page.
    if (ending === 'stop') return { rows, end, closed: true };
    if (ending === 'gap' && !rowFollows(lines, end, bodyAt, headers, lead)) return { rows, end, closed: false };
    if (lead === -1) lead = Math.max(0, body.cells.findIndex((cell) => cell !== ''));
    const row = rows.at(-1);
    if (startsRow(row, body, lead, gapAbove(lines, end) >= lines[end]!.box[3] * 0.45)) rows.push({ cells: body.cells, filled: new Set(body.numeric) });
    else {
      body.cells.forEach((cell, i) => (cell === '' ? undefined : (row!.cells[i] = row!.cells[i] === '' ? cell : `${row!.cells[i]} ${cell}`)));
      for (const index of body.numeric) row!.filled.add(index);
    }
  }
  return { rows, end, closed: false };
}

const gapAbove = (lines: readonly PlacedLine[], index: number) => lines[index]!.box[1] - (lines[index - 1]!.box[1] + lines[index - 1]!.box[3]);

/**
 * Whether line `index` ends the table: `stop` at the totals, another header or a gap of more than four lines;
 * `gap` when a line without figures comes after more than two line heights (a note under the table, or a
 * detail of the row above: `rowFollows` tells them apart).
 */
function lineEnds(lines: readonly PlacedLine[], index: number, body: BodyLine, headers: ReadonlySet<number>): 'stop' | 'gap' | null {
  const height = Math.max(lines[index]!.box[3], lines[index - 1]!.box[3]);
  const gap = gapAbove(lines, index);
  if (headers.has(index) || opensTotals(body) || gap > height * 4) return 'stop';
  return body.numeric.length === 0 && gap > height * 2.2 ? 'gap' : null;
}

/** A row with figures and a lead cell comes within the next few lines, before the table would end. */
function rowFollows(lines: readonly PlacedLine[], from: number, bodyAt: (index: number) => BodyLine, headers: ReadonlySet<number>, lead: number): boolean {
  for (let index = from + 1; index < Math.min(lines.length, from + 6); index++) {
    const body = bodyAt(index);
    if (lineEnds(lines, index, body, headers) === 'stop') return false;
    if (body.numeric.length > 0 && body.cells[Math.max(0, lead)] !== '') return true;
  }
  return false;
}

/** Whether the line amounts add up to an amount printed in the few lines from `end` (the subtotal or total). */
export function sumsToSubtotal(amounts: readonly string[], lines: readonly PlacedLine[], end: number): boolean {
  const sum = amounts.reduce((total, text) => total + (findAmounts(text).at(-1)?.value ?? 0), 0);
  if (sum === 0) return false;
  return lines.slice(end, end + 8).some((line) => findAmounts(line.text).some((amount) => Math.abs(amount.value - sum) < 0.006));
}

const labelledCount = (cells: readonly HeaderCell[] | undefined) => cells?.filter((cell) => cell.kind !== 'other').length ?? -1;

/** The line-item tables of one page, each under a labelled header. */
export function pageLineItems(page: LocatedPage): LineItemTable[] {
  const lines = placedLines(page);
  const headerAt = new Map<number, HeaderCell[]>();
  lines.forEach((line, index) => {
    const cells = readsAsHeader(line, lineWords(line));
    if (cells) headerAt.set(index, cells);
  });
  const found: LineItemTable[] = [];
  let after = 0;
  for (const index of headerAt.keys()) {
    if (index < after) continue;
    const { first, last } = headerBand(lines, index);
    // The band's line with the most labelled cells is the header line; the others name its columns.
    let main = index;
    for (let i = first; i <= last; i++) if ((labelledCount(headerAt.get(i)) > labelledCount(headerAt.get(main)))) main = i;
    const cellsOf = (from: number, to: number) => lines.slice(from, to).flatMap((line) => headerCells(lineWords(line), line.box[3]).cells);
    const columns = withDescription(bandColumns(headerAt.get(main)!, cellsOf(first, main), cellsOf(main + 1, last + 1)), lines.slice(last + 1, last + 4));
    const { rows, end, closed } = tableBody(lines, last, columns, new Set([...headerAt.keys()].filter((key) => key > last)));
    after = end;
    const amountColumn = columns.findLastIndex((column) => column.kind === 'amount');
    if (rows.length === 0) continue;
    found.push({
      page: page.page,
      header: columns.map((column) => column.name),
      rows: rows.map((row) => row.cells),
      box: unionBox(lines.slice(first, end).map((line) => line.box))!,
      closed,
      reconciled: amountColumn === -1 ? false : sumsToSubtotal(rows.map((row) => row.cells[amountColumn]!), lines, end),
      amountColumn,
    });
  }
  return found;
}
