import type { PageText } from '../../documents/types.ts';
import type { Signal } from './signal.ts';

/**
 * Invoice arithmetic: line items (quantity × unit price = amount) against the subtotal, GST at 10% and the
 * total. Australian GST is 10% of the GST-exclusive price, so on a GST-inclusive total it is one eleventh
 * (A New Tax System (Goods and Services Tax) Act 1999, s 9-70; the ATO's "1/11th of the GST-inclusive
 * price"). Figures are read from the page text: one line per row, a tab between cells set apart.
 */

/** A cent per line of arithmetic: amounts are rounded to cents line by line before they are added up. */
const centsPerLine = 0.01;

/** A whole cell that is an amount or quantity: "$1,234.50", "AUD 99.00", "2", "-15.00". */
const numberCell = /^(?:AUD\s*)?(-)?\s*\$?\s*((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)$/i;

type SummaryField = 'Subtotal' | 'GST' | 'Total';

interface Figure {
  value: number;
  page: number;
}

interface LineItem extends Figure {
  description: string;
  quantity: number;
  /** Null on a receipt line that gives only the quantity and the line's amount. */
  unitPrice: number | null;
  line: number;
}

/** A receipt line's first cell: "11 x Switchboard upgrade" (the amount is the line's other cell). */
const receiptLine = /^(\d+(?:\.\d+)?)\s*[x×]\s+(\S.*)$/i;

function parseNumber(cell: string): number | null {
  const match = numberCell.exec(cell.trim());
  if (!match) return null;
  const value = Number(match[2]!.replaceAll(',', ''));
  return match[1] ? -value : value;
}

/** Which summary figure a row's label names: "Total (incl. GST)" is the total, "GST included" the tax. */
function summaryField(label: string): SummaryField | null {
  const text = label.toLowerCase();
  if (/sub-?\s?total|\bex(?:cl(?:uding)?)?\.?\s*gst|before gst|gst[- ]exclusive/.test(text)) return 'Subtotal';
  if (/\bgst\b/.test(text) && !/(?:total|due|payable)\s*\(?\s*inc/.test(text)) return 'GST';
  if (/\btotal\b|amount\s+(?:due|payable)|balance\s+due/.test(text)) return 'Total';
  return null;
}

const money = (value: number): string => value.toFixed(2);
const near = (a: number, b: number, tolerance: number): boolean => Math.abs(a - b) <= tolerance + 1e-9;

interface InvoiceFigures {
  items: LineItem[];
  summary: Partial<Record<SummaryField, Figure>>;
  mentionsGstFree: boolean;
}

/**
 * Reads the table rows under a header naming quantity, price and amount columns (or receipt lines
 * "quantity x description, amount"), and the first Subtotal, GST and Total rows after them. A row's
 * numbers align with the header's right-hand columns.
 */
function readInvoice(pages: PageText[]): InvoiceFigures {
  const items: LineItem[] = [];
  const summary: Partial<Record<SummaryField, Figure>> = {};
  let columns: { quantity: number; unitPrice: number; amount: number; count: number } | null = null;
  let itemsClosed = false;
  let mentionsGstFree = false;
  for (const page of pages) {
    const lines = page.text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (/gst[- ]free|input[- ]taxed|gst exempt/i.test(line)) mentionsGstFree = true;
      const cells = line.split('\t').map((cell) => cell.trim()).filter((cell) => cell !== '');
      const header = headerColumns(cells);
      if (header) {
        columns = header;
        continue;
      }
      const numbers = cells.map(parseNumber);
      const label = cells.filter((_, position) => numbers[position] === null).join(' ');
      const field = summaryField(label);
      const values = numbers.filter((value): value is number => value !== null);
      if (field && values.length >= 1 && values.length <= 2) {
        itemsClosed = items.length > 0 || itemsClosed;
        summary[field] ??= { value: values.at(-1)!, page: page.page };
        continue;
      }
      const receipt = cells.length === 2 && numbers[0] === null && numbers[1] !== null ? receiptLine.exec(cells[0]!) : null;
      if (receipt && !itemsClosed) {
        items.push({ description: receipt[2]!, quantity: Number(receipt[1]), unitPrice: null, value: numbers[1]!, page: page.page, line: index + 1 });
        continue;
      }
      if (!columns || itemsClosed || numbers.length < 3) continue;
      // Align the row's cells with the header's from the right: descriptions may span several cells.
      const shift = columns.count - cells.length;
      const at = (column: number): number | null => numbers[column - shift] ?? null;
      const quantity = at(columns.quantity);
      const unitPrice = at(columns.unitPrice);
      const amount = at(columns.amount);
      if (quantity === null || unitPrice === null || amount === null) continue;
      const description = cells.slice(0, Math.max(1, columns.quantity - shift)).join(' ');
      items.push({ description, quantity, unitPrice, value: amount, page: page.page, line: index + 1 });
    }
  }
  return { items, summary, mentionsGstFree };
}

function headerColumns(cells: string[]): { quantity: number; unitPrice: number; amount: number; count: number } | null {
  const find = (pattern: RegExp): number => cells.findIndex((cell) => pattern.test(cell));
  const quantity = find(/^(?:qty|quantity|units|hours|hrs)\b/i);
  const unitPrice = find(/unit\s*price|^price\b|^rate\b|unit\s*cost|^unit\b/i);
  const amount = cells.findLastIndex((cell) => /amount|total|line\s*total|^ext/i.test(cell));
  if (quantity < 0 || unitPrice < 0 || amount < 0 || !(quantity < unitPrice && unitPrice < amount)) return null;
  return { quantity, unitPrice, amount, count: cells.length };
}

export function arithmeticSignals(pages: PageText[]): Signal[] {
  const { items, summary, mentionsGstFree } = readInvoice(pages);
  const signals: Signal[] = [];
  for (const item of items) {
    if (item.unitPrice === null) continue;
    const product = item.quantity * item.unitPrice;
    if (!near(product, item.value, centsPerLine)) {
      signals.push({
        code: 'arith_line_item_mismatch',
        group: 'arithmetic',
        severity: 'medium',
        title: 'Line item does not multiply out',
        found: `"${item.description}": ${item.quantity} × ${money(item.unitPrice)} = ${money(product)}, but the line says ${money(item.value)}.`,
        where: { page: item.page, field: `line ${item.line}: ${item.description}` },
      });
    }
  }
  const { Subtotal: subtotal, GST: gst, Total: total } = summary;
  const itemsSum = items.reduce((sum, item) => sum + item.value, 0);
  const itemTolerance = centsPerLine * Math.max(1, items.length);
  if (items.length > 0 && subtotal && !near(itemsSum, subtotal.value, itemTolerance)) {
    signals.push({
      code: 'arith_items_subtotal_mismatch',
      group: 'arithmetic',
      severity: 'high',
      title: 'Line items do not add up',
      found: `The ${items.length} line items add up to ${money(itemsSum)}, but the subtotal says ${money(subtotal.value)} (a difference of ${money(subtotal.value - itemsSum)}).`,
      where: { page: subtotal.page, field: 'Subtotal' },
    });
  }
  // 10% of the GST-exclusive subtotal when one is stated, else one eleventh of the GST-inclusive total.
  const expectedGst = subtotal ? Math.round(subtotal.value * 10) / 100 : total ? Math.round((total.value * 100) / 11) / 100 : null;
  if (gst && expectedGst !== null && !near(gst.value, expectedGst, itemTolerance)) {
    const basis = subtotal ? `10% of the subtotal ${money(subtotal.value)}` : `one eleventh of the GST-inclusive total ${money(total!.value)}`;
    signals.push({
      code: 'arith_gst_not_ten_percent',
      group: 'arithmetic',
      severity: mentionsGstFree ? 'low' : 'medium',
      title: 'GST is not 10%',
      found: `GST is ${money(gst.value)}, but ${basis} is ${money(expectedGst)}${mentionsGstFree ? ' (the document mentions GST-free items, which would explain a lower figure)' : ''}.`,
      where: { page: gst.page, field: 'GST' },
    });
  }
  if (total && subtotal && gst && !near(subtotal.value + gst.value, total.value, centsPerLine)) {
    signals.push({
      code: 'arith_total_mismatch',
      group: 'arithmetic',
      severity: 'high',
      title: 'Total is not subtotal plus GST',
      found: `Subtotal ${money(subtotal.value)} + GST ${money(gst.value)} = ${money(subtotal.value + gst.value)}, but the total says ${money(total.value)}.`,
      where: { page: total.page, field: 'Total' },
    });
  } else if (total && !subtotal && items.length > 0 && !near(itemsSum, total.value, itemTolerance) && !(gst && near(itemsSum + gst.value, total.value, itemTolerance))) {
    signals.push({
      code: 'arith_total_mismatch',
      group: 'arithmetic',
      severity: 'high',
      title: 'Total is not the sum of the items',
      found: `The ${items.length} line items add up to ${money(itemsSum)}${gst ? ` (${money(itemsSum + gst.value)} with GST ${money(gst.value)})` : ''}, but the total says ${money(total.value)}.`,
      where: { page: total.page, field: 'Total' },
    });
  }
  return signals;
}
