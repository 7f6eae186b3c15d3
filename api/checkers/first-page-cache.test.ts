import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createContentCache } from './_runner/content-cache.ts';
import type { DocumentClassification } from './document-types.ts';
import { FIRST_PAGE_CACHE_CHECKER, firstPageStore } from './first-page-cache.ts';
import { openTestState } from '../../test/helpers/state.ts';

const sha = (digit: string) => digit.repeat(64);
const payslip: DocumentClassification = {
  type: 'payslip',
  confidence: 0.86,
  cues: ['"PAYSLIP" heading'],
  shows: ['N', 'A'],
  expires: null,
  issued: '2026-10-31',
  issuerDigest: 'a'.repeat(64),
  transactionLines: 0,
  pensionCard: false,
  zone: null,
};

test('a kept classification comes back for its document only, under its own checker name, and not for another classification version', async () => {
  const state = await openTestState();
  const store = firstPageStore(createContentCache(state), 'v1');
  await store.keep(sha('a'), payslip, new Date('2026-11-20T00:00:00Z'));
  assert.deepEqual(await store.known([sha('a'), sha('b'), sha('a')]), new Map([[sha('a'), payslip]]));
  assert.deepEqual((await state.all<{ checker: string; result: string }>('SELECT checker, result FROM checker_results')).map((row) => [row.checker, JSON.parse(row.result)]), [[FIRST_PAGE_CACHE_CHECKER, payslip]]);
  assert.equal((await firstPageStore(createContentCache(state), 'v2').known([sha('a')])).size, 0);
});

test('a stored value that is not a classification (a page-1 read kept by an earlier version, an unknown type, extra fields, a plain issuer line) is left out, so the document is read again', async () => {
  const state = await openTestState();
  const store = firstPageStore(createContentCache(state), 'v1');
  const earlierRead = { page: { page: 1, width: 200, height: 100, source: 'ocr', items: [], text: 'PAYSLIP', confidence: 0.91 }, images: { isImage: true, largestImageShare: 1 } };
  const notClassifications = [earlierRead, { ...payslip, type: 'library_card' }, { ...payslip, text: 'PAYSLIP' }, { ...payslip, issued: '31/10/2026' }, { ...payslip, issuerDigest: 'Example Employer Pty Ltd' }];
  for (const [index, stored] of notClassifications.entries()) await store.keep(sha(String(index)), stored as unknown as DocumentClassification, new Date('2026-11-20T00:00:00Z'));
  assert.equal((await store.known(notClassifications.map((_, index) => sha(String(index))))).size, 0);
});
