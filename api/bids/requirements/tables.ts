import type { Paragraph } from './paragraphs.ts';
import { isAnswerCell, isHeaderRow } from './wording.ts';

/**
 * Tables a .docx reader flattened into one paragraph per cell: a run of header cells ("Volume", "Phase",
 * "Part/Tab Title", "Page Limit"), then cells. Rows are read back from the cells' roles: attribute cells (a
 * volume or phase number, a rating, a page limit, an answer box) part the rows, and the cells between them that
 * name something are the row's title. A row whose answer cell is "True | False" or "□ Yes □ No" is a
 * certification the tenderer answers.
 */

export interface FlatRow {
  /** Indexes of the paragraphs holding the row's title cells. */
  cells: number[];
  /** The row has an answer cell (a certification). */
  answered: boolean;
  /** The attribute cell that closed the row ("25%", "Volume 1A", "True | False"), if one did. */
  value: string | null;
}

export interface FlatTable {
  header: string[];
  /** Index of the first paragraph after the table (the reader goes on from there). */
  end: number;
  rows: FlatRow[];
}

const headerWords = 4;
/** A paragraph longer than this is prose after the table, not a cell. */
const maxCellWords = 40;

const ratingWord = /^(?:not\s+rated|pass|fail|acceptable|unacceptable|outstanding|good|satisfactory|marginal|excellent|yes|no|none|n\/a|tbd|compliant|non-compliant)$/i;

/** A cell that states an attribute of its row rather than naming it. */
export function isAttributeCell(text: string): boolean {
  const cell = text.trim();
  if (/^\d{1,3}(?:\.\d+)?\s?%?$/.test(cell) || /^(?:I|II|III|IV|V|VI|VII|VIII|IX|X)$/.test(cell)) return true;
  if (/^(?:volume|vol\.?|phase|part|stage|tab|lot)\s+[\w.]{1,4}$/i.test(cell)) return true;
  if (cell.split(/\s*\/\s*/).filter((part) => part !== '').every((part) => ratingWord.test(part))) return true;
  if (/^(?:(?:\w+\s+[-–]\s+)?no\s+limit(?:ation)?s?|(?:maximum\s+(?:of\s+)?)?\d+\s+pages?(?:\s+max(?:imum)?)?|not\s+to\s+exceed\s+\d+\s+pages?|\d+\s+points?|maximum\s+[\d\s/½]+(?:and\s+[\d/½]+\s+)?(?:hours?|minutes?)\b.*)$/i.test(cell)) return true;
  return isAnswerCell(cell);
}

function isHeaderCell(paragraph: Paragraph): boolean {
  return paragraph.cells === null && paragraph.plain.split(/\s+/).length <= headerWords && isHeaderRow([paragraph.plain]);
}

/** The flattened table starting at `index`, or null when no run of header cells starts there. */
export function flatTableAt(paragraphs: readonly Paragraph[], index: number): FlatTable | null {
  let at = index;
  const header: string[] = [];
  while (at < paragraphs.length && isHeaderCell(paragraphs[at]!)) header.push(paragraphs[at++]!.plain);
  if (header.length < 2) return null;
  const rows: FlatRow[] = [];
  let pending: number[] = [];
  /** Where the table ends, the titles still open before the first sentence are its last row; the sentences are prose. */
  const lastRow = (open: number[]): number[] => {
    const firstSentence = open.findIndex((index) => /[.]["'”’)]*$/.test(paragraphs[index]!.plain) && paragraphs[index]!.plain.split(/\s+/).length > 12);
    const titles = firstSentence < 0 ? open : open.slice(0, firstSentence);
    // Only a title that carries on a list ("Price Submission; and" before it) is a row; one before prose is a heading.
    const before = titles.length > 0 ? paragraphs[titles[0]! - 1] : undefined;
    const carriesOn = before !== undefined && /[;,]\s*(?:and|or)?$/.test(before.plain);
    if (titles.length > 0 && carriesOn && titles.every((index) => paragraphs[index]!.plain.split(/\s+/).length <= 12)) {
      rows.push({ cells: titles, answered: false, value: null });
      return firstSentence < 0 ? [] : open.slice(firstSentence);
    }
    return open;
  };
  let sentences = 0;
  const flush = (answered: boolean, value: string | null = null) => {
    if (pending.length > 0) rows.push({ cells: pending, answered, value });
    pending = [];
  };
  for (; at < paragraphs.length; at++) {
    const paragraph = paragraphs[at]!;
    const plain = paragraph.plain;
    const count = plain.split(/\s+/).length;
    if (paragraph.cells !== null || paragraph.markedHeading || count > maxCellWords || /:$/.test(plain)) {
      pending = lastRow(pending);
      break;
    }
    if (isHeaderCell(paragraph)) {
      flush(false);
      continue;
    }
    if (isAttributeCell(plain)) {
      flush(isAnswerCell(plain), plain);
      sentences = 0;
      continue;
    }
    // Two sentences in a row with no attribute between them: the table has ended and prose goes on.
    const sentence = /[.]["'”’)]*$/.test(plain) && count > 12;
    sentences = sentence ? sentences + 1 : 0;
    if (sentences >= 2) {
      pending = lastRow(pending);
      break;
    }
    // A title cell ending in ";" closes its row's title ("Technical Concept Paper;" then the next title).
    if (pending.length > 0 && /;\s*(?:and|or)?$/.test(paragraphs[pending.at(-1)!]!.plain)) flush(false);
    pending.push(at);
  }
  const end = pending.length > 0 ? pending[0]! : at;
  // Rows taken from before the end; a title run still open at the end is prose for the reader.
  return { header, end: Math.min(end, at), rows };
}
