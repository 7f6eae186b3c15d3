import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateAiText, MAX_ESTIMATED_CHARACTERS } from './estimate.ts';
import { FEATURE_NAMES, readFeatures } from './features.ts';
import { leanFor, scoreText, type AiTextModel } from './model.ts';
import { segment } from './segment.ts';
import { AI_TEXT_MODEL } from './shipped-model.ts';
import { assertWithinPace, paceMs, timed } from '../../../test/helpers/fuzz-text.ts';

// Invented prose written to carry the published tells: stock vocabulary, connective openers, a negative parallelism.
const TELLING_PROSE = [
  'Moreover, the new depot plays a crucial role in the regional supply network, and it showcases a comprehensive approach to maintenance.',
  'Additionally, the project is not just a building, but a testament to careful planning across the council and its many partners.',
  'Furthermore, the design delves into the intricate needs of drivers, mechanics and planners who rely on the site every single day.',
  'Overall, the pivotal investment underscores a commitment to safety, efficiency and long-term value for the whole community.',
  'In conclusion, the depot stands as a testament to what thoughtful planning can achieve when every stakeholder is heard.',
].join(' ');

// Invented prose written the way a person tells what happened: plain words, specifics, uneven sentences, no stock phrases.
const PLAIN_PROSE = `We got to the depot late on Tuesday because the bridge at Coopers Creek was shut again, so I rang Dave and told him to hold the truck. He did, grumbling. The roof leaks over bay three; it has leaked since the storm in March and nobody has fixed it, though I put in two work orders and a photo. Last week the forklift battery died halfway through unloading pipe. We finished by hand. Sue reckons the council will sell the site once the new one opens out past the airport, and she is probably right, but I like the old place. It smells of diesel and wet concrete and the kettle in the lunchroom has a crack in the lid that whistles. My dad worked here in the eighties, when it still had the rail siding. You can see where the track was if you know where to look, a dip in the gravel by the fence. Anyway, we loaded the truck by four and Dave left for Bega with the culverts strapped down twice, because of the last time.`;

test('prose with stock phrases gets a probability, a lean and tells that quote their passage and basis', () => {
  const estimate = estimateAiText(`${TELLING_PROSE}\n\n${TELLING_PROSE}`, false, AI_TEXT_MODEL);
  assert.equal(estimate.applicable, true);
  assert.equal(estimate.abstention_reason, null);
  assert.ok(estimate.probability !== null && estimate.probability >= 0 && estimate.probability <= 1);
  // The shipped model's value for this text: a refit that moves it says so here.
  assert.ok(Math.abs(estimate.probability - 0.8892) < 0.001, `probability ${estimate.probability}, the shipped model gives 0.8892`);
  assert.equal(estimate.lean, 'ai');
  assert.equal(estimate.lean, leanFor(AI_TEXT_MODEL, estimate.probability));
  const vocabulary = estimate.tells.find((tell) => tell.startsWith('excess style vocabulary'));
  assert.ok(vocabulary, `no vocabulary tell among ${JSON.stringify(estimate.tells)}`);
  assert.match(vocabulary, /"crucial"/);
  assert.match(vocabulary, /Kobak/);
  assert.match(vocabulary, /First at "Moreover, the new depot plays a crucial role/);
  const parallelism = estimate.tells.find((tell) => tell.startsWith('negative parallelism'));
  assert.match(parallelism ?? '', /2 in the text; basis: Wikipedia:Signs of AI writing\. First at "Additionally, the project is not just a building, but a testament/);
  assert.ok(
    estimate.reasoning.startsWith(`Probability ${Number(estimate.probability.toFixed(2))} (lean ${estimate.lean}) from 31 stylometric features and the rates of ${AI_TEXT_MODEL.word_profile.length} frequent words`),
    estimate.reasoning,
  );
  assert.match(estimate.reasoning, /The use of \d+ frequent words leans towards (?:AI|human)-written \(log-odds -?[\d.]+\); most telling towards AI: "[a-z']+" \([\d.]+%\)/);
});

test('plain first-person prose scores well below the stock-phrase prose and does not lean towards AI', () => {
  const plain = estimateAiText(PLAIN_PROSE, false, AI_TEXT_MODEL);
  const telling = estimateAiText(`${TELLING_PROSE}\n\n${TELLING_PROSE}`, false, AI_TEXT_MODEL);
  assert.equal(plain.applicable, true, plain.abstention_reason ?? '');
  assert.ok(plain.probability! < telling.probability! - 0.3, `plain ${plain.probability}, stock phrases ${telling.probability}`);
  assert.ok(plain.lean !== 'ai' && plain.lean !== 'likely_ai', `plain prose leans ${plain.lean}`);
});

test('the same text always gets the same estimate', () => {
  assert.deepEqual(estimateAiText(TELLING_PROSE.repeat(2), false, AI_TEXT_MODEL), estimateAiText(TELLING_PROSE.repeat(2), false, AI_TEXT_MODEL));
});

test('an abstention has no probability or lean, says why, and still carries the limitations', () => {
  const estimate = estimateAiText('Too short to judge.', false, AI_TEXT_MODEL);
  assert.deepEqual(
    { ...estimate, limitations: '' },
    { applicable: false, probability: null, lean: null, tells: [], reasoning: 'Abstained: The text has 4 words; the estimate needs at least 150 words of running prose.', limitations: '', abstention_reason: 'too_short', word_count: 4 },
  );
  assert.match(estimate.limitations, /never a verdict/);
});

test('limitations quote the AUROC and the false-positive rate the fit script measured, from the model file', () => {
  const model: AiTextModel = { ...AI_TEXT_MODEL, test: { ...AI_TEXT_MODEL.test, auroc: 0.8123, false_positive_rate_human: 0.0857, true_positive_rate_ai: 0.6 } };
  const { limitations } = estimateAiText('Too short.', false, model);
  assert.match(limitations, /AUROC 0\.812; at the likely_ai threshold \(\d\.\d+\) it flagged 8\.6% of the human passages \(false positives\) and 60% of the AI ones/);
  assert.ok(estimateAiText('Too short.', false, AI_TEXT_MODEL).limitations.includes(`AUROC ${Number(AI_TEXT_MODEL.test.auroc.toFixed(3))};`));
});

test('leans follow the cut-points in order', () => {
  const cuts = AI_TEXT_MODEL.cut_points;
  assert.ok(cuts.human <= cuts.likely_human && cuts.likely_human <= cuts.likely_ai && cuts.likely_ai <= cuts.ai);
  assert.equal(leanFor(AI_TEXT_MODEL, cuts.ai), 'ai');
  assert.equal(leanFor(AI_TEXT_MODEL, cuts.likely_ai), 'likely_ai');
  assert.equal(leanFor(AI_TEXT_MODEL, (cuts.likely_ai + cuts.likely_human) / 2), 'uncertain');
  assert.equal(leanFor(AI_TEXT_MODEL, cuts.likely_human), 'likely_human');
  assert.equal(leanFor(AI_TEXT_MODEL, cuts.human), 'human');
});

test('the shipped model weighs every feature the checker computes, once each, and the profile size cross-validation chose', () => {
  assert.deepEqual(AI_TEXT_MODEL.features.map((feature) => feature.name), [...FEATURE_NAMES]);
  const words = AI_TEXT_MODEL.word_profile.map((entry) => entry.word);
  assert.equal(words.length, AI_TEXT_MODEL.cross_validation.chosen_profile_size);
  assert.equal(new Set(words).size, words.length);
});

test("the probability is the logistic of the intercept plus every feature's and every profile word's contribution", () => {
  const units = segment(TELLING_PROSE);
  const score = scoreText(AI_TEXT_MODEL, units, readFeatures(units).features);
  const logOdds = [...score.contributions, ...score.wordContributions].reduce((sum, contribution) => sum + contribution.logOdds, AI_TEXT_MODEL.intercept);
  assert.ok(Math.abs(score.probability - 1 / (1 + Math.exp(-logOdds))) < 1e-12);
  const the = score.wordContributions.find((entry) => entry.word === 'the');
  assert.equal(the?.rate, units.words.filter((word) => word.lower === 'the').length / units.words.length);
  // A model without the profile scores the same text from its features alone.
  const featuresOnly = scoreText({ ...AI_TEXT_MODEL, word_profile: [] }, units, readFeatures(units).features);
  assert.ok(Math.abs(Math.log(score.probability / (1 - score.probability)) - Math.log(featuresOnly.probability / (1 - featuresOnly.probability)) - score.wordContributions.reduce((sum, entry) => sum + entry.logOdds, 0)) < 1e-9);
});

test(`a long document is estimated on its first ${MAX_ESTIMATED_CHARACTERS} characters, and the reasoning says so`, () => {
  const long = `${TELLING_PROSE}\n\n`.repeat(200);
  const estimate = estimateAiText(long, false, AI_TEXT_MODEL);
  assert.ok(estimate.word_count < long.split(/\s+/).length / 2);
  assert.match(estimate.reasoning, /Only the first 60,000 characters were estimated\.$/);
});

test('a pathological single line (code-like openings, colons) of 2 MB is judged about as fast as ordinary prose of that length', () => {
  const ordinary = `${TELLING_PROSE}\n\n`.repeat(400).slice(0, 2_000_000);
  const pace = paceMs(() => estimateAiText(ordinary, false, AI_TEXT_MODEL));
  for (const text of [`if ${':a'.repeat(1_000_000)}`, `${'word, '.repeat(300_000)}and more`]) {
    const { ms } = timed(() => estimateAiText(text, false, AI_TEXT_MODEL));
    assertWithinPace(ms, pace, 5, `estimating ${JSON.stringify(text.slice(0, 12))}…`);
  }
});
