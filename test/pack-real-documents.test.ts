import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { classifyFirstPages } from '../api/checkers/first-page.ts';
import type { IntakeDocument } from '../api/documents/types.ts';
import { HOLDER_IDENTITY_TYPES } from './helpers/identity-types.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * check-pack and identity-check read page 1 of each upload to say what it is and how old it is (a "Most recent
 * payslip" slot takes a payslip dated within 62 days). Measured here on the real payslips, statements and invoice
 * PDFs of fixtures/corpora/, read as an upload is (OCR included): the type named, the date the document is dated
 * by against the one read by hand (a payslip's pay date, a statement's period end, an invoice's date), and how many
 * of them would count as an identity document. The MT940 files are not uploads a pack takes (PDFs and pictures),
 * the invoice pictures are left to test/extract-real-corpus.test.ts (receipt photos, read by OCR at length), and a
 * document whose truth has no such date is not scored for it.
 */
const root = join(import.meta.dirname, '..', 'fixtures', 'corpora');

/** Statements of a credit-card account (credit limit and minimum payment printed on page 1, read by hand). */
const CARD_STATEMENTS = new Set(['awsidp-credit-card-stmt.pdf', 'monopoly-ocbc_365_example.pdf', 'sensible-cc_statement_sample.pdf']);

interface Truth {
  file: string;
  document_type?: string;
  invoice_date?: string | null;
  payment_date?: string | null;
  pay_period_end?: string | null;
  statement_period_end?: string | null;
}

const mimes: Record<string, { kind: IntakeDocument['kind']; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  png: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
};

function documentsOf(folder: 'payslips' | 'statements' | 'invoices'): { document: IntakeDocument; want: string; date: string | null }[] {
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(root, folder, name), 'utf8')) as Truth)
    .filter((truth) => mimes[truth.file.split('.').at(-1)!.toLowerCase()] !== undefined && (folder !== 'invoices' || truth.file.toLowerCase().endsWith('.pdf')))
    .map((truth) => {
      const bytes = new Uint8Array(readFileSync(join(root, folder, truth.file)));
      const type = mimes[truth.file.split('.').at(-1)!.toLowerCase()]!;
      const document = { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: type.kind, mime: type.mime, filename: truth.file };
      if (folder === 'payslips') return { document, want: 'payslip', date: truth.payment_date ?? truth.pay_period_end ?? null };
      // A receipt is named a tax invoice here: the pack types have no receipt, and a receipt is one.
      if (folder === 'invoices') return { document, want: 'tax_invoice', date: truth.invoice_date ?? null };
      return { document, want: CARD_STATEMENTS.has(truth.file) ? 'credit_card_statement' : 'bank_statement', date: truth.statement_period_end ?? null };
    });
}

test('check-pack reads real payslips and statements as what they are, dated as they are dated', { timeout: 600_000 }, async () => {
  const labelled = [...documentsOf('payslips'), ...documentsOf('statements'), ...documentsOf('invoices')];
  const classified = await classifyFirstPages(
    labelled.map((entry) => entry.document),
    { now: '2026-12-01T00:00:00Z' },
  );
  const rows = labelled.map((entry, index) => ({ ...entry, got: classified[index]!.classification }));
  for (const row of rows) process.stdout.write(`# ${row.document.filename}: ${row.got.type}${row.got.type === row.want ? '' : ` (want ${row.want})`}, dated ${row.got.issued ?? 'unread'}${row.date && row.got.issued !== row.date ? ` (want ${row.date})` : ''}\n`);
  const ofKind = (want: string[]) => rows.filter((row) => want.includes(row.want));
  const typeRight = (of: typeof rows) => of.filter((row) => row.got.type === row.want).length / of.length;
  // Payslips and statements, whose age a pack's recency rules judge; invoices apart.
  const dated = rows.filter((row) => row.date !== null && row.want !== 'tax_invoice');
  const invoicesDated = ofKind(['tax_invoice']).filter((row) => row.date !== null);
  const figures = {
    payslips: ofKind(['payslip']).length,
    payslips_type: typeRight(ofKind(['payslip'])),
    statements: ofKind(['bank_statement', 'credit_card_statement']).length,
    statements_type: typeRight(ofKind(['bank_statement', 'credit_card_statement'])),
    invoices: ofKind(['tax_invoice']).length,
    invoices_type: typeRight(ofKind(['tax_invoice'])),
    // None of these is an identity document: identity-check must never count one.
    counted_as_identity: rows.filter((row) => HOLDER_IDENTITY_TYPES.has(row.got.type)).length,
    dated: dated.length,
    date_right: dated.filter((row) => row.got.issued === row.date).length / dated.length,
    // A wrong date is worse than none: an undated document is refused a dated slot with the reason, a misdated one is misjudged.
    date_wrong: dated.filter((row) => row.got.issued !== null && row.got.issued !== row.date).length,
    invoices_dated: invoicesDated.length,
    invoices_date_right: invoicesDated.filter((row) => row.got.issued === row.date).length / invoicesDated.length,
    invoices_date_wrong: invoicesDated.filter((row) => row.got.issued !== null && row.got.issued !== row.date).length,
  };
  assert.ok(rows.every((row) => classified[rows.indexOf(row)]!.unreadable === null), 'every real document is read');
  recordMeasured('pack-real-documents', {
    corpus: `fixtures/corpora/payslips, statements and invoices (${figures.payslips} real payslips and ${figures.statements} real bank and card statements, every PDF and picture; ${figures.invoices} real invoice and receipt PDFs; page 1 read as check-pack reads it)`,
    truth: "Each document's type, pay date, statement period and invoice date read by hand from the page (the corpora's truth files); the three card statements named in the test by reading their page 1.",
    figures,
    floors: { payslips_type: 0.9, statements_type: 0.8, invoices_type: 0.85, date_right: 0.7, 'max:date_wrong': 0, invoices_date_right: 0.85, 'max:invoices_date_wrong': 1, 'max:counted_as_identity': 1 },
  });
});
