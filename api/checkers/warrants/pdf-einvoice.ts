import type { EmbeddedFile } from '../../documents/pdf.ts';
import type { PageText } from '../../documents/types.ts';
import { parseEInvoice, type EInvoice, type EInvoicePathField } from '../extract/einvoice.ts';
import { labelledAmounts, readInvoiceFields, type InvoiceField, type LabelledAmount } from '../extract/invoice-fields.ts';
import type { LocatedValue } from '../extract/locate.ts';
import { validIban } from '../extract/options/identifier-checks.ts';
import { findAmounts, findDates, foldAccents } from '../extract/values.ts';
import { PDFDict, PDFName, PDFRef } from 'pdf-lib';
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
 * and the page's own reading of that field (extraction's invoice reader) giving something else. An amount is
 * also compared at every place the page labels as that amount ("Total", "Amount due", "Gesamtbetrag", "Zu
 * zahlen"…, extraction's vocabulary): a copy that changes one of the places a total is printed and leaves
 * the others disagrees at the changed place, though the XML's figure is still shown elsewhere. A labelled place
 * disagrees only when it shows neither the XML's figure for that amount nor any other figure the XML states (a
 * "Total" column heading over a line's amount, a tax label over a table of rates, are not evidence).
 */

/** Where a comparison's evidence lies: the embedded file's object in the PDF. */
export type EmbeddedPlace = (filename: string) => Pick<Signal['where'], 'object' | 'byte_offset'>;

interface Comparison {
  /** The field in words, for the sentence. */
  label: string;
  xml: string;
  path: string | undefined;
  /** Where the page shows the XML value, or null when no page does. */
  shownOn: number | null;
  /** The page's own reading of the field when the XML value is not shown (null: nothing to compare with). */
  printed: { value: string; page: number } | null;
  /** A value every invoice prints (its total): absent from every page, it disagrees even when the page's own reading is not known. */
  mustBePrinted: boolean;
  /** Places the page labels as this amount that print another figure, one the XML states nowhere. */
  disagreeing: PrintedPlace[];
}

/** A labelled printed place of an amount that shows another figure than the XML. */
interface PrintedPlace {
  value: string;
  page: number;
  label: string;
}

/** Amounts equal to the cent (credit notes print positive figures the XML may sign). */
const CENT = 0.006;

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
  const comparisons = compareWithPages(invoice, pages, xmlFigures(file.bytes));
  const object = place(file.filename);
  const mismatches = comparisons.filter((comparison) => comparison.disagreeing.length > 0 || (comparison.shownOn === null && (comparison.printed !== null || comparison.mustBePrinted)));
  if (mismatches.length > 0) {
    return mismatches.map((comparison) => {
      const printed = comparison.disagreeing[0] ?? comparison.printed;
      return pdfSignal('einvoice_print_mismatch', `The embedded e-invoice ${file.filename} gives the ${comparison.label} as ${comparison.xml}; ${mismatchSentence(comparison)}.`, {
        page: printed?.page ?? 1,
        ...object,
        ...(comparison.path ? { field: comparison.path } : {}),
      });
    });
  }
  const agreed = comparisons.filter((comparison) => comparison.shownOn !== null);
  const unshown = comparisons.filter((comparison) => comparison.shownOn === null).map((comparison) => comparison.label);
  const rootPath = invoice.paths.grand_total?.split('/')[0];
  const sentence = agreed.length > 0 ? `the page shows the same ${agreed.map((comparison) => comparison.label).join(', ')}` : 'no value it states could be found on the page';
  const rest = unshown.length > 0 ? `; not printed, so not compared: ${unshown.join(', ')}` : '';
  return [pdfSignal('einvoice_print_agrees', `The embedded e-invoice ${file.filename} (${invoice.syntax}) and the printed page agree: ${sentence}${rest}.`, { page: agreed[0]?.shownOn ?? 1, ...object, ...(rootPath ? { field: rootPath } : {}) }, agreed.length > 0 ? 'info' : 'low')];
}

/** What the page prints instead of the XML's value, at each place it disagrees. */
function mismatchSentence(comparison: Comparison): string {
  const { printed, disagreeing, shownOn, xml } = comparison;
  if (disagreeing.length > 0) {
    const places = disagreeing.map((place) => `page ${place.page} prints ${place.value} beside "${place.label}"`).join(', ');
    return shownOn === null ? `${places}, and no page shows ${xml}` : `${places}, though page ${shownOn} shows ${xml}: the print was changed in one place and not in the other`;
  }
  return printed ? `page ${printed.page} prints ${printed.value}, and no page shows ${xml}` : `no page prints that amount, though an invoice prints its total`;
}

/** Every figure the XML states in an element (amounts, rates, quantities), in absolute value: what a labelled place may show without contradicting it. */
function xmlFigures(bytes: Uint8Array): number[] {
  const xml = new TextDecoder('utf-8').decode(bytes);
  return [...xml.matchAll(/>\s*(-?\d+(?:\.\d+)?)\s*</g)].map((match) => Math.abs(Number(match[1])));
}

/** Labels of less weight than this name other figures as often as the amount ("amount", "importe"): their places are not compared. */
const MIN_LABEL_WEIGHT = 0.5;

/** The labelled places of one amount that print neither the XML's value nor any other figure the XML states. */
function disagreeingPlaces(places: readonly LabelledAmount[], fields: readonly LabelledAmount['field'][], value: number, figures: readonly number[]): PrintedPlace[] {
  const same = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) < CENT;
  return places
    .filter((place) => fields.includes(place.field) && place.weight >= MIN_LABEL_WEIGHT && !same(place.value, value) && !figures.some((figure) => same(place.value, figure)))
    .map((place) => ({ value: Math.abs(place.value).toFixed(2), page: place.page, label: place.label }));
}

/** Each value the XML states beside where the page shows it, or the page's own reading of it. */
function compareWithPages(invoice: EInvoice, pages: readonly PageText[], figures: readonly number[]): Comparison[] {
  const printed = readInvoiceFields(pages, { country: undefined, receipt: false }).fields;
  const places = labelledAmounts(pages);
  const pageAmounts = pages.map((page) => ({ page: page.page, values: findAmounts(page.text).map((amount) => Math.abs(amount.value)) }));
  const pageDates = pages.map((page) => ({ page: page.page, values: [...findDates(page.text, undefined, true), ...findDates(page.text, undefined, false)].map((date) => date.value) }));
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
  const amount = (label: string, field: EInvoicePathField, value: number | null, printedField: InvoiceField, labelled: readonly LabelledAmount['field'][]) => {
    if (value === null) return;
    const shownOn = pageAmounts.find((page) => page.values.some((shown) => Math.abs(shown - Math.abs(value)) < CENT))?.page ?? null;
    const other = shownOn === null ? reading(printedField) : null;
    const stated = other !== null && xmlAmounts.some((known) => Math.abs(known - Math.abs(Number(other.value))) < CENT);
    const printedAmount = other && !stated ? { value: Math.abs(Number(other.value)).toFixed(2), page: other.page } : null;
    const disagreeing = disagreeingPlaces(places, labelled, value, figures);
    comparisons.push({ label, xml: Math.abs(value).toFixed(2), path: pathOf(field), shownOn, printed: printedAmount, mustBePrinted: field === 'grand_total' || field === 'payable', disagreeing });
  };
  // What is payable is labelled as the total when the two are one figure; otherwise each has its own labels.
  const payableApart = invoice.payable !== null && (invoice.grand_total === null || Math.abs(invoice.payable - invoice.grand_total) >= CENT);
  amount('grand total', 'grand_total', invoice.grand_total, 'total', payableApart ? ['total'] : ['total', 'payable']);
  if (payableApart) amount('amount due', 'payable', invoice.payable, 'total', ['payable']);
  amount('net total', 'subtotal', invoice.subtotal, 'subtotal', ['subtotal']);
  amount('tax total', 'tax', invoice.tax, 'tax', ['tax']);
  if (invoice.invoice_date !== null) {
    const date = invoice.invoice_date;
    const shownOn = pageDates.find((page) => page.values.includes(date))?.page ?? null;
    comparisons.push({ label: 'issue date', xml: date, path: pathOf('invoice_date'), shownOn, printed: shownOn === null ? reading('invoice_date') : null, mustBePrinted: false, disagreeing: [] });
  }
  for (const [label, field, value, printedField] of [['seller', 'seller_name', invoice.seller_name, 'supplier_name'], ['buyer', 'buyer_name', invoice.buyer_name, 'buyer_name']] as const) {
    if (value === null || squash(value) === '') continue;
    const shownOn = squashed.find((page) => page.text.includes(squash(value)))?.page ?? pageWords.find((page) => mostWordsShown(value, page.words))?.page ?? null;
    comparisons.push({ label: `${label} name`, xml: `"${value}"`, path: pathOf(field), shownOn, printed: shownOn === null ? nameReading(reading(printedField), value) : null, mustBePrinted: false, disagreeing: [] });
  }
  comparisons.push(...accountComparisons(invoice, pages, squashed));
  return comparisons;
}

/** A name's words of three letters or more, folded: what two spellings of one name share. */
function nameWords(text: string): Set<string> {
  return new Set(foldAccents(text).split(/[^\p{L}\d]+/u).filter((word) => word.length >= 3));
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
    comparisons.push({ label: account.kind === 'iban' ? 'IBAN' : 'account number', xml: account.id, path, shownOn, printed: shownOn === null && other ? other : null, mustBePrinted: false, disagreeing: [] });
    const branch = account.branch?.replace(/\D/g, '');
    if (branch?.length === 6) {
      const bsb = `${branch.slice(0, 3)}-${branch.slice(3)}`;
      const bsbShownOn = printedBsbs.find((printed) => printed.value === bsb)?.page ?? squashed.find((page) => page.text.includes(branch))?.page ?? null;
      const otherBsb = printedBsbs.find((printed) => printed.value !== bsb);
      comparisons.push({ label: 'BSB', xml: bsb, path: path?.replace(/\/ID$/, '/FinancialInstitutionBranch/ID'), shownOn: bsbShownOn, printed: bsbShownOn === null && otherBsb ? otherBsb : null, mustBePrinted: false, disagreeing: [] });
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

/** Letters and digits only, folded, lower case: "Au bon moulin" is found in "AU BON MOULIN SARL", an IBAN in its groups of four. */
function squash(text: string): string {
  return foldAccents(text).toLowerCase().replace(/[^\p{L}\d]+/gu, '');
}
