/**
 * The trade classifier's statistics: a multinomial naive Bayes over a notice's words (title words and word
 * pairs, summary words), its UNSPSC prefixes and the trade keyword hits of `trades.ts`, fitted on hand-labelled
 * real AU/NZ titles (fixtures/corpora/trade-titles). Written here rather than taken from a library because the
 * model is a few counts per word and the kept JavaScript libraries for it are unmaintained; the counts are
 * stored as JSON (`trade-model.json`) so a reply can say exactly what it was fitted on.
 */

export interface LabelledNotice {
  title: string;
  summary?: string | null;
  unspsc?: string | null;
  /** The trade id, or null when no trade of the taxonomy fits. */
  trade: string | null;
}

/** Counts of documents per class and of documents holding each feature per class ("none": no trade fits). */
export interface TradeModel {
  fitted_on: string;
  classes: Record<string, { documents: number; features: Record<string, number> }>;
}

export const NO_TRADE = 'none';

/** Words that say nothing about the kind of work: procurement boilerplate and years. */
const BOILERPLATE = new Set(
  'of the and for to in a an at on with by from or services service supply supplies provision contract contracts panel works project program programme stage various new delivery request tender quote rfq rft rfp eoi'.split(' '),
);

/** A crude stem, so "repairs" meets "repair" and "cleaning" meets "clean": a small corpus sees each form only a few times. */
const stemOf = (word: string) => word.replace(/ies$/, 'y').replace(/(?<=.{3})(?:ing|s)$/, '');

const wordsOf = (text: string) => (text.toLowerCase().match(/[a-z][a-z0-9-]+/g) ?? []).filter((word) => !BOILERPLATE.has(word)).map(stemOf);

/** The features of a notice; `keywordHits` are the trade ids whose keywords the title or summary matched. */
export function noticeFeatures(notice: Omit<LabelledNotice, 'trade'>, keywordHits: { title: string[]; summary: string[]; unspsc: string[] }): Set<string> {
  const features = new Set<string>();
  const title = wordsOf(notice.title);
  for (const word of title) features.add(`w:${word}`);
  for (let index = 1; index < title.length; index++) features.add(`b:${title[index - 1]}_${title[index]}`);
  for (const word of wordsOf(notice.summary ?? '')) features.add(`s:${word}`);
  const code = notice.unspsc ?? '';
  if (/^\d{8}$/.test(code)) for (const length of [2, 4, 6]) features.add(`u${length}:${code.slice(0, length)}`);
  for (const trade of keywordHits.title) features.add(`k:${trade}`);
  for (const trade of keywordHits.summary) features.add(`ks:${trade}`);
  for (const trade of keywordHits.unspsc) features.add(`ku:${trade}`);
  return features;
}

export function fitTradeModel(examples: { features: Set<string>; trade: string | null }[], fittedOn: string): TradeModel {
  const classes: TradeModel['classes'] = {};
  for (const { features, trade } of examples) {
    const entry = (classes[trade ?? NO_TRADE] ??= { documents: 0, features: {} });
    entry.documents++;
    for (const feature of features) entry.features[feature] = (entry.features[feature] ?? 0) + 1;
  }
  // Sorted keys, so the same examples always write the same file.
  const sorted = Object.fromEntries(Object.keys(classes).sort().map((name) => [name, { documents: classes[name]!.documents, features: Object.fromEntries(Object.entries(classes[name]!.features).sort(([a], [b]) => (a < b ? -1 : 1))) }]));
  return { fitted_on: fittedOn, classes: sorted };
}

/** Additive smoothing: a feature never seen with a class still leaves it possible. */
const SMOOTHING = 0.3;
/** Keyword hits in the title carry domain knowledge the counts of a small corpus lack, so they weigh triple. */
const KEYWORD_WEIGHT = 3;
/**
 * A keyword in the summary is weaker: summaries name the buyer's teams and neighbouring work ("for its
 * recruitment teams"). The trade a published UNSPSC code points to is already in the code's prefix features,
 * so its hit weighs as one more feature, not three: a misleading code (an advertising panel published as
 * computer services) then no longer outvotes the title.
 */
const SUMMARY_KEYWORD_WEIGHT = 1.5;
const CODE_KEYWORD_WEIGHT = 1;
/** A title's word pairs mostly repeat its words, so they weigh half. */
const PAIR_WEIGHT = 0.5;
/**
 * A summary's words together weigh at most this many title words: a long summary (the buyer's name, its
 * boilerplate, a list of sites) would otherwise outvote the title, which says what the work is.
 */
const SUMMARY_BUDGET = 3;

export interface TradeScorer {
  /** The most likely class (a trade id or NO_TRADE) and its probability among all the classes. */
  best(features: Set<string>): { label: string; posterior: number };
}

export function tradeScorer(model: TradeModel): TradeScorer {
  const vocabulary = new Set<string>();
  for (const entry of Object.values(model.classes)) for (const feature of Object.keys(entry.features)) vocabulary.add(feature);
  const total = Object.values(model.classes).reduce((sum, entry) => sum + entry.documents, 0);
  const massOf = (counts: Record<string, number>) => Object.values(counts).reduce((sum, count) => sum + count, 0) + SMOOTHING * vocabulary.size;
  const scored = Object.entries(model.classes).map(([label, entry]) => ({ label, prior: Math.log(entry.documents / total), counts: entry.features, mass: massOf(entry.features) }));
  const weightsOf = (features: Set<string>) => {
    const known = [...features].filter((feature) => vocabulary.has(feature));
    const summaryWords = known.filter((feature) => feature.startsWith('s:')).length;
    const summaryWeight = summaryWords > SUMMARY_BUDGET ? SUMMARY_BUDGET / summaryWords : 1;
    return known.map((feature) => ({ feature, weight: feature.startsWith('k:') ? KEYWORD_WEIGHT : feature.startsWith('ks:') ? SUMMARY_KEYWORD_WEIGHT : feature.startsWith('ku:') ? CODE_KEYWORD_WEIGHT : feature.startsWith('b:') ? PAIR_WEIGHT : feature.startsWith('s:') ? summaryWeight : 1 }));
  };
  const likelihood = (weighted: { feature: string; weight: number }[], { counts, mass }: { counts: Record<string, number>; mass: number }) => {
    let sum = 0;
    for (const { feature, weight } of weighted) {
      sum += weight * Math.log(((counts[feature] ?? 0) + SMOOTHING) / mass);
    }
    return sum;
  };
  return {
    best(features) {
      const weighted = weightsOf(features);
      const scores = scored.map((entry) => ({ label: entry.label, score: entry.prior + likelihood(weighted, entry) }));
      const first = scores.reduce((best, candidate) => (candidate.score > best.score ? candidate : best));
      return { label: first.label, posterior: 1 / scores.reduce((sum, { score }) => sum + Math.exp(score - first.score), 0) };
    },
  };
}
