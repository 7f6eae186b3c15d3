import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSentence, severityOf } from './categories.ts';
import heldOut from './media-cases-heldout.json' with { type: 'json' };
import labelled from './media-cases.json' with { type: 'json' };
import { ageAt, judgeArticle, summariseMedia, type MediaSubject, type NewsArticle } from './media.ts';
import { assertWithinPace, paceMs, timed } from '../../../test/helpers/fuzz-text.ts';
import { recordMeasured } from '../../../test/helpers/measured.ts';

const subjects = (labelled as LabelledSet).subjects;

const smith = subjects['smith']!;
const article = (overrides: Partial<NewsArticle>): NewsArticle => ({ url: 'https://news.example/a', title: '', domain: 'news.example', seen: '2026-10-01', text: null, ...overrides });

interface LabelledSet {
  subjects: Record<string, MediaSubject>;
  cases: Array<{ id: string; subject: string; article: NewsArticle; expected: { kind: string; category?: string } }>;
}

/** Category precision/recall over hits, and precision/recall of the same-name exclusion, with the cases judged wrong. */
function measure(set: LabelledSet) {
  let categoryRight = 0;
  let hitsPredicted = 0;
  let hitsExpected = 0;
  let excludedRight = 0;
  let excludedPredicted = 0;
  let excludedExpected = 0;
  const wrong: string[] = [];
  for (const entry of set.cases) {
    const judgement = judgeArticle(set.subjects[entry.subject]!, entry.article);
    const expected = entry.expected;
    if (expected.kind === 'hit') hitsExpected += 1;
    if (expected.kind === 'excluded') excludedExpected += 1;
    if (judgement.kind === 'hit') {
      hitsPredicted += 1;
      if (expected.kind === 'hit' && judgement.hit.category === expected.category) categoryRight += 1;
      else wrong.push(`${entry.id}: hit ${judgement.hit.category}, labelled ${expected.kind} ${expected.category ?? ''}`);
    } else if (judgement.kind === 'excluded') {
      excludedPredicted += 1;
      if (expected.kind === 'excluded') excludedRight += 1;
      else wrong.push(`${entry.id}: excluded (${judgement.excluded.reason}), labelled ${expected.kind}`);
    } else if (judgement.kind !== expected.kind) {
      wrong.push(`${entry.id}: ${judgement.kind}, labelled ${expected.kind} ${expected.category ?? ''}`);
    }
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    figures: {
      cases: set.cases.length,
      cases_right: set.cases.length - wrong.length,
      category_precision: round(categoryRight / hitsPredicted),
      category_recall: round(categoryRight / hitsExpected),
      exclusion_precision: round(excludedRight / excludedPredicted),
      exclusion_recall: round(excludedRight / excludedExpected),
    },
    wrong,
  };
}

function report(name: string, measured: ReturnType<typeof measure>): void {
  console.log(`adverse media, ${name}: ${JSON.stringify(measured.figures)}${measured.wrong.map((line) => `\n  wrong: ${line}`).join('')}`);
}

test('labelled set (written alongside the rules): category and same-name exclusion precision and recall', () => {
  const measured = measure(labelled as LabelledSet);
  report('labelled set', measured);
  const { figures } = measured;
  // Excluding the subject's own article hides a finding, so exclusion precision has the higher floor.
  const floors = { category_precision: 0.85, category_recall: 0.85, exclusion_precision: 0.95, exclusion_recall: 0.8 };
  assert.ok(figures.cases >= 50);
  assert.ok(figures.category_precision >= floors.category_precision, `category precision ${figures.category_precision}`);
  assert.ok(figures.category_recall >= floors.category_recall, `category recall ${figures.category_recall}`);
  assert.ok(figures.exclusion_precision >= floors.exclusion_precision, `exclusion precision ${figures.exclusion_precision}`);
  assert.ok(figures.exclusion_recall >= floors.exclusion_recall, `exclusion recall ${figures.exclusion_recall}`);
  recordMeasured('adverse-media-labelled', {
    corpus: `api/checkers/adverse-media/media-cases.json (${figures.cases} invented article and subject cases)`,
    truth: 'Each case labelled by hand (a hit with its category, an article about someone else of the same name, or nothing adverse), written alongside the rules: a regression floor, not a field accuracy.',
    figures,
    floors,
  });
});

test('held-out set (written after the rules): the same figures, with lower floors for unseen wording', () => {
  const measured = measure(heldOut as LabelledSet);
  report('held-out set', measured);
  const { figures } = measured;
  const floors = { category_precision: 0.75, category_recall: 0.75, exclusion_precision: 0.9, exclusion_recall: 0.75 };
  assert.ok(figures.cases >= 20);
  assert.ok(figures.category_precision >= floors.category_precision, `category precision ${figures.category_precision}`);
  assert.ok(figures.category_recall >= floors.category_recall, `category recall ${figures.category_recall}`);
  assert.ok(figures.exclusion_precision >= floors.exclusion_precision, `exclusion precision ${figures.exclusion_precision}`);
  assert.ok(figures.exclusion_recall >= floors.exclusion_recall, `exclusion recall ${figures.exclusion_recall}`);
  recordMeasured('adverse-media-heldout', {
    corpus: `api/checkers/adverse-media/media-cases-heldout.json (${figures.cases} invented cases written after the rules were settled)`,
    truth: 'Each case labelled by hand as the labelled set is; its first run, before one fix, judged 18 of the 20 right (the file says which).',
    figures,
    floors,
  });
});

test('an article naming the subject with an agreeing detail is a name_and_details hit with its sentence as evidence', () => {
  const judgement = judgeArticle(smith, article({ title: 'Contractor in court', text: 'Ridgeline Civil director John Smith, 55, was charged with bribing a council officer. He was granted bail.' }));
  assert.equal(judgement.kind, 'hit');
  assert.deepEqual(judgement.kind === 'hit' && judgement.hit, {
    url: 'https://news.example/a',
    title: 'Contractor in court',
    source: 'news.example',
    match: 'name_and_details',
    category: 'corruption_bribery',
    severity: 'high',
    evidence: 'Ridgeline Civil director John Smith, 55, was charged with bribing a council officer.',
  });
});

test('a different age excludes the article and the reason gives both ages', () => {
  const judgement = judgeArticle(smith, article({ title: 'John Smith, 19, charged with assault', seen: '2026-10-01' }));
  assert.equal(judgement.kind, 'excluded');
  assert.equal(judgement.kind === 'excluded' && judgement.excluded.reason, "The article gives John Smith's age as 19; the subject was about 55 then.");
});

test('an age that agrees keeps an article whose place disagrees, as a possible hit', () => {
  const judgement = judgeArticle(smith, article({ title: 'John Smith, 55, of Houston, charged with fraud' }));
  assert.equal(judgement.kind === 'hit' && judgement.hit.match, 'name_only');
});

test('a title that does not name the subject, with no text read, is a search_only hit when it is adverse and nothing when it is not', () => {
  const adverse = judgeArticle(smith, article({ title: 'Contractor accused of laundering cash' }));
  assert.equal(adverse.kind === 'hit' && adverse.hit.match, 'search_only');
  assert.equal(adverse.kind === 'hit' && adverse.hit.category, 'money_laundering');
  assert.equal(judgeArticle(smith, article({ title: 'Roads budget announced' })).kind, 'subject_not_seen');
});

test('a page read without the subject\'s name (a paywall, a consent page) falls back to its title: a search_only hit when adverse', () => {
  const paywalled = judgeArticle(smith, article({ title: 'Contractor charged with fraud', text: 'Subscribe to keep reading. Already a subscriber? Log in.' }));
  assert.deepEqual(paywalled.kind === 'hit' && [paywalled.hit.match, paywalled.hit.category, paywalled.hit.evidence], ['search_only', 'fraud', 'Contractor charged with fraud']);
  assert.equal(judgeArticle(smith, article({ title: 'Roads budget announced', text: 'Subscribe to keep reading.' })).kind, 'subject_not_seen');
});

test('a name of accents alone (folding to nothing) names nobody, rather than matching at every character of the article', () => {
  const accentsOnly: MediaSubject = { ...smith, name: '\u0301', aliases: ['\u0308 \u0301'] };
  const text = 'Ridgeline Civil director Jane Doe, 41, was charged with bribing a council officer. '.repeat(40);
  // The same article for an ordinary subject sets the pace (about 0.2 ms here; the bound was 200 ms, which a name
  // matching at every character blew through).
  const pace = paceMs(() => judgeArticle(smith, article({ title: 'Roads budget announced', text })));
  const { value: judgement, ms } = timed(() => judgeArticle(accentsOnly, article({ title: 'Roads budget announced', text })));
  assert.equal(judgement.kind, 'subject_not_seen');
  assertWithinPace(ms, pace, 1_000, 'judging for a name of accents alone');
});

test('severity: cleared is low, charged is high, an allegation is medium', () => {
  assert.equal(severityOf('Smith was acquitted of fraud.'), 'low');
  assert.equal(severityOf('Smith was charged with fraud.'), 'high');
  assert.equal(severityOf('Smith is alleged to have taken kickbacks.'), 'medium');
  assert.equal(readSentence('Smith spoke at the conference.'), null);
  // The most specific category wins: a fine for laundering is money laundering.
  assert.equal(readSentence('AUSTRAC fined Smith for laundering breaches.')?.category, 'money_laundering');
});

test('summary: one URL counted once, counts and the categories map agree with the hits', () => {
  const charged = article({ url: 'https://news.example/1', title: 'Ridgeline Civil boss John Smith charged with fraud' });
  const excluded = article({ url: 'https://news.example/2', title: 'Footballer John Smith, 23, charged with assault' });
  const quiet = article({ url: 'https://news.example/3', title: 'John Smith opens a new depot' });
  const possible = article({ url: 'https://news.example/4', title: 'John Smith accused of bribery' });
  const summary = summariseMedia(smith, [charged, charged, excluded, quiet, possible]);
  assert.equal(summary.matched_hits, 1);
  assert.equal(summary.possible_hits, 1);
  assert.equal(summary.excluded_same_name, 1);
  assert.deepEqual(summary.categories, { corruption_bribery: 1, fraud: 1 });
  assert.deepEqual(summary.hits.map((hit) => hit.url), ['https://news.example/1', 'https://news.example/4']);
  assert.equal(summary.not_adverse, 1);
});

test('ageAt: whole years on the article date, from a full date or a year', () => {
  assert.equal(ageAt('1971-05-14', '2026-05-13'), 54);
  assert.equal(ageAt('1971-05-14', '2026-05-14'), 55);
  assert.equal(ageAt('1975', '2026-01-01'), 51);
  assert.equal(ageAt(null, '2026-01-01'), null);
});

test('a long hostile text (runs of capitals, commas and initials) is judged quickly', () => {
  const hostile = `${'A, B. C, D-E, '.repeat(5_000)} John Smith, ${'Aaaa Bbbb '.repeat(3_000)}, charged with fraud.`;
  // Ordinary prose of about the same length sets the pace (about 1.8 ms here; the bound was 5 s).
  const ordinary = 'Ridgeline Civil director Jane Doe, 41, was charged with bribing a council officer. '.repeat(Math.ceil(hostile.length / 84));
  const pace = paceMs(() => judgeArticle(smith, article({ title: 'x', text: ordinary })));
  assertWithinPace(timed(() => judgeArticle(smith, article({ title: 'x', text: hostile }))).ms, pace, 2_500, 'judging the hostile text');
});
