import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { assessApplicability } from '../api/checkers/ai-text/applicability.ts';
import { FEATURE_NAMES, readFeatures, type Features } from '../api/checkers/ai-text/features.ts';
import { scoreText, transformed, type AiTextModel } from '../api/checkers/ai-text/model.ts';
import { segment, type Segmented } from '../api/checkers/ai-text/segment.ts';
import { wordRates } from '../api/checkers/ai-text/word-profile.ts';
import { seededRandom } from '../test/helpers/seeded-random.ts';
import { aiCorpusDir, readCorpusSplit, type LabelledPassage } from './ai-text-corpus.ts';
import { areaUnderRoc, ratesAtThreshold } from './classifier-metrics.ts';
import { fitLogistic, predictProbability } from './logistic-regression.ts';

/**
 * Fits the AI-text estimate (api/checkers/ai-text/model.json) on the corpus's train/ split only: every choice
 * (the frequent-word profile's size, the regularisation strength, the lean cut-points) is made on grouped
 * cross-validation within train/, the profile's words chosen inside each fitting part alone. Only
 * then is the fitted model scored once on test/, and those figures are written into the model file so every
 * reply can quote them. Run: node --import ./lib/node-guard.mjs scripts/fit-ai-text-model.ts
 * With `--cv-only` it prints the cross-validation figures and stops, reading neither test/ nor writing the
 * model: the way to compare feature or setting changes without looking at test/.
 */

const LAMBDAS = [0.01, 0.03, 0.1, 0.3, 1, 3, 10];
const FOLDS = 5;
/** Sizes of the frequent-word profile tried (0: the stylometric features alone). */
const PROFILE_SIZES = [0, 100, 200, 300, 400, 500];
/** Each cross-validation is repeated over these fold shuffles and averaged, so a choice does not rest on one split. */
const FOLD_SEEDS = [16, 101, 202];
// Rates per 1,000 words are skewed (most texts have none, a few have many), so they are fitted as log(1 + x).
const transformOf = (name: string) => (name.endsWith('_per_1000') ? 'log1p' : 'none') as 'none' | 'log1p';
/** Out-of-fold false-positive rates on human training texts that place the lean cut-points. */
const LIKELY_AI_FALSE_POSITIVES = 0.1;
const AI_FALSE_POSITIVES = 0.02;

interface Example {
  passage: LabelledPassage;
  units: Segmented;
  features: Features;
  /** Each word's count in the text. */
  wordCounts: Map<string, number>;
}

function answered(passages: LabelledPassage[]): { examples: Example[]; abstained: number } {
  const examples: Example[] = [];
  let abstained = 0;
  for (const passage of passages) {
    const units = segment(passage.text);
    if (!assessApplicability(units, false).applicable) {
      abstained++;
      continue;
    }
    const wordCounts = new Map<string, number>();
    for (const word of units.words) wordCounts.set(word.lower, (wordCounts.get(word.lower) ?? 0) + 1);
    examples.push({ passage, units, features: readFeatures(units).features, wordCounts });
  }
  return { examples, abstained };
}

/** The `size` most frequent words over the examples (ties by spelling, so the list is the same on every run). */
function frequentWords(examples: Example[], size: number): string[] {
  const totals = new Map<string, number>();
  for (const example of examples) for (const [word, count] of example.wordCounts) totals.set(word, (totals.get(word) ?? 0) + count);
  return [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, size).map(([word]) => word);
}

const rawRow = (example: Example, profile: readonly string[]) => [
  ...FEATURE_NAMES.map((name) => transformed(transformOf(name), example.features[name])),
  ...wordRates(example.units, profile),
];

interface Scaling {
  mean: number[];
  sd: number[];
}

function scalingOf(rows: number[][]): Scaling {
  const width = rows[0]!.length;
  const mean = Array.from({ length: width }, (_, i) => rows.reduce((sum, row) => sum + row[i]!, 0) / rows.length);
  const sd = Array.from({ length: width }, (_, i) => Math.sqrt(rows.reduce((sum, row) => sum + (row[i]! - mean[i]!) ** 2, 0) / rows.length) || 1);
  return { mean, sd };
}

const scaled = (row: number[], scaling: Scaling) => row.map((value, i) => (value - scaling.mean[i]!) / scaling.sd[i]!);
const isAi = (example: Example) => example.passage.label === 'ai';

/**
 * Folds by domain (news:sports, TechnicalWriting, …): each fold is scored on kinds of writing the model was not
 * fitted on, which is what a caller's document is; an AI rewrite shares its human original's domain. Folds by
 * rewrite pair (an unpaired passage is its own group) keep a rewrite and its original together but mix domains.
 */
const GROUPINGS = {
  domain: (example: Example) => example.passage.domain,
  pair: (example: Example) => example.passage.pairKey || example.passage.file,
};
type Grouping = keyof typeof GROUPINGS;

function groupedFolds(examples: Example[], grouping: Grouping, seed: number): number[] {
  const key = GROUPINGS[grouping];
  const groups = [...new Set(examples.map(key))];
  const random = seededRandom(seed);
  for (let i = groups.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [groups[i], groups[j]] = [groups[j]!, groups[i]!];
  }
  const foldOf = new Map(groups.map((group, i) => [group, i % FOLDS]));
  return examples.map((example) => foldOf.get(key(example))!);
}

/** Fits on `fitting` (profile words and scaling from it alone) and scores `scored`, once per lambda. */
function fitAndScore(fitting: Example[], scored: Example[], profileSize: number, lambdas: number[]): number[][] {
  const profile = frequentWords(fitting, profileSize);
  const raw = fitting.map((example) => rawRow(example, profile));
  const scaling = scalingOf(raw);
  const rows = raw.map((row) => scaled(row, scaling));
  const targets = fitting.map((example) => (isAi(example) ? 1 : 0));
  const scoredRows = scored.map((example) => scaled(rawRow(example, profile), scaling));
  return lambdas.map((lambda) => {
    const model = fitLogistic(rows, targets, lambda);
    return scoredRows.map((row) => predictProbability(model, row));
  });
}

/** Out-of-fold scores for every lambda. */
function outOfFoldScores(examples: Example[], folds: number[], profileSize: number, lambdas: number[]): number[][] {
  const scores = lambdas.map(() => new Array<number>(examples.length).fill(0));
  for (let fold = 0; fold < FOLDS; fold++) {
    const held = examples.map((_, i) => i).filter((i) => folds[i] === fold);
    if (held.length === 0) continue;
    const byLambda = fitAndScore(examples.filter((_, i) => folds[i] !== fold), held.map((i) => examples[i]!), profileSize, lambdas);
    byLambda.forEach((foldScores, l) => held.forEach((i, n) => (scores[l]![i] = foldScores[n]!)));
  }
  return scores;
}

const aurocOf = (scores: number[], examples: Example[]) => areaUnderRoc(scores, examples.map(isAi));
const bestIndex = (values: number[]) => values.indexOf(Math.max(...values));

/** Nested cross-validation: in each outer fold, lambda is chosen by an inner grouped cross-validation of its training part. */
function nestedAuroc(examples: Example[], profileSize: number, grouping: Grouping, seed: number): number {
  const folds = groupedFolds(examples, grouping, seed);
  const scores = new Array<number>(examples.length).fill(0);
  for (let fold = 0; fold < FOLDS; fold++) {
    const fitting = examples.filter((_, i) => folds[i] !== fold);
    const held = examples.map((_, i) => i).filter((i) => folds[i] === fold);
    const inner = outOfFoldScores(fitting, groupedFolds(fitting, grouping, seed + 1 + fold), profileSize, LAMBDAS);
    const lambda = LAMBDAS[bestIndex(inner.map((lambdaScores) => aurocOf(lambdaScores, fitting)))]!;
    const [heldScores] = fitAndScore(fitting, held.map((i) => examples[i]!), profileSize, [lambda]);
    held.forEach((i, n) => (scores[i] = heldScores![n]!));
  }
  return aurocOf(scores, examples);
}

const meanOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The lowest score with at most `rate` of the group at or above it (upper tail), or at or below it (lower). */
function tailCut(scores: number[], rate: number, tail: 'upper' | 'lower'): number {
  const sorted = [...scores].sort((a, b) => (tail === 'upper' ? b - a : a - b));
  const allowed = Math.floor(rate * sorted.length);
  const boundary = sorted[allowed]!; // the first score past the allowance
  return tail === 'upper' ? Math.min(1, boundary + 1e-6) : Math.max(0, boundary - 1e-6);
}

function measure(model: AiTextModel, examples: Example[], abstained: number): AiTextModel['test'] {
  const scores = examples.map((example) => scoreText(model, example.units, example.features).probability);
  const positives = examples.map(isAi);
  const rates = ratesAtThreshold(scores, positives, model.cut_points.likely_ai);
  return {
    answered: examples.length,
    answered_human: positives.filter((positive) => !positive).length,
    answered_ai: positives.filter(Boolean).length,
    abstained,
    auroc: round(areaUnderRoc(scores, positives)),
    false_positive_rate_human: round(rates.falsePositiveRate),
    true_positive_rate_ai: round(rates.truePositiveRate),
  };
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;

function main(): void {
  const repoRoot = path.resolve(import.meta.dirname, '..');
  const corpusDir = aiCorpusDir(repoRoot);
  const trainPassages = readCorpusSplit(corpusDir, 'train');
  if (!trainPassages) throw new Error(`The labelled corpus is not at ${corpusDir}; set SVC_AI_CORPUS_DIR to its folder.`);
  const train = answered(trainPassages);
  const examples = train.examples;

  // 1. The profile's size: nested cross-validation under both groupings, averaged over the fold shuffles.
  const sizes = PROFILE_SIZES.map((words) => {
    const figures = {
      words,
      auroc_grouped_by_domain: round(meanOf(FOLD_SEEDS.map((seed) => nestedAuroc(examples, words, 'domain', seed)))),
      auroc_grouped_by_pair: round(meanOf(FOLD_SEEDS.map((seed) => nestedAuroc(examples, words, 'pair', seed)))),
    };
    process.stdout.write(`nested cross-validation, ${words} profile words: grouped by domain ${figures.auroc_grouped_by_domain}, by pair ${figures.auroc_grouped_by_pair}\n`);
    return figures;
  });
  const chosenSize = sizes[bestIndex(sizes.map((size) => size.auroc_grouped_by_domain + size.auroc_grouped_by_pair))]!.words;

  // 2. Lambda for that size, and the out-of-fold scores that place the cut-points: folds grouped by domain.
  const lambdaScores = FOLD_SEEDS.map((seed) => outOfFoldScores(examples, groupedFolds(examples, 'domain', seed), chosenSize, LAMBDAS));
  const results = LAMBDAS.map((lambda, l) => ({ lambda, auroc: round(meanOf(lambdaScores.map((bySeed) => aurocOf(bySeed[l]!, examples)))) }));
  const chosen = bestIndex(results.map((result) => result.auroc));
  const outOfFold = lambdaScores[0]![chosen]!;

  const positives = examples.map(isAi);
  const humanScores = outOfFold.filter((_, i) => !positives[i]);
  const aiScores = outOfFold.filter((_, i) => positives[i]);
  const likelyAi = tailCut(humanScores, LIKELY_AI_FALSE_POSITIVES, 'upper');
  const likelyHuman = Math.min(tailCut(aiScores, LIKELY_AI_FALSE_POSITIVES, 'lower'), likelyAi);
  const cutPoints = {
    ai: Math.max(tailCut(humanScores, AI_FALSE_POSITIVES, 'upper'), likelyAi),
    likely_ai: likelyAi,
    likely_human: likelyHuman,
    human: Math.min(tailCut(aiScores, AI_FALSE_POSITIVES, 'lower'), likelyHuman),
  };

  const summary =
    `chosen profile size ${chosenSize}; cross-validation AUROC by lambda (grouped by domain): ${results.map((result) => `${result.lambda}: ${result.auroc}`).join(', ')}\n` +
    `out-of-fold cut-points: ${JSON.stringify(cutPoints)}\n`;
  if (process.argv.includes('--cv-only')) {
    process.stdout.write(summary);
    return;
  }

  const profile = frequentWords(examples, chosenSize);
  const raw = examples.map((example) => rawRow(example, profile));
  const scaling = scalingOf(raw);
  const fitted = fitLogistic(raw.map((row) => scaled(row, scaling)), positives.map(Number), LAMBDAS[chosen]!);
  const featureCount = FEATURE_NAMES.length;
  const model: AiTextModel = {
    about:
      'The AI-text estimate: weights-free stylometric features and a frequent-word profile combined by L2-regularised logistic regression. ' +
      'Holds per feature and per profile word its standardisation (mean, sd over train/) and weight, the intercept, the lean cut-points and the measured figures. ' +
      'Written by scripts/fit-ai-text-model.ts; do not edit by hand.',
    method:
      `L2-regularised logistic regression (Newton's method) on ${featureCount} standardised stylometric features and the rates of the ${chosenSize} most frequent words of train/. ` +
      `The profile size (of ${PROFILE_SIZES.join(', ')}) by nested ${FOLDS}-fold cross-validation on train/, mean AUROC of folds grouped by domain and folds grouped by rewrite pair, ` +
      `each averaged over ${FOLD_SEEDS.length} fold shuffles; lambda ${LAMBDAS[chosen]} by ${FOLDS}-fold cross-validation grouped by domain.`,
    corpus: 'ai-vs-human: English passages of 150-600 words, human-written or AI-generated (L2R, Hao et al. 2024; Schaaff et al. news and Wikipedia texts; Bevilacqua et al. 2023 essays). Fitted on train/ only; test/ scored once after fitting.',
    features: FEATURE_NAMES.map((name, i) => ({ name, transform: transformOf(name), mean: scaling.mean[i]!, sd: scaling.sd[i]!, weight: fitted.weights[i]! })),
    word_profile: profile.map((word, k) => ({ word, mean: scaling.mean[featureCount + k]!, sd: scaling.sd[featureCount + k]!, weight: fitted.weights[featureCount + k]! })),
    intercept: fitted.intercept,
    cut_points: Object.fromEntries(Object.entries(cutPoints).map(([lean, cut]) => [lean, round(cut)])) as AiTextModel['cut_points'],
    threshold_rule:
      `On out-of-fold training scores: likely_ai at or above the score that ${LIKELY_AI_FALSE_POSITIVES * 100}% of human texts reach, ai at ${AI_FALSE_POSITIVES * 100}%; ` +
      `likely_human at or below the score that ${LIKELY_AI_FALSE_POSITIVES * 100}% of AI texts fall to, human at ${AI_FALSE_POSITIVES * 100}%; uncertain between.`,
    cross_validation: { folds: FOLDS, profile_sizes: sizes, chosen_profile_size: chosenSize, lambdas: results, chosen_lambda: LAMBDAS[chosen]! },
    train: { answered: 0, answered_human: 0, answered_ai: 0, abstained: 0, auroc: 0, false_positive_rate_human: 0, true_positive_rate_ai: 0 },
    test: { answered: 0, answered_human: 0, answered_ai: 0, abstained: 0, auroc: 0, false_positive_rate_human: 0, true_positive_rate_ai: 0 },
  };
  model.train = measure(model, examples, train.abstained);
  const testPassages = readCorpusSplit(corpusDir, 'test');
  if (!testPassages) throw new Error(`The corpus at ${corpusDir} has no test/ split to measure the fitted model on.`);
  const test = answered(testPassages);
  model.test = measure(model, test.examples, test.abstained);

  const target = path.join(repoRoot, 'api/checkers/ai-text/model.json');
  writeFileSync(target, `${JSON.stringify(model, null, 2)}\n`);
  process.stdout.write(
    summary +
      `train (in-sample): ${JSON.stringify(model.train)}\ntest: ${JSON.stringify(model.test)}\nwrote ${path.relative(repoRoot, target)}\n`,
  );
}

main();
