import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assessApplicability, MIN_WORDS } from './applicability.ts';
import { segment } from './segment.ts';

const PROSE_SENTENCE = 'The council reviewed the tender on Tuesday and asked the supplier to explain how the work would be staffed over winter.';
const prose = (sentences: number) => Array.from({ length: sentences }, () => PROSE_SENTENCE).join(' ');
const reasonOf = (text: string, scanned = false) => {
  const verdict = assessApplicability(segment(text), scanned);
  return verdict.applicable ? 'applicable' : verdict.reason;
};

test('running English prose of enough words is applicable', () => {
  assert.equal(reasonOf(prose(10)), 'applicable');
});

test(`under ${MIN_WORDS} words the estimate abstains, saying how many words it found`, () => {
  const verdict = assessApplicability(segment(prose(3)), false);
  assert.deepEqual(verdict, { applicable: false, reason: 'too_short', detail: `The text has 63 words; the estimate needs at least ${MIN_WORDS} words of running prose.` });
});

test('a scanned document abstains whatever its text says', () => {
  assert.equal(reasonOf(prose(10), true), 'scanned');
});

test('German prose abstains as not English', () => {
  const german = 'Die Beatles sind zweifellos eine der bekanntesten Bands aller Zeiten. Sie wurden in Liverpool gegründet und bestanden aus vier Musikern, die zusammen die Popmusik prägten. ';
  assert.equal(reasonOf(german.repeat(8)), 'not_english');
});

test('source code abstains as code', () => {
  const code = ['def total(items):', '    result = 0', '    for item in items:', '        result += item.price', '    return result', '', 'const rows = load();', 'if (rows.length > 0) {', '  render(rows);', '}'];
  assert.equal(reasonOf(`${code.join('\n')}\n`.repeat(6) + prose(2)), 'code');
});

test('a bulleted list abstains as a list', () => {
  const items = Array.from({ length: 30 }, (_, i) => `- Item ${i} covers the supply of safety equipment to the depot at the northern site`);
  assert.equal(reasonOf(items.join('\n')), 'list');
});

test('rows with column gaps abstain as a table', () => {
  const rows = Array.from({ length: 30 }, (_, i) => `Invoice ${1000 + i}\t2026-06-${String((i % 28) + 1).padStart(2, '0')}\tPaid in full by the client\t$${(i + 1) * 120}.00`);
  assert.equal(reasonOf(rows.join('\n')), 'table');
});

test('label-and-value lines abstain as a form', () => {
  const fields = ['Full name of the applicant:', 'Date of birth: 12/03/1990', 'Residential address of the applicant:', 'Phone number during business hours:', 'Signature of the applicant: ________', 'Name of the referee and their position:'];
  assert.equal(reasonOf(Array.from({ length: 8 }, () => fields.join('\n')).join('\n')), 'form');
});

test('words not in full sentences (headings, fragments) abstain as not prose', () => {
  const fragments = Array.from({ length: 40 }, (_, i) => `Section ${i} staffing plans and budgets`).join('. ');
  assert.equal(reasonOf(fragments), 'not_prose');
});
