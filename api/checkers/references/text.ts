/**
 * Small text tools the reference checker's finders and judges share: sentence spans, normalised words for
 * comparing titles and claims, and a similarity ratio. Pure functions of text.
 */

/** A sentence and where it sits in the text it was cut from. */
export interface Span {
  text: string;
  start: number;
  end: number;
}

// Words after which a full stop does not end a sentence: "et al. (2020)", "e.g. the", "Fig. 3", initials.
const NO_BREAK_AFTER = /(?:\bet al|\be\.g|\bi\.e|\bvs|\bNo|\bFig|\bp|\bpp|\bvol|\bVol|\bDr|\bMr|\bMs|\bMrs|\bProf|\bSt|\bInc|\bLtd|\bCo|\b[A-Z])\.$/;

/**
 * The text's sentences with their offsets: a sentence ends at `.`, `!` or `?` (and any citation markers after it) followed by white space and a
 * capital, digit, quote or bracket, at a blank line, or before a list item; abbreviations and initials do not end one.
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  // A blank line, and a line break before a list item (`[3] …`, `3. …`), end a sentence too; citation markers
  // after the full stop (`died.[98][99] On …`) belong to the sentence they close.
  const boundary = /([.!?])["”’)\]]*(?:\[[^\][\n]{1,24}\])*\s+(?=["“‘(\[]?[A-Z0-9])|\n\s*\n|\n(?=\s*(?:\[\d{1,3}\]|\d{1,3}[.)])\s)/g;
  for (let match = boundary.exec(text); match !== null; match = boundary.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    if (match[1] !== undefined && NO_BREAK_AFTER.test(text.slice(Math.max(start, match.index - 8), match.index + 1))) continue;
    push(spans, text, start, end);
    start = match.index + match[0].length;
  }
  push(spans, text, start, text.length);
  return spans;
}

function push(spans: Span[], text: string, start: number, end: number): void {
  const raw = text.slice(start, end);
  const leading = raw.length - raw.trimStart().length;
  const trimmed = raw.trim();
  if (trimmed !== '') spans.push({ text: trimmed.replace(/\s+/g, ' '), start: start + leading, end: start + leading + trimmed.length });
}

/** The span of `spans` (sorted by start, not overlapping) that holds `offset`, by binary search; undefined when none does. */
export function spanAt<T extends { start: number; end: number }>(spans: readonly T[], offset: number): T | undefined {
  let low = 0;
  let high = spans.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const span = spans[middle]!;
    if (offset < span.start) high = middle - 1;
    else if (offset >= span.end) low = middle + 1;
    else return span;
  }
  return undefined;
}

/** Lower case, accents and punctuation removed, white space folded: the form titles are compared in. */
export function normaliseTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * 1 − Levenshtein distance ÷ the longer length, over the two strings as given (callers normalise first).
 * Written here because no string-similarity library is among the project's dependencies and this one
 * ratio is all the checker needs.
 */
export function similarityRatio(a: string, b: string): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length]! / longer;
}

/** English words too common to say what a sentence is about (a short list: claims are compared by their content words). */
const STOP_WORDS = new Set(
  ('a an and are as at be been but by can could did do does for from had has have he her his if in into is it its may might more most ' +
    'must of on or our shall she should so such than that the their them then there these they this those to was we were what when ' +
    'which while who will with would you your also about after before between during over under per via according reported report ' +
    'shows show found finds study studies data source sources see cited').split(' '),
);

/** The words of a text that are not stop words, normalised as titles are. */
export function significantWords(text: string): string[] {
  return normaliseTitle(text)
    .split(' ')
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
}

/** Significant words with a crude plural/-ed/-ing trim, for matching claims: "costs" and "cost" meet. */
export function contentWords(text: string): string[] {
  return significantWords(text).map((word) => (word.length > 4 ? word.replace(/(?:ing|ed|es|s)$/, '') : word));
}
