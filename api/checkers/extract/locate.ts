import type { PageText } from '../../documents/types.ts';
import { cellPages, horizontalOverlap, type PageCell } from './page-cells.ts';
import type { FieldRule, ValueKind } from './templates.ts';
import { documentDayFirst, escapeRegExp, findAmounts, findDates, findIdentifier, findNumbers, readBoolean } from './values.ts';

/** A located value, before it becomes a result field. */
export interface LocatedValue {
  value: string | number | boolean;
  /** 0..1: how the value was found (beside its label, in the next cell, below it, by letterhead) times the page's reading confidence. */
  confidence: number;
  page: number;
}

/** A located value and how sure its way of being found is on a page read perfectly. */
interface PlacedValue extends LocatedValue {
  placement: number;
}

/** How sure each way of finding a value is, on a page read perfectly. */
const placementConfidence = { sameCell: 0.95, nextCell: 0.92, below: 0.85, sentence: 0.8, letterhead: 0.7 } as const;

/** Words a document title is made of: a letterhead is the first line that is not one of these. */
const titleWords = /^(?:tax\s+invoice|invoice|receipt|tax\s+invoice\s*\/\s*receipt|pay\s*slip|payslip|pay\s+advice|(?:earnings|pay)\s+statement|pay\s*stub(?:\s+detail)?|(?:direct\s+deposit|remittance)\s+advice|(?:bank\s+|account\s+)?statement(?:\s+of\s+account)?|agreement|page\s+\d+.*)$/i;

interface Cell {
  text: string;
  /** Index of the cell in its line (cells are the tab-separated runs of a line). */
  index: number;
  /** The cell's place on the page, when the page has geometry (a PDF's text layer, OCR) and the cell is found there. */
  place: PageCell | null;
}

interface Line {
  cells: Cell[];
  page: PageText;
  /** Index of the line on its page. */
  number: number;
}

interface LabelMatch {
  label: string;
  /** The cell's text after the label. */
  rest: string;
  /** A checkbox the cell opens with, before the label ("[x] Goods received"), or ''. */
  box: string;
}

/**
 * Finds labelled values in pages of text. Every label any field knows competes for each cell: a cell
 * belongs to the longest label it starts with, so "Total GST: $10" is GST's and never Total's, and
 * "Customer ABN" is the buyer's ABN rather than the supplier's.
 */
export class FieldLocator {
  readonly #lines: Line[][];
  readonly #labels: { label: string; pattern: RegExp }[];
  /** Numeric dates read day first, as the document's own unambiguous dates (else its country) show. */
  readonly #dayFirst: boolean;
  /** Each distinct cell text's label, worked out once: every field asks about every cell. */
  readonly #labelCache = new Map<string, LabelMatch | null>();

  constructor(pages: readonly PageText[], labels: Iterable<string>, country: string | undefined) {
    const placed = cellPages(pages);
    this.#lines = pages.map((page, pageIndex) => {
      const places = new Map(placed[pageIndex]!.lines.flat().map((cell) => [`${cell.line}:${cell.index}`, cell]));
      return page.text.split('\n').map((text, number) => ({
        page,
        number,
        cells: text.split('\t').map((cell, index) => {
          const place = places.get(`${number}:${index}`);
          return { text: cell.trim(), index, place: place && !Number.isNaN(place.x0) && place.text === cell.trim() ? place : null };
        }),
      }));
    });
    this.#labels = [...new Set(labels)].sort((a, b) => b.length - a.length).map((label) => ({ label, pattern: labelPattern(label) }));
    this.#dayFirst = documentDayFirst(
      pages.map((page) => page.text),
      country,
    );
  }

  /**
   * The field's value: the best placement anywhere in the pages, the earliest on ties; null when absent.
   * Placements are compared without the page's reading confidence: a later OCR page read more clearly does
   * not make a value placed the same way there (the first row under a repeated table heading) the better one.
   */
  locate(rule: FieldRule, accept: (value: string | number | boolean) => boolean = () => true): LocatedValue | null {
    const ownLabels = new Set([...rule.labels, ...(rule.rangeLabels ?? [])]);
    let best: PlacedValue | null = null;
    for (const lines of this.#lines) {
      for (const line of lines) {
        for (const cell of line.cells) {
          const match = this.#labelOf(cell.text, line.page.source === 'ocr');
          if (!match || !ownLabels.has(match.label)) continue;
          const rangeIndex = rule.rangeLabels?.includes(match.label) && !rule.labels.includes(match.label) ? (rule.rangeIndex ?? 0) : null;
          const found = this.#valueNear(rule.kind, line, cell, match, lines, rangeIndex, accept);
          if (found && (!best || found.placement > best.placement)) best = found;
        }
      }
    }
    // A bank's name printed in full beats a word beside "Bank" with no colon ("BANK OF AMERICA ACCOUNT DETAILS").
    if (rule.institution && (!best || best.placement < placementConfidence.below)) {
      const institution = this.#institution();
      if (institution) return institution;
    }
    // A person's name over their street address beats a heading beside a label word ("Employee Earnings").
    if (rule.addressee && (!best || best.placement < placementConfidence.below)) {
      const addressee = this.#addressee();
      if (addressee) return addressee;
    }
    // "EMPLOYER PAID BENEFITS" is a heading, not the employer: the letterhead beats a label word without a colon.
    if (rule.letterhead && best && best.placement < placementConfidence.below) {
      const head = this.#letterhead();
      if (head) return head;
    }
    if (best) return { value: best.value, confidence: best.confidence, page: best.page };
    if (rule.asOfLabels && rule.kind === 'date') {
      const asOf = this.#asOfDate(new Set(rule.asOfLabels));
      if (asOf) return asOf;
    }
    if (rule.unlabelledRange && rule.kind === 'date') {
      const ranged = this.#firstRange(rule.rangeIndex ?? 0);
      if (ranged) return ranged;
    }
    if (rule.sentence) return this.#inSentence(rule);
    return rule.letterhead ? this.#letterhead() : null;
  }

  /** The date after "on" or "as of" in the first cell of one of `labels` ("Ending balance on 09/30/2024"), at a sentence's confidence. */
  #asOfDate(labels: ReadonlySet<string>): LocatedValue | null {
    for (const lines of this.#lines) {
      for (const line of lines) {
        for (const cell of line.cells) {
          const match = this.#labelOf(cell.text, line.page.source === 'ocr');
          if (!match || !labels.has(match.label)) continue;
          const asOf = asOfPhrase.exec(match.rest);
          const date = asOf ? findDates(match.rest.slice(asOf[0].length), undefined, this.#dayFirst)[0] : undefined;
          if (date && date.start <= 1) return { value: date.value, confidence: round(placementConfidence.sentence * line.page.confidence), page: line.page.page };
        }
      }
    }
    return null;
  }

  /**
   * The addressee of page 1: the first cell that reads as a person's name (two to four capitalised words, no digits,
   * no company form) with a street address under it in its column within three lines ("DOMINIC BOGDAN" over
   * "111 LAKES RD", "Michael Scott" over "11234 Fake Road"), as a statement or pay stub prints its holder's.
   */
  #addressee(): LocatedValue | null {
    const lines = this.#lines[0] ?? [];
    for (const line of lines) {
      for (const cell of line.cells) {
        const name = cell.text.replace(/[\s:;,]+$/, '');
        if (!personName.test(name) || companyWord.test(name) || this.#labelOf(name, line.page.source === 'ocr')) continue;
        const street = lines.slice(line.number + 1, line.number + 4).some((below) => {
          const under = cellUnder(cell, below);
          return under !== undefined && streetLine.test(under.text);
        });
        if (street) return { value: name, confidence: round(placementConfidence.letterhead * line.page.confidence), page: line.page.page };
      }
    }
    return null;
  }

  /**
   * A financial institution's name ("Wells Fargo Bank, N.A.", "Bank of America", "Example Inc. Credit Union"): the one
   * printed most often over the pages, the first on ties, at a letterhead's confidence.
   */
  #institution(): LocatedValue | null {
    const seen = new Map<string, { name: string; count: number; page: PageText }>();
    for (const lines of this.#lines) {
      for (const line of lines) {
        for (const cell of line.cells) {
          for (const match of cell.text.matchAll(institutionName)) {
            const name = match[0].replace(/[\s,]+$/, '');
            const entry = seen.get(name.toLowerCase()) ?? { name, count: 0, page: line.page };
            entry.count++;
            seen.set(name.toLowerCase(), entry);
          }
        }
      }
    }
    let best: { name: string; count: number; page: PageText } | null = null;
    for (const entry of seen.values()) if (!best || entry.count > best.count) best = entry;
    return best ? { value: best.name, confidence: round(placementConfidence.letterhead * best.page.confidence), page: best.page.page } : null;
  }

  /** The longest label the cell starts with; on an OCR page a label misread by a letter or two counts too. */
  #labelOf(cellText: string, ocr: boolean): LabelMatch | null {
    const key = `${ocr ? 'ocr' : 'text'}\u0000${cellText}`;
    let match = this.#labelCache.get(key);
    if (match === undefined) this.#labelCache.set(key, (match = this.#findLabel(cellText, ocr)));
    return match;
  }

  #findLabel(cellText: string, ocr: boolean): LabelMatch | null {
    // A transaction row's date before its label ("09/30 Ending Balance $53,486.15") is the row's, not the label's.
    const box = leadingCheckbox.exec(cellText)?.[0] ?? '';
    const rowDate = box === '' ? (leadingRowDate.exec(cellText)?.[0] ?? '') : '';
    const text = cellText.slice(box.length + rowDate.length);
    const exact = this.#exactLabelOf(text);
    // "Invoice mumber" starts with the label "invoice", but the label of more words read with a slip is the
    // cell's; a slip never beats an exact label of as many words ("Date" is not "dated" misread).
    const misread = ocr ? this.#misreadLabelOf(text) : null;
    const match = misread && (!exact || wordCount(misread.label) > wordCount(exact.label)) ? misread : exact;
    return match ? { ...match, box } : null;
  }

  #exactLabelOf(text: string): Omit<LabelMatch, 'box'> | null {
    for (const { label, pattern } of this.#labels) {
      const match = pattern.exec(text);
      if (match) return { label, rest: text.slice(match[0].length) };
    }
    return null;
  }

  /**
   * "Cantractor", "Conmencement date": OCR's usual one-letter slips, at most one per five letters; and "Tem"
   * for "Term", since OCR reads an r run into an n or m ("rn", "rm") as one m.
   */
  #misreadLabelOf(text: string): Omit<LabelMatch, 'box'> | null {
    const words = text.split(/(?<=\S)(?=\s)/);
    for (const { label } of this.#labels) {
      const wordCount = label.split(' ').length;
      if (label.length < 3 || words.length < wordCount) continue;
      const head = words.slice(0, wordCount).join('');
      const candidate = head.trim().toLowerCase().replace(/[:.]$/, '');
      const slips = Math.min(editDistance(candidate, label), editDistance(candidate, label.replace(/r[nm]/g, 'm')));
      if (slips <= Math.floor(label.length / 5)) return { label, rest: text.slice(head.length) };
    }
    return null;
  }

  /** `accept` passes over an amount the other fields rule out ("Gross Earnings  80.00  4,278.47": 80.00 hours, below the net pay) for the next one. */
  #valueNear(kind: ValueKind, line: Line, cell: Cell, match: LabelMatch, lines: Line[], rangeIndex: number | null, accept: (value: string | number | boolean) => boolean): PlacedValue | null {
    const read = (text: string) => {
      if (kind !== 'amount') {
        const value = readValue(kind, text, this.#dayFirst, rangeIndex);
        return value !== null && accept(value) ? value : null;
      }
      return findAmounts(text).find((amount) => accept(amount.value))?.value ?? null;
    };
    const pageConfidence = line.page.confidence;
    const ocr = line.page.source === 'ocr';
    const at = (value: string | number | boolean | null, placement: keyof typeof placementConfidence): PlacedValue | null =>
      value === null ? null : { value, confidence: round(placementConfidence[placement] * pageConfidence), page: line.page.page, placement: placementConfidence[placement] };
    if (kind === 'boolean') {
      const before = match.box || line.cells.slice(0, cell.index).map((other) => other.text).join(' ');
      return at(readBoolean(before, match.rest), 'sameCell');
    }
    // "The Contractor must perform…" is prose that starts with a label's words, not a label and its value.
    if ((kind === 'text' || kind === 'governing_law') && /^\s*[a-z]/.test(match.rest)) return null;
    // "Beginning balance on June 10, 2021   $2,825.37": the amount is in the next cell, the date only says when.
    const rest = kind === 'amount' ? withoutAsOf(match.rest, this.#dayFirst) : match.rest;
    // "Account Type: 5/3 BUS ELITE CKG" is another label, not the account number's value: the number opens what follows its label.
    if (kind === 'account_number' && findIdentifier(stripSeparators(rest), kind)?.start !== 0 && stripSeparators(rest) !== '') return null;
    const beside = read(stripSeparators(rest));
    // A heading of words ("Employee Earnings", "Company Tax") is no label and value: without a colon or dash, a name beside its label ranks below one under it.
    if (beside !== null) return at(beside, kind === 'text' && !/^\s*[:#\-–—]/.test(match.rest) ? 'sentence' : 'sameCell');
    if (stripSeparators(rest) !== '') return null;
    const below = lines.slice(line.number + 1).find((candidate) => candidate.cells.some((other) => other.text !== ''));
    const underneath = below ? cellUnder(cell, below) : undefined;
    const readBelow = () => (underneath && !this.#labelOf(underneath.text, ocr) ? at(read(stripSeparators(underneath.text)), 'below') : null);
    // A table's header row ("Description  Qty  Price"): each heading's value is in the row below, not beside it.
    if (isHeaderRow(line, below)) return readBelow();
    // To the right: the next cell, or for an amount the first of the next cells that holds one ("Net Pay   CCCC   $411.27").
    for (const next of line.cells.slice(cell.index + 1, cell.index + (kind === 'amount' ? 4 : 2))) {
      if (next.text === '') continue;
      if (this.#labelOf(next.text, ocr)) break;
      const value = read(stripSeparators(next.text));
      if (value !== null) return at(value, 'nextCell');
      if (kind !== 'amount' || (/\d/.test(next.text) && findAmounts(next.text).length === 0)) break;
    }
    return readBelow();
  }

  /** One end of the first "<date> to <date>" on page 1, at a sentence's confidence: nothing labels it. */
  #firstRange(rangeIndex: number): LocatedValue | null {
    for (const line of this.#lines[0] ?? []) {
      const text = line.cells.map((cell) => cell.text).join(' ');
      const dates = findDates(text, undefined, this.#dayFirst);
      for (let index = 0; index + 1 < dates.length; index++) {
        if (!rangeJoin.test(text.slice(dates[index]!.end, dates[index + 1]!.start))) continue;
        const page = line.page;
        return { value: dates[index + rangeIndex]!.value, confidence: round(placementConfidence.sentence * page.confidence), page: page.page };
      }
    }
    return null;
  }

  #inSentence(rule: FieldRule): LocatedValue | null {
    for (const lines of this.#lines) {
      const page = lines[0]?.page;
      if (!page) continue;
      const match = rule.sentence!.exec(page.text.replace(/\s*\n\s*/g, ' '));
      if (match) return { value: match[1]!.trim(), confidence: round(placementConfidence.sentence * page.confidence), page: page.page };
    }
    return null;
  }

  #letterhead(): LocatedValue | null {
    const firstPage = this.#lines[0];
    for (const line of firstPage ?? []) {
      const first = line.cells[0]!.text;
      if (first === '' || titleWords.test(first) || !/[A-Za-z]{3}/.test(first) || this.#labelOf(first, line.page.source === 'ocr')) continue;
      return { value: first, confidence: round(placementConfidence.letterhead * line.page.confidence), page: line.page.page };
    }
    return null;
  }
}

/** Every `Label: value` pair on the pages in reading order: the labels the document itself uses. */
export function labelledPairs(pages: readonly PageText[]): { label: string; value: string; page: number; confidence: number }[] {
  const pairs: { label: string; value: string; page: number; confidence: number }[] = [];
  for (const page of pages) {
    for (const line of page.text.split('\n')) {
      for (const cell of line.split('\t')) {
        const pair = /^([A-Za-z][\w ()/&.'#-]{0,40}?)\s*:\s*(\S.*)$/.exec(cell.trim());
        if (pair) pairs.push({ label: pair[1]!, value: pair[2]!.trim(), page: page.page, confidence: round(placementConfidence.sameCell * page.confidence) });
      }
    }
  }
  return pairs;
}

/**
 * The cell of the line below that sits under `cell`: by the page's geometry the one overlapping it most (a column's
 * value under its heading, "Company" over "Delta Airlines"), else the one at the same index.
 */
function cellUnder(cell: Cell, below: Line): Cell | undefined {
  const placed = below.cells.filter((other) => other.place !== null && other.text !== '');
  if (cell.place && placed.length === below.cells.filter((other) => other.text !== '').length) {
    const overlaps = placed.map((other) => ({ other, overlap: horizontalOverlap(other.place!, cell.place!) })).sort((a, b) => b.overlap - a.overlap);
    return overlaps[0] && overlaps[0].overlap > 0 ? overlaps[0].other : undefined;
  }
  return below.cells[Math.min(cell.index, below.cells.length - 1)];
}

/** "on", "as of" or "as at" and the date they name, opening the rest of a balance's cell. */
const asOfPhrase = /^[\s,:]*(?:on|as\s+of|as\s+at)\s+/i;

/** A cell's text without an opening "on <date>" or "as of <date>" phrase (an amount may follow it). */
function withoutAsOf(text: string, dayFirst: boolean): string {
  const asOf = asOfPhrase.exec(text);
  if (!asOf) return text;
  const after = text.slice(asOf[0].length);
  const date = findDates(after, undefined, dayFirst)[0];
  return date && date.start === 0 ? after.slice(date.end) : text;
}

/** Two to four words, each capitalised or in capitals (an initial or a hyphenated name too): how a person's name is addressed. */
const personName = /^(?:\p{Lu}[\p{L}'’.-]*)(?: \p{Lu}[\p{L}'’.-]*){1,3}$/u;

/** Words a company's or an office's name carries and a person's does not. */
const companyWord = /\b(?:inc|llc|llp|ltd|limited|pty|corp|corporation|co|company|bank|services|center|centre|group|trust|statement|account|summary|department|office|payroll|university|school|district|checking|savings)\b\.?/i;

/** A street address line: a house number and a street name, or a post-office box. */
const streetLine = /^(?:\d+[A-Za-z]?\s+\p{L}|P\.?\s?O\.?\s+Box\b)/iu;

/** A transaction row's date opening a cell: "09/30", "12/01/2024", "11-24". */
const leadingRowDate = /^\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\s+(?=\p{L})/u;

/**
 * A financial institution's name: capitalised words before "Bank", "Credit Union", "Building Society" or "Trust
 * Company", or "Bank of" and a capitalised name, with ", N.A." after it.
 */
const institutionName =
  /(?<![\p{L}\d])(?:(?:[A-Z][\p{L}&'’.-]*\s+){1,4}(?:Bank|BANK|Credit Union|CREDIT UNION|Building Society|BUILDING SOCIETY|Trust Company|TRUST COMPANY|Banking Corporation|BANKING CORPORATION)|(?:Bank|BANK) (?:of|OF) [A-Z][\p{L}]+(?: [A-Z][\p{L}]+)?)(?:,? N\.\s?A\.)?(?![\p{L}])/gu;

/** What joins the two dates of a range: "to", "through", "thru", "until", a dash, "bis", "au". */
const rangeJoin = /^\s*(?:to|through|thru|until|bis|au|[-–—])\s*$/i;

/** A checkbox opening a cell: ☐ ☑ ☒, [x] [ ], (x) ( ). */
const leadingCheckbox = /^\s*(?:\[\s*[xX✓✔]?\s*\]|[☐☑☒□■✔✓]|\(\s*[xX]?\s*\))\s*/;

/** Three or more cells of words without digits, above a line with at least as many cells. */
function isHeaderRow(line: Line, below: Line | undefined): boolean {
  const cells = line.cells.filter((cell) => cell.text !== '');
  return cells.length >= 3 && cells.every((cell) => !/\d/.test(cell.text) && cell.text.length <= 30) && (below?.cells.length ?? 0) >= cells.length;
}

/** A label at the start of a cell, then anything that is not a letter or digit (so "to" never matches "Total"). */
function labelPattern(label: string): RegExp {
  const words = label.split(/\s+/).map((word) => (word === 'number' ? '(?:number|no\\.?|num\\.?|nbr|#)' : escapeRegExp(word)));
  return new RegExp(`^${words.join('\\s*')}(?![A-Za-z0-9])\\s*\\.?`, 'i');
}

function wordCount(label: string): number {
  return label.split(' ').length;
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


function stripSeparators(text: string): string {
  return text.replace(/^[\s:#.\-–—=]+/, '').trim();
}

/**
 * The value of `kind` in `text`, or null when the text holds none. `rangeIndex` picks one date of a range
 * ("1 May 2026 to 14 May 2026"); a range with a date missing or misread gives neither rather than a wrong one.
 */
export function readValue(kind: ValueKind, text: string, dayFirst: boolean, rangeIndex: number | null = null): string | number | boolean | null {
  if (text === '') return null;
  switch (kind) {
    case 'text':
      return cleanText(text);
    case 'governing_law': {
      const law = /laws?\s*of\s*(?:the State of |the Commonwealth of )?([A-Z][A-Za-z ]+?)(?:[.,;]|$)/.exec(text);
      // A clause that wraps before naming the place is left to the sentence search over the whole page.
      return law ? law[1]!.trim() : text.split(/\s+/).length <= 4 ? cleanText(text) : null;
    }
    case 'amount':
      return findAmounts(text)[0]?.value ?? null;
    case 'number':
      return findNumbers(text)[0]?.value ?? null;
    case 'date': {
      const dates = findDates(text, undefined, dayFirst);
      if (rangeIndex === null) return dates[0]?.value ?? null;
      return dates.length >= 2 ? (dates[rangeIndex]?.value ?? null) : null;
    }
    case 'boolean':
      return readBoolean('', text);
    default:
      return findIdentifier(text, kind)?.value ?? null;
  }
}

/** Text as the value of a field: an ABN or ACN written after a name is not part of the name. */
function cleanText(text: string): string | null {
  const cleaned = text.replace(/[,;]?\s+\(?(?:ABN|ACN|ARBN)\b.*$/i, '').replace(/[\s,;:]+$/, '').trim();
  return cleaned === '' ? null : cleaned;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
