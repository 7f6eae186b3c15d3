import type { PageText } from '../../documents/types.ts';
import type { EInvoice } from './einvoice.ts';
import type { InvoiceField } from './invoice-fields.ts';
import type { LocatedValue } from './locate.ts';
import { documentDayFirst, findAmounts, findDates, foldAccents } from './values.ts';

/** Confidence of an XML value the printed page shows too, and of one it does not (the print may have been changed, or the XML). */
const confidence = { corroborated: 0.98, xmlOnly: 0.6 } as const;

/**
 * The invoice fields an embedded e-invoice states, each checked against the printed page: a value the page
 * shows as well is near certain; one it does not show is kept only where the page gives no value of its own
 * (`printed`), and then with a low confidence, since the XML and the print of the same invoice disagree.
 * Printed dates are read in the one order the document's own unambiguous dates show, as the print's reader
 * reads them, so a month-first 03/04/2026 corroborates 2026-03-04 and never 2026-04-03.
 */
export function einvoiceFields(invoice: EInvoice, pages: readonly PageText[], printed: Partial<Record<InvoiceField, LocatedValue>>, country: string | undefined): Partial<Record<InvoiceField, LocatedValue>> {
  const amounts = pages.map((page) => ({ page: page.page, values: findAmounts(page.text).map((amount) => amount.value) }));
  const dayFirst = documentDayFirst(
    pages.map((page) => page.text),
    country,
  );
  const dates = pages.map((page) => ({ page: page.page, values: findDates(page.text, country, dayFirst).map((date) => date.value) }));
  const squashed = pages.map((page) => ({ page: page.page, text: squash(page.text) }));
  const pageOf = <T>(found: { page: number; values: T[] }[], test: (value: T) => boolean) => found.find((page) => page.values.some(test))?.page ?? null;
  const fields: Partial<Record<InvoiceField, LocatedValue>> = {};
  const put = (field: InvoiceField, value: string | number | null, page: number | null) => {
    if (value === null) return;
    if (page !== null) fields[field] = { value, confidence: confidence.corroborated, page };
    else if (!printed[field]) fields[field] = { value, confidence: confidence.xmlOnly, page: 1 };
  };
  const amountPage = (value: number | null) => (value === null ? null : pageOf(amounts, (printedValue) => Math.abs(Math.abs(printedValue) - Math.abs(value)) < 0.006));
  put('total', invoice.payable, amountPage(invoice.payable));
  put('subtotal', invoice.subtotal, amountPage(invoice.subtotal));
  put('tax', invoice.tax, amountPage(invoice.tax));
  put('invoice_date', invoice.invoice_date, invoice.invoice_date === null ? null : pageOf(dates, (date) => date === invoice.invoice_date));
  put('due_date', invoice.due_date, invoice.due_date === null ? null : pageOf(dates, (date) => date === invoice.due_date));
  const textPage = (value: string | null) => (value === null || squash(value) === '' ? null : (squashed.find((page) => page.text.includes(squash(value)))?.page ?? null));
  put('invoice_number', invoice.invoice_number, textPage(invoice.invoice_number));
  put('supplier_name', invoice.seller_name, textPage(invoice.seller_name));
  put('buyer_name', invoice.buyer_name, textPage(invoice.buyer_name));
  return fields;
}

/** Letters and digits only, folded: "Au bon moulin" is found in "AU BON MOULIN SARL", "RE-2014/49" in "RE - 2014 / 49". */
function squash(text: string): string {
  return foldAccents(text).replace(/[^\p{L}\d]+/gu, '');
}
