import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** fixtures/corpora/invoices/: real invoices, among them the PDFs that carry an embedded e-invoice. */
export const invoiceCorpus = join(import.meta.dirname, '..', '..', 'fixtures', 'corpora', 'invoices');

/** Files whose truth notes say the XML contradicts the print, and the fields they name. */
export const recordedDisagreements: Record<string, string[]> = {
  'zugferd-corpus-acme_invoice-42_zugferd.pdf': ['grand total', 'seller name'],
  'zugferd-corpus-sample_inofficial_20190125_atgp_factur-x_v_1_0.pdf': ['grand total', 'seller name'],
  'zugferd-corpus-zugferd_2_fully_compliant_complete.pdf': ['grand total', 'tax total'],
  'zugferd-corpus-mustanggnuaccountingbeispielre-20140519_499.pdf': ['seller name'],
  'zugferd-corpus-mustanggnuaccountingbeispielre-20151008_504.pdf': ['issue date'],
};

/** The corpus PDFs whose truth says they carry an e-invoice, sorted. */
export const einvoicePdfs = readdirSync(invoiceCorpus)
  .filter((file) => file.endsWith('.truth.json'))
  .map((file) => JSON.parse(readFileSync(join(invoiceCorpus, file), 'utf8')) as { file: string; einvoice?: string | null })
  .filter((truth) => truth.einvoice)
  .map((truth) => truth.file)
  .sort();
