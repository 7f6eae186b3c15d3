import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractRequirements, type BidFilePages } from './extract.ts';

function file(...pages: string[]): BidFilePages {
  return { file_id: 'f1', filename: 'rft.pdf', pages: pages.map((text, index) => ({ n: index + 1, text })) };
}

test('a running header and footer repeated on every page are not read as requirements', () => {
  const header = 'RFT 12 - Tenderers must read this header';
  const found = extractRequirements([file(`${header}\n1.1 Tenderers must lodge by the Closing Time.\nPage 1 of 2`, `${header}\n1.2 Tenderers shall hold an ABN.\nPage 2 of 2`)]);
  assert.deepEqual(
    found.map((requirement) => [requirement.ref, requirement.text, requirement.source.page]),
    [
      ['1.1', 'Tenderers must lodge by the Closing Time.', 1],
      ['1.2', 'Tenderers shall hold an ABN.', 2],
    ],
  );
});

test('a sentence that runs over two lines is one requirement whose span covers both lines', () => {
  const page = 'Conditions\n2.1 The Respondent must provide a certificate of currency for public\nliability insurance of $20 million.\n';
  const [requirement] = extractRequirements([file(page)]);
  assert.equal(requirement?.text, 'The Respondent must provide a certificate of currency for public liability insurance of $20 million.');
  assert.equal(page.slice(requirement!.source.start, requirement!.source.end), 'The Respondent must provide a certificate of currency for public\nliability insurance of $20 million.');
});

test('items under a "must:" lead-in inherit it, and (i) after (h) is a letter, not a roman numeral', () => {
  const page = ['4 Compliance', 'The Respondent must:', ...'abcdefgh'.split('').map((letter) => `(${letter}) supply item ${letter};`), '(i) supply item i; and', '(j) supply item j.'].join('\n');
  const found = extractRequirements([file(page)]);
  assert.equal(found.length, 10);
  assert.ok(found.every((requirement) => requirement.mandatory && requirement.kind === 'clause'));
  assert.equal(found[8]!.ref, '4(i)');
  assert.equal(found[8]!.text, 'supply item i; and');
});

test('weighted criteria come with their weights, pass/fail rows are conditions, and "should" is not mandatory', () => {
  const page = [
    'Evaluation criteria',
    'Criterion\tWeighting',
    'Relevant experience\t40%',
    'Methodology60%',
    'Pre-conditions',
    'The Respondent holds ISO 9001 certification.\tPass/Fail',
    'General',
    'Respondents should keep each answer to two pages.',
    'The Council may shortlist Respondents.',
  ].join('\n');
  const found = extractRequirements([file(page)]);
  assert.deepEqual(
    found.map((requirement) => [requirement.kind, requirement.mandatory, requirement.weight]),
    [
      ['criterion', false, 40],
      ['criterion', false, 60],
      ['condition', true, null],
      ['clause', false, null],
    ],
  );
});

test('a list of returnable schedules gives one mandatory schedule per line', () => {
  const page = ['5 RETURNABLE SCHEDULES', 'Schedule 1 - Form of Tender', 'Schedule 2 - Schedule of Rates', '6 CONDITIONS OF TENDERING', '6.1 The Tender must remain valid for 90 days.'].join('\n');
  assert.deepEqual(
    extractRequirements([file(page)]).map((requirement) => [requirement.kind, requirement.text]),
    [
      ['schedule', 'Schedule 1 - Form of Tender'],
      ['schedule', 'Schedule 2 - Schedule of Rates'],
      ['clause', 'The Tender must remain valid for 90 days.'],
    ],
  );
});
