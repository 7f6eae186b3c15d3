import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { einvoiceSignals } from '../api/checkers/warrants/pdf-einvoice.ts';
import { openPdf, readPagesText } from '../api/documents/pdf.ts';
import type { PageText } from '../api/documents/types.ts';
import { withPrintedAmountChanged, withPrintedTextChanged } from './helpers/print-tamper.ts';

/**
 * Issue 28 part 2: the real UBL e-invoices of fixtures/corpora/einvoice-xml/, each carrying its PDF rendering as
 * base64 (the PEPPOL form), compared with that PDF's pages: untouched, the two agree as the truth file says; with
 * one printed place of the grand total changed in the PDF and the XML kept, the changed place is flagged high.
 */
const corpus = join(import.meta.dirname, '..', 'fixtures', 'corpora', 'einvoice-xml');

interface Truth {
  file: string;
  total: string;
  invoice_number: string;
  print_agrees_with_xml: boolean;
}

const truths = readdirSync(corpus)
  .filter((file) => file.endsWith('.truth.json'))
  .map((file) => JSON.parse(readFileSync(join(corpus, file), 'utf8')) as Truth);

/** The PDF a UBL invoice embeds in an AdditionalDocumentReference, decoded. */
function embeddedPdf(xml: string): Uint8Array {
  const match = /<(?:\w+:)?EmbeddedDocumentBinaryObject\b[^>]*mimeCode="application\/pdf"[^>]*>([^<]+)</.exec(xml);
  assert.ok(match, 'the UBL embeds a PDF');
  return new Uint8Array(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64'));
}

async function pagesOf(pdf: Uint8Array): Promise<PageText[]> {
  const document = await openPdf(pdf);
  try {
    return await readPagesText(document);
  } finally {
    await document.destroy();
  }
}

const place = () => ({ object: 'xml' });

test('real UBL invoices carrying their PDF: the pair agrees as read, and each changed place of the printed total is high', async () => {
  assert.ok(truths.length >= 1);
  let partial = 0;
  for (const truth of truths) {
    const xmlBytes = new Uint8Array(readFileSync(join(corpus, truth.file)));
    const files = [{ filename: truth.file, bytes: xmlBytes }];
    const pdf = embeddedPdf(new TextDecoder().decode(xmlBytes));
    const untouched = einvoiceSignals(files, await pagesOf(pdf), place);
    assert.equal(untouched.length, 1, `${truth.file}: ${untouched.map((signal) => signal.found).join(' | ')}`);
    assert.equal(untouched[0]!.code, truth.print_agrees_with_xml ? 'einvoice_print_agrees' : 'einvoice_print_mismatch');
    assert.match(untouched[0]!.found, /\(ubl\).*grand total, net total, tax total, invoice number, issue date, due date, seller name, buyer name/);
    for (let occurrence = 0; ; occurrence++) {
      const copy = await withPrintedAmountChanged(pdf, Number(truth.total), occurrence);
      if (!copy || copy.changed === 0) break;
      partial++;
      const signals = einvoiceSignals(files, await pagesOf(copy.pdf), place);
      const flagged = signals.filter((signal) => signal.code === 'einvoice_print_mismatch' && signal.severity === 'high' && signal.found.includes(`prints ${copy.printed}`));
      assert.equal(flagged.length, 1, `${truth.file}: printed place ${occurrence + 1} of ${truth.total} changed to ${copy.printed}: ${signals.map((signal) => signal.found).join(' | ')}`);
      assert.match(flagged[0]!.found, new RegExp(`gives the [^;]* as ${truth.total.replace('.', '\\.')}[;, ]`));
      assert.equal(flagged[0]!.where.page, 1);
    }
  }
  assert.ok(partial >= 2, `the print shows each total at least twice (${partial} places changed)`);
});

test('real UBL invoices carrying their PDF: a changed printed invoice number is high with both numbers', async () => {
  for (const truth of truths) {
    const xmlBytes = new Uint8Array(readFileSync(join(corpus, truth.file)));
    const pdf = embeddedPdf(new TextDecoder().decode(xmlBytes));
    // The last digit of the number one higher, wherever the page prints it.
    const last = truth.invoice_number.search(/\d(?!.*\d)/);
    const digit = String((Number(truth.invoice_number[last]) + 1) % 10);
    const changed = `${truth.invoice_number.slice(0, last)}${digit}${truth.invoice_number.slice(last + 1)}`;
    const pattern = new RegExp(`(?<![\\p{L}\\d])${truth.invoice_number.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\p{L}\\d])`, 'gu');
    const copy = await withPrintedTextChanged(pdf, pattern, [(matched) => ({ offset: matched.search(/\d(?!.*\d)/), character: digit })]);
    assert.ok(copy, `${truth.file}: the print shows ${truth.invoice_number}`);
    const signals = einvoiceSignals([{ filename: truth.file, bytes: xmlBytes }], await pagesOf(copy.pdf), place);
    const flagged = signals.filter((signal) => signal.severity === 'high' && signal.found.includes(`gives the invoice number as ${truth.invoice_number};`));
    assert.equal(flagged.length, 1, signals.map((signal) => signal.found).join(' | '));
    assert.match(flagged[0]!.found, new RegExp(`prints ${changed}`));
  }
});
