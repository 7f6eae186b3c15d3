import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertWithinPace, fuzzOptions, anyText, paceMs, piecedText, repeatedText, timed } from '../../../test/helpers/fuzz-text.ts';
import {
  acnMissesChange,
  correctionKind,
  IDENTIFIER_LENGTHS,
  formatIdentifier,
  isValidAbn,
  isValidAcn,
  isValidIdentifier,
  isValidNzbn,
  oneDigitCorrections,
  parseQuery,
  suggestedCorrections,
  transpositionCorrections,
  type IdentifierScheme,
} from './identifiers.ts';

// Published examples: the ABR's own (checkers-research §9.1), python-stdnum's ACNs (§9.2), org-id.guide's NZBNs (§9.3).
test('published valid and invalid examples', () => {
  assert.equal(isValidAbn('51824753556'), true);
  assert.equal(isValidAbn('43002724334'), true);
  assert.equal(isValidAbn('51824753557'), false);
  assert.equal(isValidAcn('004085616'), true);
  assert.equal(isValidAcn('010499966'), true);
  assert.equal(isValidAcn('002724334'), true);
  assert.equal(isValidAcn('999999999'), false);
  assert.equal(isValidNzbn('9429046393920'), true);
  assert.equal(isValidNzbn('9429050294954'), true);
  assert.equal(isValidNzbn('9429050294955'), false);
});

test('an 11-digit string starting 0 is never an ABN, even where its weighted sum divides by 89', () => {
  // 0x check digits would stand for −10…−1, which the ABR never issues: every 9-digit base has its one ABN from 10 to 98.
  const digits = '04000063352';
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  assert.equal([...digits].reduce((sum, digit, i) => sum + (i === 0 ? Number(digit) - 1 : Number(digit)) * weights[i]!, 0) % 89, 0);
  assert.equal(isValidAbn(digits), false);
});

test('queries are read as people write identifiers', () => {
  assert.deepEqual(parseQuery('51 824 753 556'), { kind: 'identifier', scheme: 'abn', digits: '51824753556', formatted: '51 824 753 556', valid: true, corrections: [], labelled: false });
  assert.deepEqual(parseQuery('ABN: 51-824-753-556'), { kind: 'identifier', scheme: 'abn', digits: '51824753556', formatted: '51 824 753 556', valid: true, corrections: [], labelled: true });
  assert.equal((parseQuery('A.B.N. 51824753556') as { scheme: string }).scheme, 'abn');
  assert.equal((parseQuery('acn 004.085.616') as { scheme: string }).scheme, 'acn');
  assert.equal((parseQuery('ARBN 004 085 616') as { scheme: string }).scheme, 'acn');
  assert.equal((parseQuery('NZBN 9429046393920') as { scheme: string }).scheme, 'nzbn');
  assert.equal((parseQuery('9429046393920') as { scheme: string }).scheme, 'nzbn');
  assert.deepEqual(parseQuery('Harbourside Civil Pty Ltd'), { kind: 'name', name: 'Harbourside Civil Pty Ltd' });
  assert.deepEqual(parseQuery('ABNORMAL LOADS PTY LTD'), { kind: 'name', name: 'ABNORMAL LOADS PTY LTD' });
  assert.deepEqual(parseQuery('1300 FLOWERS'), { kind: 'name', name: '1300 FLOWERS' });
  assert.deepEqual(parseQuery('1300'), { kind: 'name', name: '1300' });
  const short = parseQuery('ABN 51 824 753 55');
  assert.equal(short.kind, 'wrong_length');
  assert.match((short as { detail: string }).detail, /An ABN has 11 digits; 5182475355 has 10 digits/);
  const unknown = parseQuery('1234 5678 90');
  assert.equal(unknown.kind, 'wrong_length');
  assert.match((unknown as { detail: string }).detail, /an ABN has 11, an ACN 9 and an NZBN 13/);
});

test('a one-digit typo of an ABN is reported with the valid readings one digit away, the intended one among them', () => {
  const typo = parseQuery('51 824 753 557');
  assert.equal(typo.kind, 'identifier');
  if (typo.kind !== 'identifier') return;
  assert.equal(typo.valid, false);
  assert.ok(typo.corrections.includes('51824753556'), typo.corrections.join(','));
  for (const reading of typo.corrections) {
    assert.equal(isValidAbn(reading), true);
    assert.equal([...reading].filter((digit, i) => digit !== '51824753557'[i]).length, 1);
  }
});

test('a transposed ABN (the ABR example 51 824 753 556 typed with its 4 and 7 swapped) is offered the true number first, as a transposition, then the single-digit reading', () => {
  const typo = parseQuery('51 827 453 556');
  assert.equal(typo.kind, 'identifier');
  if (typo.kind !== 'identifier') return;
  assert.equal(typo.valid, false);
  assert.deepEqual(typo.corrections, ['51824753556', '57827453556']);
  assert.deepEqual(typo.corrections.map((reading) => correctionKind('51827453556', reading)), ['adjacent_transposition', 'one_digit_change']);
  for (const reading of typo.corrections) assert.equal(isValidAbn(reading), true);
  // One-digit readings alone (all this checker offered before) miss the number meant.
  assert.deepEqual(oneDigitCorrections('abn', '51827453556'), ['57827453556']);
});

test('every adjacent transposition of the ABR example fails the check and is swapped back among the first readings', () => {
  const abn = '51824753556';
  for (let position = 0; position + 1 < abn.length; position++) {
    if (abn[position] === abn[position + 1]) continue;
    const typo = `${abn.slice(0, position)}${abn[position + 1]}${abn[position]}${abn.slice(position + 2)}`;
    assert.equal(isValidAbn(typo), false, typo);
    assert.ok(transpositionCorrections('abn', typo).includes(abn), typo);
    assert.ok(suggestedCorrections('abn', typo).indexOf(abn) < transpositionCorrections('abn', typo).length, typo);
  }
});

/** A valid number of the scheme: random digits completed with the check digit(s) the scheme gives them. */
function validNumber(scheme: IdentifierScheme): fc.Arbitrary<string> {
  const digits = (count: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: count, maxLength: count });
  // Every 9-digit base has exactly one ABN (check digits 10 to 98); every ACN and NZBN body one final digit.
  if (scheme === 'abn') return digits(9).map((base) => completed(scheme, Array.from({ length: 90 }, (_, i) => `${i + 10}${base}`)));
  return digits(IDENTIFIER_LENGTHS[scheme] - 1).map((body) => completed(scheme, Array.from({ length: 10 }, (_, last) => `${body}${last}`)));
}

function completed(scheme: IdentifierScheme, candidates: string[]): string {
  const valid = candidates.find((candidate) => isValidIdentifier(scheme, candidate));
  assert.ok(valid !== undefined, `no valid ${scheme} among ${candidates[0]}…`);
  return valid;
}

function singleDigitChanges(digits: string): { changed: string; position: number; delta: number }[] {
  const changes = [];
  for (let position = 0; position < digits.length; position++) {
    for (let digit = 0; digit <= 9; digit++) {
      const delta = digit - Number(digits[position]);
      if (delta !== 0) changes.push({ changed: `${digits.slice(0, position)}${digit}${digits.slice(position + 1)}`, position, delta });
    }
  }
  return changes;
}

test('property: every single-digit change of a valid ABN or NZBN fails its check and is corrected back to it', () => {
  for (const scheme of ['abn', 'nzbn'] as const) {
    fc.assert(
      fc.property(validNumber(scheme), (number) => {
        assert.equal(parseQuery(formatIdentifier(scheme, number)).kind, 'identifier');
        for (const { changed } of singleDigitChanges(number)) {
          const parsed = parseQuery(scheme === 'nzbn' ? `NZBN ${changed}` : changed);
          assert.equal(parsed.kind, 'identifier', changed);
          if (parsed.kind !== 'identifier') continue;
          assert.equal(parsed.valid, false, `${scheme} ${number} changed to ${changed} still passes`);
          assert.ok(parsed.corrections.includes(number), `${changed}: ${parsed.corrections.join(',')} does not name ${number}`);
        }
      }),
      fuzzOptions(60),
    );
  }
});

test('property: every adjacent transposition of a valid ABN fails its check, and the intended number is among the transposition readings, ranked before any single-digit one', () => {
  fc.assert(
    fc.property(validNumber('abn'), (abn) => {
      for (let position = 0; position + 1 < abn.length; position++) {
        if (abn[position] === abn[position + 1]) continue;
        const typo = `${abn.slice(0, position)}${abn[position + 1]}${abn[position]}${abn.slice(position + 2)}`;
        if (typo.startsWith('0')) continue;
        const parsed = parseQuery(typo);
        assert.equal(parsed.kind, 'identifier');
        if (parsed.kind !== 'identifier') continue;
        assert.equal(parsed.valid, false, `${abn} with positions ${position} and ${position + 1} swapped still passes`);
        const rank = parsed.corrections.indexOf(abn);
        assert.ok(rank >= 0 && parsed.corrections.slice(0, rank).every((reading) => correctionKind(typo, reading) === 'adjacent_transposition'), `${typo}: ${parsed.corrections.join(',')}`);
        for (const reading of parsed.corrections) assert.equal(isValidAbn(reading), true);
      }
    }),
    fuzzOptions(100),
  );
});

test('property: an adjacent transposition of a valid ACN that fails its check is swapped back among the readings', () => {
  fc.assert(
    fc.property(validNumber('acn'), (acn) => {
      for (let position = 0; position + 1 < acn.length; position++) {
        if (acn[position] === acn[position + 1]) continue;
        const typo = `${acn.slice(0, position)}${acn[position + 1]}${acn[position]}${acn.slice(position + 2)}`;
        const parsed = parseQuery(typo);
        if (parsed.kind !== 'identifier' || parsed.valid) continue;
        assert.ok(transpositionCorrections('acn', typo).includes(acn), `${typo}: ${parsed.corrections.join(',')}`);
        assert.equal(parsed.corrections.indexOf(acn) < transpositionCorrections('acn', typo).length, true);
      }
    }),
    fuzzOptions(100),
  );
});

test('property: a single-digit change of a valid ACN is caught and corrected back, unless the modulus 10 check cannot see it', () => {
  fc.assert(
    fc.property(validNumber('acn'), (acn) => {
      let missed = 0;
      for (const { changed, position, delta } of singleDigitChanges(acn)) {
        const parsed = parseQuery(changed);
        assert.equal(parsed.kind, 'identifier');
        if (parsed.kind !== 'identifier') continue;
        if (acnMissesChange(position, delta)) {
          // Another valid ACN: the register decides which company it names.
          assert.equal(parsed.valid, true, `${acn} → ${changed}`);
          missed++;
        } else {
          assert.equal(parsed.valid, false, `${acn} → ${changed} passes the check`);
          assert.ok(parsed.corrections.includes(acn), `${changed}: ${parsed.corrections.join(',')} does not name ${acn}`);
        }
      }
      // Of the 81 single-digit changes of any ACN, 8 keep the check: 4 at weight 5 (the other digits of the same
      // parity) and one (±5) at each of weights 8, 6, 4 and 2.
      assert.equal(missed, 8);
    }),
    fuzzOptions(100),
  );
});

const QUERY_PIECES = ['ABN', 'A.B.N.', 'ACN', 'ARBN', 'NZBN', 'abn:', 'Pty', 'Ltd', '#', '&', ' ', ' ', '-', '.', ':', '/', '\u00a0', '\u00e9', ...'0123456789'];

test('property: parsing never throws, answers in bounded time, and every reported identifier is well formed', () => {
  const digitRun = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 14 });
  const query = fc.oneof(
    { weight: 3, arbitrary: piecedText(QUERY_PIECES, 30) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', 'ABN ', 'ACN ', 'NZBN ', 'abn: '), digitRun, fc.constantFrom('', ' ', ' Pty Ltd')).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: anyText(60) },
    { weight: 1, arbitrary: repeatedText(piecedText(QUERY_PIECES, 4), 200, 2_000) },
  );
  // The costliest ordinary query is a mistyped number, for which every correction is tried: about 0.05 ms here;
  // the bound was 500 ms.
  const pace = paceMs(() => parseQuery('ABN 51 824 753 557'));
  fc.assert(
    fc.property(query, (text) => {
      const { value: parsed, ms } = timed(() => parseQuery(text));
      assertWithinPace(ms, pace, 4_000, 'parsing');
      if (parsed.kind === 'identifier') {
        assert.match(parsed.digits, /^\d+$/);
        assert.equal(parsed.digits.length, IDENTIFIER_LENGTHS[parsed.scheme]);
        assert.equal(parsed.valid, isValidIdentifier(parsed.scheme, parsed.digits));
        for (const reading of parsed.corrections) {
          assert.notEqual(reading, parsed.digits);
          assert.equal(isValidIdentifier(parsed.scheme, reading), true);
        }
      }
    }),
    fuzzOptions(3_000),
  );
  assert.deepEqual(oneDigitCorrections('abn', '12'), []);
});
