import { LAYOUT_FIELDS, parseMrz, type MrzCorrection, type ParsedMrz } from './mrz.ts';
import { bestAlignment } from './mrz-merge.ts';
import codes from './mrz-codes.json' with { type: 'json' };

/**
 * The issuing state and the holder's nationality settled by agreement between the readings. Both are codes of
 * Doc 9303 that no check digit covers, and most documents give one state twice; a look-alike misread can turn
 * one into another real code (PRT into PRI, TWN into TUN), which the list of codes cannot catch. When the two
 * fields differ only by letters OCR confuses, they are taken to be one code read twice, and the code that most
 * of the four readings give (each field as the shape reader read it and as the line reader did) is taken for
 * both; a tie, or a winner that is no code, leaves them as read. Two states that differ otherwise (a residence
 * permit of NLD held by a national of CHE) are never touched.
 */

/** Letter pairs OCR confuses in OCR-B capitals (the letter pairs of mrz-repair.ts). */
const CONFUSED = new Set(['OU', 'OD', 'OQ', 'OC', 'UV', 'VW', 'UW', 'IT', 'IL', 'TL', 'MN', 'MH', 'NH', 'MW', 'NW', 'EF', 'PR', 'PF', 'CG', 'BR', 'BO', 'BE', 'RH', 'KX', 'SB'].flatMap((pair) => [pair, `${pair[1]}${pair[0]}`]));
const KNOWN_CODES = new Set<string>([...codes.iso_3166_alpha3, ...codes.icao_additional]);

export function statesByAgreement(zone: ParsedMrz, lineReads: readonly string[]): ParsedMrz {
  const fields = LAYOUT_FIELDS[zone.format].fields.filter((spec) => spec.name === 'issuing_state' || spec.name === 'nationality');
  const [issuing, nationality] = fields.map((spec): FieldRead => ({ spec, read: zone.lines[spec.line]!.slice(spec.start, spec.start + spec.length) }));
  if (!issuing || !nationality) return zone;
  if (issuing.read === nationality.read || !/^[A-Z]{3}$/.test(issuing.read) || !/^[A-Z]{3}$/.test(nationality.read)) return zone;
  if (![...issuing.read].every((letter, index) => letter === nationality.read[index] || CONFUSED.has(`${letter}${nationality.read[index]}`))) return zone;
  const votes = new Map<string, number>();
  for (const reading of [issuing.read, nationality.read, ...[issuing, nationality].map((field) => lineReaderCode(zone, field, lineReads))]) {
    if (reading !== null) votes.set(reading, (votes.get(reading) ?? 0) + 1);
  }
  const ranked = [...votes].sort((a, b) => b[1] - a[1]);
  const [winner, runnerUp] = ranked;
  if (!winner || (runnerUp && runnerUp[1] === winner[1]) || !KNOWN_CODES.has(winner[0])) return zone;
  const code = winner[0];
  const lines = zone.lines.map((line) => [...line]);
  const corrections: MrzCorrection[] = [];
  for (const { spec, read } of [issuing, nationality]) {
    for (let offset = 0; offset < 3; offset++) {
      if (read[offset] === code[offset]) continue;
      lines[spec.line]![spec.start + offset] = code[offset]!;
      corrections.push({ line: spec.line + 1, column: spec.start + offset + 1, field: spec.name, read: read[offset]!, taken: code[offset]!, reason: `the issuing state and nationality differ only by look-alike letters; ${code} is what ${winner[1]} of the 4 readings of the two give` });
    }
  }
  const parsed = parseMrz(lines.map((characters) => characters.join('')));
  return parsed === null ? zone : { ...parsed, corrections: [...zone.corrections, ...corrections] };
}

interface FieldRead {
  spec: { line: number; start: number; length: number; name: string };
  read: string;
}

/** The line reader's reading of a code field, by the alignment of its line with the zone's; null when not all three letters aligned. */
function lineReaderCode(zone: ParsedMrz, field: FieldRead, lineReads: readonly string[]): string | null {
  const alignment = bestAlignment(zone.lines[field.spec.line]!, lineReads);
  if (alignment === null) return null;
  const letters = alignment.aligned.slice(field.spec.start, field.spec.start + 3);
  return letters.every((letter) => letter !== null && /^[A-Z]$/.test(letter)) ? letters.join('') : null;
}
