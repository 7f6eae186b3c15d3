import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { embeddedFileStream } from '../api/checkers/warrants/pdf-einvoice.ts';
import { inspectPdf } from '../api/checkers/warrants/pdf-inspect.ts';
import { loadRevisionState } from '../api/checkers/warrants/pdf-objects.ts';
import type { Signal } from '../api/checkers/warrants/signal.ts';
import { recordMeasured } from './helpers/measured.ts';

/**
 * Issue 28 part 5: every real PDF of fixtures/corpora/invoices/ that carries an embedded e-invoice, untouched
 * and with its XML's grand total rewritten (a generated edge case: the copy pdf-lib saves differs from the
 * original only in that stream). The truth of each untouched file is its `.truth.json`: the files whose XML
 * was checked against the print agree, and the notes of five files record where their XML and print differ.
 */
const corpus = join(import.meta.dirname, '..', 'fixtures', 'corpora', 'invoices');

/** Files whose truth notes say the XML contradicts the print, and the fields they name. */
const recordedDisagreements: Record<string, string[]> = {
  'zugferd-corpus-acme_invoice-42_zugferd.pdf': ['grand total', 'seller name'],
  'zugferd-corpus-sample_inofficial_20190125_atgp_factur-x_v_1_0.pdf': ['grand total', 'seller name'],
  'zugferd-corpus-zugferd_2_fully_compliant_complete.pdf': ['grand total', 'tax total'],
  'zugferd-corpus-mustanggnuaccountingbeispielre-20140519_499.pdf': ['seller name'],
  'zugferd-corpus-mustanggnuaccountingbeispielre-20151008_504.pdf': ['issue date'],
};

const files = readdirSync(corpus)
  .filter((file) => file.endsWith('.truth.json'))
  .map((file) => JSON.parse(readFileSync(join(corpus, file), 'utf8')) as { file: string; einvoice?: string | null })
  .filter((truth) => truth.einvoice)
  .map((truth) => truth.file)
  .sort();

async function einvoiceSignalsOf(bytes: Uint8Array): Promise<Signal[]> {
  const inspection = await inspectPdf(bytes, { now: '2026-11-24T00:00:00Z' });
  return inspection.signals.filter((signal) => signal.code.startsWith('einvoice_'));
}

/** The file with its embedded XML's GrandTotalAmount (and an equal amount due) raised by 100, saved whole by pdf-lib; null when it has none. */
async function withXmlTotalRaised(bytes: Uint8Array): Promise<Uint8Array | null> {
  const state = await loadRevisionState(bytes);
  const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  // The names the Factur-X, ZUGFeRD and XRechnung specifications give the attachment.
  for (const name of ['factur-x.xml', 'ZUGFeRD-invoice.xml', 'zugferd-invoice.xml', 'xrechnung.xml']) {
    const object = embeddedFileStream(state, name);
    if (!object) continue;
    const ref = PDFRef.of(Number(object.split(' ')[0]), Number(object.split(' ')[1]));
    const stream = document.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const filter = stream.dict.get(PDFName.of('Filter'));
    const xml = new TextDecoder().decode(filter ? inflateSync(stream.contents) : stream.contents);
    const total = /<(\w+:)?GrandTotalAmount(?: [^>]*)?>\s*(-?[\d.]+)\s*</.exec(xml);
    if (!total) return null;
    const raised = (Number(total[2]) + 100).toFixed(2);
    const rewritten = xml.replace(/(<(?:\w+:)?(?:GrandTotalAmount|DuePayableAmount)(?: [^>]*)?>\s*)(-?[\d.]+)(\s*<)/g, (whole, open: string, value: string, close: string) => (value === total[2] ? `${open}${raised}${close}` : whole));
    const dict = stream.dict.clone(document.context);
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    const contents = new TextEncoder().encode(rewritten);
    dict.set(PDFName.of('Length'), document.context.obj(contents.length));
    document.context.assign(ref, PDFRawStream.of(dict, contents));
    return document.save({ useObjectStreams: false, updateFieldAppearances: false });
  }
  return null;
}

test('e-invoices in the real invoice corpus: untouched files raise no disagreement the truth does not record; a rewritten XML total is high', async () => {
  assert.ok(files.length >= 30, `expected the corpus's e-invoice PDFs, found ${files.length}`);
  let compared = 0;
  let falseHighs = 0;
  let recordedFlagged = 0;
  let tampered = 0;
  let tamperedFlagged = 0;
  const problems: string[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(join(corpus, file)));
    const signals = await einvoiceSignalsOf(bytes);
    if (signals.length === 0) continue;
    compared++;
    const highs = signals.filter((signal) => signal.severity === 'high');
    for (const signal of highs) assert.ok(signal.where.page && signal.where.field && signal.where.object, `${file}: a disagreement says where: ${JSON.stringify(signal.where)}`);
    const recorded = recordedDisagreements[file];
    if (recorded) {
      const flagged = recorded.every((field) => highs.some((signal) => signal.found.includes(`gives the ${field} as`)));
      if (flagged) recordedFlagged++;
      else problems.push(`${file}: the recorded disagreement (${recorded.join(', ')}) is not all flagged`);
      continue;
    }
    if (highs.length > 0) {
      falseHighs += highs.length;
      problems.push(`${file}: ${highs.map((signal) => signal.found).join(' | ')}`);
    }
    const copy = await withXmlTotalRaised(bytes);
    if (!copy) continue;
    tampered++;
    const after = await einvoiceSignalsOf(copy);
    if (after.some((signal) => signal.severity === 'high' && signal.found.includes('grand total'))) tamperedFlagged++;
    else problems.push(`${file}: the XML total raised by 100 is not flagged (${after.map((signal) => signal.found).join(' | ')})`);
  }
  const agreeing = compared - Object.keys(recordedDisagreements).length;
  process.stdout.write(`e-invoice warrant: ${compared} PDFs compared, ${agreeing} agreeing by their truth: ${falseHighs} false highs; ${recordedFlagged}/5 recorded disagreements flagged; ${tamperedFlagged}/${tampered} rewritten XML totals flagged high\n`);
  recordMeasured('warrants-einvoice', {
    corpus: `fixtures/corpora/invoices/: ${compared} real PDFs with an embedded e-invoice, and ${tampered} copies with the XML grand total rewritten`,
    truth: 'each file\'s .truth.json: XML checked against the print by reading, or the notes saying where the two differ (5 files)',
    figures: {
      files_compared: compared,
      untouched_agreeing_files: agreeing,
      false_highs: falseHighs,
      recorded_disagreements_flagged: recordedFlagged,
      tampered_copies: tampered,
      tampered_recall: tampered === 0 ? 0 : tamperedFlagged / tampered,
    },
    floors: { 'max:false_highs': 0, recorded_disagreements_flagged: 5, tampered_recall: 1 },
  });
  assert.deepEqual(problems, []);
});
