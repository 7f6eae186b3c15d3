/**
 * Reading typed values out of the text next to a label: amounts to numbers, dates to ISO, checkboxes and
 * yes/no to booleans, and the identifier shapes Australian documents carry (ABN, ACN, BSB).
 */

/** Countries that write a numeric date month first; everyone else this service sees (AU, NZ, IN, GB) writes the day first. */
const monthFirstCountries = new Set(['US', 'PH', 'FM', 'MH', 'PW']);

const monthNumbers: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
/**
 * OCR misreads a capital J more than any other letter of a date: it sets it apart ("J une"), reads it as
 * a bar or bracket or two ("| une", "02+] an-2026") or drops it ("1 anuary"). Between a day and a year the
 * rest of the word still names exactly one month, so the J may be any of those or missing.
 */
const capitalJ = '(?:j|[|)\\]}+!l]{1,2})?\\s?';
const monthName = `(${capitalJ}(?:an(?:uary)?|une?|uly?)|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?`;

function monthNumber(name: string): number {
  const word = name.toLowerCase().replace(/[^a-z]/g, '').replace(/^[jl]?(?=an|un|ul)/, 'j');
  return monthNumbers[word.slice(0, 3)]!;
}

const datePatterns: { pattern: RegExp; read: (match: RegExpExecArray, dayFirst: boolean) => [number, number, number] }[] = [
  // 2026-05-03
  { pattern: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  // 3 May 2026, 3rd May, 2026, 03-May-2026
  {
    pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?[\\s-]*(?:of\\s+)?${monthName}[\\s,-]+(\\d{4}|\\d{2})\\b`, 'i'),
    read: (m) => [fullYear(m[3]!), monthNumber(m[2]!), Number(m[1])],
  },
  // May 3, 2026
  {
    pattern: new RegExp(`\\b${monthName}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'),
    read: (m) => [Number(m[3]), monthNumber(m[1]!), Number(m[2])],
  },
  // 03/05/2026, 3.5.26, 03-05-2026: day or month first by country
  {
    pattern: /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/,
    read: (m, dayFirst) => (dayFirst ? [fullYear(m[3]!), Number(m[2]), Number(m[1])] : [fullYear(m[3]!), Number(m[1]), Number(m[2])]),
  },
];

function fullYear(text: string): number {
  const year = Number(text);
  return text.length === 2 ? 2000 + year : year;
}

function isoDate([year, month, day]: [number, number, number]): string | null {
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

/** Every date in `text`, in the order written, as ISO `YYYY-MM-DD`. */
export function findDates(text: string, country: string | undefined): Found<string>[] {
  const dayFirst = !monthFirstCountries.has(country ?? 'AU');
  const found: Found<string>[] = [];
  let offset = 0;
  while (offset < text.length) {
    const rest = text.slice(offset);
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
 * Money as written on Australian documents: `$1,234.50`, `1234.50`, `AUD 1,234`, `(45.00)` or `-45.00`
 * or `45.00 DR` for a debit. Bare whole numbers count only with a currency sign (a quantity is not money).
 */
const amountPattern = /(\()?(-)?\s*(?:(?:AUD|NZD|USD|A\$|NZ\$|US\$|\$)\s*)(-)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\)?(\s*(?:DR|CR)\b)?|(\()?(-)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{2})\)?(\s*(?:DR|CR)\b)?/gi;

export function findAmounts(text: string): Found<number>[] {
  const found: Found<number>[] = [];
  for (const match of text.matchAll(amountPattern)) {
    const signed = match[4] !== undefined;
    const whole = signed ? match[4]! : match[9]!;
    const cents = signed ? (match[5] ?? '') : match[10]!;
    const negative = signed ? Boolean(match[1] || match[2] || match[3] || /DR/i.test(match[6] ?? '')) : Boolean(match[7] || match[8] || /DR/i.test(match[11] ?? ''));
    const value = Number(whole.replace(/,/g, '') + cents);
    found.push({ value: negative ? -value : value, start: match.index, end: match.index + match[0].length });
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
  /** An account number: 5 to 10 digits, perhaps grouped with spaces or hyphens. */
  account_number: { pattern: /\b(\d[\d -]{3,12}\d)\b/, format: (m: RegExpExecArray) => m[1]!.replace(/[ -]/g, '') },
  /** A document number: letters, digits and separators, with at least one digit. */
  reference: { pattern: /(?<![\w-])([A-Z]{0,6}[-/#]?\d[\w/-]{0,24})(?![\w-])/i, format: (m: RegExpExecArray) => m[1]! },
} as const;

export type IdentifierShape = keyof typeof identifierShapes;

export function findIdentifier(text: string, shape: IdentifierShape): Found<string> | null {
  const { pattern, format } = identifierShapes[shape];
  const match = pattern.exec(text);
  return match ? { value: format(match), start: match.index, end: match.index + match[0].length } : null;
}
