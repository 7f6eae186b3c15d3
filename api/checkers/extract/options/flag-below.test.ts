import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagBelow } from './flag-below.ts';

const document = { bytes: new Uint8Array([1]), sha256: 'x', kind: 'pdf' as const, mime: 'application/pdf', filename: null };
const fields = {
  abn: { value: '51 824 753 556', confidence: 0.95, page: 1 },
  total: { value: 1250, confidence: 0.55, page: 2 },
  date: { value: '2025-03-12', confidence: 0.7, page: 1 },
};

test('fields under the threshold, lowest first; a bare number is the threshold; the default is 0.8', async () => {
  assert.deepEqual(await flagBelow({ document, pages: [], fields, settings: { threshold: 0.6 } }), { threshold: 0.6, fields: [{ name: 'total', confidence: 0.55, page: 2 }] });
  assert.deepEqual((await flagBelow({ document, pages: [], fields, settings: 0.75 })).fields.map((field) => field.name), ['total', 'date']);
  assert.deepEqual(await flagBelow({ document, pages: [], fields, settings: true }), {
    threshold: 0.8,
    fields: [
      { name: 'total', confidence: 0.55, page: 2 },
      { name: 'date', confidence: 0.7, page: 1 },
    ],
  });
  await assert.rejects(flagBelow({ document, pages: [], fields, settings: 1.5 }));
});
