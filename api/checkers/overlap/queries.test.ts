import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_QUERIES, MIN_QUERIES, QUERY_WORDS, planQueries, queryCount } from './queries.ts';
import { tokenise } from './tokens.ts';

test('query count: one per 50 words, between the bounds', () => {
  assert.equal(queryCount(100), MIN_QUERIES);
  assert.equal(queryCount(500), 10);
  assert.equal(queryCount(50_000), MAX_QUERIES);
});

test('each part of the document gives its most distinctive passage as a quoted phrase of the document\'s own words', () => {
  const plain = 'It was then that we said it would be so, and so it was for all of us there. ';
  const distinctive = 'Kosciuszko National Park rangers counted 14,000 feral horses near Cabramurra during 2026 surveys.';
  const text = `${plain.repeat(4)}${distinctive} ${plain.repeat(4)}`;
  const queries = planQueries(text, tokenise(text));
  assert.ok(queries.length >= 1);
  assert.ok(queries.some((query) => query.query.includes('Kosciuszko National Park rangers counted 14,000 feral horses')), JSON.stringify(queries));
  for (const query of queries) {
    assert.match(query.query, /^"[^"]+"$/);
    assert.equal(query.words, QUERY_WORDS);
  }
});

test('queries never overlap and come in document order', () => {
  const text = Array.from({ length: 900 }, (_, i) => `term${i % 97} specimen${i % 89}`).join(' ');
  const queries = planQueries(text, tokenise(text));
  assert.equal(queries.length, MAX_QUERIES);
  for (let i = 1; i < queries.length; i++) assert.ok(queries[i]!.firstToken >= queries[i - 1]!.firstToken + queries[i - 1]!.words);
});

test('a passage the document repeats is never a query', () => {
  const header = 'Department of Regional Infrastructure Procurement Services Request for Tender Number 2026 forty two';
  const text = Array.from({ length: 6 }, () => `${header}. the of and to in it was as be. the of and to in it was.`).join(' ');
  for (const query of planQueries(text, tokenise(text))) assert.doesNotMatch(query.query, /Procurement Services Request/);
});

test('fewer words than one query give none', () => {
  assert.deepEqual(planQueries('Too short to search.', tokenise('Too short to search.')), []);
});
