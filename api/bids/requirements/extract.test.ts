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

test('a long document read as one page (a .docx of 60,000 lines) is read in time linear in its lines', () => {
  const lines = Array.from({ length: 60_000 }, (_, index) => (index % 3 === 0 ? `${(index % 90) + 1}.${(index % 9) + 1} The Tenderer must provide item ${index}.` : index % 3 === 1 ? '' : `Heading ${index}`));
  const started = performance.now();
  const found = extractRequirements([file(lines.join('\n'))]);
  const elapsed = performance.now() - started;
  assert.equal(found.length, 20_000);
  // Linear reading takes about 1 s here; looking ahead by copying the rest of the page each line took 30 s.
  assert.ok(elapsed < 8000, `took ${Math.round(elapsed)} ms`);
});

test('a list nested in a list item obliges as the outer list does, refs nest by numbering style, and an item keeps its first sentence', () => {
  // The shape of a WA Request's Part B (DPC2142): "b)." criteria, "(i)" items, "a." items under an item.
  const page = [
    '5. Qualitative Requirements',
    'b). Approach and Methodology (20% Weighting)',
    'The Respondent must provide:',
    '(i) An outline of its approach, including delivery of:',
    'a. A Proof-of-Operation as set out in Schedule 2.',
    'b. A Pilot Phase as set out in Schedule 2.',
    '(ii) Full details of its claims. No detail is to be referenced to a website.',
    'Respondent to Complete:',
    'Does the Respondent agree to the Agreement Details?',
  ].join('\n');
  assert.deepEqual(
    extractRequirements([file(page)]).map((requirement) => [requirement.ref, requirement.kind, requirement.mandatory, requirement.text]),
    [
      ['5(b)', 'criterion', false, 'Approach and Methodology (20% Weighting)'],
      ['5(b)(i)(a)', 'clause', true, 'A Proof-of-Operation as set out in Schedule 2.'],
      ['5(b)(i)(b)', 'clause', true, 'A Pilot Phase as set out in Schedule 2.'],
      ['5(b)(ii)', 'clause', true, 'Full details of its claims.'],
      ['5(b)(ii)', 'clause', true, 'No detail is to be referenced to a website.'],
    ],
  );
});
