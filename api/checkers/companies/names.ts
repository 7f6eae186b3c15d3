/**
 * Company names compared the way registers write them: case, accents and punctuation aside, legal forms in
 * one spelling (`PROPRIETARY LIMITED` is `PTY LTD`), and the words that carry the name ("core" words) apart
 * from the legal form. Pure functions of text.
 */

// Spellings of the same legal form, as the ABN and ASIC registers and people write them.
const LEGAL_SPELLINGS: Readonly<Record<string, string>> = {
  PROPRIETARY: 'PTY',
  PROP: 'PTY',
  LIMITED: 'LTD',
  INCORPORATED: 'INC',
  CORPORATION: 'CORP',
  'NO LIABILITY': 'NL',
};
const LEGAL_FORMS = new Set(['PTY', 'LTD', 'INC', 'NL', 'CORP']);
// Words that never tell two companies apart; "THE TRUSTEE FOR" opens every trust's register name.
const FILLER = new Set(['THE', 'AND', 'OF', 'TRUSTEE', 'FOR']);

export interface NormalisedName {
  /** Every word, legal forms in one spelling: `HARBOURSIDE CIVIL PTY LTD`. */
  full: string;
  /** The words that carry the name, legal forms and filler words left out. */
  core: string[];
}

export function normaliseName(name: string): NormalisedName {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/&/g, ' AND ')
    // "PTY." and "H.R." lose their dots; "O'BRIEN" its apostrophe: one word each.
    .replace(/['’.]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .replace(/\bNO LIABILITY\b/g, 'NL')
    .trim()
    .split(' ')
    .filter((word) => word !== '')
    .map((word) => LEGAL_SPELLINGS[word] ?? word);
  return { full: words.join(' '), core: words.filter((word) => !LEGAL_FORMS.has(word) && !FILLER.has(word)) };
}

/** How a register name matched the query, best first. */
export const MATCH_RULES = ['exact', 'same_words', 'all_words', 'name_words'] as const;
export type MatchRule = (typeof MATCH_RULES)[number];

export const MATCH_RULE_MEANINGS: Readonly<Record<MatchRule, string>> = {
  exact: 'the same name, case, accents, punctuation and the spelling of the legal form aside',
  same_words: 'the same words, with a different or missing legal form (Pty Ltd, Limited, Inc)',
  all_words: 'every word of the query is in the name (exactly, one letter different, or as the start of a word); the name has more words',
  name_words: 'every word of the name is in the query, which has more words (such as a description after the name)',
};

export interface NameMatch {
  /** 0 to 1: how closely the name matches; orders candidates, never selects one. */
  score: number;
  rule: MatchRule;
}

/**
 * How a register's name matches a queried name, or null when it does not. Each query word is paired with
 * the name word it best matches: the same word (1), a word one letter away (0.8; words of 4 letters or
 * more, so `HARBOURSDE` finds `HARBOURSIDE`), or a word it begins (0.6; 3 letters or more). A name matches
 * when every query word is paired (`all_words`) or every name word is (`name_words`); a word on each side
 * left unpaired is a different company (`BRISBANE TRAFFIC CONTROL` is not `BRISBANE TRAFFIC SOLUTIONS`).
 * The score is the pairs' sum over the longer of the two word lists, so extra words lower it.
 */
export function matchName(query: NormalisedName, name: NormalisedName): NameMatch | null {
  if (query.core.length === 0 || name.core.length === 0) return null;
  if (query.full === name.full) return { score: 1, rule: 'exact' };
  if (query.core.join(' ') === name.core.join(' ')) return { score: 0.95, rule: 'same_words' };
  const unused = [...name.core];
  let paired = 0;
  let pairedWords = 0;
  for (const word of query.core) {
    let best = 0;
    let bestIndex = -1;
    unused.forEach((candidate, index) => {
      const similarity = wordSimilarity(word, candidate);
      if (similarity > best) [best, bestIndex] = [similarity, index];
    });
    if (bestIndex < 0) continue;
    unused.splice(bestIndex, 1);
    paired += best;
    pairedWords++;
  }
  const coverage = paired / Math.max(query.core.length, name.core.length);
  if (pairedWords === query.core.length) return { score: round(0.5 + 0.4 * coverage), rule: 'all_words' };
  if (unused.length === 0) return { score: round(0.4 + 0.4 * coverage), rule: 'name_words' };
  return null;
}

function wordSimilarity(word: string, candidate: string): number {
  if (word === candidate) return 1;
  if (word.length >= 4 && candidate.length >= 4 && withinOneEdit(word, candidate)) return 0.8;
  if (word.length >= 3 && candidate.startsWith(word)) return 0.6;
  return 0;
}

/** One letter inserted, deleted or replaced, or two neighbours swapped. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/**
 * The index terms a queried name is looked up by (data/models/company_name_terms.sql holds the registers' names
 * split the same way): each core word of 3 letters or more, and the first 4 letters of each longer word as a
 * prefix, so a name with a typo late in a word, or a word typed in part, is still found.
 */
export function searchTerms(query: NormalisedName): { words: string[]; prefixes: string[] } {
  const words = new Set<string>();
  const prefixes = new Set<string>();
  for (const word of query.core) {
    if (word.length >= 3) words.add(word);
    if (word.length > 4) prefixes.add(word.slice(0, 4));
  }
  return { words: [...words], prefixes: [...prefixes] };
}
