import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordMeasured } from './helpers/measured.ts';

// Floors are judged on the figure as measured, before measured/ rounds it to three decimals.
test('a figure that only rounds up to its floor fails the floor', () => {
  assert.throws(
    () => recordMeasured('no-such-measurement', { corpus: 'none', truth: 'none', figures: { recall: 0.8996 }, floors: { recall: 0.9 } }),
    /recall is 0\.8996, below its floor 0\.9/,
  );
});

test('a ceiling is judged on the unrounded figure too', () => {
  assert.throws(
    () => recordMeasured('no-such-measurement', { corpus: 'none', truth: 'none', figures: { false_rate: 0.0504 }, floors: { 'max:false_rate': 0.05 } }),
    /false_rate is 0\.0504, above its ceiling 0\.05/,
  );
});
