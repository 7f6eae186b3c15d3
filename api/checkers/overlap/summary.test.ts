import assert from 'node:assert/strict';
import { test } from 'node:test';
import { overlapBand, overlapFigures, wordsCovered, type SourcedMatch } from './summary.ts';

const match = (source_url: string, start_char: number, end_char: number, tokens_matched: number): SourcedMatch => ({
  tier: 'exact', source_url, passage_span: { start_char, end_char }, source_span: { start_char: 0, end_char: end_char - start_char }, tokens_matched, matched_quote: '', source_quote: '',
});
// A document of 100 words, each four characters apart.
const STARTS = Array.from({ length: 100 }, (_, i) => i * 4);

test('words covered counts each document word once, however many sources share it', () => {
  const matches = [match('https://a.example/1', 0, 40, 10), match('https://b.example/2', 20, 60, 10), match('https://a.example/1', 200, 240, 10)];
  assert.equal(wordsCovered(matches, STARTS), 25);
});

test('bands: none without a match, then low under 5%, moderate under 20%, high under 50%, very high from 50%', () => {
  assert.deepEqual([[0, 100], [1, 100], [5, 100], [19, 100], [20, 100], [49, 100], [50, 100], [100, 100]].map(([words, of]) => overlapBand(words!, of!)),
    ['none', 'low', 'moderate', 'moderate', 'high', 'high', 'very_high', 'very_high']);
});

test('figures: ratio, band, sources ordered by words shared, and a headline with the counts', () => {
  const matches = [match('https://a.example/1', 0, 40, 10), match('https://b.example/2', 100, 220, 30), match('https://a.example/1', 300, 340, 10)];
  const figures = overlapFigures(matches, STARTS, new Map([['https://b.example/2', 'Page B']]), 7);
  assert.equal(figures.overlap_ratio, 0.5);
  assert.equal(figures.overlap_band, 'very_high');
  assert.deepEqual(figures.top_sources, [
    { url: 'https://b.example/2', host: 'b.example', title: 'Page B', tokens_matched: 30, share: 0.3, matches: 1 },
    { url: 'https://a.example/1', host: 'a.example', title: null, tokens_matched: 20, share: 0.2, matches: 2 },
  ]);
  assert.equal(figures.headline, "50% of the document's words (50 of 100, in 3 passages) appear word for word on 2 of the 7 web pages compared; most on b.example.");
});

test('figures without a match say how many pages were compared', () => {
  const figures = overlapFigures([], STARTS, new Map(), 1);
  assert.deepEqual([figures.overlap_ratio, figures.overlap_band, figures.top_sources], [0, 'none', []]);
  assert.equal(figures.headline, 'No passage of ten or more words was found word for word on the 1 web page compared.');
});
