import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { assertWithinPace, paceMs, timed } from '../../../test/helpers/fuzz-text.ts';
import { checkConsistency } from './consistency.ts';
import { findReferences } from './find.ts';

/**
 * Property tests of the reference checker's text parsers (fast-check): on any text, and on text built from
 * the pieces they look for (links, DOIs, list markers, headings, operators, figures, years), they return
 * without throwing, within a time bound, and with offsets that point into the text.
 */

const PIECES = [
  'https://', 'http://www.', 'www.', 'doi:', '10.1038/', '10.1234/abc.', 'https://doi.org/10.1', '(', ')', '[', ']', '[12]', '3.', '2)',
  'References\n', 'Bibliography:\n', 'Appendix A\n', 'Smith, J. ', '(2020). ', 'et al. ', "'Title', ", '"Quoted," ', 'Brown AB, ',
  ' + ', ' − ', ' - ', ' × ', ' / ', ' = ', '%', ' per cent', ' of ', ' out of ', 'from ', ' to ', ' years', ' a total of ', ' in total',
  'Total\t', 'Subtotal  ', '\t', '\n', '\n\n', ' ', '.', ',', '$', '1,234.5', '0', '12', '2019', '1998', 'million', 'bn', 'rose', 'fell',
  'not', 'increase', '\u00a0', '\u200b', '\ufeff', 'é', '漢', '\ud800',
];
const pieced = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 12 })), { maxLength: 200 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 2_000 }), pieced);

/** Long runs that make a careless regular expression backtrack for minutes. */
const ADVERSARIAL = [
  '1,'.repeat(20_000),
  '('.repeat(20_000),
  `https://${'a.'.repeat(10_000)}`,
  `10.1234/${'('.repeat(10_000)}`,
  `${'1 + '.repeat(20_000)}=`,
  'Smith, J. '.repeat(5_000),
  `References\n${'[1] Smith, J. (2020). A. '.repeat(2_000)}`,
  `${'1.5 '.repeat(10_000)}\nTotal ${'2 '.repeat(10_000)}`,
  `from ${'1 '.repeat(10_000)} to 2`,
  `${'a'.repeat(50_000)}.`,
  `References\n${'Smith, J. (2020). Title here.\n'.repeat(10_000)}`,
  'Line 1\n'.repeat(20_000),
];

/** Ordinary prose with figures, citations and links, about as long as the longest fuzzed text. */
const ORDINARY = 'Revenue rose from $1.2 million in 2019 to $1.5 million in 2020, an increase of 25 per cent (Smith, J. (2020). Title, https://doi.org/10.1234/abc.5). See [3] and www.example.org/report.\n'.repeat(10);

/**
 * The pace on ordinary text scaled to the length of `text`: both parsers are linear, so a text 100 times longer may
 * take 100 times as long, and only work growing faster than the text (backtracking, a quadratic loop) breaks the bound.
 */
function paceFor(text: string, pace: number): number {
  return pace * Math.max(1, text.length / ORDINARY.length);
}

describe('reference checker text parsers under fuzzing', () => {
  it('findReferences returns references whose offsets hold what they say was written', () => {
    const pace = paceMs(() => findReferences(ORDINARY));
    fc.assert(
      fc.property(anyText, (text) => {
        const { value, ms } = timed(() => findReferences(text));
        assertWithinPace(ms, paceFor(text, pace), 2_000, 'finding references');
        for (const reference of value) {
          assert.ok(reference.start >= 0 && reference.end <= text.length && reference.start <= reference.end);
          if (reference.kind !== 'citation') assert.equal(text.slice(reference.start, reference.end), reference.text);
        }
      }),
      { numRuns: 400, seed: 16 },
    );
  });

  it('checkConsistency returns findings inside the text with finite figures', () => {
    const pace = paceMs(() => checkConsistency(ORDINARY));
    fc.assert(
      fc.property(anyText, (text) => {
        const { value, ms } = timed(() => checkConsistency(text));
        assertWithinPace(ms, paceFor(text, pace), 2_000, 'checking consistency');
        for (const item of value) {
          assert.ok(item.start_char >= 0 && item.end_char <= text.length && item.start_char <= item.end_char);
          assert.ok(Number.isFinite(item.stated) && Number.isFinite(item.recomputed) && Number.isFinite(item.tolerance));
        }
      }),
      { numRuns: 400, seed: 16 },
    );
  });

  // Measured here: the slowest run took 13 times the length-scaled pace of ordinary text; an unbounded sum once took
  // 22 s (about 70,000 times), a 10,000-entry list 2 s.
  it('both answer long adversarial runs in time growing with their length, not faster', () => {
    const findPace = paceMs(() => findReferences(ORDINARY));
    const checkPace = paceMs(() => checkConsistency(ORDINARY));
    for (const text of ADVERSARIAL) {
      const what = JSON.stringify(text.slice(0, 30));
      assertWithinPace(timed(() => findReferences(text)).ms, paceFor(text, findPace), 150, `findReferences on ${what}…`);
      assertWithinPace(timed(() => checkConsistency(text)).ms, paceFor(text, checkPace), 150, `checkConsistency on ${what}…`);
    }
  });
});
