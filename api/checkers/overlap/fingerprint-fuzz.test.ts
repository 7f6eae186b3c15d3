import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assertWithinPace, fuzzOptions, anyText, paceMs, piecedText, repeatedText, timed, wordsText } from '../../../test/helpers/fuzz-text.ts';
import { applicability } from './applicability.ts';
import { confirmedMatches } from './confirm.ts';
import { planQueries } from './queries.ts';
import { tokenise } from './tokens.ts';
import { GUARANTEED_MATCH_WORDS, fingerprintText, kgramHashes } from './winnow.ts';

/**
 * Fuzzing of the fingerprinting and matching (fast-check): arbitrary text (any UTF-16, lone surrogates,
 * combining marks, emoji, right-to-left script, control characters) never throws, every span points into
 * the text it came from, every match holds the same words on both sides, and nothing takes long, repetitive
 * input included.
 */

const PIECES = [
  'the', 'tender', 'Council', 'ROAD', 'déjà', 'naïve', 'Māori', '2026', '$1,200.50', 'e.g.', "don't", 'co-operate', '—', '…', '“quoted”',
  '\u0301', '\u200b', '\u00a0', '\ud83d\ude80', '\ud83d', '\udc00', 'مرحبا', 'שלום', 'Ελλάδα', 'Москва', '東京', '\u0000', '\t', '\n', '\n\n', '  ', '.', '!', '?',
  ' ', ' ', ' ', ' ',
];
const WORDS = ['the', 'council', 'tender', 'bridge', 'road', 'works', 'Māori', 'déjà', '2026', 'supply', 'of', 'and', 'contract', 'water', 'naïve', 'Москва'];
const anyDocumentText = fc.oneof({ weight: 3, arbitrary: piecedText(PIECES, 600) }, { weight: 1, arbitrary: anyText(1_500) });
/** The most a document of up to a few thousand characters may take; far beyond it is a hang. */
const RUN_LIMIT_MS = 1_500;

function checkSpans(text: string): void {
  const tokens = tokenise(text);
  let previousEnd = 0;
  for (const token of tokens) {
    assert.ok(token.start >= previousEnd && token.end > token.start && token.end <= text.length);
    assert.ok(token.norm.length > 0);
    previousEnd = token.end;
  }
  const { prints } = fingerprintText(text);
  const hashes = kgramHashes(tokens);
  for (let i = 0; i < prints.length; i++) {
    assert.equal(prints[i]!.hash, hashes[prints[i]!.position]);
    if (i > 0) assert.ok(prints[i]!.position > prints[i - 1]!.position);
  }
}

test('arbitrary text: tokens, fingerprints, queries and the prose test never throw and stay inside the text', () => {
  fc.assert(
    fc.property(anyDocumentText, (text) => {
      const { ms } = timed(() => {
        checkSpans(text);
        const tokens = tokenise(text);
        for (const query of planQueries(text, tokens)) assert.match(query.query, /^".*"$/s);
        applicability(text, tokens);
      });
      assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
    }),
    fuzzOptions(1_000),
  );
});

test('texts sharing segments: every match is the same words on both sides, at least ten of them', () => {
  const segment = fc.oneof({ weight: 2, arbitrary: wordsText(WORDS, GUARANTEED_MATCH_WORDS, 60) }, { weight: 1, arbitrary: piecedText(PIECES, 60) });
  const surrounding = fc.oneof(wordsText(WORDS, 0, 40), piecedText(PIECES, 40));
  const sharing = fc.array(fc.tuple(segment, surrounding, surrounding), { minLength: 1, maxLength: 3 });
  let runsWithMatches = 0;
  fc.assert(
    fc.property(sharing, (parts) => {
      const documentText = parts.map(([shared, before]) => `${before} ${shared}`).join(' ');
      const pageText = parts.toReversed().map(([shared, , before]) => `${before} ${shared}`).join(' ');
      const { value: matches, ms } = timed(() => confirmedMatches(fingerprintText(documentText), fingerprintText(pageText)));
      assert.ok(ms < RUN_LIMIT_MS, `took ${Math.round(ms)} ms`);
      if (matches.length > 0) runsWithMatches++;
      const words = (text: string) => tokenise(text).map((token) => token.norm);
      for (const match of matches) {
        assert.deepEqual(words(match.matched_quote), words(match.source_quote));
        assert.equal(words(match.matched_quote).length, match.tokens_matched);
        assert.ok(match.tokens_matched >= GUARANTEED_MATCH_WORDS);
        assert.equal(documentText.slice(match.passage_span.start_char, match.passage_span.end_char), match.matched_quote);
        assert.equal(pageText.slice(match.source_span.start_char, match.source_span.end_char), match.source_quote);
      }
    }),
    fuzzOptions(400),
  );
  // The property says something only if the generated texts do share passages that get matched.
  assert.ok(runsWithMatches >= 40, `only ${runsWithMatches} of 400 runs had a match`);
});

/** Ordinary prose (120,000 characters against half of it) sets the pace of fingerprinting and matching: about 22 ms here. */
const ordinaryPace = () => {
  const prose = 'The council met on Tuesday to discuss the bridge, the depot, the budget and the roads of the shire. '.repeat(1_200);
  return paceMs(() => confirmedMatches(fingerprintText(prose), fingerprintText(prose.slice(0, 60_000))));
};

test('repetitive input does not hang: a page repeating one phrase 15,000 times against a document repeating it too', () => {
  const chorus = 'la la la la la oh la la '.repeat(5_000);
  const documentText = `The council met on Tuesday to discuss the bridge. ${chorus} The meeting closed at nine.`;
  const pace = ordinaryPace();
  const { value: matches, ms } = timed(() => confirmedMatches(fingerprintText(documentText), fingerprintText(chorus.repeat(3))));
  // The bound was 3 s.
  assertWithinPace(ms, pace, 140, 'matching the repeated chorus');
  assert.deepEqual(matches, []);
});

test('any short phrase repeated thousands of times, on both sides, is fingerprinted and matched in bounded time', () => {
  const phrase = fc.oneof(wordsText(WORDS, 1, 6).map((words) => `${words} `), piecedText(PIECES, 4));
  const pace = ordinaryPace();
  fc.assert(
    fc.property(repeatedText(phrase, 500, 2_000), repeatedText(phrase, 500, 2_000), (documentText, pageText) => {
      const { value: matches, ms } = timed(() => confirmedMatches(fingerprintText(documentText), fingerprintText(pageText)));
      // The bound was 3 s.
      assertWithinPace(ms, pace, 140, 'matching repeated phrases');
      for (const match of matches) assert.equal(documentText.slice(match.passage_span.start_char, match.passage_span.end_char), match.matched_quote);
    }),
    fuzzOptions(30),
  );
});
