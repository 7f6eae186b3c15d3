import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { classifyFirstPages } from '../api/checkers/first-page.ts';
import type { IntakeDocument } from '../api/documents/types.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * check-pack and identity-check read page 1 of each upload to say what it is and how old it is (a "Most recent
 * payslip" slot takes a payslip dated within 62 days). Measured here on the real payslips and statements of
 * fixtures/corpora/, read as an upload is (OCR included): the type named, and the date the document is dated
 * by against the one read by hand (a payslip's pay date, a statement's period end). The MT940 files are not
 * uploads a pack takes (PDFs and pictures), and a document whose truth has no such date is not scored for it.
 */
const root = join(import.meta.dirname, '..', 'fixtures', 'corpora');

/** Statements of a credit-card account (credit limit and minimum payment printed on page 1, read by hand). */
const CARD_STATEMENTS = new Set(['awsidp-credit-card-stmt.pdf', 'monopoly-ocbc_365_example.pdf', 'sensible-cc_statement_sample.pdf']);

interface Truth {
  file: string;
  payment_date?: string | null;
  pay_period_end?: string | null;
  statement_period_end?: string | null;
}

const mimes: Record<string, { kind: IntakeDocument['kind']; mime: string }> = {
  pdf: { kind: 'pdf', mime: 'application/pdf' },
  png: { kind: 'image', mime: 'image/png' },
  jpg: { kind: 'image', mime: 'image/jpeg' },
};

function documentsOf(folder: 'payslips' | 'statements'): { document: IntakeDocument; want: string; date: string | null }[] {
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(root, folder, name), 'utf8')) as Truth)
    .filter((truth) => mimes[truth.file.split('.').at(-1)!.toLowerCase()] !== undefined)
    .map((truth) => {
      const bytes = new Uint8Array(readFileSync(join(root, folder, truth.file)));
      const type = mimes[truth.file.split('.').at(-1)!.toLowerCase()]!;
      const document = { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: type.kind, mime: type.mime, filename: truth.file };
      if (folder === 'payslips') return { document, want: 'payslip', date: truth.payment_date ?? truth.pay_period_end ?? null };
      return { document, want: CARD_STATEMENTS.has(truth.file) ? 'credit_card_statement' : 'bank_statement', date: truth.statement_period_end ?? null };
    });
}

test('check-pack reads real payslips and statements as what they are, dated as they are dated', { timeout: 600_000 }, async () => {
  const labelled = [...documentsOf('payslips'), ...documentsOf('statements')];
  const classified = await classifyFirstPages(
    labelled.map((entry) => entry.document),
    { now: '2026-12-01T00:00:00Z' },
  );
  const rows = labelled.map((entry, index) => ({ ...entry, got: classified[index]!.classification }));
  for (const row of rows) process.stdout.write(`# ${row.document.filename}: ${row.got.type}${row.got.type === row.want ? '' : ` (want ${row.want})`}, dated ${row.got.issued ?? 'unread'}${row.date && row.got.issued !== row.date ? ` (want ${row.date})` : ''}\n`);
  const ofKind = (want: string[]) => rows.filter((row) => want.includes(row.want));
  const typeRight = (of: typeof rows) => of.filter((row) => row.got.type === row.want).length / of.length;
  const dated = rows.filter((row) => row.date !== null);
  const figures = {
    payslips: ofKind(['payslip']).length,
    payslips_type: typeRight(ofKind(['payslip'])),
    statements: ofKind(['bank_statement', 'credit_card_statement']).length,
    statements_type: typeRight(ofKind(['bank_statement', 'credit_card_statement'])),
    dated: dated.length,
    date_right: dated.filter((row) => row.got.issued === row.date).length / dated.length,
    // A wrong date is worse than none: an undated document is refused a dated slot with the reason, a misdated one is misjudged.
    date_wrong: dated.filter((row) => row.got.issued !== null && row.got.issued !== row.date).length,
  };
  assert.ok(rows.every((row) => classified[rows.indexOf(row)]!.unreadable === null), 'every real document is read');
  recordMeasured('pack-real-documents', {
    corpus: `fixtures/corpora/payslips and statements (${figures.payslips} real payslips, ${figures.statements} real bank and card statements: every PDF and picture; page 1 read as check-pack reads it)`,
    truth: "Each document's type, pay date and statement period read by hand from the page (the corpora's truth files); the three card statements named in the test by reading their page 1.",
    figures,
    floors: { payslips_type: 0.9, statements_type: 0.8, date_right: 0.7, 'max:date_wrong': 0 },
  });
});
