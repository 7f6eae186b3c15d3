import { TRADES } from '../../lib/trades.ts';
import type { IndexedTender } from '../search/tender-index.ts';
import { termsOf } from '../search/text-index.ts';

/**
 * Ranking open tenders for a company from what its website says it does. Pure and deterministic: the
 * caller reads the site (data/intelligence/company-site.ts) and chooses the tenders; the API's
 * POST /v1/tenders/match and the nightly digest of saved company profiles both rank with `rankTenders`.
 *
 * Capabilities are the phrases of the trade vocabulary (lib/trades.ts) the site uses. A trade counts as
 * one the company offers when the site gives enough evidence for it (see `MIN_TRADE_EVIDENCE`); its
 * phrases found on the site are the company's stated capabilities. A tender's needs are the vocabulary
 * phrases in its title and summary, and its trade. The fit of a tender adds, for each capability it
 * needs, the rarity of that phrase among the tenders considered (a shared "asphalt" says more than a
 * shared "maintenance"), doubled in the title; plus a bonus when the tender's trade is one the company
 * offers. Scores are then 0–100 relative to the best tender returned: they order, they do not predict.
 */

/** One vocabulary phrase: a trade keyword as the word sequence it matches. */
interface Phrase {
  /** Stemmed words joined by spaces: the identity of the phrase. */
  key: string;
  /** As written in the vocabulary, for why/gaps. */
  label: string;
  words: string[];
  trades: string[];
}

/**
 * Words of the vocabulary that name a trade in some titles and nothing in particular in most ("data",
 * "system", "review"): they neither count as evidence of a capability nor appear in why or gaps. "Removal"
 * (the stem of "removals") is mostly waste, rubbish, graffiti or asbestos removal; a removalist is met by
 * "removalist", "furniture removal" and "office relocation".
 */
const GENERIC_WORDS = new Set([
  'system', 'data', 'application', 'platform', 'web', 'digital', 'review', 'strategy', 'strategic', 'study', 'trial',
  'analysis', 'extension', 'event', 'construct', 'storage', 'travel', 'paper', 'brand', 'media', 'engagement', 'led',
  'lift', 'guard', 'screening', 'health', 'security', 'learning', 'course', 'performance', 'recreation', 'school',
  'youth', 'bore', 'dam', 'tree', 'food', 'bus', 'sign', 'publication', 'demonstration', 'insurance', 'investment', 'removal',
]);

/** A stem good enough to meet "roads" with "road" and "cleaning" with "clean"; applied alike to sites, tenders and the vocabulary. */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function wordsOf(text: string): string[] {
  return termsOf(text).map(stem);
}

const PHRASES: Phrase[] = (() => {
  const byKey = new Map<string, Phrase>();
  for (const trade of TRADES) {
    for (const keyword of trade.keywords) {
      const words = wordsOf(keyword);
      if (words.length === 0 || (words.length === 1 && GENERIC_WORDS.has(words[0]!))) continue;
      const key = words.join(' ');
      const phrase = byKey.get(key) ?? { key, label: keyword, words, trades: [] };
      if (!phrase.trades.includes(trade.id)) phrase.trades.push(trade.id);
      byKey.set(key, phrase);
    }
  }
  return [...byKey.values()];
})();

/** Phrases by their first word, longest first, so "civil works" is tried before "civil". */
const PHRASES_BY_FIRST_WORD = (() => {
  const index = new Map<string, Phrase[]>();
  for (const phrase of PHRASES) {
    const list = index.get(phrase.words[0]!) ?? [];
    list.push(phrase);
    index.set(phrase.words[0]!, list);
  }
  for (const list of index.values()) list.sort((a, b) => b.words.length - a.words.length || (a.key < b.key ? -1 : 1));
  return index;
})();

const PHRASE_BY_KEY = new Map(PHRASES.map((phrase) => [phrase.key, phrase]));
const TRADE_NAMES = new Map(TRADES.map((trade) => [trade.id, trade.name]));

/** How often each vocabulary phrase occurs in stemmed words; at each position the longest phrase wins. */
function phraseCounts(words: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let at = 0; at < words.length; at++) {
    const candidates = PHRASES_BY_FIRST_WORD.get(words[at]!);
    if (!candidates) continue;
    for (const phrase of candidates) {
      if (phrase.words.every((word, offset) => words[at + offset] === word)) {
        counts.set(phrase.key, (counts.get(phrase.key) ?? 0) + 1);
        at += phrase.words.length - 1;
        break;
      }
    }
  }
  return counts;
}

/** A capability the site states: a vocabulary phrase of a trade the company offers. */
export interface Capability {
  phrase: string;
  trade: string;
  /** Times the site uses it. */
  mentions: number;
}

/**
 * What a company's site says it does, as the ranking needs it: plain JSON, so a saved company profile can
 * be stored and ranked again night after night without reading the site.
 */
export interface CompanyProfile {
  /** Trades the site gives enough evidence for, strongest first, with strength 0–1 relative to the strongest. */
  trades: { trade: string; name: string; strength: number }[];
  /** The company's stated capabilities, strongest trade first, most mentioned first within it. */
  capabilities: Capability[];
  /** Every vocabulary phrase the site uses (its stemmed key), capabilities or not: a tender's need the site mentions is no gap. */
  mentioned: string[];
  /** The site's own most frequent content words (stemmed), for keyword order when no capability is recognised. */
  keywords: string[];
}

/** Evidence a trade needs to count as offered: two distinct phrases of it, or one multi-word phrase (2 points each). */
const MIN_TRADE_EVIDENCE = 2;
const KEYWORD_COUNT = 12;
/** Site words that say nothing about what a company does. */
const SITE_FURNITURE = new Set([
  'home', 'about', 'contact', 'privacy', 'policy', 'cookie', 'term', 'condition', 'copyright', 'right', 'reserved', 'menu',
  'page', 'site', 'website', 'click', 'read', 'more', 'email', 'phone', 'call', 'today', 'news', 'blog', 'login', 'search',
  'skip', 'content', 'our', 'your', 'you', 'we', 'us', 'all', 'this', 'that', 'can', 'will', 'have', 'has', 'not', 'but',
  'also', 'who', 'what', 'how', 'out', 'any', 'over', 'across', 'they', 'their', 'them', 'than', 'which', 'its', 'it', 'was',
  'were', 'been', 'more', 'most', 'each', 'every', 'other', 'such', 'only', 'just', 'pty', 'ltd', 'limited', 'australia',
  'new', 'zealand', 'team', 'year', 'years', 'get', 'touch', 'follow', 'facebook', 'linkedin', 'instagram', 'twitter',
]);

/**
 * A company profile from the text of its site's pages (home page first). Deterministic: the same text
 * gives the same profile.
 */
export function companyProfile(pageTexts: readonly string[]): CompanyProfile {
  const counts = new Map<string, number>();
  const wordCounts = new Map<string, number>();
  for (const text of pageTexts) {
    const words = wordsOf(text);
    for (const [key, count] of phraseCounts(words)) counts.set(key, (counts.get(key) ?? 0) + count);
    for (const word of words) {
      if (word.length < 4 || /\d/.test(word) || SITE_FURNITURE.has(word)) continue;
      wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);
    }
  }

  const evidence = new Map<string, number>();
  for (const key of counts.keys()) {
    const phrase = PHRASE_BY_KEY.get(key)!;
    const weight = phrase.words.length > 1 ? 2 : 1;
    for (const trade of phrase.trades) evidence.set(trade, (evidence.get(trade) ?? 0) + weight);
  }
  const offered = [...evidence]
    .filter(([, points]) => points >= MIN_TRADE_EVIDENCE)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const strongest = offered[0]?.[1] ?? 1;
  const trades = offered.map(([trade, points]) => ({ trade, name: TRADE_NAMES.get(trade) ?? trade, strength: round2(points / strongest) }));

  const capabilities: Capability[] = [];
  const taken = new Set<string>();
  for (const { trade } of trades) {
    const ofTrade = [...counts]
      .filter(([key]) => !taken.has(key) && PHRASE_BY_KEY.get(key)!.trades.includes(trade))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [key, mentions] of ofTrade) {
      taken.add(key);
      capabilities.push({ phrase: PHRASE_BY_KEY.get(key)!.label, trade, mentions });
    }
  }

  const keywords = [...wordCounts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, KEYWORD_COUNT)
    .map(([word]) => word);
  return { trades, capabilities, mentioned: [...counts.keys()].sort(), keywords };
}

/** The vocabulary phrases a tender asks for, worked out once per tender and kept while the tender object lives (a release). */
interface TenderNeeds {
  title: ReadonlySet<string>;
  summary: ReadonlySet<string>;
  /** Every phrase of the title or summary, each once. */
  phrases: readonly string[];
}

/** The words of a tender's title and summary (for keyword order only, so not kept). */
interface TenderWords {
  titleWords: Set<string>;
  summaryWords: Set<string>;
  /** Every word of the title or summary, each once. */
  words: string[];
}

const NO_PHRASES: ReadonlySet<string> = new Set();
const NO_PHRASE_LIST: readonly string[] = [];
const needsCache = new WeakMap<IndexedTender, TenderNeeds>();

// Most tenders name few vocabulary phrases: one shared empty set and array keep the cache small at 50,000 tenders.
function needsOf(tender: IndexedTender): TenderNeeds {
  let needs = needsCache.get(tender);
  if (needs === undefined) {
    const { row } = tender;
    const titleKeys = [...phraseCounts(wordsOf(row.title)).keys()];
    const summaryKeys = row.summary ? [...phraseCounts(wordsOf(row.summary)).keys()] : [];
    const phrases = [...new Set([...titleKeys, ...summaryKeys])];
    needs = {
      title: titleKeys.length === 0 ? NO_PHRASES : new Set(titleKeys),
      summary: summaryKeys.length === 0 ? NO_PHRASES : new Set(summaryKeys),
      phrases: phrases.length === 0 ? NO_PHRASE_LIST : phrases,
    };
    needsCache.set(tender, needs);
  }
  return needs;
}

function wordsOfTender(tender: IndexedTender): TenderWords {
  const { title, summary } = tender.row;
  const titleWords = wordsOf(title);
  const summaryWords = summary ? wordsOf(summary) : [];
  return { titleWords: new Set(titleWords), summaryWords: new Set(summaryWords), words: [...new Set([...titleWords, ...summaryWords])] };
}

/** A tender ranked by fit. */
export interface ScoredTender {
  tender: IndexedTender;
  /** 0–100 relative to the best tender of the ranking; not a probability of winning. */
  score: number;
  /** The company's stated capabilities the tender needs, strongest first. */
  why: string[];
  /** What the tender asks for that the site does not mention. */
  gaps: string[];
}

export type MatchRanking =
  | { degraded: false; considered: number; results: ScoredTender[] }
  | {
      degraded: true;
      /** Why scoring was unavailable, as a sentence. */
      reason: string;
      considered: number;
      /** Keyword-relevance order only: no scores, why or gaps. */
      results: { tender: IndexedTender }[];
    };

export interface RankOptions {
  /** How many tenders to return, best first (default 25). */
  limit?: number;
}

export const DEFAULT_MATCH_LIMIT = 25;
const TITLE_WEIGHT = 2;
const PHRASE_WEIGHT = 1.5;
const TRADE_BONUS = 3;
const MOST_REASONS = 6;

export const DEGRADED_REASON =
  'The site names none of the trades or services the matcher recognises, so tenders are ordered by how many of the ' +
  "site's own frequent words they use; there are no scores, why or gaps.";

/**
 * Ranks `tenders` (the open tenders to consider, in the order ties should keep, such as closing order)
 * for a company. Returns at most `limit` tenders that fit at all, best first, each with a 0–100 score
 * relative to the best, `why` and `gaps`. A profile with no recognised capability cannot be scored: the
 * ranking is then `degraded`, ordered by the site's keywords in tender titles and summaries.
 *
 * @example
 * const profile = companyProfile([homePageText, servicesPageText]);
 * const open = index.search({ jurisdiction: 'AU-NSW', kind: 'tender' }, { limit: index.size, offset: 0 }, now).hits;
 * const ranking = rankTenders(profile, open.map((hit) => hit.tender));
 */
export function rankTenders(profile: CompanyProfile, tenders: readonly IndexedTender[], options: RankOptions = {}): MatchRanking {
  const limit = options.limit ?? DEFAULT_MATCH_LIMIT;
  if (profile.capabilities.length === 0) {
    return { degraded: true, reason: DEGRADED_REASON, considered: tenders.length, results: keywordOrder(profile.keywords, tenders, limit) };
  }

  const capabilityByKey = new Map(profile.capabilities.map((capability) => [stemmedKey(capability.phrase), capability]));
  const tradeStrength = new Map(profile.trades.map((trade) => [trade.trade, trade.strength]));
  const mentioned = new Set(profile.mentioned);

  const rarity = inverseFrequency(tenders.map(needsOf), (needs) => needs.phrases, capabilityByKey.keys());
  const scored: { tender: IndexedTender; raw: number; order: number; why: string[] }[] = [];
  // Runs for every open tender on every call: walks the tender's own few phrases rather than every capability,
  // and allocates only for the tenders that fit, so a nationwide call leaves little garbage behind.
  tenders.forEach((tender, order) => {
    const needs = needsOf(tender);
    let reasons: { label: string; weight: number }[] | undefined;
    let raw = 0;
    for (const key of needs.phrases) {
      const capability = capabilityByKey.get(key);
      if (capability === undefined) continue;
      const weight = rarity.get(key)! * (needs.title.has(key) ? TITLE_WEIGHT : 1) * (key.includes(' ') ? PHRASE_WEIGHT : 1);
      raw += weight;
      (reasons ??= []).push({ label: capability.phrase, weight });
    }
    const trade = tender.trade;
    const strength = trade === null ? undefined : tradeStrength.get(trade);
    if (strength !== undefined) raw += TRADE_BONUS * strength;
    if (raw === 0) return;

    if (reasons === undefined) reasons = [];
    reasons.sort((a, b) => b.weight - a.weight || (a.label < b.label ? -1 : 1));
    const why = reasons.slice(0, MOST_REASONS).map((reason) => reason.label);
    if (why.length === 0 && trade !== null) why.push(TRADE_NAMES.get(trade)!.toLowerCase());
    scored.push({ tender, raw, order, why });
  });

  scored.sort((a, b) => b.raw - a.raw || a.order - b.order);
  const kept = scored.slice(0, limit);
  const best = kept[0]?.raw ?? 1;
  // Gaps only for the tenders returned: their phrases' rarity is worked out once, over every tender considered.
  const keptNeeds = kept.map(({ tender }) => needsOf(tender));
  const gapRarity = inverseFrequency(tenders.map(needsOf), (needs) => needs.phrases, keptNeeds.flatMap((needs) => needs.phrases));
  return {
    degraded: false,
    considered: tenders.length,
    results: kept.map(({ tender, raw, why }, at) => ({
      tender,
      score: Math.max(1, Math.round((100 * raw) / best)),
      why,
      gaps: gapsOf(keptNeeds[at]!, tender.trade, mentioned, tradeStrength, gapRarity),
    })),
  };
}

/**
 * What the tender asks for that the site never mentions: its trade when the company does not offer it,
 * then its vocabulary phrases the site does not use, title first, rarest first.
 */
function gapsOf(
  needs: TenderNeeds,
  trade: string | null,
  mentioned: ReadonlySet<string>,
  tradeStrength: ReadonlyMap<string, number>,
  rarity: ReadonlyMap<string, number>,
): string[] {
  const gaps: string[] = [];
  if (trade !== null && !tradeStrength.has(trade)) gaps.push(TRADE_NAMES.get(trade)!.toLowerCase());
  const unmet = (keys: Iterable<string>) =>
    [...keys].filter((key) => !mentioned.has(key)).sort((a, b) => rarity.get(b)! - rarity.get(a)! || (a < b ? -1 : 1));
  const summaryOnly = [...needs.summary].filter((key) => !needs.title.has(key));
  for (const key of [...unmet(needs.title), ...unmet(summaryOnly)]) {
    const label = PHRASE_BY_KEY.get(key)!.label;
    if (!gaps.includes(label)) gaps.push(label);
  }
  return gaps.slice(0, MOST_REASONS);
}

/** ln(1 + N / (1 + tenders holding it)) for each key: rare shared needs say more than common ones. */
function inverseFrequency<T>(tenders: readonly T[], termsOf: (tender: T) => readonly string[], keys: Iterable<string>): Map<string, number> {
  const documents = new Map<string, number>();
  for (const key of keys) documents.set(key, 0);
  // Each tender's own terms (a few dozen) are walked, not every wanted key: one lookup per term.
  for (const tender of tenders) {
    for (const term of termsOf(tender)) {
      const count = documents.get(term);
      if (count !== undefined) documents.set(term, count + 1);
    }
  }
  const rarity = new Map<string, number>();
  for (const [key, count] of documents) rarity.set(key, Math.log(1 + tenders.length / (1 + count)));
  return rarity;
}

/** Keyword relevance: the site's frequent words found in a tender, rarer words and title hits weighing more. */
function keywordOrder(keywords: readonly string[], tenders: readonly IndexedTender[], limit: number): { tender: IndexedTender }[] {
  if (keywords.length === 0) return [];
  const words = tenders.map(wordsOfTender);
  const rarity = inverseFrequency(words, (tenderWords) => tenderWords.words, keywords);
  const relevant: { tender: IndexedTender; relevance: number; order: number }[] = [];
  tenders.forEach((tender, order) => {
    const needs = words[order]!;
    let relevance = 0;
    for (const word of keywords) {
      if (needs.titleWords.has(word)) relevance += TITLE_WEIGHT * rarity.get(word)!;
      else if (needs.summaryWords.has(word)) relevance += rarity.get(word)!;
    }
    if (relevance > 0) relevant.push({ tender, relevance, order });
  });
  relevant.sort((a, b) => b.relevance - a.relevance || a.order - b.order);
  return relevant.slice(0, limit).map(({ tender }) => ({ tender }));
}

function stemmedKey(label: string): string {
  return wordsOf(label).join(' ');
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
