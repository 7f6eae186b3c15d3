import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStateDb } from '../../data/state/db.ts';
import { createContentCache } from '../documents/content-cache.ts';
import { FIRST_PAGE_CACHE_CHECKER, firstPageStore } from './first-page-cache.ts';
import type { FirstPage } from './first-page.ts';

const sha = (digit: string) => digit.repeat(64);
const read: FirstPage = {
  page: { page: 1, width: 200, height: 100, source: 'ocr', items: [{ text: 'PAYSLIP', x: 10, y: 10, width: 50, height: 12, font: null }], text: 'PAYSLIP', confidence: 0.91 },
  images: { isImage: true, largestImageShare: 1 },
};

test('a kept page-1 read comes back for its document only, under its own checker name, and not for another read version', () => {
  const state = openStateDb(':memory:');
  const store = firstPageStore(createContentCache(state), 'v1');
  store.keep(sha('a'), read, new Date('2026-11-20T00:00:00Z'));
  assert.deepEqual(store.known([sha('a'), sha('b'), sha('a')]), new Map([[sha('a'), read]]));
  assert.deepEqual(state.all<{ checker: string; result: string }>('SELECT checker, result FROM checker_results').map((row) => [row.checker, JSON.parse(row.result)]), [[FIRST_PAGE_CACHE_CHECKER, read]]);
  assert.equal(firstPageStore(createContentCache(state), 'v2').known([sha('a')]).size, 0);
});

test('a stored read that does not fit the shape is left out, so the document is read again', () => {
  const state = openStateDb(':memory:');
  const store = firstPageStore(createContentCache(state), 'v1');
  store.keep(sha('c'), { page: null } as unknown as FirstPage, new Date('2026-11-20T00:00:00Z'));
  assert.equal(store.known([sha('c')]).size, 0);
});
