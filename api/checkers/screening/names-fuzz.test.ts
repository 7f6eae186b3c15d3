import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertWithinPace, fuzzOptions, anyText, paceMs, repeatedText, timed } from '../../../test/helpers/fuzz-text.ts';
import { nameTokens, normaliseName } from './names.ts';
import { buildSanctionsIndex, screenName } from './sanctions.ts';

/**
 * Fuzzing of the name normaliser and screening (fast-check): names of letters of several scripts, combining
 * marks, zero-width and byte-order characters, lone surrogates, controls, punctuation, full-width forms and
 * ligatures; any text at all; and long repeated runs. Nothing throws and every run is answered in bounded time.
 */
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
const nameChar = fc.constantFrom(...ALPHABETS.flatMap((alphabet) => [...alphabet]), '\ud800', '\udfff');
const scriptName = fc.string({ unit: nameChar, maxLength: 40 });
const anyName = fc.oneof(
  { weight: 4, arbitrary: scriptName },
  { weight: 2, arbitrary: anyText(60) },
  { weight: 1, arbitrary: repeatedText(fc.string({ unit: nameChar, minLength: 1, maxLength: 6 }), 300, 1_000) },
);

/** An ordinary name text as long as the longest the fuzzing makes: its pace bounds every run. */
const ORDINARY_NAME = 'Maria Gonzalez Hassan Nasrallah Li Wei '.repeat(26).slice(0, 1_000);

test('normaliseName never throws, is idempotent and gives lower-case, unaccented, single-spaced text, each in bounded time', () => {
  // About 0.11 ms a call here; the bound was 1 s.
  const pace = paceMs(() => normaliseName(ORDINARY_NAME));
  fc.assert(
    fc.property(anyName, (input) => {
      const { value: normalised, ms } = timed(() => normaliseName(input));
      assertWithinPace(ms, pace, 8_000, 'normalising');
      assert.equal(normaliseName(normalised), normalised);
      assert.doesNotMatch(normalised, /\p{M}|\p{Lu}|^ | $| {2}/u);
      for (const token of nameTokens(input)) assert.ok(token.length > 0 && !token.includes(' '));
    }),
    fuzzOptions(1_500),
  );
});

test('screening any such name (with aliases, a birth year and a country cut from it) never throws and answers in bounded time', () => {
  const index = buildSanctionsIndex([
    { source: 'us', list_name: 'x', entry_id: '1', entity_type: 'person', name: 'NASRALLAH, Hasan', aliases: ['Hassan Nasrallah'], weak_aliases: [], dates_of_birth: ['1960'], nationalities: [], countries: ['Lebanon'], programmes: ['SDGT'] },
  ]);
  // About 0.9 ms a call here; the bound was 250 ms.
  const pace = paceMs(() => screenName(index, { name: ORDINARY_NAME, aliases: [ORDINARY_NAME.slice(0, 10)], dob: '1960', country: 'Ma' }));
  fc.assert(
    fc.property(anyName, (input) => {
      const { value: block, ms } = timed(() => screenName(index, { name: input, aliases: [input.slice(0, 10)], dob: '1960', country: input.slice(0, 2) }));
      assertWithinPace(ms, pace, 250, 'screening');
      assert.ok(block.candidates.length <= 10);
    }),
    fuzzOptions(1_500),
  );
});
