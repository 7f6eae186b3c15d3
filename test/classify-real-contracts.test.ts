import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { classifyPage } from '../api/checkers/document-types.ts';
import { classifyDocument } from '../api/checkers/extract/classify.ts';
import { readDocument } from '../api/documents/read.ts';
import { sniffDocument } from '../api/documents/sniff.ts';
import { HOLDER_IDENTITY_TYPES } from './helpers/identity-types.ts';
import { recordMeasured } from './helpers/measured.ts';

const CONTRACT_CORPUS = join(import.meta.dirname, '..', 'fixtures', 'corpora', 'contracts');

const truthFile = z.object({
  file: z.string(),
  type: z.string(),
  contract: z.boolean(),
  language: z.string().length(2),
  country: z.string().length(2),
  title: z.string().min(1),
  parties: z.array(z.string()),
  agreement_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).nullable(),
  truth_method: z.literal('read_by_hand'),
  notes: z.string(),
});

/**
 * Issue 26: contracts "are recognised by what they say in any of the languages; a document of no listed type is
 * `unrecognised`, never a nearby type". Measured on fixtures/corpora/contracts/ (README there): 25 real contracts
 * and agreements (CUAD's SEC filings, the Australian Digital Marketplace's and the UK Crown Commercial Service's
 * model contracts, a French licence agreement) and 11 look-alikes (privacy notices and terms-of-service pages in
 * four languages, a report, guides, a request for quote laid out like an order form), classified as `POST
 * /v1/extract` classifies with no template (first ten pages) and as check-pack reads page 1. Check-pack has no
 * contract type: a contract is right there when it is `unrecognised`, and never an identity document.
 */
test('real contracts are read as contracts and their look-alikes are not', { timeout: 300_000 }, async () => {
  const truths = readdirSync(CONTRACT_CORPUS)
    .filter((name) => name.endsWith('.truth.json'))
    .sort()
    .map((name) => truthFile.parse(JSON.parse(readFileSync(join(CONTRACT_CORPUS, name), 'utf8'))));
  const provenance = readFileSync(join(CONTRACT_CORPUS, 'PROVENANCE.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'));
  const heldOut = new Set(readFileSync(join(import.meta.dirname, 'heldout-sha256.txt'), 'utf8').split(/\s+/).filter(Boolean));
  const rows: { file: string; contract: boolean; extracted: string; pack: string }[] = [];
  for (const truth of truths) {
    const bytes = new Uint8Array(readFileSync(join(CONTRACT_CORPUS, truth.file)));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.equal(provenance.find(([file]) => file === truth.file)?.[5], sha256, `${truth.file} is in PROVENANCE.tsv with its SHA-256`);
    assert.ok(!heldOut.has(sha256), `${truth.file} is not a held-out file`);
    assert.equal(truth.contract, truth.type === 'contract', `${truth.file}: "contract" agrees with "type"`);
    const sniffed = await sniffDocument(bytes);
    assert.ok(sniffed.format !== null, `${truth.file} is a document the intake takes`);
    const read = await readDocument({ bytes, sha256, kind: sniffed.kind, mime: sniffed.mime, filename: truth.file }, { maxPages: 10, renderScale: 1, ocr: false });
    const row = { file: truth.file, contract: truth.contract, extracted: classifyDocument(read.pages).document_type, pack: classifyPage(read.pages[0] ?? null, { isImage: false, largestImageShare: 0 }).type };
    process.stdout.write(`# ${row.file} (${truth.type}, ${truth.language}): extract ${row.extracted}, check-pack ${row.pack}\n`);
    rows.push(row);
  }
  assert.equal(provenance.length, rows.length, 'PROVENANCE.tsv lists exactly the documents that have a truth file');
  const contracts = rows.filter((row) => row.contract);
  const lookAlikes = rows.filter((row) => !row.contract);
  const calledContract = rows.filter((row) => row.extracted === 'contract');
  // Right is `contract` for a contract and `unrecognised` for a look-alike: none of them is of another listed type.
  const extractRight = rows.filter((row) => row.extracted === (row.contract ? 'contract' : 'unrecognised')).length;
  recordMeasured('classify-real-contracts', {
    corpus: `fixtures/corpora/contracts (${rows.length} real documents: ${contracts.length} contracts and agreements, US SEC filings of CUAD, AU Digital Marketplace, UK CCS, one French; ${lookAlikes.length} look-alikes: privacy notices and terms of service in EN/DE/FR/NL, a report, guides, a request for quote)`,
    truth: 'Each document was read by hand for its type, language, parties and agreement date (fixtures/corpora/contracts/README.md); a look-alike is of no listed type.',
    figures: {
      documents: rows.length,
      contracts: contracts.length,
      look_alikes: lookAlikes.length,
      extract_accuracy: extractRight / rows.length,
      contract_recall: contracts.filter((row) => row.extracted === 'contract').length / contracts.length,
      contract_precision: calledContract.length === 0 ? 0 : calledContract.filter((row) => row.contract).length / calledContract.length,
      look_alikes_not_contract: lookAlikes.filter((row) => row.extracted !== 'contract').length / lookAlikes.length,
      pack_unrecognised: rows.filter((row) => row.pack === 'unrecognised').length / rows.length,
      counted_as_identity: rows.filter((row) => HOLDER_IDENTITY_TYPES.has(row.pack)).length,
    },
    floors: { extract_accuracy: 0.9, contract_recall: 0.9, contract_precision: 0.9, look_alikes_not_contract: 0.8, pack_unrecognised: 0.9, 'max:counted_as_identity': 0 },
  });
});
