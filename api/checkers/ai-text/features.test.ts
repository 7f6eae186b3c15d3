import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFeatures } from './features.ts';
import { segment } from './segment.ts';
import { findStockPhrases } from './stock-phrases.ts';

test('stock phrases are found by family, longest phrase first, connectives only at a sentence start', () => {
  const text = 'Moreover, the town is nestled in the heart of the valley. It is, moreover, a testament to care. We delve into it.';
  const hits = findStockPhrases(segment(text));
  assert.deepEqual(
    hits.map((hit) => [hit.family.id, hit.phrase, text.slice(hit.start, hit.end)]),
    [
      ['connective_openers', 'moreover', 'Moreover'],
      ['promotional', 'nestled in the heart of', 'nestled in the heart of'],
      ['excess_vocabulary', 'testament', 'testament'],
      ['excess_vocabulary', 'delve', 'delve'],
    ],
  );
});

test('every stock-phrase family names its published basis', () => {
  const hits = findStockPhrases(segment('Additionally, it showcases a vibrant and pivotal realm.'));
  for (const hit of hits) assert.match(hit.family.basis, /\[(?:excerpt|memory)\]/);
  assert.equal(hits.length, 5);
});

test('features are rates that describe the text', () => {
  const text = 'I think it’s fine — really. We went home; then we slept (briefly). She said "yes" in 2024!!\n\nNot just fast, but cheap. Red, green, and blue.';
  const { features } = readFeatures(segment(text));
  assert.equal(features.sentence_length_mean, 25 / 5);
  assert.equal(features.em_dash_per_1000, 1000 / 25);
  assert.equal(features.colon_semicolon_per_1000, 1000 / 25);
  assert.equal(features.parenthesis_per_1000, 1000 / 25);
  assert.equal(features.quote_per_1000, 2000 / 25);
  assert.equal(features.digit_per_1000, 1000 / 25);
  assert.equal(features.informal_punctuation_per_1000, 1000 / 25);
  assert.equal(features.negative_parallelism_per_1000, 1000 / 25);
  assert.equal(features.triad_per_1000, 1000 / 25);
  assert.equal(features.contraction_rate, 1 / 25);
  assert.equal(features.first_person_rate, 3 / 25);
  assert.equal(features.mattr_50, new Set(segment(text).words.map((word) => word.lower)).size / 25);
});

test('burstiness: even sentence lengths give a lower coefficient of variation than uneven ones', () => {
  const even = readFeatures(segment('One two three four five. One two three four five. One two three four five.')).features;
  const uneven = readFeatures(segment('One. One two three four five six seven eight nine ten eleven. One two three.')).features;
  assert.equal(even.sentence_length_cv, 0);
  assert.ok(uneven.sentence_length_cv > 0.8);
});
