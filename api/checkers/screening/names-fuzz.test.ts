import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seededRandom } from '../../../test/helpers/seeded-random.ts';
import { nameTokens, normaliseName } from './names.ts';
import { buildSanctionsIndex, screenName } from './sanctions.ts';

// fast-check is not installed; these generate the same kind of adversarial input from the project's seeded
// generator: letters of several scripts, combining marks, lone surrogates, controls, punctuation, full-width
// forms and very long runs, so every run checks the same 3,000 inputs.
const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯіїєґ',
  'ابتثجحخدذرزسشصضطظعغفقكلمنهويىةءأإآپچژگکی',
  'αβγδεζηθικλμνξοπρστυφχψωάέήίόύώ',
  'ßæœøłđðþıŀħŧÉÈÊËÑÇÅÖÜİ',
  '\u0300\u0301\u0308\u0327\u064b\u0651\u200b\u200d\ufeff',
  '\ud800\udc00\udbff\udfff',
  '\u0000\u0007\t\n\r\u001f\u007f',
  ' -,.\'’`‘ʿʾ()/&@#',
  'ＡＢＣａｂｃ１２３ﬁﬂ',
  '漢字かなカナ한글',
];

function randomName(random: () => number): string {
  const length = random() < 0.02 ? 2_000 + Math.floor(random() * 3_000) : Math.floor(random() * 40);
  let text = '';
  for (let i = 0; i < length; i++) {
    const alphabet = ALPHABETS[Math.floor(random() * ALPHABETS.length)]!;
    text += alphabet[Math.floor(random() * alphabet.length)];
  }
  return text;
}

const INPUTS = (() => {
  const random = seededRandom(16);
  return Array.from({ length: 3_000 }, () => randomName(random));
})();

test('normaliseName never throws, is idempotent and gives lower-case, unaccented, single-spaced text', () => {
  const started = performance.now();
  for (const input of INPUTS) {
    const normalised = normaliseName(input);
    assert.equal(normaliseName(normalised), normalised, `idempotent on ${JSON.stringify(input.slice(0, 60))}`);
    assert.doesNotMatch(normalised, /\p{M}|\p{Lu}|^ | $| {2}/u, JSON.stringify(input.slice(0, 60)));
    for (const token of nameTokens(input)) assert.ok(token.length > 0 && !token.includes(' '));
  }
  assert.ok(performance.now() - started < 5_000, 'no input makes normalising slow');
});

test('screening any of those inputs never throws and answers in bounded time', () => {
  const index = buildSanctionsIndex([
    { source: 'us', list_name: 'x', entry_id: '1', entity_type: 'person', name: 'NASRALLAH, Hasan', aliases: ['Hassan Nasrallah'], weak_aliases: [], dates_of_birth: ['1960'], nationalities: [], countries: ['Lebanon'], programmes: ['SDGT'] },
  ]);
  let slowest = 0;
  for (const input of INPUTS) {
    const started = performance.now();
    const block = screenName(index, { name: input, aliases: [input.slice(0, 10)], dob: '1960', country: input.slice(0, 2) });
    slowest = Math.max(slowest, performance.now() - started);
    assert.ok(block.candidates.length <= 10);
  }
  assert.ok(slowest < 250, `the slowest screening took ${slowest.toFixed(1)} ms`);
});
