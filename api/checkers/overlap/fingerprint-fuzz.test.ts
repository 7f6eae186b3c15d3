import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../test/helpers/seeded-random.ts';
import { applicability } from './applicability.ts';
import { confirmedMatches } from './confirm.ts';
import { planQueries } from './queries.ts';
import { tokenise } from './tokens.ts';
import { GUARANTEED_MATCH_WORDS, fingerprintText, kgramHashes } from './winnow.ts';

/**
 * Fuzzing of the fingerprinting and matching: arbitrary text (any UTF-16, lone surrogates, combining marks,
 * emoji, right-to-left script, control characters) never throws, every span points into the text it came
 * from, every match holds the same words on both sides, and nothing takes long, repetitive input included.
 * Seeded, so a failure replays; the seed and case are in the message.
 */

const PIECES = [
  'the', 'tender', 'Council', 'ROAD', 'déjà', 'naïve', 'Māori', '2026', '$1,200.50', 'e.g.', "don't", 'co-operate', '—', '…', '“quoted”',
  '\u0301', '\u200b', '\u00a0', '\ud83d\ude80', '\ud83d', '\udc00', 'مرحبا', 'שלום', 'Ελλάδα', 'Москва', '東京', '\u0000', '\t', '\n', '\n\n', '  ', '.', '!', '?',
];

function randomText(random: () => number, maxPieces: number): string {
  const count = Math.floor(random() * maxPieces);
  let text = '';
  for (let i = 0; i < count; i++) {
    if (random() < 0.1) text += String.fromCharCode(Math.floor(random() * 0x10000));
    else text += PIECES[Math.floor(random() * PIECES.length)]!;
    text += random() < 0.7 ? ' ' : '';
  }
  return text;
}

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
  const random = seededRandom(1601);
  for (let trial = 0; trial < 2_000; trial++) {
    const text = randomText(random, 300);
    try {
      checkSpans(text);
      const tokens = tokenise(text);
      for (const query of planQueries(text, tokens)) assert.match(query.query, /^".*"$/s);
      applicability(text, tokens);
    } catch (error) {
      assert.fail(`seed 1601, trial ${trial}, text ${JSON.stringify(text.slice(0, 200))}: ${(error as Error).message}`);
    }
  }
});

test('texts sharing random segments: every match is the same words on both sides, at least ten of them', () => {
  const random = seededRandom(1602);
  for (let trial = 0; trial < 400; trial++) {
    const shared = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomText(random, 60));
    const documentText = shared.map((segment) => `${randomText(random, 40)} ${segment}`).join(' ');
    const pageText = shared.toReversed().map((segment) => `${randomText(random, 40)} ${segment}`).join(' ');
    const matches = confirmedMatches(fingerprintText(documentText), fingerprintText(pageText));
    for (const match of matches) {
      const words = (text: string) => tokenise(text).map((token) => token.norm);
      assert.deepEqual(words(match.matched_quote), words(match.source_quote), `trial ${trial}`);
      assert.equal(words(match.matched_quote).length, match.tokens_matched);
      assert.ok(match.tokens_matched >= GUARANTEED_MATCH_WORDS);
      assert.equal(documentText.slice(match.passage_span.start_char, match.passage_span.end_char), match.matched_quote);
      assert.equal(pageText.slice(match.source_span.start_char, match.source_span.end_char), match.source_quote);
    }
  }
});

test('repetitive input does not hang: a page repeating one phrase 15,000 times against a document repeating it too', () => {
  const chorus = 'la la la la la oh la la '.repeat(5_000);
  const documentText = `The council met on Tuesday to discuss the bridge. ${chorus} The meeting closed at nine.`;
  const started = performance.now();
  const matches = confirmedMatches(fingerprintText(documentText), fingerprintText(chorus.repeat(3)));
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 3_000, `took ${Math.round(elapsed)} ms`);
  assert.deepEqual(matches, []);
});
