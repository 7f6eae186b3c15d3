import { LAYOUT_FIELDS, parseMrz, type CheckSpec, type FieldKind, type MrzCorrection, type MrzFormat, type ParsedMrz } from './mrz.ts';
import codes from './mrz-codes.json' with { type: 'json' };

/**
 * A read zone's OCR look-alikes settled by what Doc 9303 makes checkable: its check digits and its codes.
 *
 * The type repairs of mrz.ts settle a letter in a field of digits; they cannot settle a field that takes both
 * (the document number: `S9000002` or `59000002`, `O` or `0`), nor a digit blurred into another digit in a
 * thumbnail. Here each failing check digit is tried with the OCR-B look-alikes of the characters it covers (one
 * at a time, or a field's run of digits read again as digits at once), and a reading is taken only when:
 *
 * - every check digit covering a changed character verifies afterwards (the composite too, which says the
 *   field was misread and not its check digit), and none that verified stops doing so;
 * - in a field of letters and digits, the change takes look-alike letters for digits, or else leaves the field
 *   more of a run of letters then digits than it was: a check digit verifies one wrong reading in ten, and the
 *   composite, weighted in step with the field's own digit, cannot tell two readings of it apart;
 * - a layout without a composite (the visas) takes changes in one field only;
 * - of the readings that qualify, the one with most check digits verifying, then the fewest letter–digit
 *   breaks, then the fewest digit-like letters, then the fewest changes, and only when no other reading ties.
 *
 * A zone whose printed check digit is wrong therefore stays failing unless a look-alike of what it covers
 * happens to fix it within these rules (none does on the identity corpus). The issuing state and nationality,
 * which no check digit covers, are settled by the list of Doc 9303 codes: a read code that is no code, with
 * exactly one code a look-alike or two away, is that code. Every change is reported with its reason.
 */

/** Glyph pairs OCR confuses in OCR-B (letters and digits, and digits blurred together), each way. */
export const LOOK_ALIKE_PAIRS = ['0O', '0D', '0Q', '0U', 'OD', 'OQ', 'OU', '1I', '1L', '1T', 'IL', '7T', '2Z', '5S', '8B', '8S', '6G', '4A', '68', '38', '08', '56', '17', '46', '35'];
/** Letters OCR confuses in a code of three letters. */
const LETTER_PAIRS = ['OU', 'OD', 'OQ', 'OC', 'UV', 'VW', 'UW', 'IT', 'IL', 'TL', 'MN', 'MH', 'NH', 'MW', 'NW', 'EF', 'PR', 'PF', 'CG', 'BR', 'BO', 'BE', 'RH', 'KX', 'SB'];

function alternativesFrom(pairs: readonly string[]): ReadonlyMap<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [a, b] of pairs.map((pair) => [pair[0]!, pair[1]!] as const)) {
    map.set(a, [...(map.get(a) ?? []), b]);
    map.set(b, [...(map.get(b) ?? []), a]);
  }
  return map;
}
const LOOK_ALIKES = alternativesFrom(LOOK_ALIKE_PAIRS);
const LETTER_LOOK_ALIKES = alternativesFrom([...LETTER_PAIRS, '0O', '0D', '1I', '7T', '8B', '5S', '2Z', '6G', '4A']);

/** Combinations of candidate readings weighed across the zone, at most. */
const MAX_COMBINATIONS = 4_096;

const KNOWN_CODES = new Set([...codes.iso_3166_alpha3, ...codes.icao_additional]);

interface Change {
  line: number;
  column: number;
  taken: string;
}

/** The zone with its look-alikes settled by check digits and codes, or the zone as it was when nothing is settled. */
export function settleLookAlikes(zone: ParsedMrz): ParsedMrz {
  const byChecks = settleByCheckDigits(zone);
  return settleCodes(byChecks);
}

function settleByCheckDigits(zone: ParsedMrz): ParsedMrz {
  if (zone.valid) return zone;
  const layout = LAYOUT_FIELDS[zone.format];
  const kinds = kindsOf(zone.format, zone.lines);
  const passing = new Set(zone.checks.filter((check) => check.valid).map((check) => check.name));
  const fieldChecks = layout.checks.filter((check) => check.name !== 'composite' && !passing.has(check.name));
  const candidates = fieldChecks.map((check) => [[], ...changesFixing(zone, check, kinds)] as Change[][]);
  const hasComposite = layout.checks.some((check) => check.name === 'composite');
  if (hasComposite && !passing.has('composite')) candidates.push([[], ...compositeOnlyChanges(zone, kinds)]);
  let best: { zone: ParsedMrz; changes: Change[]; rank: number[] } | null = null;
  let tied = false;
  for (const combination of combinations(candidates)) {
    const changes = combination.flat();
    if (changes.length === 0) continue;
    const changed = parseMrz(applied(zone.lines, changes));
    if (changed === null || !confirmed(zone, changed, changes, hasComposite)) continue;
    // Most check digits verifying; then the fewest breaks between letters and digits in the fields that take both (a
    // number is a run of letters and a run of digits far more often than it alternates); then the fewest letters
    // there that look like digits (this reader reads 0 as O far more often than O as 0); then the fewest changes.
    const rank = [-changed.checks.filter((check) => check.valid).length, mixedBreaks(changed), digitLikeLetters(changed), changes.length];
    const order = best === null ? -1 : compareRanks(rank, best.rank);
    if (order < 0) [best, tied] = [{ zone: changed, changes, rank }, false];
    else if (order === 0 && changed.lines.join() !== best!.zone.lines.join()) tied = true;
  }
  if (best === null || tied) return zone;
  return withCorrections(zone, best.zone, best.changes, 'a look-alike of what was read, the reading under which the check digits covering it verify');
}

/** Whether a changed zone is one the check digits confirm (see the module's rules). */
function confirmed(before: ParsedMrz, after: ParsedMrz, changes: Change[], hasComposite: boolean): boolean {
  const layout = LAYOUT_FIELDS[before.format];
  for (const [index, check] of after.checks.entries()) {
    if (before.checks[index]!.valid && !check.valid) return false;
    const spec = layout.checks.find((candidate) => candidate.name === check.name)!;
    if (!check.valid && changes.some((change) => covers(spec, change))) return false;
  }
  if (!hasComposite && changes.length > 1 && !sameField(before.format, changes)) return false;
  // In a field of letters and digits, look-alike letters are taken for digits (the misread this reader makes of
  // a number); anything else, a digit for a letter above all, only when it makes the field more of a run:
  // without this a misread `XS1236S67` verifies as `XSI236S67`.
  const kinds = kindsOf(before.format, before.lines);
  const mixed = changes.filter((change) => kinds[change.line]![change.column] === 'alphanumeric');
  const lettersToDigits = mixed.every((change) => /^[0-9]$/.test(change.taken) && /^[A-Z]$/.test(before.lines[change.line]![change.column]!));
  if (mixed.length > 0 && !lettersToDigits && mixedBreaks(after) >= mixedBreaks(before)) return false;
  return datesPlausible(after);
}

function covers(check: CheckSpec, change: Change): boolean {
  if (check.digit.line === change.line && check.digit.at === change.column) return true;
  return check.over.some((range) => range.line === change.line && change.column >= range.start && change.column < range.start + range.length);
}

/** A changed date must still be a calendar date. */
function datesPlausible(zone: ParsedMrz): boolean {
  return [zone.fields.birth_date, zone.fields.expiry_date].every((date) => {
    if (!/^\d{6}$/.test(date)) return true;
    const month = Number(date.slice(2, 4));
    const day = Number(date.slice(4, 6));
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
  });
}

/**
 * Readings under one check digit that make it verify: one look-alike changed (a letter for a digit or back in a
 * field of both, a digit for a digit in a date or check digit), or a field's run of digits read again as digits.
 */
function changesFixing(zone: ParsedMrz, check: CheckSpec, kinds: FieldKind[][]): Change[][] {
  const positions = [...check.over.flatMap((range) => Array.from({ length: range.length }, (_, offset) => ({ line: range.line, column: range.start + offset }))), { line: check.digit.line, column: check.digit.at }];
  const options = positions.flatMap((position) => lookAlikesAt(zone.lines, position.line, position.column, kinds));
  const verifies = (changes: Change[]) => parseMrz(applied(zone.lines, changes))?.checks.find((candidate) => candidate.name === check.name)?.valid === true;
  return [...options.map((option) => [option]), ...runNormalisations(zone, check, kinds)].filter(verifies);
}

/**
 * A field of letters and digits read as a run of letters then a run of digits, for each place the runs may
 * meet: every look-alike letter after it taken as its digit (`AOUDOOD0` as `A0000000`, `S9000002` as `59000002`).
 */
function runNormalisations(zone: ParsedMrz, check: CheckSpec, kinds: FieldKind[][]): Change[][] {
  const found: Change[][] = [];
  for (const range of check.over) {
    if (kinds[range.line]![range.start] !== 'alphanumeric') continue;
    const text = zone.lines[range.line]!.slice(range.start, range.start + range.length);
    for (let meet = 0; meet < text.length; meet++) {
      const changes: Change[] = [];
      for (let offset = meet; offset < text.length; offset++) {
        const digit = (LOOK_ALIKES.get(text[offset]!) ?? []).find((candidate) => /^[0-9]$/.test(candidate) && /^[A-Z]$/.test(text[offset]!));
        if (digit !== undefined) changes.push({ line: range.line, column: range.start + offset, taken: digit });
      }
      if (changes.length > 0) found.push(changes);
    }
  }
  return found;
}

/** Letter–digit breaks in the fields that take both: `S9000002` has one, `59000002` none, `S900D002` three. */
function mixedBreaks(zone: ParsedMrz): number {
  let breaks = 0;
  for (const spec of LAYOUT_FIELDS[zone.format].fields) {
    if (spec.kind !== 'alphanumeric' || spec.length < 3) continue;
    const value = zone.lines[spec.line]!.slice(spec.start, spec.start + spec.length).replace(/</g, '');
    for (let index = 1; index < value.length; index++) if (/\d/.test(value[index]!) !== /\d/.test(value[index - 1]!)) breaks++;
  }
  return breaks;
}

/** Letters that are look-alikes of digits (O, D, S, B…) in the fields that take both. */
function digitLikeLetters(zone: ParsedMrz): number {
  let count = 0;
  for (const spec of LAYOUT_FIELDS[zone.format].fields) {
    if (spec.kind !== 'alphanumeric' || spec.length < 3) continue;
    for (const character of zone.lines[spec.line]!.slice(spec.start, spec.start + spec.length)) if (/^[A-Z]$/.test(character) && (LOOK_ALIKES.get(character) ?? []).some((other) => /^[0-9]$/.test(other))) count++;
  }
  return count;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return 0;
}

/** Whether all changes fall in one field (a run read again as digits is one reading of one field). */
function sameField(format: MrzFormat, changes: readonly Change[]): boolean {
  const fieldOf = (change: Change) => LAYOUT_FIELDS[format].fields.find((spec) => spec.line === change.line && change.column >= spec.start && change.column < spec.start + spec.length)?.name;
  return new Set(changes.map(fieldOf)).size === 1;
}

/** Single changes the composite alone covers (TD1 and TD2 optional data): only the composite can settle them. */
function compositeOnlyChanges(zone: ParsedMrz, kinds: FieldKind[][]): Change[][] {
  const layout = LAYOUT_FIELDS[zone.format];
  const composite = layout.checks.find((check) => check.name === 'composite')!;
  const others = layout.checks.filter((check) => check.name !== 'composite');
  const positions = composite.over.flatMap((range) => Array.from({ length: range.length }, (_, offset) => ({ line: range.line, column: range.start + offset, taken: '' })));
  const own = positions.filter((position) => !others.some((check) => covers(check, position)));
  return own.flatMap((position) => lookAlikesAt(zone.lines, position.line, position.column, kinds)).map((change) => [change]);
}

/** The look-alikes of the character at a position that its field's type allows. */
function lookAlikesAt(lines: readonly string[], line: number, column: number, kinds: FieldKind[][]): Change[] {
  const read = lines[line]![column]!;
  const kind = kinds[line]![column]!;
  // In a field of letters and digits a digit blurred into another digit is as likely as any other: only a letter–digit look-alike is tried there.
  const classChange = (taken: string) => kind !== 'alphanumeric' || /^[0-9]$/.test(taken) !== /^[0-9]$/.test(read);
  return (LOOK_ALIKES.get(read) ?? []).filter((taken) => allowed(taken, kind) && classChange(taken)).map((taken) => ({ line, column, taken }));
}

function allowed(character: string, kind: FieldKind): boolean {
  if (kind === 'digits' || kind === 'check') return /^[0-9]$/.test(character);
  if (kind === 'letters') return /^[A-Z]$/.test(character);
  return kind === 'alphanumeric' && /^[A-Z0-9]$/.test(character);
}

/** Each position's field kind; positions no field names are taken as alphanumeric. */
function kindsOf(format: MrzFormat, lines: readonly string[]): FieldKind[][] {
  const kinds = lines.map((line) => [...line].map((): FieldKind => 'alphanumeric'));
  for (const spec of LAYOUT_FIELDS[format].fields) for (let column = spec.start; column < spec.start + spec.length; column++) kinds[spec.line]![column] = spec.kind;
  return kinds;
}

/** The issuing state and nationality: a read code that is no Doc 9303 code, with one code a look-alike or two away, is that code. */
function settleCodes(zone: ParsedMrz): ParsedMrz {
  const fields = LAYOUT_FIELDS[zone.format].fields.filter((spec) => spec.name === 'issuing_state' || spec.name === 'nationality');
  const changes: Change[] = [];
  for (const spec of fields) {
    const read = zone.lines[spec.line]!.slice(spec.start, spec.start + spec.length);
    if (isKnownCode(read) || /^<+$/.test(read)) continue;
    const other = fields.find((candidate) => candidate !== spec);
    const otherCode = other ? zone.lines[other.line]!.slice(other.start, other.start + other.length) : null;
    const code = nearestCode(read, otherCode !== null && isKnownCode(otherCode) ? otherCode : null);
    if (code === null) continue;
    for (let offset = 0; offset < spec.length; offset++) if (code[offset] !== read[offset]) changes.push({ line: spec.line, column: spec.start + offset, taken: code[offset]! });
  }
  if (changes.length === 0) return zone;
  const changed = parseMrz(applied(zone.lines, changes));
  return changed === null ? zone : withCorrections(zone, changed, changes, 'the code read is no code of Doc 9303, and this look-alike of it is the only one that is');
}

/** The one known code within one look-alike of `read`, else within two; the other field's code breaks a tie. */
function nearestCode(read: string, tieBreak: string | null): string | null {
  const variants = (value: string) => [...value].flatMap((character, index) => (LETTER_LOOK_ALIKES.get(character) ?? []).filter((taken) => /^[A-Z<]$/.test(taken)).map((taken) => value.slice(0, index) + taken + value.slice(index + 1)));
  const one = new Set(variants(read));
  const pick = (found: Set<string>) => {
    const known = [...found].filter(isKnownCode);
    if (known.length === 1) return known[0]!;
    return tieBreak !== null && known.includes(tieBreak) ? tieBreak : null;
  };
  const near = [...one].filter(isKnownCode);
  if (near.length > 0) return pick(new Set(near));
  return pick(new Set([...one].flatMap(variants)));
}

function isKnownCode(value: string): boolean {
  return KNOWN_CODES.has(value.replace(/<+$/, ''));
}

function applied(lines: readonly string[], changes: readonly Change[]): string[] {
  const characters = lines.map((line) => [...line]);
  for (const change of changes) characters[change.line]![change.column] = change.taken;
  return characters.map((line) => line.join(''));
}

/** The changed zone, with the reading's earlier corrections kept and each new change reported. */
function withCorrections(before: ParsedMrz, after: ParsedMrz, changes: readonly Change[], reason: string): ParsedMrz {
  const fieldAt = (line: number, column: number) => LAYOUT_FIELDS[before.format].fields.find((spec) => spec.line === line && column >= spec.start && column < spec.start + spec.length)?.name ?? '';
  const earlier = new Map(before.corrections.map((correction) => [`${correction.line}:${correction.column}`, correction]));
  // A position corrected before keeps what was first read there.
  const added: MrzCorrection[] = changes.map((change) => ({ line: change.line + 1, column: change.column + 1, field: fieldAt(change.line, change.column), read: earlier.get(`${change.line + 1}:${change.column + 1}`)?.read ?? before.lines[change.line]![change.column]!, taken: change.taken, reason }));
  const replaced = new Set(added.map((correction) => `${correction.line}:${correction.column}`));
  return { ...after, corrections: [...before.corrections.filter((correction) => !replaced.has(`${correction.line}:${correction.column}`)), ...added].filter((correction) => correction.read !== correction.taken) };
}

/** Every choice of one entry per list, up to MAX_COMBINATIONS of them. */
function* combinations(lists: readonly Change[][][]): Generator<Change[][]> {
  let count = 0;
  function* walk(index: number, chosen: Change[][]): Generator<Change[][]> {
    if (count >= MAX_COMBINATIONS) return;
    if (index === lists.length) {
      count++;
      yield chosen;
      return;
    }
    for (const option of lists[index]!) yield* walk(index + 1, [...chosen, option]);
  }
  yield* walk(0, []);
}
