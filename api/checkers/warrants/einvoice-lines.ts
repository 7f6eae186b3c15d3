import type { PageText } from '../../documents/types.ts';
import type { EInvoice } from '../extract/einvoice.ts';
import { closingPattern, pageLineItems } from '../extract/options/line-items.ts';
import { locatePage } from '../extract/options/page-lines.ts';
import { findAmounts, foldAccents } from '../extract/values.ts';
import { lineOfText, nameWords, same, type Comparison } from './einvoice-comparison.ts';

/**
 * The printed line table beside the XML's lines. Rows are the table's rows with an amount (a description's
 * second line, a gross-price note under a row, carries none). With as many rows as the XML has lines, each row
 * is compared with the line of its position; otherwise rows and lines are paired one to one, by amount and
 * description together, then by amount alone, then by description alone, each only where the pairing is the
 * only one either side has. A row whose amount is no figure the XML states disagrees with its line (a gross
 * column, a rounded price, is another figure the XML states and is not evidence).
 *
 * When every XML line found its row, a row left over whose amount the XML states nowhere but as another line's
 * own amount or price, or as the taxable amount of a rate that line alone bears (so not a total, an allowance or
 * charge of a line or the invoice, a tax) is a line the print has and the XML lacks. So is a row left over
 * whose amount is what the XML's lines fall short of the lines' sum it states (BT-106, which EN 16931's rule
 * BR-CO-10 says is their sum), whatever else the XML states it as: with one of two lines taken out of the
 * XML, the line left over is often the net total too. When every row found
 * its line, an XML line left over whose amount and description no page shows is one the print lacks. Any other
 * shape (rows and lines both left over) is a table read otherwise than the XML is laid out, and not evidence.
 */

interface Row {
  page: number;
  heading: string;
  cell: string;
  amount: number;
  /** The row's words, folded: what a line's description is looked for in. */
  words: Set<string>;
  description: string;
}

interface XmlLine {
  /** 1-based position among the XML's lines. */
  number: number;
  amount: number;
  description: string | null;
  words: Set<string>;
}

/** A row shows a line's description when it has at least this share of the description's words. */
const DESCRIPTION_SHARE = 0.5;

export function lineComparisons(invoice: EInvoice, pages: readonly PageText[], figures: readonly number[], shownPage: (value: number) => number | null): Comparison[] {
  const lines: XmlLine[] = invoice.lines.flatMap((line, index) => (line.amount === null ? [] : [{ number: index + 1, amount: line.amount, description: line.description, words: nameWords(line.description ?? '') }]));
  const rows = printedRows(pages);
  if (lines.length === 0 || rows.length === 0) return [];
  const path = invoice.paths.line_amount;
  const amountDiffers = (row: Row, line: XmlLine) => !same(row.amount, line.amount) && !figures.some((figure) => same(row.amount, figure));
  const disagreement = (row: Row, line: XmlLine): Comparison => ({
    label: `amount of line ${line.number}`,
    xml: Math.abs(line.amount).toFixed(2),
    path,
    shownOn: shownPage(line.amount),
    printed: null,
    mustBePrinted: false,
    disagreeing: [{ value: Math.abs(row.amount).toFixed(2), page: row.page, line: lineOfText(pages, row.page, row.cell), naming: `in the "${row.heading}" column of line ${line.number}` }],
    alike: [],
  });
  if (rows.length === lines.length) return lines.flatMap((line, index) => (amountDiffers(rows[index]!, line) ? [disagreement(rows[index]!, line)] : []));
  const pairs = pairRowsWithLines(rows, lines);
  const comparisons = pairs.flatMap(([row, line]) => (amountDiffers(row, line) ? [disagreement(row, line)] : []));
  const leftRows = rows.filter((row) => !pairs.some(([paired]) => paired === row));
  const leftLines = lines.filter((line) => !pairs.some(([, paired]) => paired === line));
  const count = `${lines.length} line${lines.length === 1 ? '' : 's'}`;
  if (leftLines.length === 0) {
    const gap = linesSumGap(invoice);
    for (const row of leftRows) {
      const missingLine = gap !== null && Math.abs(Math.abs(row.amount) - Math.abs(gap.stated - gap.sum)) <= gap.tolerance;
      if (row.words.size === 0 || (!missingLine && statedBesideLines(row, figures, invoice))) continue;
      const place = { value: Math.abs(row.amount).toFixed(2), page: row.page, line: lineOfText(pages, row.page, row.cell), naming: `in the "${row.heading}" column of a row "${row.description}"` };
      const short = missingLine ? `; the XML's lines sum to ${gap.sum.toFixed(2)}, ${Math.abs(row.amount).toFixed(2)} short of the ${gap.stated.toFixed(2)} it states as their sum` : '';
      comparisons.push({ label: 'line items', xml: count, path, shownOn: null, printed: null, mustBePrinted: false, disagreeing: [place], alike: [], elsewhere: `a row that no line of the XML has (every XML line has its own row${short})` });
    }
  }
  if (leftRows.length === 0) {
    const pageWords = pages.map((page) => nameWords(page.text));
    for (const line of leftLines) {
      if (shownPage(line.amount) !== null || (line.words.size > 0 && pageWords.some((words) => shareOf(line.words, words) >= DESCRIPTION_SHARE))) continue;
      const table = rows[0]!;
      const place = { value: 'no row', page: table.page, line: lineOfText(pages, table.page, table.cell), naming: `with its amount or description in the line table (every other row is an XML line's)` };
      comparisons.push({ label: `line ${line.number}${line.description ? ` ("${line.description}")` : ''}`, xml: Math.abs(line.amount).toFixed(2), path, shownOn: null, printed: null, mustBePrinted: false, disagreeing: [place], alike: [] });
    }
  }
  return comparisons;
}

/** The rows of every printed line table that carry an amount, in page order; the total block's rows left out. */
function printedRows(pages: readonly PageText[]): Row[] {
  return pages.flatMap((page) =>
    pageLineItems(locatePage(page)).flatMap((table) => {
      if (table.amountColumn === -1) return [];
      const heading = table.header[table.amountColumn]!;
      // A row that is the total block's ("Total HT 530,75 €") closes the table, as extraction's does at a line start.
      return table.rows
        .filter((row) => !row.some((cell) => closingPattern.test(foldAccents(cell.trim()))))
        .flatMap((row): Row[] => {
          const amount = findAmounts(row[table.amountColumn] ?? '').at(-1)?.value;
          if (amount === undefined) return [];
          const text = row.filter((_, index) => index !== table.amountColumn).join(' ');
          // The description is the row's longest run of letters, for the sentence.
          const description = row.filter((cell) => /\p{L}{3}/u.test(cell)).sort((a, b) => b.length - a.length)[0]?.trim() ?? '';
          return [{ page: table.page, heading, cell: (row[table.amountColumn] ?? '').trim(), amount, words: new Set([...nameWords(text)].filter((word) => /\p{L}/u.test(word))), description }];
        });
    }),
  );
}

/**
 * Whether the XML states the figure other than as a line's amount or unit price: it occurs among the XML's figures
 * more often than the lines' own amounts and prices account for (an allowance row "Abschlag -100,00" under a line).
 */
function statedBesideLines(row: Row, figures: readonly number[], invoice: EInvoice): boolean {
  const occurrences = figures.filter((figure) => same(figure, row.amount)).length;
  const asLines = invoice.lines.reduce((count, line) => count + [line.amount, line.unit_price].filter((value) => value !== null && same(value, row.amount)).length, 0);
  // A line alone at its VAT rate has its amount stated again as that rate's taxable amount: a row described in
  // words ("Trennblätter A4") is a line, not the breakdown's row, which names a rate and a tax.
  const asBases = row.words.size >= 2 ? invoice.tax_breakdown.filter((entry) => entry.basis !== null && same(entry.basis, row.amount)).length : 0;
  return occurrences > asLines + asBases;
}

/**
 * The XML's line amounts beside the lines' sum it states (BT-106), when the two differ: null when it states
 * none, when no line with an amount was read, when a line with a quantity or price has no amount (it cannot be summed), or when they agree. Each
 * line's amount is rounded to the cent, so the sum may miss the stated one by half a cent a line.
 */
export function linesSumGap(invoice: EInvoice): { sum: number; stated: number; tolerance: number } | null {
  if (invoice.line_total === null || invoice.lines.some((line) => line.amount === null && (line.quantity !== null || line.unit_price !== null))) return null;
  const amounts = invoice.lines.flatMap((line) => (line.amount === null ? [] : [line.amount]));
  if (amounts.length === 0) return null;
  const sum = Math.round(amounts.reduce((total, value) => total + value, 0) * 100) / 100;
  const tolerance = 0.005 * (amounts.length + 1);
  // A credit note's totals are read signed, its lines as printed: the sum agrees in size either way.
  const agrees = Math.abs(invoice.line_total - sum) <= tolerance || Math.abs(Math.abs(invoice.line_total) - Math.abs(sum)) <= tolerance;
  return agrees ? null : { sum, stated: invoice.line_total, tolerance };
}

/** The share of a description's words a row shows. */
function shareOf(description: ReadonlySet<string>, words: ReadonlySet<string>): number {
  return description.size === 0 ? 0 : [...description].filter((word) => words.has(word)).length / description.size;
}

/** Rows and lines paired one to one, in three passes, each pair the only candidate of both its row and its line. */
function pairRowsWithLines(rows: readonly Row[], lines: readonly XmlLine[]): [Row, XmlLine][] {
  const pairs: [Row, XmlLine][] = [];
  const tests: ((row: Row, line: XmlLine) => boolean)[] = [
    (row, line) => same(row.amount, line.amount) && shareOf(line.words, row.words) >= DESCRIPTION_SHARE,
    (row, line) => same(row.amount, line.amount),
    (row, line) => shareOf(line.words, row.words) >= DESCRIPTION_SHARE,
  ];
  for (const fits of tests) {
    const freeRows = rows.filter((row) => !pairs.some(([paired]) => paired === row));
    const freeLines = lines.filter((line) => !pairs.some(([, paired]) => paired === line));
    for (const row of freeRows) {
      const candidates = freeLines.filter((line) => fits(row, line));
      if (candidates.length !== 1) continue;
      const line = candidates[0]!;
      if (freeRows.filter((other) => fits(other, line)).length === 1) pairs.push([row, line]);
    }
  }
  return pairs;
}
