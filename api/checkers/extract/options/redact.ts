import { z } from '@hono/zod-openapi';
import { findPhoneNumbersInText, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { validAadhaar, validAbaRouting, validAcn, validCbu, validCuit, validGs1, validIban, validIrd, validLuhn, validNhs, vatCheck } from './identifier-checks.ts';
import { locatePage, spanBox, type LocatedPage } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

const piiKinds = ['tfn', 'abn', 'medicare', 'bank_account', 'email', 'phone', 'date_of_birth', 'iban', 'card_number', 'vat', 'tax_id', 'national_id', 'health_id'] as const;

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
    basis: z.enum(['check_digit', 'label', 'format']).describe('What made it personal information: a valid check digit, a label beside it, or its form alone (phones: a number valid for its country by libphonenumber, written internationally or beside a phone label)'),
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
/** Words before an IBAN that failed mod 97 which still say it is one (a sample's or a mistyped account). */
const bankLabel = /\b(?:IBAN|BIC|bank\w*|konto\w*|compte|cuenta)\b/i;
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
    kind: 'iban',
    // ISO 13616: two letters, two check digits, up to 30 letters and digits, printed in groups of four; kept when mod 97 is 1.
    pattern: /\b([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30})\b/g,
    judge: (value, before) => (validIban(value) ? 'check_digit' : bankLabel.test(before) ? 'label' : null),
  },
  {
    kind: 'iban',
    // Whatever follows an IBAN label, in its groups of four: sample and mistyped IBANs fail mod 97 but are still accounts.
    pattern: /\bIBAN\b[\s:.]{0,4}([A-Z0-9]{4,}(?: (?=[A-Z]{0,3}\d)[A-Z0-9]{1,4})*)/g,
    judge: (value) => (validIban(value) ? 'check_digit' : (value.match(/\d/g)?.length ?? 0) >= 6 ? 'label' : null),
  },
  {
    kind: 'bank_account',
    // A German bank code and the account after it: "(BLZ 699 922 99) 50 4999 09".
    pattern: /\bBLZ\b[\s:.]{0,3}(\d{3} ?\d{3} ?\d{2}\)?[\s,]*(?:(?:Kto|Konto)[\w.-]*[\s:]*)?\d[\d -]{2,12}\d)(?!\d)/g,
    judge: () => 'label',
  },
  {
    kind: 'bank_account',
    // Argentine CBU: 22 digits in two blocks, each closed by its check digit.
    pattern: new RegExp(`${noDigitBefore}(\\d{22})${noDigitAfter}`, 'g'),
    judge: (value) => (validCbu(value) ? 'check_digit' : null),
  },
  {
    kind: 'bank_account',
    // A UK sort code and account number: 12-34-56 12345678.
    pattern: new RegExp(`${noDigitBefore}(\\d{2}-\\d{2}-\\d{2}\\s+\\d{8})${noDigitAfter}`, 'g'),
    judge: () => 'format',
  },
  {
    kind: 'bank_account',
    // A New Zealand bank account in its printed grouping, bank-branch-account-suffix: 12-3140-0123456-00.
    pattern: new RegExp(`${noDigitBefore}(\\d{2}-\\d{4}-\\d{7,8}-\\d{2,3})${noDigitAfter}`, 'g'),
    judge: () => 'format',
  },
  {
    kind: 'card_number',
    pattern: new RegExp(`${noDigitBefore}(\\d{4}[ -]\\d{4}[ -]\\d{4}[ -]\\d{1,7}|\\d{15,16})${noDigitAfter}`, 'g'),
    judge: (value) => (validLuhn(value.replace(/\D/g, '')) ? 'check_digit' : null),
  },
  {
    kind: 'vat',
    // EU VAT numbers (country prefix, VIES formats), the UK's GB prefix and India's GSTIN; kept when the country's check holds or a label says VAT,
    // by form alone only where no check is published: a failed check beside no label is as likely a reference number.
    pattern: /\b((?:ATU\d{8}|BE[01]\d{9}|CZ\d{8,10}|DE\d{9}|DK\d{8}|EE\d{9}|EL\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-Z0-9]{2}\d{9}|GB(?:\d{9}|\d{12})|HR\d{11}|HU\d{8}|IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}|IT\d{11}|LT(?:\d{9}|\d{12})|LU\d{8}|LV\d{11}|MT\d{8}|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|RO\d{2,10}|SE\d{12}|SI\d{8}|SK\d{10})|\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z])\b/g,
    judge: (value, before) => {
      const check = vatCheck(value);
      if (check === true) return 'check_digit';
      if (/\b(?:VAT|USt|MwSt|TVA|IVA|BTW|DIČ|DIC|GST(?:IN)?|UID|P\.?\s?IVA|NIF|CIF|NIP)\b/i.test(before)) return 'label';
      return check === null ? 'format' : null;
    },
  },
  {
    kind: 'vat',
    // A VAT number written with spaces after its label: "FR 74 397 480 930", "VAT Reg No: GB 123 4567 89".
    pattern: /\b(?:VAT|USt|TVA|IVA|BTW|UID)[\w .\-/]{0,20}?[:\s#]\s*([A-Z]{2}[ ]?\d[\d ]{7,14}\d)\b/gi,
    judge: () => 'label',
  },
  {
    kind: 'tax_id',
    // A tax number beside its label: Steuernummer, St.-Nr., SIREN/SIRET are not personal, CUIT, EIN, UTR, IRD, PAN, TIN, NIF, IČ/DIČ.
    pattern: /\b(?:steuer[-. ]*(?:nummer|nr)|st\.?-?nr|tax\s*(?:id|no|number|reference)|tin|ein|utr|ird(?:\s*(?:no|number))?|pan|nif|cuit|cuil|ingresos\s+brutos|ing\.\s*brutos|i\.?b\.?|iČ|ič|ico|rfc|abn\s*\/\s*tin|acn|arbn|nzbn)\.?(?:\s*(?:nr|no|number|nummer|n[º°o]))?\.?\s*[:#]?\s*([A-Z]{0,5}[ -]?\d[\d/ .-]{5,16}\d[A-Z]?)(?![\d])/giu,
    judge: () => 'label',
  },
  {
    kind: 'vat',
    // A French VAT number in its printed groups, "FR 74 397 480 930": the key is (12 + 3 × (SIREN mod 97)) mod 97.
    pattern: /\b(FR ?\d{2} ?\d{3} ?\d{3} ?\d{3})\b/g,
    judge: (value) => (vatCheck(value) === true ? 'check_digit' : null),
  },
  {
    kind: 'vat',
    // A GST registration number beside its label (Malaysia's 12 digits, "GST Reg No", "GST No").
    pattern: /\bGST\s*(?:reg(?:istration)?\.?\s*)?(?:id|no+|number|#)\.?\s*[:#]?\s*(\d[\d -]{8,16}\d)(?!\d)/gi,
    judge: () => 'label',
  },
  {
    kind: 'tax_id',
    // Argentine CUIT/CUIL, 20-12345678-9, by its mod 11 check digit.
    pattern: new RegExp(`${noDigitBefore}((?:20|23|24|27|30|33|34)-\\d{8}-\\d)${noDigitAfter}`, 'g'),
    judge: (value) => (validCuit(value.replace(/\D/g, '')) ? 'check_digit' : null),
  },
  {
    kind: 'tax_id',
    // An Australian company number (ACN, ARBN) in its 3-3-3 grouping with its check digit, or a New Zealand Business Number (GS1, 94…).
    pattern: new RegExp(`${noDigitBefore}(\\d{3} \\d{3} \\d{3}|94\\d{11})${noDigitAfter}`, 'g'),
    judge: (value, before) => {
      const digits = value.replace(/\D/g, '');
      if (digits.length === 13) return validGs1(digits) ? 'check_digit' : null;
      return validAcn(digits) && /\b(?:A\.?C\.?N|ARBN)\b/i.test(before) ? 'check_digit' : null;
    },
  },
  {
    kind: 'tax_id',
    // A New Zealand IRD number in its printed grouping, 49-091-850, with its check digit.
    pattern: new RegExp(`${noDigitBefore}(\\d{2,3}-\\d{3}-\\d{3})${noDigitAfter}`, 'g'),
    judge: (value) => (validIrd(value.replace(/\D/g, '')) ? 'check_digit' : null),
  },
  {
    kind: 'national_id',
    // Argentine or Spanish DNI beside its label.
    pattern: /\b(?:DNI|D\.N\.I\.)[\s:.Nº°#]{0,6}(\d{1,2}\.?\d{3}\.?\d{3}(?:-?[A-Z])?)(?![\dA-Z])/g,
    judge: () => 'label',
  },
  {
    kind: 'tax_id',
    // India PAN: five letters, four digits, a letter (the fourth letter says the holder's type).
    pattern: /\b([A-Z]{3}[ABCFGHLJPTK][A-Z]\d{4}[A-Z])\b/g,
    judge: () => 'format',
  },
  {
    kind: 'tax_id',
    // New Zealand IRD number, 8 or 9 digits with its check digit, beside its label.
    pattern: /\bIRD(?:\s*(?:no\.?|number))?[\s:#]{0,4}(\d{2,3}[ -]?\d{3}[ -]?\d{3})(?!\d)/gi,
    judge: (value) => (validIrd(value.replace(/\D/g, '')) ? 'check_digit' : 'label'),
  },
  {
    kind: 'national_id',
    // US social security number (not 000, 666 or 9xx in the area), UK National Insurance number, India Aadhaar (Verhoeff check).
    pattern: new RegExp(`${noDigitBefore}((?!000|666|9\\d\\d)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}|[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\\d{2} ?\\d{2} ?\\d{2} ?[A-D]|[2-9]\\d{3} \\d{4} \\d{4})${noDigitAfter}`, 'g'),
    judge: (value, before) => {
      const digits = value.replace(/\D/g, '');
      if (/^\d{12}$/.test(digits)) return validAadhaar(digits) ? 'check_digit' : null;
      if (/^[A-Z]/.test(value)) return /\bNI(?:NO)?\b|national\s+insurance/i.test(before) || /^[A-Z]{2}\d{6}[A-D]$/.test(value) ? 'format' : null;
      return 'format';
    },
  },
  {
    kind: 'health_id',
    // UK NHS number (10 digits, mod 11) beside its label, New Zealand NHI (three letters, four digits) beside its label.
    pattern: /\b(?:NHS(?:\s*(?:no\.?|number))?|NHI(?:\s*(?:no\.?|number))?)[\s:#]{0,4}(\d{3}[ -]?\d{3}[ -]?\d{4}|[A-HJ-NP-Z]{3}\d{2}[A-Z\d]{2})(?![\dA-Z])/gi,
    judge: (value) => (/^\d/.test(value) ? (validNhs(value.replace(/\D/g, '')) ? 'check_digit' : null) : 'label'),
  },
  {
    kind: 'bank_account',
    // Account numbers beside their label in other languages: Kontonr., Konto-Nr., N° de compte, Número de cuenta, Číslo účtu, A/C No.
    // A lookbehind, not \b: "Číslo" starts with a letter \b does not know outside ASCII.
    pattern: /(?<![\p{L}\d])(?:konto(?:-?nr|nummer)?|kto|n°\s*de\s*compte|num[eé]ro\s+de\s+compte|n[uú]mero\s+de\s+cuenta|cuenta|cbu|[cč][ií]slo\s+[uú][cč]tu|a\/c(?:\s*no)?|acct\.?\s*no\.?(?:\s*#)?|sort\s*code|routing(?:\s*(?:no|number))?|aba(?:\s*#)?)\.?[\s:#]{0,6}(\d[\d -]{3,22}\d)(?!\d)/giu,
    // A US routing number beside its label is told by its ABA 3-7-1 check where it holds; a failed one is still masked by its label (samples).
    judge: (value) => (validAbaRouting(value.replace(/\D/g, '')) ? 'check_digit' : 'label'),
  },
  {
    kind: 'date_of_birth',
    pattern: new RegExp(String.raw`\b(?:date\s+of\s+birth|birth\s*date|D\.?O\.?B\.?|born(?:\s+on)?)[\s:]{0,6}(${dateText})`, 'gi'),
    judge: () => 'label',
  },
];

/** Words that say a number beside them is a telephone or fax number, in the languages the vocabulary reads. */
// "pnone": OCR reads a small "h" as "n" on receipts.
const phoneLabel = /(?:\b(?:tel|tél|telefon|telephone|téléphone|teléfono|phone|pnone|ph|mobile|mob|mobil|handy|cell|fon|fax|telefax|t|f|m)\b\.?|📞|☎|📱)[\s.:]*$/i;
/** North American grouping, (555) 867-5309 or 870-931-0505: a form no date, amount or invoice number takes. */
const northAmericanPhone = /(?<![\d-])(?:\(\d{3}\)[ -]?|\d{3}[-.])\d{3}[-.]\d{4}(?![\d-])/g;
/** The German way of writing an area code, 06192 / 93 99999. */
const germanAreaCodePhone = /(?<![\d/])0\d{2,5} ?\/ ?\d[\d -]{3,12}\d(?![\d/])/g;
/** Countries whose numbers are tried for a phone written without its international prefix. */
const phoneCountries: CountryCode[] = ['AU', 'NZ', 'US', 'GB', 'IN', 'DE', 'FR', 'ES', 'IT', 'NL', 'CZ', 'AR', 'MY', 'ID', 'IE', 'AT', 'CH', 'BE'];

/**
 * Telephone numbers of any country by libphonenumber: a number written with its international prefix
 * (+44 …) that is valid there, or one written nationally that is valid in one of `phoneCountries` and has a
 * phone label just before it ("Tel.", "Fax", "fon", "📞"). A number alone without either is left to the
 * Australian pattern above: nine digits could as well be an invoice number.
 */
function phoneSpans(text: string): Candidate[] {
  const spans: Candidate[] = [];
  // Possible rather than valid where other evidence is there: sample numbers (555 …) and new ranges fail validity.
  for (const found of findPhoneNumbersInText(text, { extended: true })) {
    if (found.number.isValid() || (text[found.startsAt] === '+' && found.number.isPossible())) spans.push({ kind: 'phone', start: found.startsAt, end: found.endsAt, basis: 'format' });
  }
  for (const country of phoneCountries) {
    for (const found of findPhoneNumbersInText(text, { defaultCountry: country, extended: true })) {
      // A possible but invalid number needs seven digits at least: "T 77.80" is an amount.
      const likely = found.number.isValid() || (found.number.isPossible() && found.number.nationalNumber.length >= 7);
      if (!likely || !phoneLabel.test(textBefore(text, found.startsAt).slice(-12))) continue;
      // Written as an amount ("M 197.00", a call-out read as a letter before a price): money, not a phone.
      if (/^\d{1,7}[.,]\d{2}$/.test(text.slice(found.startsAt, found.endsAt).trim())) continue;
      spans.push({ kind: 'phone', start: found.startsAt, end: found.endsAt, basis: 'label' });
    }
  }
  for (const match of text.matchAll(northAmericanPhone)) {
    if (parsePhoneNumberFromString(match[0], 'US')?.isPossible()) spans.push({ kind: 'phone', start: match.index, end: match.index + match[0].length, basis: 'format' });
  }
  for (const match of text.matchAll(germanAreaCodePhone)) {
    if (parsePhoneNumberFromString(match[0].replace('/', ''), 'DE')?.isValid()) spans.push({ kind: 'phone', start: match.index, end: match.index + match[0].length, basis: 'format' });
  }
  return spans;
}

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
  const candidates: Candidate[] = phoneSpans(text);
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
  // Offsets are UTF-16 units, so the text is split into units, not code points: a phone label such as 📞 is two.
  const units = page.text.split('');
  for (const span of spans) for (let i = span.start; i < span.end; i++) if (!/\s/.test(units[i]!)) units[i] = '█';
  return units.join('');
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
