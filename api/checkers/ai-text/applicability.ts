import type { Segmented } from './segment.ts';

/**
 * When the estimate abstains (checker research §3.3): the features describe running English prose, so on
 * anything else they measure the layout, not the writer. The thresholds are stated here and in the README.
 */
export const MIN_WORDS = 150; // OpenAI's withdrawn classifier needed 1,000 characters, roughly 150-250 words.
/**
 * English running prose has 30-50% of its words in the list below (technical writing the least); German or
 * French text keeps 5-10% through shared short words ("in", "a"). Below this share the text is not English.
 */
export const MIN_ENGLISH_FUNCTION_WORD_SHARE = 0.15;
/** Abstain when more than this share of the non-blank lines are code, list items, table rows or form fields. */
export const MAX_NON_PROSE_LINE_SHARE = 0.4;
/** Abstain when less than this share of the words sit in sentences of 6 or more words ending in . ! or ?. */
export const MIN_SENTENCE_WORD_SHARE = 0.6;

export const ABSTENTION_REASONS = ['too_short', 'not_english', 'scanned', 'code', 'list', 'table', 'form', 'not_prose'] as const;
export type AbstentionReason = (typeof ABSTENTION_REASONS)[number];

export type Applicability = { applicable: true } | { applicable: false; reason: AbstentionReason; detail: string };

const ENGLISH_MARKERS = new Set(['the', 'of', 'and', 'to', 'a', 'in', 'is', 'that', 'it', 'for', 'was', 'on', 'with', 'as', 'be', 'by', 'this', 'are', 'at', 'from', 'or', 'have', 'an', 'not', 'but', 'they', 'which', 'he', 'she', 'we', 'you', 'i', 'his', 'her', 'their', 'its', 'has', 'had', 'were', 'been', 'will', 'would', 'can']);

const MAX_PATTERN_LINE = 500;
const COLUMN_GAP = /\t|\S {3,}(?=\S)|\|/g;

const LINE_KINDS = {
  code: (line: string) => /^\s*(?:```|#include\b|import\s+[\w{*]|from\s+\w+\s+import\b|(?:def|class|function|return|const|let|var|public|private|static|if|for|while|elif|else)\b.*[:{(;=]\s*$)|[{};]\s*$|^\s*[\w.[\]]+\s*[-+*/]?=\s*[^=\s]|^\s*(?:\/\/|\/\*|\*\/|#!)|^\s*[}\])]/.test(line),
  list: (line: string) => /^\s*(?:[-*•‣◦▪·–]|\d{1,3}[.)]|\(?[a-z][.)]|\([ivx]+\))\s+\S/.test(line),
  // Two or more column gaps (a tab, three spaces, a pipe) on a short line: one long line with wide spaces
  // between its sentences is not a table.
  table: (line: string) => (line.match(COLUMN_GAP)?.length ?? 0) >= 2 && line.trim().split(/\s+/).length < 25,
  form: (line: string) => /^[^.!?]{1,50}:\s*(?:\S[^.!?]{0,40})?$|_{4,}|\.{5,}|[☐☑☒]|\[\s?[xX ]?\s?\]/.test(line),
} satisfies Record<'code' | 'list' | 'table' | 'form', (line: string) => boolean>;

/**
 * Decides whether the estimate may be given, from the text and whether the document is a scan (pages
 * without a text layer, or text read by OCR: its wording and punctuation would be the OCR engine's).
 */
export function assessApplicability(units: Segmented, scanned: boolean): Applicability {
  if (scanned) {
    return { applicable: false, reason: 'scanned', detail: 'The document is a scan: its pages have no text layer, and text read from a picture carries the OCR engine\'s wording and punctuation, not the writer\'s.' };
  }
  const wordCount = units.words.length;
  if (wordCount < MIN_WORDS) {
    return { applicable: false, reason: 'too_short', detail: `The text has ${wordCount} words; the estimate needs at least ${MIN_WORDS} words of running prose.` };
  }
  const markerShare = units.words.filter((word) => ENGLISH_MARKERS.has(word.lower)).length / wordCount;
  if (markerShare < MIN_ENGLISH_FUNCTION_WORD_SHARE) {
    return {
      applicable: false,
      reason: 'not_english',
      detail: `Only ${percent(markerShare)} of the words are common English function words (English prose has about half); the estimate is fitted on English prose only.`,
    };
  }
  // A line longer than a table row or form field is prose; it is never run through the line patterns, whose
  // cost would grow with its square.
  const lines = units.lines.map((line) => (line.end - line.start <= MAX_PATTERN_LINE ? units.text.slice(line.start, line.end) : ''));
  const kinds = Object.entries(LINE_KINDS).map(([kind, isKind]) => ({ kind: kind as keyof typeof LINE_KINDS, share: lines.filter(isKind).length / lines.length }));
  const dominant = kinds.reduce((best, next) => (next.share > best.share ? next : best));
  if (dominant.share > MAX_NON_PROSE_LINE_SHARE) {
    return { applicable: false, reason: dominant.kind, detail: `${percent(dominant.share)} of the lines read as ${LINE_LABELS[dominant.kind]}; the estimate is for running prose.` };
  }
  const sentenceWords = units.sentences.filter((sentence) => sentence.words.length >= 6 && /[.!?]["'”’)\]]*$/.test(units.text.slice(sentence.start, sentence.end))).reduce((sum, sentence) => sum + sentence.words.length, 0);
  if (sentenceWords / wordCount < MIN_SENTENCE_WORD_SHARE) {
    return { applicable: false, reason: 'not_prose', detail: `Only ${percent(sentenceWords / wordCount)} of the words are in full sentences; the rest are headings, labels or fragments, and the estimate is for running prose.` };
  }
  return { applicable: true };
}

const LINE_LABELS: Record<keyof typeof LINE_KINDS, string> = {
  code: 'source code',
  list: 'list items',
  table: 'table rows',
  form: 'form fields (label and value)',
};

const percent = (share: number) => `${Math.round(share * 100)}%`;
