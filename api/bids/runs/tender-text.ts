/**
 * Small readers of tender wording the run's checks share: dates as tenders write them, limits on a
 * response's length, email addresses, and the name of a returnable schedule or form.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`;
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

const pad = (n: number) => String(n).padStart(2, '0');

function isoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2200) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 ? `${year}-${pad(month)}-${pad(day)}` : null;
}

const monthNumber = (name: string) => MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3))) + 1;

/**
 * Calendar dates in a text, as ISO days: "24 February 2026", "24th Feb 2026", "February 24, 2026",
 * "2026-02-24" and "24/02/2026" (day first, as Australian and New Zealand tenders write it).
 */
export function datesIn(text: string): string[] {
  const found: string[] = [];
  const push = (date: string | null) => date !== null && !found.includes(date) && found.push(date);
  for (const match of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'gi'))) {
    push(isoDate(Number(match[3]), monthNumber(match[2]!), Number(match[1])));
  }
  for (const match of text.matchAll(new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'))) {
    push(isoDate(Number(match[3]), monthNumber(match[1]!), Number(match[2])));
  }
  for (const match of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) push(isoDate(Number(match[1]), Number(match[2]), Number(match[3])));
  for (const match of text.matchAll(/\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g)) push(isoDate(Number(match[3]), Number(match[2]), Number(match[1])));
  return found;
}

/** A limit on the length of a response as a tender states it. */
export interface LengthLimit {
  amount: number;
  unit: 'pages' | 'words';
  /** The limit applies to each criterion's (or each item's) answer rather than to the whole response. */
  each: boolean;
  /** The sentence that states it. */
  sentence: string;
}

const LIMIT = new RegExp(
  `(?:no more than|not more than|not (?:to )?exceed|a maximum of|maximum of|limited to|at most|up to|keep[^.]{0,80}?\\bto)\\s+(\\d{1,5}|${NUMBER_WORDS.join('|')})\\s+(?:\\(\\d+\\)\\s+)?(?:A4\\s+)?(pages?|words?)\\b`,
  'i',
);

/**
 * Sentences of a text: split after a full stop, question or exclamation mark, at blank lines, and around the
 * rows of a table (lines with tabs, as a PDF's or a document's table cells come).
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z(])|\n\s*\n|\n(?=[^\n]*\t)|(?<=\t[^\n]*)\n/)
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter((sentence) => sentence.length > 0);
}

/** The limits on a response's length that a text states, one per sentence that states one. */
export function lengthLimitsIn(text: string): LengthLimit[] {
  const limits: LengthLimit[] = [];
  for (const sentence of sentencesOf(text)) {
    const match = LIMIT.exec(sentence);
    if (!match) continue;
    const raw = match[1]!.toLowerCase();
    const amount = /^\d+$/.test(raw) ? Number(raw) : NUMBER_WORDS.indexOf(raw);
    if (amount <= 0) continue;
    limits.push({ amount, unit: match[2]!.toLowerCase().startsWith('page') ? 'pages' : 'words', each: /\beach\b|\bper (?:criterion|question|item)\b/i.test(sentence), sentence });
  }
  return limits;
}

/** Words in a text, as a person counts them. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Email addresses in a text, in order, each once. */
export function emailsIn(text: string): { address: string; index: number }[] {
  const seen = new Set<string>();
  const found: { address: string; index: number }[] = [];
  for (const match of text.matchAll(/[A-Z0-9._%+-]+@[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/gi)) {
    const address = match[0].replace(/\.$/, '').toLowerCase();
    if (seen.has(address)) continue;
    seen.add(address);
    found.push({ address, index: match.index });
  }
  return found;
}

/**
 * What a returnable schedule or form is called, to look for it among files and in the text: its label and
 * number ("schedule 2") when it has one, else its title, lower case. Null when the text names no document.
 */
export function scheduleName(text: string): string | null {
  const labelled = /\b(schedule|form|attachment|annexure|appendix|part)\s+([A-Z]?\d+(?:\.\d+)?[A-Z]?)\b/i.exec(text);
  if (labelled) return `${labelled[1]!.toLowerCase()} ${labelled[2]!.toLowerCase()}`;
  const titled = /\b((?:tender|response|offer|quote)\s+form|form of (?:tender|offer))\b/i.exec(text);
  return titled ? titled[1]!.toLowerCase() : null;
}

/** Text folded for looking names up: lower case, punctuation and runs of spaces as one space. */
export function folded(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}
