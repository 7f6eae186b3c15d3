import type { EmbeddedFile } from '../../documents/pdf.ts';
import type { PageText } from '../../documents/types.ts';
import { parseEInvoice, type EInvoice, type EInvoicePathField } from '../extract/einvoice.ts';
import { invoiceCellPages, labelledAmounts, readInvoiceFields, type InvoiceField, type LabelledAmount } from '../extract/invoice-fields.ts';
import type { LocatedValue } from '../extract/locate.ts';
import { horizontalOverlap, type CellPage, type PageCell } from '../extract/page-cells.ts';
import vocabulary from '../extract/vocabulary.json' with { type: 'json' };
import { validIban } from '../extract/options/identifier-checks.ts';
import { escapeRegExp, findAmounts, foldAccents } from '../extract/values.ts';
import { PDFDict, PDFName, PDFRef } from 'pdf-lib';
import { lineComparisons, linesSumGap } from './einvoice-lines.ts';
import { referenceComparisons } from './einvoice-references.ts';
import { nameWords, same, squash, type Comparison, type PrintedPlace } from './einvoice-comparison.ts';
import type { Signal } from './signal.ts';
import { asDict, textOf, type RevisionState } from './pdf-objects.ts';
import { OBJECT_LIMIT, refText } from './pdf-revisions.ts';
import { pdfSignal } from './pdf-signals.ts';

/**
 * An embedded e-invoice (Factur-X, ZUGFeRD, XRechnung, UBL) compared with the page a person reads. The XML is
 * what accounting software books and the print is what a person approves, so a value that differs between
 * them is what an edit of one of the two leaves behind. A value counts as printed when it appears anywhere on
 * the pages (amounts as amounts, dates as dates, names and accounts as their letters and digits), so a print
 * that shows it in an unexpected place still agrees; a disagreement needs the XML value absent from every page
 * and the page's own reading of that field (extraction's invoice reader) giving something else.
 *
 * An amount is also compared at every place the page prints it, since an edit may change one of the places a
 * total is printed and leave the others: every place labelled as that amount ("Total", "Amount due",
 * "Bruttosumme", "Solde à payer"…, extraction's vocabulary), every row of the line table (the XML line of the
 * same position) and every row of the VAT breakdown (the XML's taxable amount at the row's rate). A place whose
 * label is all its cell says must print the XML value of its meaning (a grand total or amount due one of the
 * two, a net total the tax basis or the lines' sum, a tax the tax total or a rate's tax), not merely some figure
 * the XML states. A label with other words or a rate beside it ("TVA 0% export", "Gesamtbetrag der
 * Zuschläge"), and a table row, may show another of the invoice's figures (a breakdown row's base, a gross
 * line amount), so there only a figure the XML states nowhere disagrees. Each disagreeing place is its own
 * signal, with its page, and its line in the sentence.
 */

/** Where a comparison's evidence lies: the embedded file's object in the PDF. */
export type EmbeddedPlace = (filename: string) => Pick<Signal['where'], 'object' | 'byte_offset'>;


/** The first attachment that is an e-invoice, with its file name; null when none is. */
export function embeddedEInvoice(files: readonly EmbeddedFile[]): { file: EmbeddedFile; invoice: EInvoice } | null {
  for (const file of files) {
    const invoice = parseEInvoice(new TextDecoder('utf-8').decode(file.bytes));
    if (invoice) return { file, invoice };
  }
  return null;
}

/** The e-invoice signals of one PDF: a `high` per value the print contradicts, else one note of what agreed. */
export function einvoiceSignals(files: readonly EmbeddedFile[], pages: readonly PageText[], place: EmbeddedPlace): Signal[] {
  if (files.length === 0 || pages.length === 0) return [];
  const found = embeddedEInvoice(files);
  if (!found) return [];
  const { file, invoice } = found;
  const xml = new TextDecoder('utf-8').decode(file.bytes);
  const comparisons = compareWithPages(invoice, pages, xmlFigures(xml));
  const object = place(file.filename);
  const inconsistent = linesInconsistency(invoice, file.filename, object);
  const mismatches = comparisons.flatMap((comparison) => mismatchSignals(comparison, file.filename, object));
  if (mismatches.length > 0) return [...mismatches, ...inconsistent];
  const agreed = comparisons.filter((comparison) => comparison.shownOn !== null);
  const unshown = comparisons.filter((comparison) => comparison.shownOn === null).map((comparison) => comparison.label);
  const rootPath = invoice.paths.grand_total?.split('/')[0];
  const sentence = agreed.length > 0 ? `the page shows the same ${agreed.map((comparison) => comparison.label).join(', ')}` : 'no value it states could be found on the page';
  const rest = unshown.length > 0 ? `; not printed, so not compared: ${unshown.join(', ')}` : '';
  return [pdfSignal('einvoice_print_agrees', `The embedded e-invoice ${file.filename} (${invoice.syntax}) and the printed page agree: ${sentence}${rest}.`, { page: agreed[0]?.shownOn ?? 1, ...object, ...(rootPath ? { field: rootPath } : {}) }, agreed.length > 0 ? 'info' : 'low'), ...inconsistent];
}

/**
 * EN 16931's rule BR-CO-10: the lines' sum an invoice states (BT-106) is the sum of its lines' net amounts. A
 * validator rejects a Factur-X, ZUGFeRD 2, XRechnung or UBL invoice that breaks it, so software that writes one
 * keeps it; an XML that breaks it had a line taken out or put in, or an amount changed, by hand. ZUGFeRD 1
 * predates the standard, and its writers summed gross and net amounts alike (a real 2014 sample's lines are
 * gross), so it is not held to the rule. `medium`, not `high`: the XML disagrees with itself, not with the page a
 * person approved.
 */
function linesInconsistency(invoice: EInvoice, filename: string, object: ReturnType<EmbeddedPlace>): Signal[] {
  if (invoice.syntax === 'zugferd1') return [];
  const gap = linesSumGap(invoice);
  if (!gap) return [];
  const counted = invoice.lines.filter((line) => line.amount !== null).length;
  const lines = `${counted} line${counted === 1 ? '' : 's'}`;
  const field = invoice.paths.line_amount ? { field: invoice.paths.line_amount } : {};
  return [pdfSignal('einvoice_lines_do_not_add_up', `The embedded e-invoice ${filename} states its lines' sum as ${Math.abs(gap.stated).toFixed(2)}, but its ${lines} sum to ${Math.abs(gap.sum).toFixed(2)}; EN 16931 rule BR-CO-10 has the two equal, and a validator rejects an e-invoice that breaks it, so the XML was probably changed after it was written.`, { page: 1, ...object, ...field })];
}

/** A `high` for each place that prints another figure than the XML, or one for a value no page shows when the page reads it otherwise. */
function mismatchSignals(comparison: Comparison, filename: string, object: ReturnType<EmbeddedPlace>): Signal[] {
  const { printed, disagreeing, shownOn, xml, label } = comparison;
  const where = (page: number): Signal['where'] => ({ page, ...object, ...(comparison.path ? { field: comparison.path } : {}) });
  const states = `The embedded e-invoice ${filename} gives the ${label} as ${xml}`;
  if (disagreeing.length > 0) {
    const alike = comparison.alike.map((other) => ` and the ${other.label} as ${other.xml}`).join('');
    const elsewhere = comparison.elsewhere ?? (shownOn === null ? `and no page shows ${xml}` : `though page ${shownOn} shows ${xml}: the print was changed in one place and not in the other`);
    return disagreeing.map((place) => pdfSignal('einvoice_print_mismatch', `${states}${alike}; page ${place.page} prints ${place.value} ${place.naming} (line ${place.line}), ${elsewhere}.`, where(place.page)));
  }
  if (shownOn !== null || (printed === null && !comparison.mustBePrinted)) return [];
  const sentence = printed ? `page ${printed.page} prints ${printed.value}, and no page shows ${xml}` : 'no page prints that amount, though an invoice prints its total';
  return [pdfSignal('einvoice_print_mismatch', `${states}; ${sentence}.`, where(printed?.page ?? 1))];
}

/** Every figure the XML states in an element (amounts, rates, quantities), in absolute value: what a labelled place may show without contradicting it. */
function xmlFigures(xml: string): number[] {
  return [...xml.matchAll(/>\s*(-?\d+(?:\.\d+)?)\s*</g)].map((match) => Math.abs(Number(match[1])));
}

/** Labels of less weight than this name other figures as often as the amount ("amount", "importe"): their places are not compared. */
const MIN_LABEL_WEIGHT = 0.5;

/**
 * The labelled places of one amount that print another figure: a place whose label is all its cell says,
 * another figure than the XML values of its meaning (`accepted`); a qualified label's place, a figure the XML
 * states nowhere.
 */
function disagreeingPlaces(places: readonly LabelledAmount[], fields: readonly LabelledAmount['field'][], accepted: readonly number[], figures: readonly number[], breakdownRows: ReadonlySet<string>): PrintedPlace[] {
  return places
    .filter((place) => !breakdownRows.has(`${place.page}:${place.line}`))
    .filter((place) => fields.includes(place.field) && place.weight >= MIN_LABEL_WEIGHT && !accepted.some((value) => same(place.value, value)))
    .filter((place) => !place.qualified || !figures.some((figure) => same(place.value, figure)))
    .map((place) => ({ value: Math.abs(place.value).toFixed(2), page: place.page, line: place.line, naming: `beside "${place.label}"` }));
}

/** Each value the XML states beside where the page shows it, or the page's own reading of it. */
function compareWithPages(invoice: EInvoice, pages: readonly PageText[], figures: readonly number[]): Comparison[] {
  const printed = readInvoiceFields(pages, { country: undefined, receipt: false }).fields;
  const places = labelledAmounts(pages);
  const pageAmounts = pages.map((page) => ({ page: page.page, values: findAmounts(page.text).map((amount) => Math.abs(amount.value)) }));
  const squashed = pages.map((page) => ({ page: page.page, text: squash(page.text) }));
  const pageWords = pages.map((page) => ({ page: page.page, words: nameWords(page.text) }));
  const comparisons: Comparison[] = [];
  const pathOf = (field: EInvoicePathField) => invoice.paths[field];
  const reading = (field: InvoiceField): Comparison['printed'] => {
    const value: LocatedValue | undefined = printed[field];
    return value ? { value: String(value.value), page: value.page } : null;
  };
  // The reader may take another of the invoice's figures for this one (a net total beside a "VAT" label): a
  // printed figure the XML states anywhere is not evidence against it.
  const xmlAmounts = [invoice.grand_total, invoice.payable, invoice.subtotal, invoice.tax, ...invoice.lines.map((line) => line.amount)].flatMap((value) => (value === null ? [] : [Math.abs(value)]));
  const shownPage = (value: number) => pageAmounts.find((page) => page.values.some((shown) => same(shown, value)))?.page ?? null;
  // A breakdown row's tax label ("TVA 0% export") is compared as the row, not as the tax total.
  const cells = invoiceCellPages(pages);
  const breakdown = breakdownComparisons(invoice, cells, figures, shownPage);
  const amount = (label: string, field: EInvoicePathField, value: number | null, printedField: InvoiceField, labelled: readonly LabelledAmount['field'][], alike: readonly { label: string; value: number | null }[] = []) => {
    if (value === null) return;
    const shownOn = shownPage(value);
    const other = shownOn === null ? reading(printedField) : null;
    const stated = other !== null && xmlAmounts.some((known) => same(known, Number(other.value)));
    const printedAmount = other && !stated ? { value: Math.abs(Number(other.value)).toFixed(2), page: other.page } : null;
    const others = alike.flatMap((entry) => (entry.value === null || same(entry.value, value) ? [] : [{ label: entry.label, value: entry.value }])).filter((entry, index, all) => all.findIndex((first) => same(first.value, entry.value)) === index);
    const disagreeing = disagreeingPlaces(places, labelled, [value, ...others.map((entry) => entry.value)], figures, breakdown.rowLines);
    comparisons.push({ label, xml: Math.abs(value).toFixed(2), path: pathOf(field), shownOn, printed: printedAmount, mustBePrinted: field === 'grand_total' || field === 'payable', disagreeing, alike: others.map((entry) => ({ label: entry.label, xml: Math.abs(entry.value).toFixed(2) })) });
  };
  // What is payable is labelled as the total when the two are one figure; otherwise each has its own labels,
  // and a place of either may print the other (a "Total" that is what is left to pay).
  const payableApart = invoice.payable !== null && (invoice.grand_total === null || !same(invoice.payable, invoice.grand_total));
  amount('grand total', 'grand_total', invoice.grand_total, 'total', payableApart ? ['total'] : ['total', 'payable'], [{ label: 'amount due', value: invoice.payable }]);
  if (payableApart) amount('amount due', 'payable', invoice.payable, 'total', ['payable'], [{ label: 'grand total', value: invoice.grand_total }]);
  amount('net total', 'subtotal', invoice.subtotal, 'subtotal', ['subtotal'], [{ label: "lines' sum", value: invoice.line_total }]);
  const rateTaxes = invoice.tax_breakdown.length > 1 ? invoice.tax_breakdown.map((row) => ({ label: `tax at ${row.rate ?? '?'}%`, value: row.tax })) : [];
  amount('tax total', 'tax', invoice.tax, 'tax', ['tax'], rateTaxes);
  comparisons.push(...lineComparisons(invoice, pages, figures, shownPage), ...breakdown.comparisons, ...scheduleComparisons(invoice, cells, figures, shownPage));
  comparisons.push(...referenceComparisons(invoice, pages, printed));
  for (const [label, field, value, printedField] of [['seller', 'seller_name', invoice.seller_name, 'supplier_name'], ['buyer', 'buyer_name', invoice.buyer_name, 'buyer_name']] as const) {
    if (value === null || squash(value) === '') continue;
    const shownOn = squashed.find((page) => page.text.includes(squash(value)))?.page ?? pageWords.find((page) => mostWordsShown(value, page.words))?.page ?? null;
    comparisons.push({ label: `${label} name`, xml: `"${value}"`, path: pathOf(field), shownOn, printed: shownOn === null ? nameReading(reading(printedField), value) : null, mustBePrinted: false, disagreeing: [], alike: [] });
  }
  comparisons.push(...accountComparisons(invoice, pages, squashed));
  return comparisons;
}

const breakdownColumns = vocabulary.tax_breakdown_columns;
const headingKey = (text: string) => foldAccents(text).toLowerCase().replace(/\s+/g, ' ').replace(/[\s:]+$/, '').trim();
const basisHeadings = new Set(Object.values(breakdownColumns.basis).flat().map(headingKey));
const breakdownHeadings = new Set(Object.values(breakdownColumns.breakdown_heading).flat().map(headingKey));

/** A line opening with a sum's label ends a breakdown: its rows open with a tax word ("Umsatzsteuer", "TVA 0%"), a sum's line with its name. */
const sumLabels = (['total', 'payable', 'subtotal', 'allowances', 'charges', 'prepaid'] as const).flatMap((field) => Object.values(vocabulary.fields[field]).flat().map((entry) => foldAccents(String(entry[0]))));
const sumLinePattern = new RegExp(`^(?:${sumLabels.map(escapeRegExp).join('|')})(?![\\p{L}\\d])`, 'u');

/** Lines below a VAT breakdown's header read as its rows at most, and the gap (in line heights) that ends it. */
const BREAKDOWN_ROWS = 10;
const BREAKDOWN_GAP = 4;

/**
 * Each row of a printed VAT breakdown (a header row with a taxable-amount heading and a rate or tax heading,
 * vocabulary.json `tax_breakdown_columns`) beside the XML's taxable amount at the row's rate (the printed
 * percentage, or the only rate the XML has): a row whose base is no figure the XML states disagrees.
 */
function breakdownComparisons(invoice: EInvoice, pages: readonly CellPage[], figures: readonly number[], shownPage: (value: number) => number | null): { comparisons: Comparison[]; rowLines: Set<string> } {
  const breakdown = invoice.tax_breakdown.filter((row) => row.basis !== null);
  const comparisons: Comparison[] = [];
  const rowLines = new Set<string>();
  if (breakdown.length === 0) return { comparisons, rowLines };
  for (const page of pages) {
    page.lines.forEach((header, lineIndex) => {
      if (!header.some((cell) => breakdownHeadings.has(headingKey(cell.text)))) return;
      for (const heading of header.filter((cell) => basisHeadings.has(headingKey(cell.text)))) {
        for (const row of columnFigures(page, lineIndex, heading)) {
          rowLines.add(`${page.page}:${row.line[0]!.line + 1}`);
          const rate = /(\d+(?:[.,]\d+)?)\s*%/.exec(row.line.map((cell) => cell.text).join(' '))?.[1];
          const xmlRow = breakdown.length === 1 ? breakdown[0]! : breakdown.find((entry) => rate !== undefined && entry.rate !== null && Math.abs(entry.rate - Number(rate.replace(',', '.'))) < 0.001);
          if (!xmlRow || same(row.value, xmlRow.basis!) || figures.some((figure) => same(row.value, figure))) continue;
          const place = { value: Math.abs(row.value).toFixed(2), page: page.page, line: row.line[0]!.line + 1, naming: `in the "${heading.text.trim()}" column of the VAT breakdown` };
          comparisons.push({ label: `taxable amount at ${xmlRow.rate ?? '?'}%`, xml: Math.abs(xmlRow.basis!).toFixed(2), path: invoice.paths.tax_basis, shownOn: shownPage(xmlRow.basis!), printed: null, mustBePrinted: false, disagreeing: [place], alike: [] });
        }
      }
    });
  }
  return { comparisons, rowLines };
}

const scheduleAmountHeadings = new Set(Object.values(vocabulary.payment_schedule_columns.amount).flat().map(headingKey));
const dueDateHeadings = new Set(Object.values(vocabulary.fields.due_date).flat().map((entry) => headingKey(String(entry[0]))));

/** Headings of the tables compared here: a line holding one is another table's header row. */
const tableHeadings = [breakdownHeadings, basisHeadings, scheduleAmountHeadings];

/**
 * Each instalment of a printed payment schedule (a header row with a due-date heading and an amount heading,
 * vocabulary.json `payment_schedule_columns`) beside the XML's amount due: an instalment the XML states nowhere
 * disagrees (a part payment may be another figure than the amount due, so only an unknown one counts).
 */
function scheduleComparisons(invoice: EInvoice, pages: readonly CellPage[], figures: readonly number[], shownPage: (value: number) => number | null): Comparison[] {
  const due = invoice.payable ?? invoice.grand_total;
  if (due === null) return [];
  const comparisons: Comparison[] = [];
  for (const page of pages) {
    page.lines.forEach((header, lineIndex) => {
      if (!header.some((cell) => dueDateHeadings.has(headingKey(cell.text)))) return;
      for (const heading of header.filter((cell) => scheduleAmountHeadings.has(headingKey(cell.text)))) {
        for (const row of columnFigures(page, lineIndex, heading, scheduleAmountHeadings)) {
          if (same(row.value, due) || figures.some((figure) => same(row.value, figure))) continue;
          const place = { value: Math.abs(row.value).toFixed(2), page: page.page, line: row.line[0]!.line + 1, naming: `in the "${heading.text.trim()}" column of the payment schedule` };
          comparisons.push({ label: invoice.payable === null ? 'grand total' : 'amount due', xml: Math.abs(due).toFixed(2), path: invoice.paths.payable, shownOn: shownPage(due), printed: null, mustBePrinted: false, disagreeing: [place], alike: [] });
        }
      }
    });
  }
  return comparisons;
}

/** The figures under a table's heading (a breakdown's basis, a schedule's amount), one per row, to a sum's line, a gap, another header row or the row limit. */
function columnFigures(page: CellPage, headerIndex: number, heading: PageCell, ownHeadings: ReadonlySet<string> = basisHeadings): { value: number; line: PageCell[] }[] {
  const rows: { value: number; line: PageCell[] }[] = [];
  const header = page.lines[headerIndex]!;
  let bottom = heading.y + heading.height;
  for (const line of page.lines.slice(headerIndex + 1, headerIndex + 1 + BREAKDOWN_ROWS)) {
    const first = line[0]!;
    // A sum's line reaching under the heading (not a totals block set beside the table), a gap, or another header
    // row ("Règlement Date Montant") ends the table.
    const sumLine = sumLinePattern.test(foldAccents(first.text.trim())) && !(first.x0 > heading.x1);
    if (sumLine || (!Number.isNaN(first.y) && first.y - bottom > BREAKDOWN_GAP * Math.max(first.height, 6))) break;
    if (line.some((cell) => tableHeadings.some((headings) => headings.has(headingKey(cell.text))) || ownHeadings.has(headingKey(cell.text)))) break;
    bottom = Math.max(bottom, first.y + first.height);
    const under = cellUnder(line, heading, header);
    const amounts = under ? findAmounts(under.text).filter((amount) => !/%/.test(under.text.slice(amount.end, amount.end + 2))) : [];
    if (amounts.length === 1) rows.push({ value: amounts[0]!.value, line });
  }
  return rows;
}

const centre = (cell: PageCell) => (cell.x0 + cell.x1) / 2;

/**
 * The cell of a row in a heading's column: the row's figure nearest the heading, when it is nearer to it than
 * to any other heading of the header row (figures are set right or centred under a heading, rarely within it).
 */
function cellUnder(line: readonly PageCell[], heading: PageCell, header: readonly PageCell[]): PageCell | undefined {
  if (Number.isNaN(heading.x0)) return undefined;
  const withFigures = line.filter((cell) => findAmounts(cell.text).length > 0);
  const nearest = withFigures.sort((a, b) => Math.abs(centre(a) - centre(heading)) - Math.abs(centre(b) - centre(heading)))[0];
  if (!nearest || Math.abs(centre(nearest) - centre(heading)) > (heading.x1 - heading.x0 + nearest.x1 - nearest.x0) / 2 + 10) return undefined;
  const closest = [...header].sort((a, b) => Math.abs(centre(a) - centre(nearest)) - Math.abs(centre(b) - centre(nearest)))[0];
  return closest === heading || horizontalOverlap(nearest, heading) > 0.3 ? nearest : undefined;
}

/** Whether most of a name's words are on the page: "Herrn Max Mustermann" is shown by an address block reading "Max Mustermann". */
function mostWordsShown(name: string, page: ReadonlySet<string>): boolean {
  const words = [...nameWords(name)];
  return words.length > 0 && words.filter((word) => page.has(word)).length * 2 >= words.length;
}

/**
 * The page's name for a party, when it shares no word with the XML's: a print that abbreviates the name, drops
 * its legal form or writes it in another case still shares a word with it, and is not a disagreement.
 */
function nameReading(printed: Comparison['printed'], xmlName: string): Comparison['printed'] {
  if (!printed) return null;
  const printedWords = nameWords(printed.value);
  return [...nameWords(xmlName)].some((word) => printedWords.has(word)) ? null : { value: `"${printed.value}"`, page: printed.page };
}

/** The payee's IBAN (or account and BSB) beside the page's: only a page that prints a different valid IBAN (or BSB) disagrees. */
function accountComparisons(invoice: EInvoice, pages: readonly PageText[], squashed: readonly { page: number; text: string }[]): Comparison[] {
  const path = invoice.paths.payee_accounts;
  const comparisons: Comparison[] = [];
  const printedIbans = pages.flatMap((page) => findIbans(page.text).map((value) => ({ value, page: page.page })));
  const printedBsbs = pages.flatMap((page) => [...page.text.matchAll(/\bBSB\b[\s:.#-]*(\d{3})[-\s]?(\d{3})\b/gi)].map((match) => ({ value: `${match[1]}-${match[2]}`, page: page.page })));
  for (const account of invoice.payee_accounts.slice(0, 4)) {
    const id = squash(account.id).toUpperCase();
    if (id === '') continue;
    const shownOn = squashed.find((page) => page.text.toUpperCase().includes(id))?.page ?? null;
    const other = account.kind === 'iban' ? printedIbans.find((iban) => iban.value !== id) : undefined;
    comparisons.push({ label: account.kind === 'iban' ? 'IBAN' : 'account number', xml: account.id, path, shownOn, printed: shownOn === null && other ? other : null, mustBePrinted: false, disagreeing: [], alike: [] });
    const branch = account.branch?.replace(/\D/g, '');
    if (branch?.length === 6) {
      const bsb = `${branch.slice(0, 3)}-${branch.slice(3)}`;
      const bsbShownOn = printedBsbs.find((printed) => printed.value === bsb)?.page ?? squashed.find((page) => page.text.includes(branch))?.page ?? null;
      const otherBsb = printedBsbs.find((printed) => printed.value !== bsb);
      comparisons.push({ label: 'BSB', xml: bsb, path: path?.replace(/\/ID$/, '/FinancialInstitutionBranch/ID'), shownOn: bsbShownOn, printed: bsbShownOn === null && otherBsb ? otherBsb : null, mustBePrinted: false, disagreeing: [], alike: [] });
    }
  }
  return comparisons;
}

/** The object holding the embedded file `filename` (its file specification's `/EF /F` stream), or null when none is named so. */
export function embeddedFileStream(state: RevisionState, filename: string): string | null {
  const { context } = state;
  for (const [ref, object] of context.enumerateIndirectObjects().slice(0, OBJECT_LIMIT)) {
    if (!(object instanceof PDFDict) || !object.has(PDFName.of('EF'))) continue;
    const name = textOf(context, object.get(PDFName.of('UF'))) ?? textOf(context, object.get(PDFName.of('F')));
    if (name !== filename) continue;
    const stream = asDict(context.lookup(object.get(PDFName.of('EF'))))?.get(PDFName.of('F'));
    return stream instanceof PDFRef ? refText(stream) : refText(ref);
  }
  return null;
}

/** IBAN lengths of the countries whose invoices are read here (ISO 13616 registry); another country's IBAN must check as printed. */
const ibanLengths: Record<string, number> = { AT: 20, BE: 16, CH: 21, CZ: 24, DE: 22, DK: 18, ES: 24, FI: 18, FR: 27, GB: 22, IE: 22, IT: 27, LI: 21, LU: 20, NL: 18, NO: 15, PL: 28, PT: 25, SE: 24 };

/** IBANs printed on a page (grouped in fours or not), each passing its ISO 13616 check digits, without spaces. */
export function findIbans(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.toUpperCase().matchAll(/\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){10,30}\b/g)) {
    const compact = match[0].replace(/ /g, '');
    // A greedy match may run into the next word: the country's length says where the IBAN ends.
    const iban = compact.slice(0, ibanLengths[compact.slice(0, 2)] ?? compact.length);
    if (validIban(iban)) found.add(iban);
  }
  return [...found];
}
