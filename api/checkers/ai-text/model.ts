import { z } from 'zod';
import { FEATURE_NAMES, type Features } from './features.ts';
import type { Segmented } from './segment.ts';
import { wordRates } from './word-profile.ts';

export const LEANS = ['ai', 'likely_ai', 'uncertain', 'likely_human', 'human'] as const;
export type Lean = (typeof LEANS)[number];

/** What the fit script measured on one split: the passages answered (not abstained on) and the figures. */
const Measured = z.strictObject({
  answered: z.number().int(),
  answered_human: z.number().int(),
  answered_ai: z.number().int(),
  abstained: z.number().int(),
  auroc: z.number(),
  false_positive_rate_human: z.number(),
  true_positive_rate_ai: z.number(),
});

export const ModelFile = z.strictObject({
  about: z.string(),
  method: z.string(),
  corpus: z.string(),
  features: z.array(
    z.strictObject({ name: z.enum(FEATURE_NAMES), transform: z.enum(['none', 'log1p']), mean: z.number(), sd: z.number().positive(), weight: z.number() }),
  ),
  /** The frequent-word profile: each word's share of the text's words, standardised and weighted like a feature. */
  word_profile: z.array(z.strictObject({ word: z.string().regex(/^\p{Ll}+(?:['-]\p{Ll}+)*$/u), mean: z.number(), sd: z.number().positive(), weight: z.number() })),
  intercept: z.number(),
  /**
   * Probability cut-points between the leans, chosen on out-of-fold training scores (see `threshold_rule`).
   * `likely_ai` is the shipped threshold: at or above it the reply leans AI.
   */
  cut_points: z.strictObject({ ai: z.number(), likely_ai: z.number(), likely_human: z.number(), human: z.number() }),
  threshold_rule: z.string(),
  /**
   * Every choice made on train/ alone: the profile's size by nested cross-validation (lambda chosen inside each
   * outer training part) under folds grouped by domain and, separately, by rewrite pair; then lambda for the
   * chosen size by cross-validation grouped by domain.
   */
  cross_validation: z.strictObject({
    folds: z.number().int(),
    profile_sizes: z.array(z.strictObject({ words: z.number().int(), auroc_grouped_by_domain: z.number(), auroc_grouped_by_pair: z.number() })),
    chosen_profile_size: z.number().int(),
    lambdas: z.array(z.strictObject({ lambda: z.number(), auroc: z.number() })),
    chosen_lambda: z.number(),
  }),
  train: Measured,
  test: Measured,
});
export type AiTextModel = z.infer<typeof ModelFile>;

export interface Contribution {
  feature: (typeof FEATURE_NAMES)[number];
  value: number;
  /** The feature's share of the log-odds: positive pushes towards AI-written, negative towards human. */
  logOdds: number;
}

/** One profile word's use in the text and its share of the log-odds. */
export interface WordContribution {
  word: string;
  rate: number;
  logOdds: number;
}

export interface Score {
  probability: number;
  contributions: Contribution[];
  /** The frequent-word profile's words, strongest first by absolute share of the log-odds. */
  wordContributions: WordContribution[];
}

export const transformed = (transform: 'none' | 'log1p', value: number) => (transform === 'log1p' ? Math.log1p(value) : value);

/** The model's probability for the features and word profile, with each one's signed contribution to it. */
export function scoreText(model: AiTextModel, units: Segmented, features: Features): Score {
  const rates = wordRates(units, model.word_profile.map((entry) => entry.word));
  const wordContributions = model.word_profile
    .map((entry, i) => ({ word: entry.word, rate: rates[i]!, logOdds: (entry.weight * (rates[i]! - entry.mean)) / entry.sd }))
    .sort((a, b) => Math.abs(b.logOdds) - Math.abs(a.logOdds));
  const contributions = model.features.map((entry) => ({
    feature: entry.name,
    value: features[entry.name],
    logOdds: (entry.weight * (transformed(entry.transform, features[entry.name]) - entry.mean)) / entry.sd,
  }));
  const logOdds = [...contributions, ...wordContributions].reduce((sum, contribution) => sum + contribution.logOdds, model.intercept);
  return { probability: 1 / (1 + Math.exp(-logOdds)), contributions, wordContributions };
}

export function leanFor(model: AiTextModel, probability: number): Lean {
  const cuts = model.cut_points;
  if (probability >= cuts.ai) return 'ai';
  if (probability >= cuts.likely_ai) return 'likely_ai';
  if (probability <= cuts.human) return 'human';
  if (probability <= cuts.likely_human) return 'likely_human';
  return 'uncertain';
}
