import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fuzzOptions, wordsText } from '../../../test/helpers/fuzz-text.ts';
import { seededRandom } from '../../../test/helpers/seeded-random.ts';
import { tokenise } from './tokens.ts';
import { GUARANTEED_MATCH_WORDS, KGRAM_WORDS, WINDOW_HASHES, fingerprintText, kgramHashes, winnow } from './winnow.ts';

test('tokens fold case, accents and punctuation and keep the original character spans', () => {
  const text = 'Māori  CAFÉ-owners don’t—"stop".';
  const tokens = tokenise(text);
  assert.deepEqual(tokens.map((token) => token.norm), ['maori', 'cafe', 'owners', 'don', 't', 'stop']);
  assert.deepEqual(tokens.map((token) => text.slice(token.start, token.end)), ['Māori', 'CAFÉ', 'owners', 'don', 't', 'stop']);
});

test('k-gram hashes depend on the words only, not on case, spacing or punctuation', () => {
  const a = kgramHashes(tokenise('The quick brown fox jumps over the lazy dog'));
  const b = kgramHashes(tokenise('the QUICK, brown fox -- jumps over the lazy dog!'));
  assert.equal(a.length, 9 - KGRAM_WORDS + 1);
  assert.deepEqual([...a], [...b]);
  assert.notEqual(a[0], a[1]);
});

test('winnowing keeps the rightmost minimum of each window, each position once', () => {
  // The paper's hypothetical hashes of the 5-grams of "A do run run run, a do run run" (Schleimer et al. 2003,
  // Fig. 1(d), as copies of the paper print it) with its window of four (Fig. 2), which keeps 17, 17, 8, 39, 17.
  const hashes = Uint32Array.from([77, 72, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 72, 42, 17, 98]);
  assert.deepEqual(winnow(hashes, 4).map((print) => [print.hash, print.position]), [[17, 3], [17, 6], [8, 8], [39, 11], [17, 15]]);
});

test('winnowing with fewer hashes than a window keeps the minimum of them all', () => {
  assert.deepEqual(winnow(Uint32Array.from([9, 3, 5]), 6), [{ hash: 3, position: 1 }]);
  assert.deepEqual(winnow(new Uint32Array(0), 6), []);
});

const VOCABULARY = 'tender supplier contract panel schedule delivery invoice council road bridge water audit scope price term notice clause party'.split(' ');

test('the guarantee: two texts sharing any run of t words share a fingerprint inside that run', () => {
  const around = wordsText(VOCABULARY, 0, 40);
  fc.assert(
    fc.property(wordsText(VOCABULARY, GUARANTEED_MATCH_WORDS, GUARANTEED_MATCH_WORDS + 4), around, around, around, around, (shared, beforeA, afterA, beforeB, afterB) => {
      const a = fingerprintText(`${beforeA} ${shared} ${afterA}`);
      const b = fingerprintText(`${beforeB} ${shared} ${afterB}`);
      const sharedHashes = new Set(kgramHashes(tokenise(shared)));
      const inRun = (prints: typeof a.prints) => new Set(prints.filter((print) => sharedHashes.has(print.hash)).map((print) => print.hash));
      const common = [...inRun(a.prints)].filter((hash) => inRun(b.prints).has(hash));
      assert.ok(common.length > 0, `no shared fingerprint for a shared run of ${tokenise(shared).length} words`);
    }),
    fuzzOptions(300),
  );
});

test('density: about 2/(w+1) of the k-grams of varied text are kept', () => {
  const random = seededRandom(7);
  const words = Array.from({ length: 20_000 }, () => Math.floor(random() * 1e9).toString(36)).join(' ');
  const { tokens, prints } = fingerprintText(words);
  const density = prints.length / (tokens.length - KGRAM_WORDS + 1);
  const expected = 2 / (WINDOW_HASHES + 1);
  assert.ok(Math.abs(density - expected) < 0.02, `density ${density.toFixed(3)} against ${expected.toFixed(3)}`);
});
