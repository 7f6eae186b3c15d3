import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMacros } from '../build.ts';
import { openStore, sqlString } from '../store.ts';

// Every spelling the fixture sources publish, with the OCDS method code it means.
const SPELLINGS: [string, string | null][] = [
  ['open', 'open'], ['Open', 'open'], ['Open Tender', 'open'], ['Public', 'open'], ['Request for Tender', 'open'],
  ['Request for Tenders (RFT)', 'open'], ['Request for Proposals (RFP)', 'open'], ['Registration of Interest (ROI)', 'open'],
  ['Selective', 'selective'], ['selective', 'selective'], ['Select Tender', 'selective'],
  ['limited', 'limited'], ['Limited', 'limited'], ['Quotation', 'limited'], ['Direct/Limited Submission Sourcing', 'limited'],
  ['Single Select', 'direct'], ['Award Notice (AN)', null],
];

test('procurement_method_code turns each published procurement method into an OCDS method code', async () => {
  const store = await openStore(':memory:');
  try {
    await store.exec(await readMacros());
    const rows = await store.all<{ published: string; code: string | null }>(
      `SELECT published, procurement_method_code(published) AS code FROM (VALUES ${SPELLINGS.map(([text], i) => `(${i}, ${sqlString(text)})`).join(', ')}) v(i, published) ORDER BY i`);
    assert.deepEqual(rows.map((row) => [row.published, row.code]), SPELLINGS);
  } finally {
    store.close();
  }
});
