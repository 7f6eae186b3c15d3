import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segment } from './segment.ts';
import { wordRates } from './word-profile.ts';

test("each profile word's rate is its share of the text's words, case and curly apostrophes folded", () => {
  const units = segment('The cat and THE dog. It’s the end of it');
  assert.deepEqual(wordRates(units, ['the', 'it', "it's", 'of', 'zebra']), [3 / 10, 1 / 10, 1 / 10, 1 / 10, 0]);
  assert.deepEqual(wordRates(segment(''), ['the']), [0]);
});
