import { findAmounts, foldAccents } from '../values.ts';
import { closingPattern, lineWords, sumsToSubtotal, type LineItemTable, type Word } from './line-items.ts';
import { placedLines, unionBox, type LocatedPage, type PlacedLine } from './page-lines.ts';

/**
 * The lines of a receipt (or an invoice whose table header did not read) above its total: no header names
 * the columns, so a line is an item when it ends in an amount aligned with the amounts below it. Lines
 * between items without an amount are the item's details ("2 x 0,99", a barcode) or, above an amount
 * line with no words of its own, its description. One upward pass from the total.
 */
export function pageReceiptLines(page: LocatedPage): LineItemTable | null {
  const lines = placedLines(page);
  let tried = 0;
  for (let total = 1; total < lines.length && tried < 6; total++) {
    if (!opensTotals(lines, total)) continue;
    tried++;
    const entries = entriesAbove(lines, total);
    const rows = receiptRows(entries);
    if (rows.length === 0) continue;
    const used = entries.slice(entries.findIndex((entry) => entry.amount !== null)).map((entry) => entry.line.box);
    return { page: page.page, header: ['description', 'amount'], rows, box: unionBox(used)!, closed: true, reconciled: sumsToSubtotal(rows.map((row) => row[1]!), lines, total), amountColumn: 1 };
  }
  return null;
}

interface Entry {
  line: PlacedLine;
  amount: TrailingAmount | null;
}

/** The lines above the total, up to a wide gap, another total or a third line in a row without an aligned amount. */
function entriesAbove(lines: readonly PlacedLine[], total: number): Entry[] {
  const entries: Entry[] = [];
  let reference: number | null = null;
  let misses = 0;
  for (let index = total - 1; index >= 0; index--) {
    const [line, below] = [lines[index]!, lines[index + 1]!];
    const height = Math.max(line.box[3], below.box[3]);
    // The total block may stand apart from the items; the items themselves are close together.
    if (below.box[1] - (line.box[1] + line.box[3]) > height * (index === total - 1 ? 6 : 2.5) || opensTotals(lines, index)) break;
    const amount = trailingAmount(line);
    if (amount && (reference === null || Math.abs(amount.right - reference) <= height * 3)) {
      reference ??= amount.right;
      misses = 0;
      entries.unshift({ line, amount });
    } else {
      if (++misses > 2) break;
      entries.unshift({ line, amount: null });
    }
  }
  return entries;
}

/** The total line: a cell opens with a total, subtotal, tax or amount-due label, and an amount ends it or the next line. */
function opensTotals(lines: readonly PlacedLine[], index: number): boolean {
  const line = lines[index]!;
  const cells = line.text.split('\t').map((cell) => foldAccents(cell.trim()).replace(/^[*\s]+/, ''));
  const at = cells.findIndex((cell) => closingPattern.test(cell));
  if (at === -1) return false;
  return trailingAmount(line) !== null || (at === 0 && index + 1 < lines.length && trailingAmount(lines[index + 1]!) !== null);
}

interface TrailingAmount {
  text: string;
  /** The line's text before the amount. */
  before: string;
  right: number;
}

/** The amount a line ends with, a tax code of one or two characters after it allowed ("1,99 A", "49.99 19"). */
function trailingAmount(line: PlacedLine): TrailingAmount | null {
  const words: Word[] = lineWords(line);
  let last = words.length - 1;
  const isAmount = (word: Word | undefined) => word !== undefined && findAmounts(word.text).some((amount) => amount.end - amount.start >= word.text.replace(/^[-(]/, '').length - 1);
  if (!isAmount(words[last]) && words[last] && words[last]!.text.length <= 2) last--;
  const word = words[last];
  if (!isAmount(word) || last === 0 && words.length === 1) return null;
  return { text: word!.text, before: words.slice(0, last).map((other) => other.text).join(' '), right: word!.right };
}

/** Has words of its own: a run of four letters that is not a currency code. */
const describes = (text: string) => /\p{L}{4,}/u.test(text.replace(/\b(?:eur|euro|usd|aud)\b/gi, ''));

function receiptRows(entries: readonly Entry[]): string[][] {
  const rows: string[][] = [];
  let pending: string[] = [];
  for (const { line, amount } of entries) {
    if (!amount) {
      pending.push(line.text.replace(/\t/g, ' '));
      continue;
    }
    // An amount line without words takes the one or two lines just above as its description.
    const taken = describes(amount.before) ? [] : pending.splice(-2);
    if (rows.length > 0 && pending.length > 0) rows.at(-1)![0] = `${rows.at(-1)![0]} ${pending.join(' ')}`.trim();
    rows.push([[...taken, amount.before].join(' ').trim(), amount.text]);
    pending = [];
  }
  if (rows.length > 0 && pending.length > 0) rows.at(-1)![0] = `${rows.at(-1)![0]} ${pending.join(' ')}`.trim();
  return rows;
}
