import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { StoredDraft } from '../drafts/store.ts';
import type { FilePages } from '../files.ts';
import { extractRequirements } from '../requirements/extract.ts';
import type { Requirement } from '../requirements/store.ts';
import { clarificationEmail, clarificationQuestions, contactAddress } from './clarification.ts';
import { checkCompliance, WORDS_PER_PAGE } from './compliance.ts';
import { datesIn, lengthLimitsIn } from './tender-text.ts';

/** A labelled tender document of fixtures/bids/ as one bid file, and its requirements as extraction finds them. */
function tender(name: string): { file: FilePages; requirements: Requirement[] } {
  const text = readFileSync(join(import.meta.dirname, '..', '..', '..', 'fixtures', 'bids', `${name}.txt`), 'utf8');
  const file: FilePages = { file_id: 'file_tender', filename: `${name}.txt`, pages: [{ n: 1, text }] };
  const requirements = extractRequirements([file]).map((found, index): Requirement => ({
    ...found,
    requirement_id: `req_${index + 1}`,
    bid_id: 'bid_1',
    state: 'open',
    parents: [],
    superseded_by: [],
    origin: 'extracted',
    edited: false,
    created_at: '2026-02-01T00:00:00.000Z',
    updated_at: '2026-02-01T00:00:00.000Z',
  }));
  return { file, requirements };
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const draft = (requirement_id: string, text: string, origin: StoredDraft['origin'] = 'person'): StoredDraft => ({
  requirement_id,
  text,
  origin,
  note: origin === 'person' ? 'Written by a person; recompute leaves it as it is.' : 'The language model answered without citing any of the 2 passages it was given.',
  citations: [],
  model: null,
  edited_by: origin === 'person' ? 'member@harbour.test' : null,
  updated_at: '2026-02-01T00:00:00.000Z',
});

describe('reading tender wording', () => {
  it('finds dates as tenders write them, day first', () => {
    assert.deepEqual(datesIn('Tenders close: 10:00am AEST, Friday 13 March 2026. Inspection on 24th Feb 2026, or March 2, 2026; due 2026-03-20 or 21/03/2026; not 31/02/2026.'), [
      '2026-03-13', '2026-02-24', '2026-03-02', '2026-03-20', '2026-03-21',
    ]);
  });

  it('finds page and word limits in the fixtures, and whether they apply to each answer', () => {
    assert.deepEqual(lengthLimitsIn(tender('qld-council-rft-road-resealing').file.pages[0]!.text).map(({ amount, unit, each }) => [amount, unit, each]), [[3, 'pages', true]]);
    assert.deepEqual(lengthLimitsIn(tender('wa-rfq-cleaning').file.pages[0]!.text).map(({ amount, unit, each }) => [amount, unit, each]), [[2, 'pages', true]]);
    assert.deepEqual(lengthLimitsIn('The executive summary must not exceed 300 words.').map(({ amount, unit, each }) => [amount, unit, each]), [[300, 'words', false]]);
  });
});

describe('the compliance check', () => {
  const { file, requirements } = tender('qld-council-rft-road-resealing');
  const byText = (start: string) => requirements.find((requirement) => requirement.text.startsWith(start))!;
  const methodology = byText('Methodology and program');
  const experience = byText('Relevant experience');
  const lodge = byText('Tenderers must lodge');
  const rates = byText('Schedule 2');
  const findings = checkCompliance({
    requirements,
    drafts: [
      draft(methodology.requirement_id, words(Math.round(3.2 * WORDS_PER_PAGE))),
      draft(experience.requirement_id, words(2 * WORDS_PER_PAGE)),
      draft(lodge.requirement_id, 'We will lodge through VendorPanel.'),
      draft(byText('Tenderer holds public liability').requirement_id, 'We hold $20 million [1].', 'model'),
    ],
    files: [file, { file_id: 'file_rates', filename: 'Schedule 2 - Schedule of Rates (completed).xlsx', pages: [] }],
    today: '2026-03-01',
    closingDate: '2026-03-13',
    dueDate: '2026-03-20',
    tasks: [
      { task_id: 'gap', title: 'Close the gap', due_local: '2026-02-27 17:00' },
      { task_id: 'lodge', title: 'Lodge the response', due_local: '2026-03-12 17:00' },
    ],
  });
  const of = (kind: string) => findings.filter((finding) => finding.kind === kind);

  it('every mandatory requirement without evidence is a finding; a person\'s answer settles one, an uncited model reply does not', () => {
    const unanswered = of('mandatory_unanswered').map((finding) => finding.requirement_id);
    assert.ok(!unanswered.includes(lodge.requirement_id));
    assert.ok(unanswered.includes(byText('Tenderer holds public liability').requirement_id));
    assert.match(of('mandatory_unanswered').find((finding) => finding.requirement_id === byText('Tenderer holds public liability').requirement_id)!.detail, /without citing any of the 2 passages/);
    // Mandatory: 1.2 (answered), 1.3, 2(a)-(d), 6.2-6.3; the schedules are checked as returnables instead, and
    // 6.1 (the tender stays valid 120 days) is an instruction, followed rather than answered.
    assert.equal(unanswered.length, 7);
  });

  it("an answer over the tender's per-criterion page limit is a finding; one within it is not", () => {
    assert.deepEqual(of('length_limit').map((finding) => finding.requirement_id), [methodology.requirement_id]);
    assert.match(of('length_limit')[0]!.detail, /about 3\.2 pages at 500 words a page; the tender says "Tenderers should keep their response to each criterion to three pages\."/);
  });

  it('each returnable schedule not among the files is a finding; the completed Schedule 2 is there', () => {
    const missing = of('returnable_missing').map((finding) => finding.requirement_id);
    assert.equal(missing.length, 6);
    assert.ok(!missing.includes(rates.requirement_id));
  });

  it('dates outside today to closing: the due date after closing, plan tasks already due, a mandatory site inspection that has passed', () => {
    assert.deepEqual(of('date_outside_window').map((finding) => finding.title), [
      "The team's due date 2026-03-20 is after the tender closes",
      '1 plan task was due before today',
      'Mandatory requirement 1.3 names 2026-02-24, which has passed',
    ]);
  });
});

describe('questions for the buyer', () => {
  it('asks for each returnable schedule the pack names only in its list, and not for one whose form is in the pack', () => {
    const qld = tender('qld-council-rft-road-resealing');
    const questions = clarificationQuestions([qld.file], qld.requirements, '2026-03-13');
    assert.equal(questions.length, 7);
    assert.match(questions[1]!, /^The documents list "Schedule 2 - Schedule of Rates" as a returnable schedule, but the form itself is not among the documents we received/);
    const wa = tender('wa-rfq-cleaning');
    assert.deepEqual(clarificationQuestions([wa.file], wa.requirements, '2026-03-05'), [], 'SCHEDULE 3 - PRICING is in the pack itself');
  });

  it('asks which date applies when a lodging date falls after closing, and finds the contact address near contact wording', () => {
    const file: FilePages = {
      file_id: 'f',
      filename: 'RFQ.txt',
      pages: [{ n: 1, text: 'Complaints: probity@council.example\n\nEnquiries: Jo Smith, Procurement Officer, tenders@council.example.\n\nResponses must be lodged by 20 March 2026.' }],
    };
    assert.deepEqual(clarificationQuestions([file], [], '2026-03-13'), [
      'The documents say "Responses must be lodged by 20 March 2026.", which gives 2026-03-20, after the closing date of 2026-03-13 we were given. Which date applies?',
    ]);
    assert.equal(contactAddress([file]), 'tenders@council.example');
    assert.equal(contactAddress([{ ...file, pages: [{ n: 1, text: 'No address here.' }] }]), null);
    const email = clarificationEmail({ to: 'tenders@council.example', replyTo: 'owner@harbour.test', company: 'Harbour Civil', bidTitle: 'Road resealing', questions: ['First?', 'Second?'] });
    assert.equal(email.subject, 'Clarification request: Road resealing');
    assert.match(email.text, /\n1\. First\?\n2\. Second\?\n\nPlease reply to owner@harbour\.test\./);
  });
});
