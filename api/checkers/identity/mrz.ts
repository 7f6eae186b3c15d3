/**
 * The machine-readable zone of ICAO Doc 9303 (8th edition): its five layouts, its fields and their check
 * digits, parsed from lines of text. Hand-written because no MRZ parser is among the dependencies; it follows
 * Doc 9303 part 3 (check digits, 4.9), part 4 (TD3), part 5 (TD1), part 6 (TD2) and part 7 (MRV-A, MRV-B).
 *
 * A read line may carry OCR look-alikes (O for 0, 8 for B). The only repairs made here are those a field's
 * type decides: a letter in a field of digits becomes the digit it looks like, a digit in a field of letters
 * the letter. Each is reported. A field that takes letters and digits both (the document number, optional
 * data) is never changed here, and no character is chosen here to make a check digit pass: a check digit is
 * computed over what was read. The readings a zone's check digits and codes confirm are chosen after, on OCR
 * reads only, in mrz-repair.ts, under rules that keep a zone whose printed check digit fails failing.
 */

export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRVA' | 'MRVB';

/** Line count and length of each layout. */
export const MRZ_LAYOUTS: Readonly<Record<MrzFormat, { lines: number; length: number }>> = {
  TD1: { lines: 3, length: 30 },
  TD2: { lines: 2, length: 36 },
  TD3: { lines: 2, length: 44 },
  MRVA: { lines: 2, length: 44 },
  MRVB: { lines: 2, length: 36 },
};

/** What characters a field takes (Doc 9303 part 3, 4.1): `<` is the filler everywhere. */
export type FieldKind = 'letters' | 'digits' | 'alphanumeric' | 'check' | 'sex';

export interface FieldSpec {
  name: string;
  line: number;
  start: number;
  length: number;
  kind: FieldKind;
}

const field = (name: string, line: number, start: number, length: number, kind: FieldKind): FieldSpec => ({ name, line, start, length, kind });

/** The check digits of a layout: which field each one covers (a composite covers several ranges). */
export interface CheckSpec {
  name: CheckName;
  digit: { line: number; at: number };
  over: { line: number; start: number; length: number }[];
  /** `<` in the digit's place is allowed (and then not a failure) when everything it covers is filler. */
  fillerAllowed?: boolean;
}

export type CheckName = 'document_number' | 'birth_date' | 'expiry_date' | 'personal_number' | 'composite';

/** Line 2 of TD3, MRV-A, TD2 and MRV-B begins alike: number, nationality, birth date, sex, expiry. */
const secondLineStart = [
  field('document_number', 1, 0, 9, 'alphanumeric'),
  field('document_number_check', 1, 9, 1, 'check'),
  field('nationality', 1, 10, 3, 'letters'),
  field('birth_date', 1, 13, 6, 'digits'),
  field('birth_date_check', 1, 19, 1, 'check'),
  field('sex', 1, 20, 1, 'sex'),
  field('expiry_date', 1, 21, 6, 'digits'),
  field('expiry_date_check', 1, 27, 1, 'check'),
];
const twoLineChecks: CheckSpec[] = [
  { name: 'document_number', digit: { line: 1, at: 9 }, over: [{ line: 1, start: 0, length: 9 }] },
  { name: 'birth_date', digit: { line: 1, at: 19 }, over: [{ line: 1, start: 13, length: 6 }] },
  { name: 'expiry_date', digit: { line: 1, at: 27 }, over: [{ line: 1, start: 21, length: 6 }] },
];
/** The document code's first character is a letter (P, V, I, A, C); its second is the issuing state's choice (the US prints C1). */
const documentCode = [field('document_code', 0, 0, 1, 'letters'), field('document_code', 0, 1, 1, 'alphanumeric')];
const firstLine = (nameLength: number) => [
  ...documentCode,
  field('issuing_state', 0, 2, 3, 'letters'),
  field('name', 0, 5, nameLength, 'letters'),
];

export const LAYOUT_FIELDS: Readonly<Record<MrzFormat, { fields: FieldSpec[]; checks: CheckSpec[] }>> = {
  TD3: {
    fields: [...firstLine(39), ...secondLineStart, field('personal_number', 1, 28, 14, 'alphanumeric'), field('personal_number_check', 1, 42, 1, 'check'), field('composite_check', 1, 43, 1, 'check')],
    checks: [
      ...twoLineChecks,
      { name: 'personal_number', digit: { line: 1, at: 42 }, over: [{ line: 1, start: 28, length: 14 }], fillerAllowed: true },
      { name: 'composite', digit: { line: 1, at: 43 }, over: [{ line: 1, start: 0, length: 10 }, { line: 1, start: 13, length: 7 }, { line: 1, start: 21, length: 22 }] },
    ],
  },
  MRVA: { fields: [...firstLine(39), ...secondLineStart, field('optional_data', 1, 28, 16, 'alphanumeric')], checks: twoLineChecks },
  TD2: {
    fields: [...firstLine(31), ...secondLineStart, field('optional_data', 1, 28, 7, 'alphanumeric'), field('composite_check', 1, 35, 1, 'check')],
    checks: [...twoLineChecks, { name: 'composite', digit: { line: 1, at: 35 }, over: [{ line: 1, start: 0, length: 10 }, { line: 1, start: 13, length: 7 }, { line: 1, start: 21, length: 14 }] }],
  },
  MRVB: { fields: [...firstLine(31), ...secondLineStart, field('optional_data', 1, 28, 8, 'alphanumeric')], checks: twoLineChecks },
  TD1: {
    fields: [
      ...documentCode,
      field('issuing_state', 0, 2, 3, 'letters'),
      field('document_number', 0, 5, 9, 'alphanumeric'),
      field('document_number_check', 0, 14, 1, 'check'),
      field('optional_data', 0, 15, 15, 'alphanumeric'),
      field('birth_date', 1, 0, 6, 'digits'),
      field('birth_date_check', 1, 6, 1, 'check'),
      field('sex', 1, 7, 1, 'sex'),
      field('expiry_date', 1, 8, 6, 'digits'),
      field('expiry_date_check', 1, 14, 1, 'check'),
      field('nationality', 1, 15, 3, 'letters'),
      field('optional_data_2', 1, 18, 11, 'alphanumeric'),
      field('composite_check', 1, 29, 1, 'check'),
      field('name', 2, 0, 30, 'letters'),
    ],
    checks: [
      // The document number's own range is widened in `td1DocumentNumber` when the number runs into the optional data.
      { name: 'document_number', digit: { line: 0, at: 14 }, over: [{ line: 0, start: 5, length: 9 }] },
      { name: 'birth_date', digit: { line: 1, at: 6 }, over: [{ line: 1, start: 0, length: 6 }] },
      { name: 'expiry_date', digit: { line: 1, at: 14 }, over: [{ line: 1, start: 8, length: 6 }] },
      { name: 'composite', digit: { line: 1, at: 29 }, over: [{ line: 0, start: 5, length: 25 }, { line: 1, start: 0, length: 7 }, { line: 1, start: 8, length: 7 }, { line: 1, start: 18, length: 11 }] },
    ],
  },
};

/** Look-alikes a field's type settles (OCR-B glyphs OCR confuses): a letter read where only digits may stand, and back. */
const DIGIT_FOR_LETTER: Readonly<Record<string, string>> = { O: '0', Q: '0', D: '0', U: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8' };
const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };
/** The sex field takes M, F, X or `<`: an H or N there is an M, an E or P an F. */
const SEX_FOR_LETTER: Readonly<Record<string, string>> = { H: 'M', N: 'M', E: 'F', P: 'F' };

const REPAIR_REASONS: Readonly<Record<FieldKind, string>> = {
  letters: 'this field takes only letters',
  digits: 'this field takes only digits',
  check: 'a check digit is a digit',
  sex: 'this field takes only M, F, X or <',
  alphanumeric: '',
};

/** One character changed because its field's type does not allow what was read. */
export interface MrzCorrection {
  /** 1-based line and column in the zone. */
  line: number;
  column: number;
  field: string;
  read: string;
  taken: string;
  reason: string;
}

/** One check digit: what it covers, what was printed and what the covered characters compute to. */
export interface MrzCheck {
  name: CheckName;
  printed: string;
  computed: string;
  valid: boolean;
}

export interface MrzFields {
  document_code: string;
  issuing_state: string;
  document_number: string;
  surname: string;
  given_names: string | null;
  /** Null when the field is all filler (some pre-standard cards). */
  nationality: string | null;
  /** YYMMDD as printed (Doc 9303 leaves the century to the reader). */
  birth_date: string;
  sex: string;
  expiry_date: string;
  /** The personal number (TD3) or optional data, fillers dropped; null when all filler. */
  optional_data: string | null;
}

export interface ParsedMrz {
  format: MrzFormat;
  /** The lines after the type-decided repairs. */
  lines: string[];
  fields: MrzFields;
  checks: MrzCheck[];
  /** Every check digit verifies. */
  valid: boolean;
  corrections: MrzCorrection[];
  /** Characters outside the zone's alphabet (A–Z, 0–9, `<`) that no repair could settle, e.g. a national letter. */
  foreignCharacters: number;
}

/** The layout lines of this count and length have, or null: two 44s are TD3 or MRV-A by the document code. */
export function layoutOf(lines: readonly string[]): MrzFormat | null {
  const lengths = lines.map((line) => line.length);
  if (lines.length === 3 && lengths.every((length) => length === 30)) return 'TD1';
  if (lines.length !== 2) return null;
  const visa = lines[0]!.startsWith('V');
  if (lengths.every((length) => length === 44)) return visa ? 'MRVA' : 'TD3';
  if (lengths.every((length) => length === 36)) return visa ? 'MRVB' : 'TD2';
  return null;
}

/** Doc 9303 part 3, 4.9: weights 7, 3, 1 repeated; digits their value, A–Z 10–35, `<` 0; the sum modulo 10. */
export function checkDigit(characters: string): string {
  let sum = 0;
  for (let index = 0; index < characters.length; index++) sum += characterValue(characters[index]!) * [7, 3, 1][index % 3]!;
  return String(sum % 10);
}

/** A character's value in a check digit (Doc 9303 part 3, 4.9): digits their own, A to Z 10 to 35, the filler 0. */
export function characterValue(character: string): number {
  const code = character.charCodeAt(0);
  return code >= 48 && code <= 57 ? code - 48 : code >= 65 && code <= 90 ? code - 55 : 0;
}

/**
 * Parses lines already cut to the zone (no spaces) into its fields and check digits, after the repairs the
 * fields' types decide. Returns null when the lines fit no layout.
 */
export function parseMrz(readLines: readonly string[]): ParsedMrz | null {
  const format = layoutOf(readLines);
  if (format === null) return null;
  const layout = LAYOUT_FIELDS[format];
  const lines = readLines.map((line) => [...line.toUpperCase()]);
  const corrections: MrzCorrection[] = [];
  let foreignCharacters = 0;
  for (const spec of layout.fields) {
    for (let column = spec.start; column < spec.start + spec.length; column++) {
      const read = lines[spec.line]![column]!;
      const taken = repaired(read, spec.kind);
      if (taken === null) {
        if (!/^[A-Z0-9<]$/.test(read)) foreignCharacters++;
        continue;
      }
      if (taken === read) continue;
      lines[spec.line]![column] = taken;
      corrections.push({ line: spec.line + 1, column: column + 1, field: spec.name, read, taken, reason: REPAIR_REASONS[spec.kind] });
    }
  }
  const text = lines.map((characters) => characters.join(''));
  const slice = (line: number, start: number, length: number) => text[line]!.slice(start, start + length);
  const checks: MrzCheck[] = [];
  let documentNumber = format === 'TD1' ? slice(0, 5, 9) : slice(1, 0, 9);
  for (const spec of layout.checks) {
    let over = spec.over;
    let digit = text[spec.digit.line]![spec.digit.at]!;
    if (format === 'TD1' && spec.name === 'document_number') {
      // A long number is taken only when its own check digit verifies; otherwise the nine characters stand
      // and their check digit (a filler) fails, so the verdict is a failure either way.
      const long = td1LongDocumentNumber(text[0]!);
      if (long !== null && checkDigit(slice(0, 5, 9) + slice(0, 15, long.extraLength)) === long.checkDigit) {
        documentNumber = long.number;
        over = [{ line: 0, start: 5, length: 9 }, { line: 0, start: 15, length: long.extraLength }];
        digit = long.checkDigit;
      }
    }
    const covered = over.map((range) => slice(range.line, range.start, range.length)).join('');
    const computed = checkDigit(covered);
    const fillerOnly = /^<*$/.test(covered);
    const valid = digit === computed || (spec.fillerAllowed === true && digit === '<' && fillerOnly);
    checks.push({ name: spec.name, printed: digit, computed, valid });
  }
  const nameField = format === 'TD1' ? slice(2, 0, 30) : slice(0, 5, format === 'TD3' || format === 'MRVA' ? 39 : 31);
  const [surname, given] = splitName(nameField);
  const optional = format === 'TD3' ? slice(1, 28, 14) : format === 'TD1' ? `${slice(0, 15, 15)}${slice(1, 18, 11)}` : slice(1, 28, format === 'MRVA' ? 16 : format === 'MRVB' ? 8 : 7);
  const second = format === 'TD1' ? { birth: slice(1, 0, 6), sex: slice(1, 7, 1), expiry: slice(1, 8, 6), nationality: slice(1, 15, 3) } : { birth: slice(1, 13, 6), sex: slice(1, 20, 1), expiry: slice(1, 21, 6), nationality: slice(1, 10, 3) };
  return {
    format,
    lines: text,
    fields: {
      document_code: slice(0, 0, 2),
      issuing_state: stripFiller(slice(0, 2, 3)),
      document_number: stripFiller(documentNumber),
      surname,
      given_names: given,
      nationality: stripFiller(second.nationality) || null,
      birth_date: second.birth,
      sex: second.sex,
      expiry_date: second.expiry,
      optional_data: stripFiller(optional.replace(/<+/g, '<')) || null,
    },
    checks,
    valid: checks.every((check) => check.valid),
    corrections,
    foreignCharacters,
  };
}

/** The character a field of this kind takes for what was read: itself, its look-alike, or null when none fits. */
export function repaired(read: string, kind: FieldKind): string | null {
  if (read === '<') return read;
  const letter = /^[A-Z]$/.test(read);
  const digit = /^[0-9]$/.test(read);
  switch (kind) {
    case 'alphanumeric':
      return letter || digit ? read : null;
    case 'letters':
      return letter ? read : (LETTER_FOR_DIGIT[read] ?? null);
    case 'digits':
    case 'check':
      return digit ? read : (DIGIT_FOR_LETTER[read] ?? null);
    case 'sex':
      return read === 'M' || read === 'F' || read === 'X' ? read : (SEX_FOR_LETTER[read] ?? null);
  }
}

/**
 * Doc 9303 part 5, 4.2.4 note j: a TD1 document number longer than nine characters puts `<` in its
 * check digit's place and continues in the optional data, ending with its check digit before a filler.
 */
function td1LongDocumentNumber(line: string): { number: string; extraLength: number; checkDigit: string } | null {
  if (line[14] !== '<' || line[15] === '<') return null;
  const rest = line.slice(15).split('<')[0]!;
  if (rest.length < 2) return null;
  return { number: line.slice(5, 14) + rest.slice(0, -1), extraLength: rest.length - 1, checkDigit: rest.at(-1)! };
}

/** The primary identifier before the first `<<`, the secondary after it; single `<` separate name parts. */
function splitName(field: string): [string, string | null] {
  const cut = field.indexOf('<<');
  const primary = cut === -1 ? field : field.slice(0, cut);
  const secondary = cut === -1 ? '' : field.slice(cut + 2);
  const words = (part: string) => part.replace(/<+/g, ' ').trim();
  return [words(primary), words(secondary) || null];
}

function stripFiller(value: string): string {
  return value.replace(/^<+|<+$/g, '');
}

/**
 * A YYMMDD date as ISO: a birth date is never in the future of `today`; an expiry is put in the century
 * that leaves it less than fifty years after `today`. Null when the digits are not a calendar date (or hold fillers).
 */
export function mrzDate(yymmdd: string, kind: 'birth' | 'expiry', today: string): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const [yy, mm, dd] = [0, 2, 4].map((at) => Number(yymmdd.slice(at, at + 2))) as [number, number, number];
  const currentYear = Number(today.slice(0, 4));
  const century = Math.floor(currentYear / 100) * 100;
  let year = century + yy;
  if (kind === 'birth' && year > currentYear) year -= 100;
  if (kind === 'expiry' && year >= currentYear + 50) year -= 100;
  const date = new Date(Date.UTC(year, mm - 1, dd));
  if (mm < 1 || mm > 12 || date.getUTCDate() !== dd) return null;
  return date.toISOString().slice(0, 10);
}
