/**
 * The trade classifier's statistics: a multinomial logistic regression (softmax) over a notice's words (title
 * words, word pairs and character n-grams, summary words), its buyer, its UNSPSC prefixes and the trade keyword hits of
 * `trades.ts`, fitted on hand-labelled real titles (fixtures/corpora/trade-titles). Written here rather than
 * taken from a library because the model is one weight per feature and class, fitted in a few seconds, and the
 * kept JavaScript libraries for it are unmaintained; the weights are stored as JSON (`trade-model.json`) so a
 * reply can say exactly what it was fitted on.
 */

export interface LabelledNotice {
  title: string;
  summary?: string | null;
  unspsc?: string | null;
  /** The buying agency as the source names it, when the source gives one. */
  buyer?: string | null;
  /** The trade id, or null when no trade of the taxonomy fits. */
  trade: string | null;
  /** Other trades a reasonable reader would accept for it. */
  also?: string[];
}

/** A notice as the model reads it: each feature with its value. */
export type NoticeFeatures = Map<string, number>;

/** The class labels ("none": no trade fits), the bias per class, and each feature's non-zero weights as pairs of class index and weight, flattened. */
export interface TradeModel {
  fitted_on: string;
  labels: string[];
  bias: number[];
  weights: Record<string, number[]>;
}

export const NO_TRADE = 'none';

/** Words that say nothing about the kind of work: procurement boilerplate. */
const BOILERPLATE = new Set(
  'of the and for to in a an at on with by from or services service supply supplies provision contract contracts panel works project program programme stage various new delivery request tender quote rfq rft rfp eoi'.split(' '),
);

/** A crude stem, so "repairs" meets "repair" and "cleaning" meets "clean": a small corpus sees each form only a few times. */
const stemOf = (word: string) => word.replace(/ies$/, 'y').replace(/(?<=.{3})(?:ing|s)$/, '');

const wordsOf = (text: string) => (text.toLowerCase().match(/[a-z][a-z0-9-]+/g) ?? []).filter((word) => !BOILERPLATE.has(word)).map(stemOf);

/**
 * Character n-grams of each title word, so a word seen only in another form or compound ("hydraulic", "rewire")
 * still counts. A word gives several, so each weighs a quarter of a word (cross-validated, 3-grams and 5-grams
 * scored no better, and no n-grams a point of recall less).
 */
const CHARACTER_GRAM = 4;
const CHARACTER_GRAM_VALUE = 0.25;
/**
 * A summary's words together weigh at most this many title words: a long summary (the buyer's name, its
 * boilerplate, a list of sites) would otherwise outvote the title, which says what the work is.
 */
const SUMMARY_BUDGET = 3;

/** The features of a notice; `keywordHits` are the trade ids whose keywords the title, summary or UNSPSC code matched. */
export function noticeFeatures(notice: Pick<LabelledNotice, 'title' | 'summary' | 'unspsc' | 'buyer'>, keywordHits: { title: string[]; summary: string[]; unspsc: string[] }): NoticeFeatures {
  const features: NoticeFeatures = new Map();
  const title = wordsOf(notice.title);
  for (const word of title) features.set(`w:${word}`, 1);
  for (let index = 1; index < title.length; index++) features.set(`b:${title[index - 1]}_${title[index]}`, 1);
  for (const word of title) {
    const padded = `_${word}_`;
    for (let start = 0; start + CHARACTER_GRAM <= padded.length; start++) features.set(`c:${padded.slice(start, start + CHARACTER_GRAM)}`, CHARACTER_GRAM_VALUE);
  }
  const summary = [...new Set(wordsOf(notice.summary ?? ''))];
  for (const word of summary) features.set(`s:${word}`, Math.min(1, SUMMARY_BUDGET / summary.length));
  const code = notice.unspsc ?? '';
  if (/^\d{8}$/.test(code)) for (const length of [2, 4, 6]) features.set(`u${length}:${code.slice(0, length)}`, 1);
  // The whole buyer name, not its words: an agency buys the same few kinds of work ("Programmed Facility
  // Management" buys maintenance, "Canberra Health Services" medical supplies), where its words ("health",
  // "education") are the keyword traps the titles already have. Cross-validated, recall rose from 0.736 to 0.764
  // and precision from 0.885 to 0.890; adding its words, or weighing it 1.5 or 2, scored lower.
  const buyer = notice.buyer?.toLowerCase().replace(/\s+/g, ' ').trim();
  if (buyer) features.set(`a:${buyer}`, 1);
  for (const trade of keywordHits.title) features.set(`k:${trade}`, 1);
  for (const trade of keywordHits.summary) features.set(`ks:${trade}`, 1);
  for (const trade of keywordHits.unspsc) features.set(`ku:${trade}`, 1);
  // A title of boilerplate alone ("Services contract") still has one feature, so "no trade" can learn it.
  if (!features.size) features.set('empty', 1);
  return features;
}

/**
 * Stochastic gradient descent: passes over the examples, the first step (it shrinks as 1/pass), and the L2
 * shrinkage per step that keeps a feature seen in one title from memorising it. Chosen on the cross-validated
 * corpus figures (lib/trades-corpus.test.ts): 30 passes score as 15, a step of 1 loses precision, and L2 of
 * 1e-3 or 1e-5 moves nothing.
 */
const EPOCHS = 15;
const LEARNING_RATE = 0.5;
const L2 = 1e-4;
/**
 * A labelled trade's `also` (trades a reader would accept) takes this share of its target, so the model learns
 * that a title sits between two trades instead of being pushed off the second one: cross-validated, recall rose
 * from 0.80 to 0.82 with nothing abstaining, in the settings tried then.
 */
const ALSO_SHARE = 0.2;
/** Weights smaller than this are dropped from the file: they move few decisions and would multiply its size. */
const KEPT_WEIGHT = 0.1;
/**
 * A feature must occur in this many training notices to get weights: one seen once is mostly a place or a
 * code. With the weights kept above, the file is about 430 KB; keeping every feature and weights from 0.05
 * gains about a point of recall for a 1.1 MB file.
 */
const MINIMUM_DOCUMENTS = 2;

/** A deterministic order for each pass (a seeded linear congruential shuffle), so the same examples write the same file. */
function shuffled(length: number, seed: number): number[] {
  const order = Array.from({ length }, (_, index) => index);
  let state = seed >>> 0;
  for (let index = length - 1; index > 0; index--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const other = state % (index + 1);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

const rounded = (value: number) => Math.round(value * 1000) / 1000;

export function fitTradeModel(examples: ({ features: NoticeFeatures } & Pick<LabelledNotice, 'trade' | 'also'>)[], fittedOn: string): TradeModel {
  const labels = [...new Set(examples.map(({ trade }) => trade ?? NO_TRADE))].sort();
  const documents = new Map<string, number>();
  for (const { features } of examples) for (const feature of features.keys()) documents.set(feature, (documents.get(feature) ?? 0) + 1);
  const vocabulary = [...documents].filter(([, count]) => count >= MINIMUM_DOCUMENTS).map(([feature]) => feature).sort();
  const index = new Map(vocabulary.map((feature, position) => [feature, position]));
  const classes = labels.length;
  const weights = new Float64Array(vocabulary.length * classes);
  const bias = new Float64Array(classes);
  const rows = examples.map(({ features, trade, also }) => {
    const target = new Float64Array(classes);
    const others = (also ?? []).filter((other) => labels.includes(other));
    target[labels.indexOf(trade ?? NO_TRADE)] = others.length ? 1 - ALSO_SHARE : 1;
    for (const other of others) target[labels.indexOf(other)]! += ALSO_SHARE / others.length;
    const known = [...features].filter(([feature]) => index.has(feature));
    // Each feature as the offset of its first weight, so a class's weight is at offset + class.
    return { target, at: Int32Array.from(known, ([feature]) => index.get(feature)! * classes), values: Float64Array.from(known, ([, value]) => value) };
  });
  const probabilities = new Float64Array(classes);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const rate = LEARNING_RATE / (1 + epoch);
    for (const row of shuffled(rows.length, epoch + 1).map((position) => rows[position]!)) {
      let highest = -Infinity;
      for (let label = 0; label < classes; label++) {
        let score = bias[label]!;
        for (let feature = 0; feature < row.at.length; feature++) score += weights[row.at[feature]! + label]! * row.values[feature]!;
        probabilities[label] = score;
        highest = Math.max(highest, score);
      }
      let total = 0;
      for (let label = 0; label < classes; label++) total += probabilities[label] = Math.exp(probabilities[label]! - highest);
      for (let label = 0; label < classes; label++) {
        const gradient = probabilities[label]! / total - row.target[label]!;
        bias[label] = bias[label]! - rate * gradient;
        for (let feature = 0; feature < row.at.length; feature++) {
          const at = row.at[feature]! + label;
          weights[at] = weights[at]! - rate * (gradient * row.values[feature]! + L2 * weights[at]!);
        }
      }
    }
  }
  const kept: TradeModel['weights'] = {};
  vocabulary.forEach((feature, position) => {
    const row = weights.subarray(position * classes, (position + 1) * classes);
    // Adding one number to every class's weight of a feature changes no probability, so each feature's weights
    // are moved to put their median at zero: most then round away, and the file keeps only what sets a class apart.
    const median = [...row].sort((a, b) => a - b)[classes >> 1]!;
    const nonZero: number[] = [];
    row.forEach((weight, label) => {
      if (Math.abs(weight - median) >= KEPT_WEIGHT) nonZero.push(label, rounded(weight - median));
    });
    if (nonZero.length) kept[feature] = nonZero;
  });
  return { fitted_on: fittedOn, labels, bias: [...bias].map(rounded), weights: kept };
}

export interface TradeScorer {
  /** The most likely class (a trade id or NO_TRADE) and its probability among all the classes. */
  best(features: NoticeFeatures): { label: string; posterior: number };
}

export function tradeScorer(model: TradeModel): TradeScorer {
  return {
    best(features) {
      const scores = [...model.bias];
      for (const [feature, value] of features) {
        const pairs = model.weights[feature] ?? [];
        for (let pair = 0; pair < pairs.length; pair += 2) scores[pairs[pair]!]! += pairs[pair + 1]! * value;
      }
      const first = scores.reduce((best, score, label) => (score > scores[best]! ? label : best), 0);
      const total = scores.reduce((sum, score) => sum + Math.exp(score - scores[first]!), 0);
      return { label: model.labels[first]!, posterior: 1 / total };
    },
  };
}
