import { z } from '@hono/zod-openapi';
import { locatePage, spanBox, type LocatedPage } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

const piiKinds = ['tfn', 'abn', 'medicare', 'bank_account', 'email', 'phone', 'date_of_birth'] as const;

export type PiiKind = (typeof piiKinds)[number];

export const redactSettings = z
  .object({
    kinds: z
      .union([z.enum(piiKinds).transform((kind) => [kind]), z.array(z.enum(piiKinds)).min(1)])
      .default([...piiKinds])
      .describe('Kinds of personal information to mask, one or a list (default all)'),
  })
  .strict()
  .openapi('RedactSettings');

export const redactedSpan = z
  .object({
    kind: z.enum(piiKinds),
    page: z.number().int(),
    start: z.number().int().describe("Offset of the span's first character in its page's text (pages[].text here, which masks it character for character)"),
    end: z.number().int().describe('Offset after its last character'),
    bbox: z.array(z.number()).length(4).nullable().describe('[x, y, width, height] in points from the top-left'),
    basis: z.enum(['check_digit', 'label', 'format']).describe('What made it personal information: a valid check digit, a label beside it, or its form alone'),
  })
  .openapi('RedactedSpan');

export const redactOutput = z
  .object({
    spans: z.array(redactedSpan),
    pages: z.array(z.object({ page: z.number().int(), text: z.string().describe('The page text with every span masked character for character (█)') })),
    counts: z.record(z.string(), z.number().int()),
  })
  .openapi('RedactOutput');

export type RedactedSpan = z.infer<typeof redactedSpan>;
export type RedactOutput = z.infer<typeof redactOutput>;

interface Candidate {
  kind: PiiKind;
  start: number;
  end: number;
  basis: RedactedSpan['basis'];
}

/** Not inside a longer run of digits, also when the digits are grouped with spaces or hyphens. */
const noDigitBefore = String.raw`(?<!\d)(?<!\d[ -])`;
const noDigitAfter = String.raw`(?!\d)(?![ -]\d)`;
const dateText = String.raw`\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Za-z]{3,9}\.?\s+\d{4}`;

interface Detector {
  kind: PiiKind;
  pattern: RegExp;
  /**
   * The basis of a match (null rejects it); `value` is group 1 when the pattern has a label before it,
   * `before` the text before the value on its line (or the line above when nothing precedes it).
   */
  judge: (value: string, before: string) => RedactedSpan['basis'] | null;
}

const detectors: Detector[] = [
  {
    kind: 'email',
    pattern: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g,
    judge: () => 'format',
  },
  {
    kind: 'tfn',
    pattern: new RegExp(`${noDigitBefore}(\\d{3}[ -]?\\d{3}[ -]?\\d{2,3})${noDigitAfter}`, 'g'),
    judge: (value, before) => {
      const digits = value.replace(/\D/g, '');
      if (!validTfn(digits)) return null;
      if (/\bTFN\b|tax\s+file/i.test(before)) return 'label';
      // An unlabelled number passes only in the TFN's own grouping (123 456 782): a bare nine-digit run
      // with a valid check digit is as likely an invoice or reference number.
      return digits.length === 9 && /^\d{3}[ -]\d{3}[ -]\d{3}$/.test(value) ? 'check_digit' : null;
    },
  },
  {
    kind: 'abn',
    pattern: new RegExp(`${noDigitBefore}(\\d{2} ?\\d{3} ?\\d{3} ?\\d{3})${noDigitAfter}`, 'g'),
    judge: (value) => (validAbn(value.replace(/\D/g, '')) ? 'check_digit' : null),
  },
  {
    kind: 'medicare',
    pattern: new RegExp(`${noDigitBefore}([2-6]\\d{3} ?\\d{5} ?\\d(?:[ /-]?[1-9])?)${noDigitAfter}`, 'g'),
    judge: (value) => (validMedicare(value.replace(/\D/g, '')) ? 'check_digit' : null),
  },
  {
    kind: 'bank_account',
    pattern: /\bBSB\b[\s:#.]{0,6}(\d{3}[ -]?\d{3})(?!\d)/gi,
    judge: () => 'label',
  },
  {
    kind: 'bank_account',
    pattern: /\b(?:account|acct|acc)\.?(?:\s*(?:number|no\.?|#))?[\s:#.]{0,6}(\d[\d -]{3,12}\d)(?!\d)/gi,
    judge: () => 'label',
  },
  {
    kind: 'bank_account',
    // A BSB written before its account number on one line: 062-000 1234 5678.
    pattern: new RegExp(`${noDigitBefore}(\\d{3}-\\d{3}\\s+\\d{4,5}[ -]?\\d{3,5})${noDigitAfter}`, 'g'),
    judge: () => 'format',
  },
  {
    kind: 'phone',
    pattern: new RegExp(`${noDigitBefore}((?:\\+61[ -]?|\\(0[2378]\\)[ -]?|0)(?:4\\d{2}[ -]?\\d{3}[ -]?\\d{3}|[2378][ -]?\\d{4}[ -]?\\d{4}|(?<=\\)[ -]?)\\d{4}[ -]?\\d{4})|1[38]00[ -]?\\d{3}[ -]?\\d{3})${noDigitAfter}`, 'g'),
    judge: () => 'format',
  },
  {
    kind: 'date_of_birth',
    pattern: new RegExp(String.raw`\b(?:date\s+of\s+birth|birth\s*date|D\.?O\.?B\.?|born(?:\s+on)?)[\s:]{0,6}(${dateText})`, 'gi'),
    judge: () => 'label',
  },
];

/**
 * Personal information in the page text, each span with its page, offsets and box, and the page text
 * masked. Numbers with a check digit (TFN, ABN, Medicare) count only when the digit is right; bank
 * accounts and dates of birth only beside their label; where two findings overlap the longer one wins.
 */
export async function redact(input: OptionInput): Promise<RedactOutput> {
  const { kinds } = parseSettings(redactSettings, input.settings);
  const wanted = new Set<PiiKind>(kinds);
  const spans: RedactedSpan[] = [];
  const pages: RedactOutput['pages'] = [];
  for (const page of input.pages.map(locatePage)) {
    const found = piiSpans(page.text).filter((span) => wanted.has(span.kind));
    for (const span of found) spans.push({ ...span, page: page.page, bbox: spanBox(page, span.start, span.end) satisfies Box | null });
    pages.push({ page: page.page, text: masked(page, found) });
  }
  const counts = Object.fromEntries(kinds.map((kind) => [kind, spans.filter((span) => span.kind === kind).length]));
  return { spans, pages, counts };
}

/** Every span of personal information in `text`, in text order, without overlaps. */
export function piiSpans(text: string): Candidate[] {
  const candidates: Candidate[] = [];
  for (const detector of detectors) {
    for (const match of text.matchAll(detector.pattern)) {
      const value = match[1] ?? match[0];
      const start = match.index + match[0].lastIndexOf(value);
      const basis = detector.judge(value, textBefore(text, start));
      if (basis) candidates.push({ kind: detector.kind, start, end: start + value.length, basis });
    }
  }
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || detectorRank(a) - detectorRank(b));
  const kept: Candidate[] = [];
  for (const candidate of candidates) if (!kept.some((other) => other.start < candidate.end && candidate.start < other.end)) kept.push(candidate);
  return kept.sort((a, b) => a.start - b.start);
}

function detectorRank(candidate: Candidate): number {
  return piiKinds.indexOf(candidate.kind) + (candidate.basis === 'format' ? piiKinds.length : 0);
}

function textBefore(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  if (before.trim() !== '' || lineStart === 0) return before;
  // A value alone on its line: its label sits on the line above.
  return text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
}

function masked(page: LocatedPage, spans: readonly Candidate[]): string {
  const characters = [...page.text];
  // Offsets are UTF-16 units; page text from PDFs here is within the BMP, so units and characters agree.
  for (const span of spans) for (let i = span.start; i < span.end; i++) if (!/\s/.test(characters[i]!)) characters[i] = '█';
  return characters.join('');
}

/** ATO tax file number: weights 1 4 3 7 5 8 6 9 10 (nine digits) or 10 7 8 4 6 3 5 1 (eight), sum divisible by 11. */
export function validTfn(digits: string): boolean {
  const weights = digits.length === 9 ? [1, 4, 3, 7, 5, 8, 6, 9, 10] : digits.length === 8 ? [10, 7, 8, 4, 6, 3, 5, 1] : null;
  if (!weights || /^0+$/.test(digits)) return false;
  return weights.reduce((sum, weight, i) => sum + weight * Number(digits[i]), 0) % 11 === 0;
}

/** ABR: subtract 1 from the first digit, weights 10 1 3 5 7 9 11 13 15 17 19, sum divisible by 89. */
export function validAbn(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || digits[0] === '0') return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  return weights.reduce((sum, weight, i) => sum + weight * (Number(digits[i]) - (i === 0 ? 1 : 0)), 0) % 89 === 0;
}

/** Medicare card: first digit 2–6, the ninth digit is (weights 1 3 7 9 1 3 7 9 over the first eight) mod 10. */
export function validMedicare(digits: string): boolean {
  if (!/^[2-6]\d{9,10}$/.test(digits)) return false;
  const weights = [1, 3, 7, 9, 1, 3, 7, 9];
  return weights.reduce((sum, weight, i) => sum + weight * Number(digits[i]), 0) % 10 === Number(digits[8]);
}
