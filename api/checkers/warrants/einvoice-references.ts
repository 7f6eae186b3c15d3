import type { PageText } from '../../documents/types.ts';
import type { EInvoice } from '../extract/einvoice.ts';
import { labelledReferences, type LabelledReference } from '../extract/invoice-fields.ts';
import type { LocatedValue } from '../extract/locate.ts';
import { documentDayFirst, escapeRegExp, findDates } from '../extract/values.ts';
import { squash, type Comparison, type PrintedPlace } from './einvoice-comparison.ts';

/**
 * The invoice number (EN 16931 BT-1), issue date (BT-2) and due date (BT-9) of an embedded e-invoice beside
 * the print. Dates are read in the one order the document's own unambiguous dates show (day first unless they
 * say month first), in every form the vocabulary knows (05.03.2018, 5. März 2018, 2018-03-05, 13 décembre
 * 2017), so a printed 05.03.2018 is one date and never matches a 2018-05-03 by being read the other way.
 *
 * A label that names only the field ("Rechnungsdatum", "Date d'échéance", "Rechnungsnummer") decides: when
 * every such place prints another value than the XML, each is a disagreement, even if the XML's date is printed
 * elsewhere for another meaning (a delivery date, an issue date equal to the due date). Without such a label
 * the value agrees when any page shows it, and disagrees only when none does and the page's own reading of the
 * field (extraction's invoice reader) gives another. For the number, a label that may name another reference
 * ("Belegnummer" 0.9, beside an order's or a receipt's number) counts only when the XML's number is printed
 * nowhere; one of weight 1 ("Rechnungsnummer", "Invoice number") counts wherever else it is printed.
 */

/** Labels of at least this weight name only their field (vocabulary.json): "Rechnungsdatum" 1, "Fälligkeit" 0.9; "vom" 0.5 may date an order. */
const NAMING_WEIGHT = 0.9;

export function referenceComparisons(invoice: EInvoice, pages: readonly PageText[], readings: Partial<Record<'invoice_number' | 'invoice_date' | 'due_date', LocatedValue>>): Comparison[] {
  const dayFirst = documentDayFirst(
    pages.map((page) => page.text),
    undefined,
  );
  const places = labelledReferences(pages, { country: undefined, dayFirst });
  const comparisons: Comparison[] = [];
  const number = invoice.invoice_number;
  if (number !== null && squash(number) !== '') {
    const pattern = numberPattern(number);
    const shownOn = pages.find((page) => pattern.test(page.text))?.page ?? null;
    // A printed number that holds the XML's or is held by it ("Nr. 00.123.456.7" for 00.123.456.7-2014-1) is the same reference written shorter.
    const other = (value: string) => !squash(value).includes(squash(number)) && !squash(number).includes(squash(value));
    // Printed elsewhere (a payment reference), the number still disagrees where a label naming nothing else prints another.
    const numbered = places.filter((place) => place.field === 'invoice_number' && place.weight >= (shownOn === null ? NAMING_WEIGHT : 1));
    const disagreeing = numbered.some((place) => !other(place.value)) ? [] : numbered.map(printedPlace);
    const reading = readings.invoice_number;
    const printed = shownOn === null && disagreeing.length === 0 && reading && other(String(reading.value)) ? { value: String(reading.value), page: reading.page } : null;
    const elsewhere = shownOn !== null ? { elsewhere: `though page ${shownOn} shows ${number} where no invoice-number label is` } : {};
    comparisons.push({ label: 'invoice number', xml: number, path: invoice.paths.invoice_number, shownOn, printed, mustBePrinted: false, disagreeing, alike: [], ...elsewhere });
  }
  const pageDates = pages.map((page) => ({ page: page.page, dates: findDates(page.text, undefined, dayFirst).map((date) => date.value) }));
  for (const [label, field, value] of [['issue date', 'invoice_date', invoice.invoice_date], ['due date', 'due_date', invoice.due_date]] as const) {
    if (value === null) continue;
    const naming = places.filter((place) => place.field === field && place.weight >= NAMING_WEIGHT);
    const namedOn = naming.find((place) => place.value === value)?.page ?? null;
    const shownOn = naming.length > 0 ? namedOn : (pageDates.find((page) => page.dates.includes(value))?.page ?? null);
    const disagreeing = naming.length > 0 && namedOn === null ? naming.map(printedPlace) : [];
    const reading = readings[field];
    const printed = shownOn === null && naming.length === 0 && reading && reading.value !== value ? { value: String(reading.value), page: reading.page } : null;
    const unlabelledOn = pageDates.find((page) => page.dates.includes(value))?.page;
    const elsewhere = disagreeing.length > 0 && unlabelledOn !== undefined ? { elsewhere: `and page ${unlabelledOn} shows ${value} only where no ${label} label is` } : {};
    comparisons.push({ label, xml: value, path: invoice.paths[field], shownOn, printed, mustBePrinted: false, disagreeing, alike: [], ...elsewhere });
  }
  return comparisons;
}

function printedPlace(place: LabelledReference): PrintedPlace {
  return { value: place.value, page: place.page, line: place.line, naming: `beside "${place.label.replace(/[\s:#.]+$/, '')}"` };
}

/** The number as a word of the page, its separators allowed spaces around them ("RE-2014/49" in "RE - 2014 / 49"). */
function numberPattern(number: string): RegExp {
  const parts = number.match(/[\p{L}\d]+|[^\p{L}\d\s]+/gu) ?? [];
  return new RegExp(`(?<![\\p{L}\\d])${parts.map(escapeRegExp).join('\\s*')}(?![\\p{L}\\d])`, 'iu');
}
