import { assessApplicability, MIN_WORDS } from './applicability.ts';
import { findPattern, NEGATIVE_PARALLELISM, readFeatures, type FeatureName, type Features } from './features.ts';
import { leanFor, scoreText, type AiTextModel, type Contribution, type Lean, type Score } from './model.ts';
import { segment, type Segmented, type Span } from './segment.ts';
import type { AiTextEstimate } from './result.ts';
import type { StockPhraseHit } from './stock-phrases.ts';

const FEATURE_LABELS: Record<FeatureName, string> = {
  sentence_length_mean: 'average sentence length',
  sentence_length_sd: 'spread of sentence lengths',
  sentence_length_cv: 'variation of sentence length (burstiness)',
  mattr_50: 'vocabulary variety (moving-average type-token ratio)',
  hapax_share_first_150: 'words used once in the first 150',
  repeated_trigram_share: 'repeated three-word sequences',
  word_length_mean: 'average word length',
  long_word_share: 'share of long words',
  function_word_share: 'share of function words',
  the_rate: 'use of "the"',
  first_person_rate: 'first-person pronouns',
  second_person_rate: 'second-person pronouns',
  demonstrative_rate: 'demonstratives (this, these, that)',
  modal_rate: 'modal verbs',
  comma_per_sentence: 'commas per sentence',
  em_dash_per_1000: 'em dashes',
  spaced_dash_per_1000: 'spaced hyphens and en dashes',
  colon_semicolon_per_1000: 'colons and semicolons',
  quote_per_1000: 'quotation marks',
  parenthesis_per_1000: 'parentheses',
  digit_per_1000: 'numbers',
  contraction_rate: 'contractions',
  capitalised_inner_rate: 'capitalised words inside sentences (names)',
  stock_phrase_per_1000: 'stock phrases',
  connective_opener_share: 'sentences opening with a connective',
  negative_parallelism_per_1000: 'negative parallelisms ("not just X, but Y")',
  triad_per_1000: 'lists of three',
  lowercase_sentence_start_share: 'sentences starting in lower case',
  informal_punctuation_per_1000: 'informal punctuation (!!, ..., ?!)',
  markdown_emphasis_per_1000: 'bold markers and markdown headings',
  heading_line_share: 'title-case heading lines',
};

/**
 * The estimate reads at most this many characters (about 10,000 words): it runs in the API's main thread, and
 * that much prose says as much about its style as a whole book.
 */
export const MAX_ESTIMATED_CHARACTERS = 60_000;

const WP_AISIGNS = 'Wikipedia:Signs of AI writing';
const MAX_QUOTE = 160;

/** The passage around a span: its sentence, cut to MAX_QUOTE characters around the span. */
function passageAt(units: Segmented, span: Span): string {
  const sentence = units.sentences.find((candidate) => candidate.start <= span.start && span.start < candidate.end) ?? span;
  let start = sentence.start;
  let end = sentence.end;
  if (end - start > MAX_QUOTE) {
    start = Math.max(sentence.start, span.start - Math.floor((MAX_QUOTE - (span.end - span.start)) / 2));
    end = Math.min(sentence.end, start + MAX_QUOTE);
  }
  const quoted = units.text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `"${start > sentence.start ? '…' : ''}${quoted}${end < sentence.end ? '…' : ''}"`;
}

const round = (value: number, places: number) => Number(value.toFixed(places));

function stockPhraseTells(units: Segmented, hits: StockPhraseHit[]): string[] {
  const byFamily = Map.groupBy(hits, (hit) => hit.family);
  const tells: string[] = [];
  for (const [family, familyHits] of byFamily) {
    // One hit means nothing (research §3.3): a family is a tell from its second hit.
    if (familyHits.length < 2) continue;
    const phrases = [...new Set(familyHits.map((hit) => hit.phrase))];
    tells.push(`${family.label}: ${familyHits.length} uses (${phrases.slice(0, 6).map((phrase) => `"${phrase}"`).join(', ')}); basis: ${family.basis}. First at ${passageAt(units, familyHits[0]!)}`);
  }
  return tells;
}

function patternTells(units: Segmented, features: Features, contributions: Contribution[]): string[] {
  const pushesAi = (feature: FeatureName) => (contributions.find((contribution) => contribution.feature === feature)?.logOdds ?? 0) > 0;
  const tells: string[] = [];
  const parallelisms = findPattern(units.text, NEGATIVE_PARALLELISM);
  if (parallelisms.length > 0) tells.push(`negative parallelism ("not just X, but Y"), ${parallelisms.length} in the text; basis: ${WP_AISIGNS}. First at ${passageAt(units, parallelisms[0]!)}`);
  const emDashes = findPattern(units.text, /—/g);
  if (emDashes.length >= 2 && pushesAi('em_dash_per_1000')) tells.push(`em dashes, ${emDashes.length} in the text (${round(features.em_dash_per_1000, 1)} per 1,000 words); basis: ${WP_AISIGNS}, overuse of em dashes. First at ${passageAt(units, emDashes[0]!)}`);
  if (pushesAi('sentence_length_cv') && units.sentences.length >= 3) {
    const lengths = units.sentences.map((sentence) => sentence.words.length);
    const typical = units.sentences.slice(0, 3).map((sentence) => `${passageAt(units, sentence)} (${sentence.words.length} words)`);
    tells.push(
      `even sentence lengths (low burstiness): ${lengths.length} sentences, mean ${round(features.sentence_length_mean, 1)} words, standard deviation ${round(features.sentence_length_sd, 1)} ` +
        `(coefficient of variation ${round(features.sentence_length_cv, 2)}); basis: the words-per-sentence proxy for burstiness (GPTZero's term). The first three: ${typical.join('; ')}`,
    );
  }
  return tells;
}

function formatValue(feature: FeatureName, value: number): string {
  if (feature.endsWith('_per_1000')) return `${round(value, 1)} per 1,000 words`;
  if (feature.endsWith('_share') || feature.endsWith('_rate')) return `${round(value * 100, 1)}%`;
  return String(round(value, 2));
}

function wordProfileReading(score: Score): string {
  const describe = (entry: Score['wordContributions'][number]) => `"${entry.word}" (${round(entry.rate * 100, 2)}%)`;
  const net = score.wordContributions.reduce((sum, entry) => sum + entry.logOdds, 0);
  const towardsAi = score.wordContributions.filter((entry) => entry.logOdds > 0).slice(0, 3).map(describe);
  const towardsHuman = score.wordContributions.filter((entry) => entry.logOdds < 0).slice(0, 3).map(describe);
  return (
    `The use of ${score.wordContributions.length} frequent words leans ${net >= 0 ? 'towards AI-written' : 'towards human-written'} (log-odds ${round(net, 2)}); ` +
    `most telling towards AI: ${towardsAi.join(', ') || 'none'}; towards human: ${towardsHuman.join(', ') || 'none'}. `
  );
}

function reasoningFor(lean: Lean, score: Score, model: AiTextModel): string {
  const describe = (contribution: Contribution) => `${FEATURE_LABELS[contribution.feature]} (${formatValue(contribution.feature, contribution.value)})`;
  const ranked = [...score.contributions].sort((a, b) => Math.abs(b.logOdds) - Math.abs(a.logOdds));
  const towardsAi = ranked.filter((contribution) => contribution.logOdds > 0).slice(0, 3).map(describe);
  const towardsHuman = ranked.filter((contribution) => contribution.logOdds < 0).slice(0, 3).map(describe);
  return (
    `Probability ${round(score.probability, 2)} (lean ${lean}) from ${model.features.length} stylometric features${model.word_profile.length > 0 ? ` and the rates of ${model.word_profile.length} frequent words` : ''}, ` +
    'combined by a logistic regression fitted on labelled English passages. ' +
    `Strongest features towards AI-written: ${towardsAi.join(', ') || 'none'}. Strongest towards human-written: ${towardsHuman.join(', ') || 'none'}. ` +
    (model.word_profile.length > 0 ? wordProfileReading(score) : '') +
    `Leans: ai at ${round(model.cut_points.ai, 2)} or above, likely_ai from ${round(model.cut_points.likely_ai, 2)}, likely_human at ${round(model.cut_points.likely_human, 2)} or below, human at ${round(model.cut_points.human, 2)} or below, uncertain between.`
  );
}

/** The limitations every reply carries: the measured figures (from the model file) and why there is no verdict. */
export function limitationsFor(model: AiTextModel): string {
  const percent = (share: number) => `${round(share * 100, 1)}%`;
  return (
    'An estimate for a person to weigh, never a verdict: do not act on it alone. ' +
    `Measured on held-out labelled passages (${model.test.answered_human} human, ${model.test.answered_ai} AI-generated, English, ${model.test.abstained} more abstained on): ` +
    `AUROC ${round(model.test.auroc, 3)}; at the likely_ai threshold (${round(model.cut_points.likely_ai, 2)}) it flagged ${percent(model.test.false_positive_rate_human)} of the human passages ` +
    `(false positives) and ${percent(model.test.true_positive_rate_ai)} of the AI ones. ` +
    'Style detectors misjudge non-native English writers (Liang et al. 2023: seven detectors flagged 61% of TOEFL essays as AI) and OpenAI withdrew its own classifier in 2023 ' +
    'after it caught 26% of AI text while flagging 9% of human text. Edited, paraphrased or mixed text, and domains unlike the training passages (news, encyclopaedia, essays, reviews, ' +
    `technical and academic writing), are estimated less reliably. The checker abstains on forms, tables, lists, code, scans, non-English text and texts under ${MIN_WORDS} words.`
  );
}

/** The estimate for one text; `scanned` says the document is a scan (the estimate then abstains). */
export function estimateAiText(text: string, scanned: boolean, model: AiTextModel): AiTextEstimate {
  const whole = text.replace(/\r\n?/g, '\n');
  // Cut at the last space before the limit, so no word is split.
  const truncated = whole.length > MAX_ESTIMATED_CHARACTERS;
  const units = segment(truncated ? whole.slice(0, whole.lastIndexOf(' ', MAX_ESTIMATED_CHARACTERS) + 1 || MAX_ESTIMATED_CHARACTERS) : whole);
  const readNote = truncated ? ` Only the first ${MAX_ESTIMATED_CHARACTERS.toLocaleString('en-AU')} characters were estimated.` : '';
  const applicability = assessApplicability(units, scanned);
  const limitations = limitationsFor(model);
  if (!applicability.applicable) {
    return { applicable: false, probability: null, lean: null, tells: [], reasoning: `Abstained: ${applicability.detail}${readNote}`, limitations, abstention_reason: applicability.reason, word_count: units.words.length };
  }
  const { features, stockPhrases } = readFeatures(units);
  const score = scoreText(model, units, features);
  const lean = leanFor(model, score.probability);
  return {
    applicable: true,
    probability: round(score.probability, 4),
    lean,
    tells: [...stockPhraseTells(units, stockPhrases), ...patternTells(units, features, score.contributions)],
    reasoning: reasoningFor(lean, score, model) + readNote,
    limitations,
    abstention_reason: null,
    word_count: units.words.length,
  };
}
