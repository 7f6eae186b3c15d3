import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { estimateAiText } from '../api/checkers/ai-text/estimate.ts';
import { AI_TEXT_MODEL } from '../api/checkers/ai-text/shipped-model.ts';
import { aiCorpusDir, corpusMissing, readCorpusSplit } from '../scripts/ai-text-corpus.ts';
import { areaUnderRoc, ratesAtThreshold } from '../scripts/classifier-metrics.ts';
import { recordMeasured } from './helpers/measured.ts';

// The labelled corpus stays outside the repository (its texts are never copied in): `../shared/corpora/ai-vs-human`
// from the repository root, or SVC_AI_CORPUS_DIR.
const corpusDir = aiCorpusDir(path.resolve(import.meta.dirname, '..'));
const passages = readCorpusSplit(corpusDir, 'test');
const FLOOR = 0.8;

function measureTestSplit() {
  const answered = passages!.map((passage) => ({ passage, estimate: estimateAiText(passage.text, false, AI_TEXT_MODEL) })).filter(({ estimate }) => estimate.applicable);
  const scores = answered.map(({ estimate }) => estimate.probability!);
  const positives = answered.map(({ passage }) => passage.label === 'ai');
  const rates = ratesAtThreshold(scores, positives, AI_TEXT_MODEL.cut_points.likely_ai);
  const figures = {
    answered: answered.length,
    abstained: passages!.length - answered.length,
    auroc: areaUnderRoc(scores, positives),
    falsePositiveRateHuman: rates.falsePositiveRate,
    truePositiveRateAi: rates.truePositiveRate,
  };
  process.stdout.write(
    `AI-text estimate on test/ (${figures.answered} answered, ${figures.abstained} abstained): AUROC ${figures.auroc.toFixed(4)}; at the shipped threshold ` +
      `${AI_TEXT_MODEL.cut_points.likely_ai} the false-positive rate on human text is ${(figures.falsePositiveRateHuman * 100).toFixed(1)}% and the true-positive rate on AI text ${(figures.truePositiveRateAi * 100).toFixed(1)}%\n`,
  );
  return figures;
}

const skipReason = passages === null ? corpusMissing('the AI-text estimate', corpusDir) : false;

test('the figures every reply quotes (model.json) are the ones the test split measures', { skip: skipReason }, () => {
  const figures = measureTestSplit();
  assert.equal(figures.answered, AI_TEXT_MODEL.test.answered);
  assert.equal(figures.abstained, AI_TEXT_MODEL.test.abstained);
  assert.equal(Number(figures.auroc.toFixed(4)), AI_TEXT_MODEL.test.auroc);
  assert.equal(Number(figures.falsePositiveRateHuman.toFixed(4)), AI_TEXT_MODEL.test.false_positive_rate_human);
  assert.equal(Number(figures.truePositiveRateAi.toFixed(4)), AI_TEXT_MODEL.test.true_positive_rate_ai);
  recordMeasured('ai-text-test-split', {
    corpus: `the held-out test/ split of the labelled AI-vs-human corpus beside the repository (${passages!.length} passages; the texts are never copied in)`,
    truth: "Each passage's label (human or ai) comes with the published data set it was taken from (the corpus's labels.tsv); AI rewrites and their human originals never straddle train/ and test/.",
    figures: {
      passages: passages!.length,
      answered: figures.answered,
      abstained: figures.abstained,
      auroc: figures.auroc,
      likely_ai_threshold: AI_TEXT_MODEL.cut_points.likely_ai,
      human_flagged_rate: figures.falsePositiveRateHuman,
      ai_flagged_rate: figures.truePositiveRateAi,
    },
    floors: { auroc: FLOOR },
  });
});

test(`AUROC on the held-out test split is at least ${FLOOR}`, { skip: skipReason }, () => {
  assert.ok(measureTestSplit().auroc >= FLOOR, `AUROC ${AI_TEXT_MODEL.test.auroc} is under the floor of ${FLOOR}`);
});
