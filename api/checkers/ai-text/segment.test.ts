import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segment } from './segment.ts';

test('words, sentences and lines carry offsets into the text', () => {
  const text = 'It’s well-known. The 3 cats sat!\n\nA new paragraph here.';
  const units = segment(text);
  assert.deepEqual(units.words.map((word) => word.lower), ["it's", 'well-known', 'the', 'cats', 'sat', 'a', 'new', 'paragraph', 'here']);
  assert.deepEqual(units.sentences.map((sentence) => text.slice(sentence.start, sentence.end)), ['It’s well-known.', 'The 3 cats sat!', 'A new paragraph here.']);
  assert.deepEqual(units.lines.map((line) => text.slice(line.start, line.end)), ['It’s well-known. The 3 cats sat!', 'A new paragraph here.']);
});

test('a line break inside a paragraph (a PDF wrapping at the page width) does not end a sentence', () => {
  const units = segment('The committee met on Tuesday and agreed\nthat the budget would be reviewed.\n\nNext item.');
  assert.deepEqual(units.sentences.map((sentence) => sentence.words.length), [13, 2]);
});
