import { characterValue, checkDigit, LAYOUT_FIELDS, parseMrz, repaired, type CheckName, type FieldKind, type MrzCorrection, type MrzFormat, type ParsedMrz } from './mrz.ts';
import codes from './mrz-codes.json' with { type: 'json' };

/**
 * Two readings of one zone made one. The shape reader (tesseract's legacy engine, api/documents/ocr-mrz.ts)
 * gives each line at its length with its fillers right, but confuses M, H, N and W and some digits; the line
 * reader (the LSTM engine the page is read with) reads letters and digits well but turns fillers into K, L
 * and C, so its lines come out the wrong length. The line reader's line is aligned to the shape reader's
 * character by character, and where they disagree:
 *
 * - inside a field a check digit covers, the reading that makes that check digit verify is taken, choosing
 *   only between the two characters actually read (never a look-alike neither reader saw), and with the
 *   fewest departures from the shape reader; when neither verifies, the shape reader's stands and the
 *   check digit fails as read; where the two characters weigh alike in every check digit (8 and S), the
 *   line reader's, with any choice that verifies;
 * - in the name, the line reader's letter; in the issuing state and nationality, the line reader's code
 *   when it is a code of Doc 9303 (mrz-codes.json), the shape reader's being another (PRI for PRT) or none; in
 *   the document code, the line reader's first letter only when the shape reader's is not one the layout
 *   allows; in the sex field, the line reader's when it is M, F, X or `<`;
 * - anywhere else, and wherever the shape reader read a filler, the shape reader's.
 *
 * Every character taken from the line reader is reported with both readings.
 */

/**
 * Disagreements one check digit may settle. Each wrong combination verifies by chance one time in ten, so
 * the fewer there are to choose from, the less a chance pass can stand in for a misread: three give eight
 * combinations; beyond that the shape reader's reading stands.
 */
const MAX_SETTLED = 3;
/** A line reader's line is matched to a zone line only if their alignment costs less than this per character. */
const MAX_ALIGNMENT_COST = 0.45;

interface Position {
  line: number;
  column: number;
}

interface Cell {
  field: string;
  kind: FieldKind;
}

export function mergeReadings(shape: ParsedMrz, lineReads: readonly string[]): ParsedMrz {
  const layout = LAYOUT_FIELDS[shape.format];
  const cells: Cell[][] = shape.lines.map((line) => [...line].map(() => ({ field: '', kind: 'alphanumeric' as FieldKind })));
  for (const spec of layout.fields) for (let column = spec.start; column < spec.start + spec.length; column++) cells[spec.line]![column] = { field: spec.name, kind: spec.kind };
  const lines = shape.lines.map((line) => [...line]);
  // What the other reader read at each position, where it disagrees with the shape reader (type-repaired).
  const other = new Map<string, string>();
  for (const [index, line] of shape.lines.entries()) {
    const aligned = bestAlignment(line, lineReads)?.aligned ?? null;
    if (aligned === null) continue;
    for (let column = 0; column < line.length; column++) {
      const read = aligned[column];
      const primary = line[column]!;
      if (read === null || read === undefined || primary === '<') continue;
      const cell = cells[index]![column]!;
      const candidate = repaired(read, cell.kind);
      if (candidate !== null && candidate !== '<' && candidate !== primary) other.set(key({ line: index, column }), candidate);
    }
  }
  const decisions = new Map<string, string>();
  const settled = new Set<string>();
  const checks = [...layout.checks].sort((a, b) => Number(a.name === 'composite') - Number(b.name === 'composite'));
  for (const check of checks) {
    const covered: Position[] = [...check.over.flatMap((range) => Array.from({ length: range.length }, (_, offset) => ({ line: range.line, column: range.start + offset }))), { line: check.digit.line, column: check.digit.at }];
    const open = covered.filter((position) => other.has(key(position)) && !settled.has(key(position)));
    for (const position of open) settled.add(key(position));
    if (open.length === 0) continue;
    const chosen = verifyingChoice(lines, covered, check.digit, open, other);
    for (const position of chosen) {
      lines[position.line]![position.column] = other.get(key(position))!;
      decisions.set(key(position), `the two readings disagree here (${shape.lines[position.line]![position.column]} and ${other.get(key(position))}); this one makes the ${checkLabel(check.name)} check digit verify`);
    }
  }
  for (const spec of layout.fields) {
    const open: Position[] = [];
    for (let column = spec.start; column < spec.start + spec.length; column++) {
      if (other.has(key({ line: spec.line, column })) && !settled.has(key({ line: spec.line, column }))) open.push({ line: spec.line, column });
    }
    if (open.length === 0) continue;
    const value = (take: boolean) => Array.from({ length: spec.length }, (_, offset) => lines[spec.line]![spec.start + offset]!).map((character, offset) => (take ? (other.get(key({ line: spec.line, column: spec.start + offset })) ?? character) : character)).join('');
    const reason = fieldChoice(spec.name, value(false), value(true), shape.format);
    if (reason === null) continue;
    for (const position of open) {
      const read = shape.lines[position.line]![position.column]!;
      lines[position.line]![position.column] = other.get(key(position))!;
      decisions.set(key(position), `the two readings disagree here (${read} and ${other.get(key(position))}); ${reason}`);
    }
  }
  const merged = parseMrz(lines.map((characters) => characters.join('')));
  if (merged === null) return shape;
  return { ...merged, corrections: reportedCorrections(shape, merged, decisions) };
}

/**
 * Whether the line reader's reading of a field no check digit covers is taken, and why; null keeps the
 * shape reader's. Codes are taken only when the shape reader's is no code and the line reader's is one.
 */
function fieldChoice(field: string, shapeValue: string, lineValue: string, format: MrzFormat): string | null {
  switch (field) {
    case 'issuing_state':
    case 'nationality':
      if (!isKnownCode(lineValue)) return null;
      return isKnownCode(shapeValue) ? `both are codes of Doc 9303, and the line reader reads letters better than the shape reader (I and T, M and N above all)` : `${lineValue.replace(/<+$/, '')} is a code of Doc 9303 and ${shapeValue.replace(/<+$/, '')} is not`;
    case 'document_code': {
      const first = FIRST_CODE_LETTERS[format];
      return !first.includes(shapeValue[0]!) && first.includes(lineValue[0]!) ? `a ${format} document code begins with ${[...first].join(' or ')}` : null;
    }
    case 'sex':
      return 'the sex is taken from the line reader';
    case 'name':
      return 'the line reader reads letters better than the shape reader (M, H, N and W above all)';
    default:
      return null;
  }
}

/** The first letter of the document code each layout allows (Doc 9303 parts 4 to 7). */
const FIRST_CODE_LETTERS: Readonly<Record<MrzFormat, string>> = { TD3: 'P', MRVA: 'V', MRVB: 'V', TD1: 'IAC', TD2: 'IAC' };

const KNOWN_CODES = new Set([...codes.iso_3166_alpha3, ...codes.icao_additional]);

function isKnownCode(value: string): boolean {
  return KNOWN_CODES.has(value.replace(/<+$/, ''));
}

/**
 * The fewest of `open` to take from the other reading so that the check digit verifies; none when no choice does.
 * Where the two characters' values differ by a multiple of ten (8 and S, 0 and K, 1 and L: 8 and 28, 0 and 20,
 * 1 and 21) no check digit can tell them apart, whatever its weights: there the line reader's is taken with any
 * choice that verifies, as it tells letters from digits better than the shape reader does, and only the other
 * disagreements are chosen between (and counted against MAX_SETTLED).
 */
function verifyingChoice(lines: string[][], covered: Position[], digit: { line: number; at: number }, open: Position[], other: Map<string, string>): Position[] {
  const blind = open.filter((position) => blindPair(lines[position.line]![position.column]!, other.get(key(position))!));
  const chosen = open.filter((position) => !blind.includes(position));
  if (chosen.length > MAX_SETTLED) return [];
  const subsets = Array.from({ length: 2 ** chosen.length }, (_, mask) => mask).sort((a, b) => popCount(a) - popCount(b));
  for (const mask of subsets) {
    const take = new Set([...blind, ...chosen.filter((_, bit) => (mask >> bit) & 1)].map(key));
    const charAt = (position: Position) => (take.has(key(position)) ? other.get(key(position))! : lines[position.line]![position.column]!);
    const characters = covered.slice(0, -1).map(charAt).join('');
    if (checkDigit(characters) === charAt({ line: digit.line, column: digit.at })) return open.filter((position) => take.has(key(position)));
  }
  return [];
}

/** Whether two characters weigh alike, modulo ten, in every check digit (Doc 9303 part 3, 4.9). */
function blindPair(a: string, b: string): boolean {
  return a !== b && (characterValue(a) - characterValue(b)) % 10 === 0;
}

/** Each character of the merged zone that differs from what the shape reader printed, with why. */
function reportedCorrections(shape: ParsedMrz, merged: ParsedMrz, decisions: Map<string, string>): MrzCorrection[] {
  const shapeRepairs = new Map(shape.corrections.map((correction) => [key({ line: correction.line - 1, column: correction.column - 1 }), correction]));
  const mergedRepairs = new Map(merged.corrections.map((correction) => [key({ line: correction.line - 1, column: correction.column - 1 }), correction]));
  const corrections: MrzCorrection[] = [];
  for (const [line, text] of merged.lines.entries()) {
    for (let column = 0; column < text.length; column++) {
      const positionKey = key({ line, column });
      const read = shapeRepairs.get(positionKey)?.read ?? shape.lines[line]![column]!;
      const taken = text[column]!;
      if (read === taken) continue;
      const field = shapeRepairs.get(positionKey)?.field ?? mergedRepairs.get(positionKey)?.field ?? fieldAt(shape, line, column);
      const reason = decisions.get(positionKey) ?? shapeRepairs.get(positionKey)?.reason ?? mergedRepairs.get(positionKey)?.reason ?? 'this field takes only letters';
      corrections.push({ line: line + 1, column: column + 1, field, read, taken, reason });
    }
  }
  return corrections;
}

function fieldAt(zone: ParsedMrz, line: number, column: number): string {
  return LAYOUT_FIELDS[zone.format].fields.find((spec) => spec.line === line && column >= spec.start && column < spec.start + spec.length)?.name ?? '';
}

function checkLabel(name: CheckName): string {
  return name === 'composite' ? 'composite' : name.replace('_', ' ');
}

function key(position: Position): string {
  return `${position.line}:${position.column}`;
}

function popCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}

/** A zone line aligned to the other reader's line: per zone position, the character matched (or null) and its index in `read` (or -1). */
export interface AlignedRead {
  read: string;
  /** What the alignment cost: 0 for a reading identical to the line. */
  cost: number;
  aligned: (string | null)[];
  matched: number[];
}

/** The other reader's line that aligns best with this zone line, or null when none aligns closely enough. */
export function bestAlignment(line: string, reads: readonly string[]): AlignedRead | null {
  let best: AlignedRead | null = null;
  for (const read of reads) {
    if (read.length < line.length / 2) continue;
    const result = align(line, read);
    if (best === null || result.cost < best.cost) best = { ...result, read };
  }
  return best !== null && best.cost / line.length < MAX_ALIGNMENT_COST ? best : null;
}

/** What the line reader makes of a filler. */
const FILLER_ARTEFACTS = new Set(['<', 'K', 'L', 'C', 'S', 'X', 'E', 'Z']);
/** Pairs either reader confuses (OCR-B look-alikes and the shape reader's M, H, N, W), cheaper to substitute than unrelated characters. */
const LOOK_ALIKES = ['0O', '0D', '0Q', '0U', '1I', '1L', '1T', '2Z', '5S', '6G', '8B', 'MH', 'MN', 'MW', 'HN', 'HW', 'NW', 'UV', 'EF', 'FP', 'CG', 'OD', 'OQ'];
const lookAlike = new Set(LOOK_ALIKES.flatMap((pair) => [pair, `${pair[1]}${pair[0]}`]));

function substitution(primary: string, read: string): number {
  if (primary === read) return 0;
  if (primary === '<') return FILLER_ARTEFACTS.has(read) ? 0.2 : 1;
  return lookAlike.has(`${primary}${read}`) ? 0.5 : 1;
}

/**
 * Needleman–Wunsch alignment of the other reading to the zone line: each zone character is matched to one
 * character of the reading or to none; characters of the reading matched to nothing (a filler read as `<K`) are skipped.
 */
function align(line: string, read: string): { cost: number; aligned: (string | null)[]; matched: number[] } {
  const skipRead = 0.6;
  const skipLine = 0.8;
  const rows = line.length + 1;
  const columns = read.length + 1;
  const cost = new Float64Array(rows * columns);
  for (let i = 1; i < rows; i++) cost[i * columns] = i * skipLine;
  for (let j = 1; j < columns; j++) cost[j] = j * skipRead;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < columns; j++) {
      cost[i * columns + j] = Math.min(
        cost[(i - 1) * columns + j - 1]! + substitution(line[i - 1]!, read[j - 1]!),
        cost[(i - 1) * columns + j]! + skipLine,
        cost[i * columns + j - 1]! + skipRead,
      );
    }
  }
  const aligned: (string | null)[] = Array.from({ length: line.length }, () => null);
  const matched: number[] = Array.from({ length: line.length }, () => -1);
  let i = line.length;
  let j = read.length;
  while (i > 0 && j > 0) {
    const here = cost[i * columns + j]!;
    if (Math.abs(here - (cost[(i - 1) * columns + j - 1]! + substitution(line[i - 1]!, read[j - 1]!))) < 1e-9) {
      aligned[i - 1] = read[j - 1]!;
      matched[i - 1] = j - 1;
      i--;
      j--;
    } else if (Math.abs(here - (cost[(i - 1) * columns + j]! + skipLine)) < 1e-9) i--;
    else j--;
  }
  return { cost: cost[rows * columns - 1]!, aligned, matched };
}
