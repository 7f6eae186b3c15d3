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

test('a long document read as one page (a .docx of tens of thousands of lines) is read in time linear in its lines', () => {
  const document = (count: number) => Array.from({ length: count }, (_, index) => (index % 3 === 0 ? `${(index % 90) + 1}.${(index % 9) + 1} The Tenderer must provide item ${index}.` : index % 3 === 1 ? '' : `Heading ${index}`)).join('\n');
  const timed = (count: number) => {
    const text = document(count);
    const started = performance.now();
    const found = extractRequirements([file(text)]);
    const elapsed = performance.now() - started;
    assert.equal(found.length, count / 3);
    return elapsed;
  };
  timed(3_000); // warm the JIT so the small run is not charged for compiling
  const small = timed(7_500);
  const large = timed(60_000);
  // Eight times the lines: linear reading takes about eight times as long; looking ahead by copying the rest of the
  // page on each line (the defect this guards) took about 64 times as long. A ratio, not a time, so load does not matter.
  assert.ok(large / small < 24, `8x the lines took ${(large / small).toFixed(1)}x as long (${Math.round(small)} ms, ${Math.round(large)} ms)`);
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

test('a buyer\'s template: notes to the drafter are no requirements, while what it asks of the tenderer stays', () => {
  const template = [
    'Requirements',
    'Remove any sections in this document that are not applicable to your procurement.',
    'Describe what work is required and any key problems that need solving.',
    'Clearly define how the services are to be delivered.',
    'Insert any requirements which the seller must adhere to.',
    'Enter the number of weeks of the initial contract.',
    'How to respond',
    'Responses must be lodged on the Digital Marketplace before the opportunity closes.',
  ].join('\n');
  assert.deepEqual(
    extractRequirements([file(template)]).filter((requirement) => requirement.mandatory).map((requirement) => requirement.text),
    ['Responses must be lodged on the Digital Marketplace before the opportunity closes.'],
  );
  const response = ['Compliance', 'Do you comply with this Mandatory Requirement? Yes / No', 'Explain how you meet this requirement (if necessary)', 'Briefly describe your approach to the work.'].join('\n\n');
  assert.deepEqual(
    extractRequirements([file(response)]).filter((requirement) => requirement.mandatory).map((requirement) => requirement.text),
    ['Briefly describe your approach to the work.'],
  );
  const [lodging] = extractRequirements([file('Instructions to Sellers\nYou must use this template to provide your response.')]);
  assert.equal(lodging?.kind, 'instruction');
});
