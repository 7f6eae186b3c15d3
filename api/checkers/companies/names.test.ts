import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { anyText, assertWithinPace, fuzzOptions, paceMs, piecedText, repeatedText, timed } from '../../../test/helpers/fuzz-text.ts';
import { matchName, normaliseName, searchTerms, withinOneEdit } from './names.ts';

const match = (query: string, name: string) => matchName(normaliseName(query), normaliseName(name));

test('names are normalised as registers and people write them', () => {
  assert.deepEqual(normaliseName('H & R  Consulting Pty. Ltd.'), { full: 'H AND R CONSULTING PTY LTD', core: ['H', 'R', 'CONSULTING'] });
  assert.deepEqual(normaliseName('Café Roma Proprietary Limited'), { full: 'CAFE ROMA PTY LTD', core: ['CAFE', 'ROMA'] });
  assert.deepEqual(normaliseName('THE TRUSTEE FOR THE NGUYEN FAMILY TRUST').core, ['NGUYEN', 'FAMILY', 'TRUST']);
  assert.deepEqual(normaliseName('Eyre Peninsula Gold No Liability').full, 'EYRE PENINSULA GOLD NL');
  assert.deepEqual(normaliseName('Pty Ltd').core, []);
});

test('matches are ranked exact, same words, all words, name words', () => {
  assert.deepEqual(match('harbourside civil pty. ltd.', 'HARBOURSIDE CIVIL PTY LTD'), { score: 1, rule: 'exact' });
  assert.deepEqual(match('Harbourside Civil', 'HARBOURSIDE CIVIL PTY LTD'), { score: 0.95, rule: 'same_words' });
  assert.deepEqual(match('Great Southern Energy Pty Ltd', 'GREAT SOUTHERN ENERGY LIMITED'), { score: 0.95, rule: 'same_words' });
  const typo = match('Harbourside Civl', 'HARBOURSIDE CIVIL PTY LTD');
  assert.equal(typo?.rule, 'all_words');
  assert.equal(typo?.score, 0.86);
  const shorter = match('Coastal', 'COASTAL MODULAR BUILDINGS PTY LTD');
  assert.equal(shorter?.rule, 'all_words');
  assert.ok(shorter!.score < typo!.score);
  const extra = match('Harbourside Civil Engineering', 'HARBOURSIDE CIVIL PTY LTD');
  assert.equal(extra?.rule, 'name_words');
  assert.equal(extra?.score, 0.667);
  assert.equal(match('Coastal Mod', 'COASTAL MODULAR BUILDINGS PTY LTD')?.rule, 'all_words');
  // A word left over on each side is another company, however many words agree.
  assert.equal(match('Brisbane Traffic Control', 'BRISBANE TRAFFIC SOLUTIONS PTY LTD'), null);
  assert.equal(match('Northern Beaches Bowls Club', 'NORTHERN RIVERS BOWLS CLUB INCORPORATED'), null);
  assert.equal(match('Coastal Care', 'HARBOURSIDE CIVIL PTY LTD'), null);
  assert.equal(match('Pty Ltd', 'HARBOURSIDE CIVIL PTY LTD'), null);
});

test('one edit: a letter added, dropped, changed, or two neighbours swapped', () => {
  assert.equal(withinOneEdit('CIVIL', 'CIVL'), true);
  assert.equal(withinOneEdit('CIVIL', 'CIVILS'), true);
  assert.equal(withinOneEdit('CIVIL', 'CIBIL'), true);
  assert.equal(withinOneEdit('CIVIL', 'CIVLI'), true);
  assert.equal(withinOneEdit('CIVIL', 'CVILI'), false);
  assert.equal(withinOneEdit('CIVIL', 'CIVILIAN'), false);
});

test('search terms are the core words, and the first four letters of longer ones as prefixes', () => {
  assert.deepEqual(searchTerms(normaliseName('Harbourside Civil Pty Ltd')), { words: ['HARBOURSIDE', 'CIVIL'], prefixes: ['HARB', 'CIVI'] });
  assert.deepEqual(searchTerms(normaliseName('H & R Consulting')), { words: ['CONSULTING'], prefixes: ['CONS'] });
});

test('property: normalising and matching never throw, answer in bounded time, and a name always matches itself exactly', () => {
  const alphabet = "ABCDEFGHIJ klmnop &.,'’-()ÉéøØ\u0301\u00a0PTYLDINCO0123456789";
  const companyName = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 }) },
    { weight: 2, arbitrary: piecedText(['Pty', 'Ltd', 'Proprietary', 'Limited', 'The Trustee for', 'Trust', 'No Liability', '&', ' ', ' ', '.', ','], 20) },
    { weight: 1, arbitrary: anyText(60) },
    { weight: 1, arbitrary: repeatedText(fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 5 }), 200, 2_000) },
  );
  // An ordinary name as long as the longest the fuzzing makes: about 0.06 ms a call here; the bound was 500 ms.
  const ordinary = 'Harbourside Civil Engineering Pty Ltd & Associates, The Trustee for Smith Family Trust '.repeat(24).slice(0, 2_000);
  const pace = paceMs(() => normaliseName(ordinary));
  fc.assert(
    fc.property(companyName, (text) => {
      const { value: name, ms } = timed(() => normaliseName(text));
      assertWithinPace(ms, pace, 4_000, 'normalising');
      assert.doesNotMatch(name.full, /[^A-Z0-9 ]/);
      const self = matchName(name, name);
      if (name.core.length > 0) assert.deepEqual(self, { score: 1, rule: 'exact' });
      else assert.equal(self, null);
    }),
    fuzzOptions(3_000),
  );
});
