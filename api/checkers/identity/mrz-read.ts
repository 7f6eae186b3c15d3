import sharp from 'sharp';
import { MRZ_ALPHABET, type BandLine } from '../../documents/ocr-mrz.ts';
import type { PageText, TextItem } from '../../documents/types.ts';
import { parseMrz, type ParsedMrz } from './mrz.ts';
import { mergeReadings } from './mrz-merge.ts';
import { nameFromLineReader } from './mrz-name-tokens.ts';
import { statesByAgreement } from './mrz-states.ts';
import { settleLookAlikes } from './mrz-repair.ts';
import { readZoneLines, type MrzReaders } from './mrz-line-reads.ts';
export type { MrzReaders };
import { voteByLine } from './mrz-vote.ts';

/**
 * Finds the machine-readable zone on a page already read by OCR or from a text layer, and reads it.
 *
 * Where: the page reader's lines that look like a zone (long runs of capitals, digits and fillers with no
 * spaces, or several `<`) give the band; its lines are grouped and the group with most zone characters is
 * taken. How: the band is cropped from the page's picture, scaled so its lines are a height the MRZ reader
 * reads well, and read with the zone's alphabet only (api/documents/ocr-mrz.ts); a second, third and fourth
 * preparation (larger, binarised, then larger and sharpened for blurred thumbnails) are read only when the
 * ones before did not give every line of a layout at its length with every check digit verifying. Each reading
 * is merged with the line reader's (mrz-merge.ts, character by character under the check digits), its name taken
 * word by word between the shape reader's separators (mrz-name-tokens.ts) and its issuing state and nationality
 * settled by agreement between the readings (mrz-states.ts). Each line of the reading kept is then cropped and read
 * again alone under three preparations (mrz-line-reads.ts) and the readings voted on under the zone's grammar and
 * check digits (mrz-vote.ts); last, its look-alikes are settled by its check digits and codes (mrz-repair.ts). A page
 * with a text layer is parsed from its text directly.
 */

/** Where the band was found, in the page picture's pixels. */
export interface Band {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MrzRead {
  /**
   * The zone read, or null when it was not readable: readable means every line of one layout was read at
   * its exact length, or fitted to it without changing a character read (`adjustments`).
   */
  zone: ParsedMrz | null;
  band: Band | null;
  /** Band preparations read by OCR (0 for a text layer or no band). */
  attempts: number;
  /** How read lines were fitted to their length, e.g. `line 1: a run of 16 fillers read as 15`. */
  adjustments: string[];
}

const NOTHING: MrzRead = { zone: null, band: null, attempts: 0, adjustments: [] };

/** How a band is made ready for the reader: scaled to this line height (pixels), and binarised or not. */
export interface BandPreparation {
  lineHeight: number;
  binarise: boolean;
  /** Unsharp-masked before reading: a thumbnail's strokes, blurred into each other, come apart. */
  sharpen?: boolean;
}

/** The preparations a band is read with, in order, until one gives a readable zone whose check digits verify. */
export const PREPARATIONS: readonly BandPreparation[] = [
  { lineHeight: 40, binarise: false },
  { lineHeight: 56, binarise: false },
  { lineHeight: 40, binarise: true },
  { lineHeight: 64, binarise: false, sharpen: true },
];

/** The most a band is enlarged: beyond this a thumbnail's blur only grows. */
const MAX_ENLARGEMENT = 4;
/** The widest band read (pixels): a zone of 44 characters needs about 1,300; wider only slows the reader. */
const MAX_BAND_WIDTH = 2_000;

/** The two readers a zone is read with: the shape reader for its layout and fillers, the page's line reader for its letters. */

export async function readMrz(page: PageText, picture: Uint8Array | null, readers: MrzReaders, preparations: readonly BandPreparation[] = PREPARATIONS): Promise<MrzRead> {
  if (page.source === 'text_layer' || picture === null) return zoneFromLines(page.text.split('\n').map(compact));
  const zoneLines = groupedZoneLines(page);
  if (zoneLines === null) return NOTHING;
  const metadata = await sharp(picture).metadata();
  const pixelsPerPoint = (metadata.width ?? page.width) / page.width;
  const band = bandOf(zoneLines, pixelsPerPoint, metadata.width ?? 0, metadata.height ?? 0);
  const lineHeight = (zoneLines.reduce((sum, line) => sum + line.height, 0) / zoneLines.length) * pixelsPerPoint;
  return readBand(picture, band, lineHeight, readers, preparations);
}

/**
 * The bottom of a passport's data page, where Doc 9303 part 4 puts the zone, read as a band when the page
 * reader saw no line of it (a thumbnail, a glare): a TD3 zone is two lines in the lowest quarter or so.
 */
export async function readPassportFoot(picture: Uint8Array, readers: MrzReaders): Promise<MrzRead> {
  const { width = 0, height = 0 } = await sharp(picture).metadata();
  const top = Math.round(height * (1 - PASSPORT_FOOT));
  return readBand(picture, { left: 0, top, width, height: height - top }, (height - top) / 6, readers, PREPARATIONS);
}

/** The share of a data page's height searched for its zone when no line of it was seen. */
const PASSPORT_FOOT = 0.32;

/** Reads one band with each preparation in turn, until a zone whose check digits all verify. */
async function readBand(picture: Uint8Array, band: Band, lineHeight: number, readers: MrzReaders, preparations: readonly BandPreparation[]): Promise<MrzRead> {
  if (band.width < 8 || band.height < 8) return NOTHING;
  let best: MrzRead = { ...NOTHING, band };
  // The prepared band the kept reading came from, and the lines the shape reader found in it.
  let bestBand: { png: Uint8Array; lines: BandLine[] } | null = null;
  let attempts = 0;
  let lineReads: string[] | null = null;
  const shapes = await readers.shapes.reader();
  for (const preparation of preparations) {
    attempts++;
    const factor = Math.min(MAX_ENLARGEMENT, MAX_BAND_WIDTH / band.width, Math.max(0.5, preparation.lineHeight / lineHeight));
    let image = sharp(picture).extract(band).greyscale().resize({ width: Math.max(1, Math.round(band.width * factor)), kernel: 'lanczos3' });
    if (preparation.sharpen) image = image.normalise().sharpen({ sigma: 1.5 });
    if (preparation.binarise) image = image.normalise().threshold(128);
    const png = new Uint8Array(await image.png().toBuffer());
    const bandLines = await shapes.readBand(png);
    const read = { ...zoneFromLines(bandLines.map((line) => line.text)), band };
    if (read.zone !== null) {
      // The line reader reads the first band that gave a zone; its letters serve every later preparation too.
      lineReads ??= await (await readers.lines.reader()).readLines(png, MRZ_ALPHABET);
      read.zone = statesByAgreement(nameFromLineReader(mergeReadings(read.zone, lineReads), lineReads), lineReads);
    }
    if (better(read, best)) [best, bestBand] = [read, { png, lines: bandLines }];
    if (best.zone?.valid) break;
  }
  if (best.zone === null || bestBand === null) return { ...best, attempts };
  // Each line read again alone and voted on, then look-alikes settled, on the reading kept, after the choice: a
  // voted or settled reading never outranks one read whole.
  const voted = voteByLine(best.zone, await readZoneLines(bestBand.png, bestBand.lines, best.zone, readers));
  return { ...best, zone: settleLookAlikes(voted), attempts };
}

/** A read that is readable beats one that is not; then more verifying check digits; then fewer adjustments and repairs. */
function better(candidate: MrzRead, current: MrzRead): boolean {
  return rank(candidate) > rank(current);
}

function rank(read: MrzRead): number {
  if (read.zone === null) return -1;
  const verifying = read.zone.checks.filter((check) => check.valid).length;
  return 1000 + verifying * 10 - read.adjustments.length * 3 - Math.min(2, read.zone.corrections.length / 10);
}

/** Lines of text with their spaces removed, as the zone is read (OCR puts spaces between some characters). */
function compact(line: string): string {
  return line.replace(/\s+/g, '').toUpperCase();
}

/**
 * The best zone among consecutive lines: each line taken at its exact length, or fitted to it (`fits`);
 * of the fits, the one whose check digits verify most, then with fewest adjustments.
 */
export function zoneFromLines(readLines: string[]): MrzRead {
  const lines = readLines.map((line) => line.replace(/[«‹]/g, '<')).filter((line) => line.length >= 20);
  let best: MrzRead = NOTHING;
  for (const { lines: count, length, nameLine } of SHAPES) {
    for (let start = 0; start + count <= lines.length; start++) {
      const choices = lines.slice(start, start + count).map((line, index) => fits(line, length, index === nameLine, index === 0 && nameLine === 0).slice(0, MAX_FITS_PER_LINE));
      for (const combination of product(choices)) {
        const zone = parseMrz(combination.map((fit) => fit.line));
        if (zone === null || !plausible(zone)) continue;
        const adjustments = combination.flatMap((fit, index) => (fit.adjustment === null ? [] : [`line ${index + 1}: ${fit.adjustment}`]));
        const read: MrzRead = { zone, band: null, attempts: 0, adjustments };
        if (better(read, best)) best = read;
      }
    }
  }
  return best;
}

/**
 * A zone and not lines of other text that happen to have a zone's lengths (an invoice's IBAN and reference
 * lines): the document code begins as its layout requires, and the birth or the expiry date is a calendar
 * date (both are not asked: a misread digit in one is a check-digit failure to report, not a reason to lose the zone).
 */
function plausible(zone: ParsedMrz): boolean {
  const first = zone.fields.document_code[0] ?? '';
  const codeFits = zone.format === 'TD3' ? first === 'P' : zone.format.startsWith('MRV') ? first === 'V' : 'IAC'.includes(first);
  return codeFits && (calendarDate(zone.fields.birth_date) || calendarDate(zone.fields.expiry_date));
}

function calendarDate(yymmdd: string): boolean {
  if (!/^\d{6}$/.test(yymmdd)) return false;
  const month = Number(yymmdd.slice(2, 4));
  const day = Number(yymmdd.slice(4, 6));
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** The zone shapes (TD3 and MRV-A share one, TD2 and MRV-B another; the document code tells them apart) and which line holds the name. */
const SHAPES = [
  { lines: 3, length: 30, nameLine: 2 },
  { lines: 2, length: 36, nameLine: 0 },
  { lines: 2, length: 44, nameLine: 0 },
];

/** How far a read line may be from its layout's length and still be fitted to it. */
const MAX_LENGTH_MISS = 4;
const MAX_FITS_PER_LINE = 12;

interface Fit {
  line: string;
  /** What was done to the read line, or null when it was read at its length. */
  adjustment: string | null;
}

/**
 * A read line made the layout's length without changing any character it read: characters before or after
 * the zone dropped (a card's edge or a frame read as letters), or one run of fillers made shorter or longer
 * (fillers are uniform, so their count is the glyph OCR most often miscounts); a name line may also be
 * padded with fillers at its end. Which fit is right is left to the check digits (`zoneFromLines`).
 */
function fits(line: string, length: number, nameLine: boolean, opensWithCode: boolean): Fit[] {
  const miss = line.length - length;
  if (miss === 0) return [{ line, adjustment: null }];
  if (Math.abs(miss) > MAX_LENGTH_MISS) return [];
  const found = new Map<string, string>();
  const add = (candidate: string, adjustment: string) => {
    if (candidate.length === length && !found.has(candidate)) found.set(candidate, adjustment);
  };
  const runs = [...line.matchAll(/<+/g)];
  // A name line has no check digit to tell a wrong fit, so only its trailing fillers are recounted (never the `<<` between names).
  const resizable = nameLine ? runs.filter((run) => run.index + run[0].length === line.length) : runs;
  for (const run of resizable) {
    const size = run[0].length;
    if (size - miss >= 1) add(line.slice(0, run.index) + '<'.repeat(size - miss) + line.slice(run.index + size), `${size} fillers in a run taken as ${size - miss}`);
  }
  if (miss > 0 && !nameLine) for (let before = 0; before <= miss; before++) add(line.slice(before, line.length - (miss - before)), `${before} character(s) before and ${miss - before} after the zone dropped`);
  if (miss > 0 && nameLine) add(line.slice(0, length), `${miss} character(s) after the name dropped`);
  // A first line opens with its document code: characters before a P, V, I, A or C are a frame or an edge.
  if (miss > 0 && opensWithCode) {
    for (let before = 1; before <= miss; before++) {
      const rest = line.slice(before);
      if ('PVIAC'.includes(rest[0]!)) add(rest.replace(/<+$/, (fillers) => fillers.slice(0, Math.max(0, fillers.length - (miss - before)))).slice(0, length), `${before} character(s) before the document code dropped`);
    }
  }
  if (miss < 0 && nameLine) add(line + '<'.repeat(-miss), `${-miss} filler(s) added at the end of the name`);
  return [...found].map(([candidate, adjustment]) => ({ line: candidate, adjustment }));
}

function* product<T>(choices: T[][]): Generator<T[]> {
  if (choices.length === 0) {
    yield [];
    return;
  }
  for (const head of choices[0]!) for (const rest of product(choices.slice(1))) yield [head, ...rest];
}

/** A page line that looks like part of a zone: a long unbroken run of capitals, digits and fillers, or several fillers. */
function looksLikeZoneLine(text: string): boolean {
  const run = text.replace(/\s+/g, '');
  if (run.length < 12) return false;
  const fillers = (run.match(/[<«‹]/g) ?? []).length;
  return fillers >= 2 || /[A-Z0-9<]{20,}/.test(run);
}

interface ZoneLine {
  x: number;
  y: number;
  width: number;
  height: number;
  characters: number;
}

/** The page's zone-like lines (items on one line merged), grouped by nearness; the group with most zone characters. */
function groupedZoneLines(page: PageText): ZoneLine[] | null {
  const candidates = page.items.filter((item) => looksLikeZoneLine(item.text)).map(zoneLineOf);
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => a.y - b.y);
  const groups: ZoneLine[][] = [];
  for (const line of candidates) {
    const group = groups.at(-1);
    const last = group?.at(-1);
    if (group && last && line.y - (last.y + last.height) < Math.max(line.height, last.height) * 1.6) group.push(line);
    else groups.push([line]);
  }
  const weight = (group: ZoneLine[]) => group.reduce((sum, line) => sum + line.characters, 0);
  return groups.reduce((best, group) => (weight(group) >= weight(best) ? group : best));
}

/**
 * A page line's zone, from where its first run of zone characters starts (the page reader may have joined
 * a frame or a label before it, "fa 1DSRB…"), by that run's share of the characters, to the line's end
 * (a short run after a space, "< 998", is still the zone).
 */
function zoneLineOf(item: TextItem): ZoneLine {
  const first = /[A-Z0-9<«‹]{5,}/.exec(item.text);
  const start = first === null ? 0 : first.index / item.text.length;
  return { x: item.x + item.width * start, y: item.y, width: item.width * (1 - start), height: item.height, characters: item.text.replace(/\s+/g, '').length };
}

/**
 * The band around the zone's lines, in pixels: their box widened by a line height each side and, when only
 * some of a zone's lines were recognised (one line of three), by enough lines above and below to hold the rest.
 */
function bandOf(lines: ZoneLine[], pixelsPerPoint: number, pictureWidth: number, pictureHeight: number): Band {
  const lineHeight = lines.reduce((sum, line) => sum + line.height, 0) / lines.length;
  const missingLines = Math.max(0, 3 - lines.length);
  const left = Math.min(...lines.map((line) => line.x)) - lineHeight * 2;
  const right = Math.max(...lines.map((line) => line.x + line.width)) + lineHeight * 2;
  const top = Math.min(...lines.map((line) => line.y)) - lineHeight * (1 + missingLines * 1.6);
  const bottom = Math.max(...lines.map((line) => line.y + line.height)) + lineHeight * (1 + missingLines * 1.6);
  const clamp = (value: number, limit: number) => Math.min(limit, Math.max(0, Math.round(value * pixelsPerPoint)));
  const x0 = clamp(left, pictureWidth);
  const y0 = clamp(top, pictureHeight);
  return { left: x0, top: y0, width: clamp(right, pictureWidth) - x0, height: clamp(bottom, pictureHeight) - y0 };
}
