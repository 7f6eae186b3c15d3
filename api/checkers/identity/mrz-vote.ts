import { checkDigit, LAYOUT_FIELDS, parseMrz, repaired, type FieldKind, type FieldSpec, type MrzCorrection, type ParsedMrz } from './mrz.ts';
import { bestAlignment } from './mrz-merge.ts';
import codes from './mrz-codes.json' with { type: 'json' };
import { LOOK_ALIKE_PAIRS } from './mrz-repair.ts';

/**
 * A read zone settled by a vote across several readings of each of its lines (each line cropped and read
 * again on its own, under several preparations: mrz-line-reads.ts), under the zone's grammar (Doc 9303
 * parts 3 to 7) and its check digits.
 *
 * Every reading is aligned to the zone's line character by character (mrz-merge.ts) and each character is
 * typed by the field it falls in (a letter in a date is the digit it looks like); the zone as read is one
 * vote among them. Then, field by field:
 *
 * - a line that holds no name may first be replaced by the reading of it alone, at its length, that agrees most
 *   with all the others, when more check digits then verify (a band read as a block can drop a character and
 *   shift every field after it, which no vote by position mends);
 * - a field a check digit covers takes, of the combinations of characters the readings gave there, one under
 *   which its check digit verifies: the fewest letter–digit breaks in a field of both, then the fewest letters
 *   that look like digits (as mrz-repair.ts ranks), then the most votes; a character only one reading gave is
 *   never chosen (one misread is not a vote), and when no combination verifies, or two tie, the zone's reading
 *   stands, failing as read. A zone whose printed check digit fails is read alike by every reading, so it stays failing;
 * - the issuing state and nationality take the code most readings give, when it is a code of Doc 9303;
 * - the sex takes the character a majority of the readings give;
 * - the name is left as read: its words are mrz-name-tokens.ts's to settle (a vote on its letters was measured and
 *   dropped: the line reader read alone turned more M into N than it mended);
 * - a composite check digit that verified before the vote must verify after it, or the vote is dropped.
 *
 * Each character changed is reported as a correction, with its votes.
 */

/** Votes a character other than the zone's needs, at least: one reading alone is a misread, not a vote. */
const MIN_VOTES = 2;
/** Positions of one field with two or more candidates weighed together, at most (2^6 combinations and up). */
const MAX_OPEN_POSITIONS = 6;
/** Candidates kept per position: the most-voted ones. */
const MAX_CANDIDATES = 3;

const KNOWN_CODES = new Set<string>([...codes.iso_3166_alpha3, ...codes.icao_additional]);


/** A reading of one zone line alone, and which reader gave it. */
export interface LineReading {
  line: number;
  text: string;
  /** Which reader: the line reader (LSTM) may still read a filler as K, L or C, which then votes as a filler. */
  reader: 'lines' | 'shapes';
}

type Votes = Map<string, number>;

export function voteByLine(read: ParsedMrz, lineReadings: readonly LineReading[]): ParsedMrz {
  const asRead = voteOn(read, read, new Set(), lineReadings);
  const consensus = consensusBase(read, lineReadings);
  if (consensus.replaced.size === 0) return asRead;
  // A line replaced only when more check digits verify with it: a reading that agrees with the others can still be a misread that verifies by chance.
  const replaced = voteOn(read, consensus.zone, consensus.replaced, lineReadings);
  return verifying(replaced) > verifying(asRead) ? replaced : asRead;
}

function verifying(zone: ParsedMrz): number {
  return zone.checks.filter((check) => check.valid).length;
}

/** The vote on `zone`, the read zone with the lines in `replaced` taken from the readings. */
function voteOn(read: ParsedMrz, zone: ParsedMrz, replaced: ReadonlySet<number>, lineReadings: readonly LineReading[]): ParsedMrz {
  // A line replaced by a reading of it alone keeps the zone's first reading of it as one vote.
  const readings = [...lineReadings, ...[...replaced].map((line): LineReading => ({ line, text: read.lines[line]!, reader: 'shapes' }))];
  const layout = LAYOUT_FIELDS[zone.format];
  const kinds = kindsOf(zone);
  const votes = positionVotes(zone, readings, kinds);
  const lines = zone.lines.map((line) => [...line]);
  const reasons = new Map<string, string>();
  for (const line of replaced) {
    for (let column = 0; column < zone.lines[line]!.length; column++) if (zone.lines[line]![column] !== read.lines[line]![column]) reasons.set(`${line}:${column}`, CONSENSUS_REASON);
  }
  const take = (line: number, column: number, character: string, reason: string) => {
    if (lines[line]![column] === character) return;
    lines[line]![column] = character;
    reasons.set(`${line}:${column}`, reason);
  };
  for (const check of layout.checks.filter((candidate) => candidate.name !== 'composite')) {
    const positions = [...check.over.flatMap((range) => Array.from({ length: range.length }, (_, offset) => ({ line: range.line, column: range.start + offset }))), { line: check.digit.line, column: check.digit.at }];
    const choices = positions.map((position) => candidatesAt(votes, position.line, position.column, zone.lines[position.line]![position.column]!));
    const chosen = verifyingChoice(choices, positions.map((position) => kinds[position.line]![position.column]!));
    if (chosen === null) continue;
    for (const [index, position] of positions.entries()) take(position.line, position.column, chosen.characters[index]!, `${votesLabel(votes, position.line, position.column, chosen.characters[index]!)}; with it the ${check.name.replace('_', ' ')} check digit verifies`);
  }
  for (const spec of layout.fields) {
    if (spec.name === 'issuing_state' || spec.name === 'nationality') {
      const code = codeByVote(zone, spec, readings);
      if (code !== null) for (let offset = 0; offset < spec.length; offset++) take(spec.line, spec.start + offset, code.code[offset]!, `${code.votes} of the readings give the code ${code.code.replace(/<+$/, '')}, a code of Doc 9303`);
    }
    if (spec.name === 'sex') {
      const sex = zone.lines[spec.line]![spec.start]!;
      const majority = majorityAt(votes, spec.line, spec.start);
      if (sex !== '<' && majority !== null && majority !== sex && majority !== '<') take(spec.line, spec.start, majority, `${votesLabel(votes, spec.line, spec.start, majority)}, a majority of the readings`);
    }
  }
  if (reasons.size === 0) return read;
  const voted = parseMrz(lines.map((characters) => characters.join('')));
  if (voted === null || voted.format !== read.format) return read;
  // The vote may not undo a verifying check digit: a composite that verified must still, and no fewer may verify.
  const compositeBefore = read.checks.find((check) => check.name === 'composite')?.valid;
  const compositeAfter = voted.checks.find((check) => check.name === 'composite')?.valid;
  if (compositeBefore === true && compositeAfter === false) return read;
  if (verifying(voted) < verifying(read)) return read;
  return { ...voted, corrections: corrected(read, voted, reasons) };
}

const CONSENSUS_REASON = 'this line read alone under several preparations: the reading that agrees most with the others';

/**
 * The zone with each line that holds no name replaced by the reading of it, at its layout's length, that agrees
 * most with all the others (least total alignment cost): a band read as a block can drop or add a character and
 * shift every field after it, which no vote by position can mend. A name line stays as read (its words are
 * mrz-name-tokens.ts's to settle).
 */
function consensusBase(zone: ParsedMrz, readings: readonly LineReading[]): { zone: ParsedMrz; replaced: ReadonlySet<number> } {
  const nameLines = new Set(LAYOUT_FIELDS[zone.format].fields.filter((spec) => spec.name === 'name').map((spec) => spec.line));
  const lines = [...zone.lines];
  const replaced = new Set<number>();
  for (const [index, line] of zone.lines.entries()) {
    if (nameLines.has(index)) continue;
    const others = [line, ...readings.filter((reading) => reading.line === index).map((reading) => reading.text)];
    const candidates = [...new Set(others.flatMap((text) => windows(text, line.length)))];
    const disagreement = (candidate: string) => others.reduce((sum, other) => sum + (bestAlignment(candidate, [other])?.cost ?? candidate.length), 0);
    const ranked = candidates.map((candidate) => ({ candidate, cost: disagreement(candidate) })).sort((a, b) => a.cost - b.cost);
    const [first, second] = ranked;
    if (first === undefined || first.candidate === line || (second !== undefined && second.cost === first.cost)) continue;
    lines[index] = first.candidate;
    replaced.add(index);
  }
  if (replaced.size === 0) return { zone, replaced };
  const base = parseMrz(lines);
  return base === null || base.format !== zone.format ? { zone, replaced: new Set() } : { zone: base, replaced };
}

/** Per zone position, how many readings gave each character there (typed by the field), the zone's own read counted once. */
function positionVotes(zone: ParsedMrz, readings: readonly LineReading[], kinds: FieldKind[][]): Votes[][] {
  const votes = zone.lines.map((line) => [...line].map((character): Votes => new Map([[character, 1]])));
  for (const reading of readings) {
    const line = zone.lines[reading.line];
    if (line === undefined) continue;
    const aligned = bestAlignment(line, [reading.text])?.aligned ?? null;
    if (aligned === null) continue;
    for (let column = 0; column < line.length; column++) {
      const read = aligned[column];
      if (read === null || read === undefined) continue;
      const kind = kinds[reading.line]![column]!;
      const typed = reading.reader === 'lines' && line[column] === '<' && FILLER_ARTEFACTS.has(read) ? '<' : repaired(read, kind);
      if (typed === null) continue;
      const here = votes[reading.line]![column]!;
      here.set(typed, (here.get(typed) ?? 0) + 1);
    }
  }
  return votes;
}

/** The zone's character and every other with MIN_VOTES or more, most-voted first. */
function candidatesAt(votes: Votes[][], line: number, column: number, read: string): { character: string; votes: number }[] {
  const here = votes[line]![column]!;
  return [...here]
    .filter(([character, count]) => character === read || count >= MIN_VOTES)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CANDIDATES)
    .map(([character, count]) => ({ character, votes: count }));
}

/**
 * Of every combination of the candidates, the one whose check digit (the last position) verifies with the most
 * votes; null when none verifies, when two verifying ones tie, or when too many positions are open to weigh.
 */
function verifyingChoice(choices: { character: string; votes: number }[][], kinds: readonly FieldKind[]): { characters: string[] } | null {
  const open = choices.flatMap((options, index) => (options.length > 1 ? [index] : []));
  if (open.length > MAX_OPEN_POSITIONS) return null;
  let best: { characters: string[]; rank: number[] } | null = null;
  let tied = false;
  const picks = open.map(() => 0);
  for (;;) {
    const characters = choices.map((options, index) => options[open.includes(index) ? picks[open.indexOf(index)]! : 0]?.character ?? '<');
    if (checkDigit(characters.slice(0, -1).join('')) === characters.at(-1)) {
      const total = choices.reduce((sum, options, index) => sum + (options.find((option) => option.character === characters[index])?.votes ?? 0), 0);
      // As mrz-repair.ts ranks its readings: fewest breaks between letters and digits (a number is a run of letters
      // then digits far more often than it alternates), then fewest letters that look like digits (the readers read
      // 0 as O or D far more often than the reverse), then the most votes.
      const rank = [-mixedBreaks(characters, kinds), -digitLikeLetters(characters, kinds), total];
      const order = best === null ? 1 : compareRanks(rank, best.rank);
      if (order > 0) [best, tied] = [{ characters, rank }, false];
      else if (order === 0) tied = true;
    }
    let digit = 0;
    while (digit < open.length && ++picks[digit]! >= choices[open[digit]!]!.length) picks[digit++] = 0;
    if (digit === open.length) break;
  }
  return best === null || tied ? null : best;
}

/**
 * A reading at the line's length, or read with up to MAX_EXTRA characters more (a crop's edge or a neighbouring
 * line's stroke read as a character): each run of the line's length in it.
 */
function windows(text: string, length: number): string[] {
  const extra = text.length - length;
  if (extra < 0 || extra > MAX_EXTRA) return [];
  return Array.from({ length: extra + 1 }, (_, start) => text.slice(start, start + length));
}

/** Characters more than the line's length a reading may have and still be a candidate for it. */
const MAX_EXTRA = 2;
/** What the line reader makes of a filler (mrz-merge.ts). */
const FILLER_ARTEFACTS = new Set(['K', 'L', 'C', 'S', 'X', 'E', 'Z']);

/** Letter–digit breaks among the characters of a field that takes both (fillers left out). */
function mixedBreaks(characters: readonly string[], kinds: readonly FieldKind[]): number {
  const mixed = characters.filter((character, index) => kinds[index] === 'alphanumeric' && character !== '<');
  let breaks = 0;
  for (let index = 1; index < mixed.length; index++) if (/\d/.test(mixed[index]!) !== /\d/.test(mixed[index - 1]!)) breaks++;
  return breaks;
}

/** Letters that are an OCR-B look-alike of a digit (mrz-repair.ts): O, D, Q, U, I, L, T, Z, S, B, G, A. */
const DIGIT_LIKE_LETTERS = new Set(LOOK_ALIKE_PAIRS.flatMap((pair) => [...pair]).filter((character) => /[A-Z]/.test(character) && LOOK_ALIKE_PAIRS.some((other) => other.includes(character) && /\d/.test(other))));

/** Letters of a field that takes both which look like digits. */
function digitLikeLetters(characters: readonly string[], kinds: readonly FieldKind[]): number {
  return characters.filter((character, index) => kinds[index] === 'alphanumeric' && DIGIT_LIKE_LETTERS.has(character)).length;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return 0;
}

/** The character more than half the votes at a position give, or null. */
function majorityAt(votes: Votes[][], line: number, column: number): string | null {
  const here = votes[line]![column]!;
  const total = [...here.values()].reduce((sum, count) => sum + count, 0);
  const [top] = [...here].sort((a, b) => b[1] - a[1]);
  return top !== undefined && top[1] >= MIN_VOTES && top[1] * 2 > total ? top[0] : null;
}

/** The code of a state field most readings give, when it is a Doc 9303 code other than the zone's and no other code ties it. */
function codeByVote(zone: ParsedMrz, spec: FieldSpec, readings: readonly LineReading[]): { code: string; votes: number } | null {
  const read = zone.lines[spec.line]!.slice(spec.start, spec.start + spec.length);
  const tally = new Map<string, number>([[read, 1]]);
  for (const reading of readings) {
    if (reading.line !== spec.line) continue;
    const aligned = bestAlignment(zone.lines[spec.line]!, [reading.text])?.aligned ?? null;
    if (aligned === null) continue;
    const letters = aligned.slice(spec.start, spec.start + spec.length).map((character) => (character === null ? null : repaired(character, 'letters')));
    if (letters.some((letter) => letter === null)) continue;
    const code = letters.join('');
    tally.set(code, (tally.get(code) ?? 0) + 1);
  }
  const ranked = [...tally].filter(([code]) => KNOWN_CODES.has(code.replace(/<+$/, ''))).sort((a, b) => b[1] - a[1]);
  const [winner, runnerUp] = ranked;
  if (winner === undefined || winner[0] === read || winner[1] < MIN_VOTES || (runnerUp !== undefined && runnerUp[1] === winner[1])) return null;
  if ((tally.get(read) ?? 0) >= winner[1]) return null;
  return { code: winner[0], votes: winner[1] };
}

function votesLabel(votes: Votes[][], line: number, column: number, character: string): string {
  const here = votes[line]![column]!;
  const total = [...here.values()].reduce((sum, count) => sum + count, 0);
  return `${here.get(character) ?? 0} of ${total} readings of this line give ${character} here`;
}

function kindsOf(zone: ParsedMrz): FieldKind[][] {
  const kinds = zone.lines.map((line) => [...line].map((): FieldKind => 'alphanumeric'));
  for (const spec of LAYOUT_FIELDS[zone.format].fields) for (let column = spec.start; column < spec.start + spec.length; column++) kinds[spec.line]![column] = spec.kind;
  return kinds;
}

/** The zone's earlier corrections, with each character the vote changed reported (keeping what was first read there). */
function corrected(before: ParsedMrz, after: ParsedMrz, reasons: Map<string, string>): MrzCorrection[] {
  const fieldAt = (line: number, column: number) => LAYOUT_FIELDS[before.format].fields.find((spec) => spec.line === line && column >= spec.start && column < spec.start + spec.length)?.name ?? '';
  const earlier = new Map(before.corrections.map((correction) => [`${correction.line - 1}:${correction.column - 1}`, correction]));
  const added: MrzCorrection[] = [];
  for (const [position, reason] of reasons) {
    const [line, column] = position.split(':').map(Number) as [number, number];
    const read = earlier.get(position)?.read ?? before.lines[line]![column]!;
    const taken = after.lines[line]![column]!;
    if (read !== taken) added.push({ line: line + 1, column: column + 1, field: fieldAt(line, column), read, taken, reason });
  }
  return [...before.corrections.filter((correction) => !reasons.has(`${correction.line - 1}:${correction.column - 1}`)), ...added];
}
