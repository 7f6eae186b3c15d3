import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { classifyPage } from '../api/checkers/document-types.ts';
import { classifyDocument } from '../api/checkers/extract/classify.ts';
import { readDocument } from '../api/documents/read.ts';
import { sniffDocument } from '../api/documents/sniff.ts';
import { HOLDER_IDENTITY_TYPES } from './helpers/identity-types.ts';
import { recordMeasured } from './helpers/measured.ts';
import { TENDER_CORPUS, tenderDocuments } from './helpers/tender-corpus.ts';

/**
 * Issue 26: "a document of no listed type is `unrecognised`, never a nearby type". The 27 real tender documents of
 * fixtures/corpora/tenders/ (requests for quotes, proposals and information, their forms and schedules) are none of
 * extraction's types (invoice, receipt, statement, payslip, contract) and no identity or pack document: measured
 * here as `POST /v1/extract` classifies them (first ten pages) and as check-pack and identity-check read page 1.
 * Before the solicitation wording counted (api/checkers/extract/classify.ts), 14 were read as contracts and 3 as
 * receipts, and check-pack named one a driver licence, one a payslip and one a bank statement.
 */
test('real tender documents are not taken for a contract, a receipt or an identity document', { timeout: 300_000 }, async () => {
  const rows: { file: string; extracted: string; pack: string }[] = [];
  for (const { truth } of tenderDocuments()) {
    const bytes = new Uint8Array(readFileSync(join(TENDER_CORPUS, truth.file)));
    const sniffed = await sniffDocument(bytes);
    assert.ok(sniffed.format !== null, `${truth.file} is a document the intake takes`);
    const read = await readDocument({ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: sniffed.kind, mime: sniffed.mime, filename: truth.file }, { maxPages: 10, renderScale: 1, ocr: false });
    const row = { file: truth.file, extracted: classifyDocument(read.pages).document_type, pack: classifyPage(read.pages[0] ?? null, { isImage: false, largestImageShare: 0 }).type };
    process.stdout.write(`# ${row.file}: extract ${row.extracted}, check-pack ${row.pack}\n`);
    rows.push(row);
  }
  recordMeasured('classify-real-tenders', {
    corpus: `fixtures/corpora/tenders (${rows.length} real tender documents: US federal and state, UK CCS, AU Digital Marketplace; PDF, .docx, Markdown)`,
    truth: 'Each is a tender document (a request, its forms or schedules) by its source and its own title, read by hand (fixtures/corpora/tenders/README.md): none is of a listed type.',
    figures: {
      documents: rows.length,
      extract_unrecognised: rows.filter((row) => row.extracted === 'unrecognised').length / rows.length,
      pack_unrecognised: rows.filter((row) => row.pack === 'unrecognised').length / rows.length,
      counted_as_identity: rows.filter((row) => HOLDER_IDENTITY_TYPES.has(row.pack)).length,
    },
    floors: { extract_unrecognised: 0.85, pack_unrecognised: 0.95, 'max:counted_as_identity': 0 },
  });
});
