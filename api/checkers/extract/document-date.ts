import type { PageText } from '../../documents/types.ts';
import { readInvoiceFields } from './invoice-fields.ts';
import { FieldLocator } from './locate.ts';
import { allTemplateLabels, templates } from './templates.ts';

/** The document kinds whose date the extraction templates know how to find. */
export type DatedKind = 'payslip' | 'bank_statement' | 'tax_invoice';

/** The fields that date each kind, best first: a payslip is dated by its pay date, else the end of its period. */
const datingFields: Record<Exclude<DatedKind, 'tax_invoice'>, string[]> = {
  payslip: ['payment_date', 'pay_period_end'],
  bank_statement: ['statement_period_end'],
};

/**
 * The date a document is dated by, read as extraction reads it (every template's labels competing for each cell,
 * numeric dates in the order the document's own unambiguous dates show, a statement's unlabelled period), so
 * check-pack and identity judge a document's age from the same reading `POST /v1/extract` gives. ISO, or null.
 */
export function documentDate(pages: readonly PageText[], kind: DatedKind): string | null {
  if (kind === 'tax_invoice') {
    const date = readInvoiceFields(pages, { country: undefined, receipt: false }).fields.invoice_date?.value;
    return typeof date === 'string' ? date : null;
  }
  const locator = new FieldLocator(pages, allTemplateLabels(), undefined);
  for (const name of datingFields[kind]) {
    const rule = templates[kind].fields.find((field) => field.name === name)!;
    const found = locator.locate(rule)?.value;
    if (typeof found === 'string') return found;
  }
  return null;
}
