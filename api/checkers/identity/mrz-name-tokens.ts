import { LAYOUT_FIELDS, parseMrz, type MrzCorrection, type ParsedMrz } from './mrz.ts';
import { bestAlignment, type AlignedRead } from './mrz-merge.ts';

/**
 * The name field read word by word from the line reader, where the two readers disagree on a word's letters or
 * its length. No check digit covers the name, so what can be checked is its filler structure: the shape reader
 * (api/documents/ocr-mrz.ts) reads fillers reliably and so says where each word of the name begins and ends
 * (`<` between a name's parts, `<<` between surname and given names, fillers to the end), while the line reader
 * reads letters well but turns fillers into K, L or C, and the shape reader drops or doubles letters it cannot
 * separate (BASANAVICIENE read as OASMMVICIENE). Each word of the shape reading is taken from the line reader's
 * characters between the two readers' agreed word boundaries: the separators either side, as the alignment of the
 * two lines matches them (mrz-merge.ts). A word is taken only when those characters are all letters, at most
 * `MAX_LENGTH_CHANGE` more or fewer than the shape reader's, no more than two thirds of them different (one word
 * read twice, not another word), and the name with its separators still fits the field; the fillers at the end
 * of the field absorb the change of length.
 */

/** How many letters a word may gain or lose: a letter or two the shape reader dropped or doubled, never a different word. */
const MAX_LENGTH_CHANGE = 2;
/** Words shorter than this are left to the character-by-character merge: a one- or two-letter word has no boundary to trust. */
const MIN_WORD = 3;

interface Word {
  start: number;
  end: number;
}

export function nameFromLineReader(zone: ParsedMrz, lineReads: readonly string[]): ParsedMrz {
  const spec = LAYOUT_FIELDS[zone.format].fields.find((field) => field.name === 'name');
  if (!spec || lineReads.length === 0) return zone;
  const line = zone.lines[spec.line]!;
  const alignment = bestAlignment(line, lineReads);
  if (alignment === null) return zone;
  const field = line.slice(spec.start, spec.start + spec.length);
  const words = [...field.matchAll(/[A-Z]+/g)].map((match) => ({ start: spec.start + match.index, end: spec.start + match.index + match[0].length }));
  let rebuilt = '';
  let cursor = spec.start;
  let changed = 0;
  for (const word of words) {
    rebuilt += line.slice(cursor, word.start);
    const current = line.slice(word.start, word.end);
    const read = lineReaderWord(alignment, word, spec.start, current);
    const taken = read !== null && read !== current && word.end - word.start >= MIN_WORD && Math.abs(read.length - current.length) <= MAX_LENGTH_CHANGE && similar(read, current) ? read : current;
    if (taken !== current) changed++;
    rebuilt += taken;
    cursor = word.end;
  }
  if (changed === 0) return zone;
  const body = rebuilt.replace(/<+$/, '');
  // The name must still end in fillers (or exactly fill the field) and keep its words apart from what follows.
  if (body.length > spec.length) return zone;
  const name = body.padEnd(spec.length, '<');
  const lines = zone.lines.map((text, index) => (index === spec.line ? text.slice(0, spec.start) + name + text.slice(spec.start + spec.length) : text));
  const parsed = parseMrz(lines);
  if (parsed === null) return zone;
  const moved = (correction: MrzCorrection) => correction.line === spec.line + 1 && line[correction.column - 1] !== lines[spec.line]![correction.column - 1];
  return { ...parsed, corrections: [...zone.corrections.filter((correction) => !moved(correction)), ...nameCorrections(line, lines[spec.line]!, spec.line, spec.start, spec.length)] };
}

/**
 * The line reader's characters for one word of the shape reading: from just after the character matched to the
 * separator before the word (or the one matched to the word's first letter, at the field's start) to just before
 * the one matched to the separator after it. Null when a boundary is unmatched or the characters are not all letters.
 */
function lineReaderWord(alignment: AlignedRead, word: Word, fieldStart: number, current: string): string | null {
  const { matched, read } = alignment;
  const from = word.start === fieldStart ? matched[word.start]! : matched[word.start - 1]! + (matched[word.start - 1]! >= 0 ? 1 : 0);
  const to = matched[word.end] ?? -1;
  if (from < 0 || to < 0 || to <= from || (word.start !== fieldStart && matched[word.start - 1]! < 0)) return null;
  // A last letter the alignment matched to the shape reader's filler, itself followed by a filler the line reader
  // read as one ("BIRUTE<<" against "O3IUH<<<"), belongs to the word, unless it is a letter the line reader makes of fillers.
  const end = /^[A-Z]$/.test(read[to] ?? '') && !FILLER_LETTERS.has(read[to]!) && read[to + 1] === '<' ? to + 1 : to;
  const text = withoutFillerLetters(read.slice(from, end), current);
  return /^[A-Z]+$/.test(text) && text.length >= MIN_WORD ? text : null;
}

/**
 * The line reader's word without the letters it makes of the fillers around it ("KANNA", "IVANOVS", "VOIDLC"):
 * at each end, such letters the shape reader's word does not have there are the fillers beside the word.
 */
function withoutFillerLetters(word: string, shapeWord: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && FILLER_LETTERS.has(word[start]!) && word[start] !== shapeWord[0]) start++;
  while (end > start && FILLER_LETTERS.has(word[end - 1]!) && word[end - 1] !== shapeWord.at(-1)) end--;
  return word.slice(start, end);
}

/** The share of a word's letters the two readers may read differently and still be reading one word (OASMMVICIENE, BASANAVICIENE). */
const MAX_DIFFERENT_SHARE = 2 / 3;

function similar(a: string, b: string): boolean {
  return editDistance(a, b) <= Math.max(a.length, b.length) * MAX_DIFFERENT_SHARE;
}

/** Levenshtein distance: insertions, deletions and substitutions each cost one. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

/** The letters the line reader reads fillers as (mrz-merge.ts). */
const FILLER_LETTERS = new Set(['K', 'L', 'C', 'S']);

/** Each character of the name that differs from the shape reader's, reported with why. */
function nameCorrections(before: string, after: string, line: number, start: number, length: number): MrzCorrection[] {
  const corrections: MrzCorrection[] = [];
  for (let column = start; column < start + length; column++) {
    if (before[column] === after[column]) continue;
    corrections.push({
      line: line + 1,
      column: column + 1,
      field: 'name',
      read: before[column]!,
      taken: after[column]!,
      reason: "the shape reader's word boundaries with the line reader's letters between them: the two readers read this word with different letters or lengths",
    });
  }
  return corrections;
}
