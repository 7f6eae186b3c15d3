/**
 * Australian and New Zealand business identifiers: their check digits, how people write them, and the valid
 * numbers a mistyped one may have been meant as (two adjacent digits swapped back, or one digit changed).
 * Pure functions of text.
 *
 * Sources (checkers-research §9.1–9.3): ABN, the ABR's published check (abr.business.gov.au/Help/AbnFormat):
 * subtract 1 from the first digit, weights 10 1 3 5 7 9 11 13 15 17 19, sum divisible by 89. ACN, ASIC's
 * modified modulus 10 (as python-stdnum's stdnum/au/acn.py computes it): weights 8 7 6 5 4 3 2 1 over the first
 * eight digits, check digit (10 − sum mod 10) mod 10. NZBN, a GS1 Global Location Number: weights 1 3 1 3 … from
 * the left over the first twelve digits, check digit (10 − sum mod 10) mod 10, as for GTIN-13.
 */

export type IdentifierScheme = 'abn' | 'acn' | 'nzbn';

export const IDENTIFIER_LENGTHS: Readonly<Record<IdentifierScheme, number>> = { abn: 11, acn: 9, nzbn: 13 };

const SCHEME_NAMES: Readonly<Record<IdentifierScheme, string>> = { abn: 'ABN', acn: 'ACN', nzbn: 'NZBN' };

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1];

function digitsOf(text: string): number[] {
  return [...text].map(Number);
}

/**
 * An ABN passes the ABR's modulus 89 check. Its two check digits are 10 to 98 (one ABN for every 9-digit
 * base), so a leading 0 never occurs even where the sum happens to divide by 89.
 */
export function isValidAbn(digits: string): boolean {
  if (!/^[1-9]\d{10}$/.test(digits)) return false;
  const sum = digitsOf(digits).reduce((total, digit, index) => total + (index === 0 ? digit - 1 : digit) * ABN_WEIGHTS[index]!, 0);
  return sum % 89 === 0;
}

/** An ACN (or ARBN, which uses the same number format) passes ASIC's check digit. */
export function isValidAcn(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const values = digitsOf(digits);
  const sum = ACN_WEIGHTS.reduce((total, weight, index) => total + weight * values[index]!, 0);
  return (10 - (sum % 10)) % 10 === values[8];
}

/** An NZBN passes the GS1 mod-10 check digit. */
export function isValidNzbn(digits: string): boolean {
  if (!/^\d{13}$/.test(digits)) return false;
  const values = digitsOf(digits);
  const sum = values.slice(0, 12).reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === values[12];
}

const VALIDATORS: Readonly<Record<IdentifierScheme, (digits: string) => boolean>> = { abn: isValidAbn, acn: isValidAcn, nzbn: isValidNzbn };

export function isValidIdentifier(scheme: IdentifierScheme, digits: string): boolean {
  return VALIDATORS[scheme](digits);
}

/** The number as it is usually printed: ABN `51 824 753 556`, ACN `004 085 616`, NZBN unbroken. */
export function formatIdentifier(scheme: IdentifierScheme, digits: string): string {
  if (scheme === 'abn' && digits.length === 11) return `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`;
  if (scheme === 'acn' && digits.length === 9) return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
  return digits;
}

/**
 * Every valid number of the scheme that differs from `digits` in exactly one position, in numeric order: the
 * readings a one-digit typo may have come from. For an ABN or NZBN a single wrong digit always fails the check,
 * so the intended number is always among these; an ACN's check misses some single-digit changes (see
 * `acnMissesChange`).
 */
export function oneDigitCorrections(scheme: IdentifierScheme, digits: string): string[] {
  if (digits.length !== IDENTIFIER_LENGTHS[scheme] || !/^\d+$/.test(digits)) return [];
  const readings: string[] = [];
  for (let position = 0; position < digits.length; position++) {
    for (let digit = 0; digit <= 9; digit++) {
      if (String(digit) === digits[position]) continue;
      const reading = `${digits.slice(0, position)}${digit}${digits.slice(position + 1)}`;
      if (isValidIdentifier(scheme, reading)) readings.push(reading);
    }
  }
  return readings.sort();
}

export type CorrectionKind = 'adjacent_transposition' | 'one_digit_change';

/**
 * Every valid number of the scheme with two adjacent digits of `digits` swapped, in order of position: the
 * readings a transposition typo (`51 824 735 556` for `51 824 753 556`) may have come from. The ABN's modulus
 * 89 check catches every adjacent transposition (a swap moves its sum by 9 or 2 times the digits' difference,
 * never a multiple of 89), so a transposed ABN always fails and the intended one is always among these.
 */
export function transpositionCorrections(scheme: IdentifierScheme, digits: string): string[] {
  if (digits.length !== IDENTIFIER_LENGTHS[scheme] || !/^\d+$/.test(digits)) return [];
  const readings: string[] = [];
  for (let position = 0; position + 1 < digits.length; position++) {
    if (digits[position] === digits[position + 1]) continue;
    const reading = `${digits.slice(0, position)}${digits[position + 1]}${digits[position]}${digits.slice(position + 2)}`;
    if (isValidIdentifier(scheme, reading) && !readings.includes(reading)) readings.push(reading);
  }
  return readings;
}

/**
 * The valid numbers a mistyped `digits` may have been meant as, most likely first: adjacent transpositions,
 * then single-digit changes. Why that order: in Verhoeff's study of 12,000 keying errors (1969, the basis of
 * the Verhoeff and Damm check digits) 79% were one wrong digit and 10.2% two adjacent digits swapped; an
 * 11-digit ABN has 99 single-digit changes but at most 10 adjacent swaps, so each transposition reading is
 * about 1.3 times as likely as each single-digit one (0.102 ÷ 10 against 0.79 ÷ 99; for a 9-digit ACN
 * 0.102 ÷ 8 against 0.79 ÷ 81), and a swap that passes the check is the rarer coincidence. Each passes the
 * scheme's check digit; none is the number typed.
 */
export function suggestedCorrections(scheme: IdentifierScheme, digits: string): string[] {
  const transposed = transpositionCorrections(scheme, digits);
  return [...transposed, ...oneDigitCorrections(scheme, digits).filter((reading) => !transposed.includes(reading))];
}

/** How `reading` differs from the `typed` number: two adjacent digits swapped, or one digit changed. */
export function correctionKind(typed: string, reading: string): CorrectionKind {
  const differing = [...typed].flatMap((digit, index) => (digit === reading[index] ? [] : [index]));
  return differing.length === 2 && differing[1] === differing[0]! + 1 && typed[differing[0]!] === reading[differing[1]!] && typed[differing[1]!] === reading[differing[0]!] ? 'adjacent_transposition' : 'one_digit_change';
}

/**
 * Whether ASIC's modulus 10 check misses changing an ACN's digit at `position` (0-based) by `delta`: the sum
 * moves by weight × delta, which a multiple of 10 hides (weight 5 with an even change; weights 2, 4, 6, 8
 * with a change of 5). Such a typo reads as another valid ACN, and only the register can tell them apart.
 */
export function acnMissesChange(position: number, delta: number): boolean {
  const weight = ACN_WEIGHTS[position];
  return weight !== undefined && (weight * delta) % 10 === 0;
}

/** How a query was read: a business identifier (valid or not), a run of digits that is none, or a name. */
export type ParsedQuery =
  | {
      kind: 'identifier';
      scheme: IdentifierScheme;
      digits: string;
      formatted: string;
      valid: boolean;
      /** For a number failing its check: the valid readings, most likely first (`suggestedCorrections`). */
      corrections: string[];
      labelled: boolean;
    }
  | { kind: 'wrong_length'; scheme: IdentifierScheme | null; digits: string; detail: string }
  | { kind: 'name'; name: string };

// "ABN", "A.B.N.", "ACN", "ARBN" (ASIC numbers registrable bodies in the ACN format), "NZBN", then ":", "#" or "-".
const LABEL = /^(a\.?\s?b\.?\s?n|a\.?\s?c\.?\s?n|a\.?\s?r\.?\s?b\.?\s?n|n\.?\s?z\.?\s?b\.?\s?n)\.?\s*(?:no\.?|number)?\s*[:#-]?\s*/i;
const NUMBER = /^[\d\s.\-/]+$/;
// Fewer digits than this, alone, is read as a name ("3M", "7 Eleven" carry letters; "1300" could be a name too).
const SHORTEST_NUMBER = 8;

const LABEL_SCHEMES: Readonly<Record<string, IdentifierScheme>> = { abn: 'abn', acn: 'acn', arbn: 'acn', nzbn: 'nzbn' };
const LENGTH_SCHEMES = new Map<number, IdentifierScheme>([[11, 'abn'], [9, 'acn'], [13, 'nzbn']]);

/**
 * Reads a query as people write identifiers: digits grouped by spaces, hyphens, dots or slashes, with an
 * optional label (`ABN 51 824 753 556`, `ACN: 004-085-616`, `NZBN 9429041234567`). Unlabelled, the count of
 * digits names the scheme (11 ABN, 9 ACN, 13 NZBN). Anything with letters beyond a label is a name.
 */
export function parseQuery(query: string): ParsedQuery {
  const text = query.trim().normalize('NFKC');
  const label = LABEL.exec(text);
  const rest = label ? text.slice(label[0].length) : text;
  const labelled = label ? LABEL_SCHEMES[label[1]!.replace(/[^a-z]/gi, '').toLowerCase()] ?? null : null;
  if (!NUMBER.test(rest) || !/\d/.test(rest)) return { kind: 'name', name: text };
  const digits = rest.replace(/\D/g, '');
  if (!labelled && digits.length < SHORTEST_NUMBER) return { kind: 'name', name: text };
  const scheme = labelled ?? LENGTH_SCHEMES.get(digits.length) ?? null;
  if (scheme === null || digits.length !== IDENTIFIER_LENGTHS[scheme]) {
    return { kind: 'wrong_length', scheme, digits, detail: wrongLengthDetail(scheme, digits) };
  }
  const valid = isValidIdentifier(scheme, digits);
  return {
    kind: 'identifier',
    scheme,
    digits,
    formatted: formatIdentifier(scheme, digits),
    valid,
    corrections: valid ? [] : suggestedCorrections(scheme, digits),
    labelled: labelled !== null,
  };
}

function wrongLengthDetail(scheme: IdentifierScheme | null, digits: string): string {
  const count = `${digits.length} digit${digits.length === 1 ? '' : 's'}`;
  if (scheme) return `An ${SCHEME_NAMES[scheme]} has ${IDENTIFIER_LENGTHS[scheme]} digits; ${digits} has ${count}, so it is not one: check the number and send it again.`;
  return `${digits} has ${count}: an ABN has 11, an ACN 9 and an NZBN 13, so it is none of them; check the number, or send the company's name.`;
}

export function schemeName(scheme: IdentifierScheme): string {
  return SCHEME_NAMES[scheme];
}
