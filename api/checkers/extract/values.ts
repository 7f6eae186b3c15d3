/**
 * Reading typed values out of the text next to a label: amounts to numbers, dates to ISO, checkboxes and
 * yes/no to booleans, and the identifier shapes Australian documents carry (ABN, ACN, BSB).
 */

import vocabulary from './vocabulary.json' with { type: 'json' };

/** Countries that write a numeric date month first; everyone else this service sees (AU, NZ, IN, GB, the EU) writes the day first. */
const monthFirstCountries = new Set(['US', 'PH', 'FM', 'MH', 'PW']);

/** Letters without their accents, lowercase: "März" and an OCR's "Marz" meet. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Month names and abbreviations of every language in the vocabulary, folded, to their number. */
const monthNumbers = new Map<string, number>();
for (const names of [...Object.values(vocabulary.months), ...Object.values(vocabulary.month_abbreviations)]) {
  names.forEach((name, index) => {
    monthNumbers.set(foldAccents(name), index + 1);
    if (name.length > 3) monthNumbers.set(foldAccents(name).slice(0, 3), index + 1);
  });
}
monthNumbers.set('sept', 9);
const monthWords = [...new Set([...monthNumbers.keys()])].sort((a, b) => b.length - a.length);

/**
 * OCR misreads a capital J more than any other letter of a date: it sets it apart ("J une"), reads it as
 * a bar or bracket or two ("| une", "02+] an-2026") or drops it ("1 anuary"). Between a day and a year the
 * rest of the word still names exactly one month, so the J may be any of those or missing.
 */
const capitalJ = '(?:j|[|)\\]}+!l]{1,2})?\\s?';
/** Any month word, accents optional (the text is matched folded); the English J-months also as OCR misreads them. */
const monthName = `(${capitalJ}(?:anuary|une|uly|an|un|ul)|${monthWords.map(escapeRegExp).join('|')})\\.?`;

function monthNumber(name: string): number | undefined {
  const word = name.toLowerCase().replace(/[^a-z]/g, '');
  const exact = monthNumbers.get(word);
  if (exact) return exact;
  const jMonth = word.replace(/^[jl]?(?=an|un|ul)/, 'j');
  return monthNumbers.get(jMonth) ?? monthNumbers.get(jMonth.slice(0, 3));
}

type DateParts = [number, number | undefined, number];

const datePatterns: { pattern: RegExp; read: (match: RegExpExecArray, dayFirst: boolean) => DateParts }[] = [
  // 2026-05-03, 2026/05/03
  { pattern: /(?<![\d.])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d])/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  // 3 May 2026, 3rd May, 2026, 03-May-2026, 5. März 2018, 13 novembre 2017, 14 de febrero de 2023, 5. března 2016
  {
    pattern: new RegExp(`(?<![\\d.])(\\d{1,2})(?:st|nd|rd|th|er|\\.)?[\\s-]*(?:of\\s+|de\\s+)?${monthName}(?:\\s+de)?[\\s,.-]+(\\d{4}|\\d{2})(?![\\d])`, 'i'),
    read: (m) => [fullYear(m[3]!), monthNumber(m[2]!), Number(m[1])],
  },
  // May 3, 2026
  {
    pattern: new RegExp(`\\b${monthName}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?![\\d])`, 'i'),
    read: (m) => [Number(m[3]), monthNumber(m[1]!), Number(m[2])],
  },
  // 03/05/2026, 3.5.26, 03-05-2026, 5. 3. 2016: day or month first by country
  {
    pattern: /(?<![\d.,])(\d{1,2})(?:\s?[/-]\s?|\.\s?)(\d{1,2})(?:\s?[/-]\s?|\.\s?)(\d{4}|\d{2})(?![\d])/,
    read: (m, dayFirst) => (dayFirst ? [fullYear(m[3]!), Number(m[2]), Number(m[1])] : [fullYear(m[3]!), Number(m[1]), Number(m[2])]),
  },
];

function fullYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

function isoDate([year, month, day]: DateParts): string | null {
  if (month === undefined || year < 1900 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

export interface Found<T> {
  value: T;
  /** Where in the searched text the value starts and ends, so a second value can be looked for after it. */
  start: number;
  end: number;
}

/**
 * Every date in `text`, in the order written, as ISO `YYYY-MM-DD`: numbers day first unless the country (or
 * `dayFirst`, what the document's own unambiguous dates showed) says month first; month names in any language
 * of the vocabulary.
 */
export function findDates(text: string, country: string | undefined, dayFirst: boolean = !monthFirstCountries.has(country ?? 'AU')): Found<string>[] {
  const folded = foldAccents(text);
  // Folding keeps one character per character for the scripts read here, so offsets stay the text's.
  const searched = folded.length === text.length ? folded : text;
  const found: Found<string>[] = [];
  let offset = 0;
  while (offset < searched.length) {
    const rest = searched.slice(offset);
    let best: { match: RegExpExecArray; iso: string } | null = null;
    for (const { pattern, read } of datePatterns) {
      const match = pattern.exec(rest);
      if (!match) continue;
      const iso = isoDate(read(match, dayFirst));
      if (iso && (!best || match.index < best.match.index)) best = { match, iso };
    }
    if (!best) break;
    found.push({ value: best.iso, start: offset + best.match.index, end: offset + best.match.index + best.match[0].length });
    offset += best.match.index + best.match[0].length;
  }
  return found;
}

/**
 * Whether the document writes numeric dates day first: a date whose first number is above 12 says so, one
 * whose second is says month first; with neither (or both) the country decides.
 */
export function documentDayFirst(texts: readonly string[], country: string | undefined): boolean {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const text of texts) {
    for (const match of text.matchAll(/(?<![\d.,])(\d{1,2})[/.-](\d{1,2})[/.-](?:\d{4}|\d{2})(?![\d])/g)) {
      const [first, second] = [Number(match[1]), Number(match[2])];
      if (first > 12 && second <= 12) dayFirst++;
      else if (second > 12 && first <= 12) monthFirst++;
    }
  }
  if (country) return !monthFirstCountries.has(country) || (monthFirst > 0 && dayFirst === 0 ? false : !monthFirstCountries.has(country));
  if (dayFirst === 0 && monthFirst > 0) return false;
  return true;
}

/** Currency signs and codes an amount may carry (vocabulary.json), longest first. */
const currencyWords = Object.keys(vocabulary.currencies).sort((a, b) => b.length - a.length);
const currencyPattern = currencyWords.map((word) => (/^[a-z.]+$/i.test(word) ? `${escapeRegExp(word)}(?![a-z])` : escapeRegExp(word))).join('|');

/** A money amount and the currency written with it (a code, or the sign's code where the sign names one). */
export interface FoundAmount extends Found<number> {
  currency: string | null;
  /** A currency sign or code was written with it. */
  marked: boolean;
}

/**
 * Money as documents write it: `$1,234.50`, `1.234,56 €`, `EUR 529,87`, `12 100,00 Kč`, `Kč 12.100,-`, `RM 9.00`,
 * `(45.00)`, `-45.00`, `45,00-` or `45.00 DR` for a debit. The decimal mark is read per number: of two marks
 * the last is the decimal one, one mark before exactly three digits groups thousands, before one or two digits
 * it is decimal. Bare whole numbers count only with a currency sign (a quantity is not money).
 */
const amountPattern = new RegExp(
  String.raw`(?<![\w.,'/-])(\()?([-−])?\s*(?:(${currencyPattern})\s?)?([-−])?\s*(\d{1,3}(?:(?:[.,'’]|[\u00a0\u202f](?=\d{3}(?:[.,]\d{1,2})?(?!\d)))\d{3})+|\d+)(?:([.,])(\d{1,2})(?!\d)|([.,])-(?!\d))?(?:\s?(${currencyPattern}))?([-−](?![\d]))?\)?(\s*(?:DR|CR)\b)?(?![\d.,]\d)`,
  'gi',
);

export function findAmounts(text: string): FoundAmount[] {
  const found: FoundAmount[] = [];
  for (const match of text.matchAll(amountPattern)) {
    const [, open, minusBefore, currencyBefore, minusAfterSign, whole, , cents, dash, currencyAfter, minusAfter, debit] = match;
    const marked = Boolean(currencyBefore || currencyAfter);
    // A whole number is money only with a currency sign; "12,-" (a price in whole units) counts too.
    if (cents === undefined && !marked && dash === undefined) continue;
    const digits = whole!.replace(/[^\d]/g, '');
    // One separator before exactly three digits and no decimals is ambiguous; with no currency sign it is a quantity or a number.
    const value = Number(`${digits}${cents ? `.${cents}` : ''}`);
    const negative = Boolean(open || minusBefore || minusAfterSign || minusAfter || /DR/i.test(debit ?? ''));
    const currencyWord = (currencyBefore ?? currencyAfter ?? '').toLowerCase();
    const currency = currencyWord === '' ? null : ((vocabulary.currencies as Record<string, string | null>)[currencyWord] ?? null);
    found.push({ value: negative && value !== 0 ? -value : value, start: match.index, end: match.index + match[0].length, currency, marked });
  }
  return found;
}

/** Plain numbers (hours, quantities, rates without a currency sign), e.g. `76`, `38.0`, `1,520.5`. */
export function findNumbers(text: string): Found<number>[] {
  return [...text.matchAll(/(?<![\d.])-?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])/g)].map((match) => ({
    value: Number(match[0].replace(/,/g, '')),
    start: match.index,
    end: match.index + match[0].length,
  }));
}

/** `text` matched literally inside a RegExp source. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const checkedBox = /[☑☒✔✓■]|\[\s*[xX✓✔]\s*\]|\(\s*[xX]\s*\)/;
const emptyBox = /[☐□]|\[\s*\]|\(\s*\)/;

/**
 * A yes/no value near a label: a ticked or empty checkbox (☑ ☒ ☐ [x] [ ]) or a written Yes/No/True/False.
 * `text` is the label's surroundings: the box usually sits just before the label, a written answer after it.
 */
export function readBoolean(before: string, after: string): boolean | null {
  const boxBefore = before.slice(-4);
  if (checkedBox.test(boxBefore)) return true;
  if (emptyBox.test(boxBefore)) return false;
  const answer = /^[\s:?-]*(yes|no|y|n|true|false|checked|unchecked|ticked)\b/i.exec(after);
  if (answer) return /^(yes|y|true|checked|ticked)$/i.test(answer[1]!);
  const boxAfter = after.slice(0, 6);
  if (checkedBox.test(boxAfter)) return true;
  if (emptyBox.test(boxAfter)) return false;
  return null;
}

/** Identifiers by shape; the value is returned the way the register writes it. */
export const identifierShapes = {
  /** Australian Business Number: 11 digits, written 2-3-3-3. */
  abn: { pattern: /\b(\d{2})\s?(\d{3})\s?(\d{3})\s?(\d{3})\b/, format: (m: RegExpExecArray) => `${m[1]} ${m[2]} ${m[3]} ${m[4]}` },
  /** Australian Company Number: 9 digits, written 3-3-3. */
  acn: { pattern: /\b(\d{3})\s?(\d{3})\s?(\d{3})\b/, format: (m: RegExpExecArray) => `${m[1]} ${m[2]} ${m[3]}` },
  /** Bank-State-Branch: 6 digits, written 3-3. */
  bsb: { pattern: /\b(\d{3})[-\s]?(\d{3})\b/, format: (m: RegExpExecArray) => `${m[1]}-${m[2]}` },
  /**
   * An account number as printed: an IBAN, digits perhaps grouped with spaces or hyphens ("062 000 1234 5678",
   * "123-4567890-001"), or digits a statement masks in part or whole ("xxxxxx1234", "******5678", "XXXXXXXXXXXXX").
   * Only a label's value is read as one, so a short number after "Account number:" counts.
   */
  account_number: {
    pattern: /(?<![\p{L}\d])([A-Z]{2}\d{2}(?: ?[A-Z\d]{4}){2,7}(?: ?[A-Z\d]{1,4})?|[xX*•]{2,}[ -]?\d{0,8}|\d{1,4}(?: \d{3,4}){1,4}(?![\d])|\d+(?:-\d+)*)(?![\p{L}\d])/u,
    format: (m: RegExpExecArray) => m[1]!.replace(/[ -]/g, ''),
  },
  /** A document number: letters, digits and separators, with at least one digit. */
  reference: { pattern: /(?<![\w-])([A-Z]{0,6}[-/#]?\d[\w/-]{0,24})(?![\w-])/i, format: (m: RegExpExecArray) => m[1]! },
} as const;

export type IdentifierShape = keyof typeof identifierShapes;

export function findIdentifier(text: string, shape: IdentifierShape): Found<string> | null {
  const { pattern, format } = identifierShapes[shape];
  const match = pattern.exec(text);
  return match ? { value: format(match), start: match.index, end: match.index + match[0].length } : null;
}
