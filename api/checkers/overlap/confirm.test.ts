import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confirmedMatches } from './confirm.ts';
import { fingerprintText } from './winnow.ts';

const COPIED = 'Suppliers must hold current public liability insurance of not less than twenty million dollars for each occurrence throughout the term';

test('a copied passage is found with its spans, word count and both quotes as each text has them', () => {
  const documentText = `Our response to the tender follows. ${COPIED.toUpperCase()}, as the buyer asked. Nothing else is shared here at all today.`;
  const pageText = `<p>Conditions of participation.</p> ${COPIED.replaceAll(' ', '  ')}. End of the conditions page.`;
  const matches = confirmedMatches(fingerprintText(documentText), fingerprintText(pageText));
  assert.equal(matches.length, 1);
  const [match] = matches;
  assert.equal(match!.tier, 'exact');
  assert.equal(match!.tokens_matched, 20);
  assert.equal(match!.matched_quote, COPIED.toUpperCase());
  assert.equal(documentText.slice(match!.passage_span.start_char, match!.passage_span.end_char), match!.matched_quote);
  assert.equal(match!.source_quote, COPIED.replaceAll(' ', '  '));
  assert.equal(pageText.slice(match!.source_span.start_char, match!.source_span.end_char), match!.source_quote);
});

test('a shared run shorter than ten words is not a match; ten words is', () => {
  const words = 'the contractor shall indemnify the principal against every claim arising from negligence'.split(' ');
  const page = fingerprintText(`Clause 12. ${words.join(' ')}. Clause 13 follows.`);
  const nine = fingerprintText(`Unrelated opening words here. ${words.slice(0, 9).join(' ')} and then something else entirely different.`);
  const ten = fingerprintText(`Unrelated opening words here. ${words.slice(0, 10).join(' ')} and then something else entirely different.`);
  assert.deepEqual(confirmedMatches(nine, page), []);
  assert.equal(confirmedMatches(ten, page)[0]?.tokens_matched, 10);
});

test('a passage the page repeats is reported once, and two separate passages twice, in document order', () => {
  const first = 'renewable energy targets were adopted by the council in its meeting of the third of march';
  const second = 'the water treatment upgrade will be delivered in three stages over the coming five financial years';
  const page = fingerprintText(`${second}. Intro. ${first}. Again: ${first}.`);
  const documentText = `${first}. Some words between the two passages here. ${second}.`;
  const matches = confirmedMatches(fingerprintText(documentText), page);
  assert.deepEqual(matches.map((match) => match.matched_quote), [first, second]);
});

test('texts with nothing in common give no match', () => {
  const a = fingerprintText('The council resolved to accept the lowest conforming tender for the bridge works after a long debate about the budget.');
  const b = fingerprintText('Rainfall across the catchment was below average for the season, and storage levels fell to sixty per cent by June.');
  assert.deepEqual(confirmedMatches(a, b), []);
});
