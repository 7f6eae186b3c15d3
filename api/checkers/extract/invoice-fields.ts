import type { PageText } from '../../documents/types.ts';
import type { LocatedValue } from './locate.ts';
import { cellPages, horizontalOverlap, type CellPage, type PageCell } from './page-cells.ts';
import { documentDayFirst, escapeRegExp, findAmounts, findDates, foldAccents } from './values.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

/**
 * The fields every invoice and receipt has, read from the printed page by evidence: labels of any language in
 * vocabulary.json, paired with their value by layout (the rest of the cell, the cells to its right, the cell
 * below it), and for the amounts by arithmetic (subtotal plus tax is the total, what was tendered less the
 * change is what was paid). Each field's confidence is how strong that evidence was: a label that names only
 * this field, its value beside it, the sums agreeing and no other candidate close behind make it high; a
 * label that often means something else, a value found far from it, or a rival value make it low.
 */

export type InvoiceField = 'invoice_number' | 'invoice_date' | 'due_date' | 'total' | 'subtotal' | 'tax' | 'supplier_name' | 'buyer_name';
/**
 * Fields read for themselves, and the sums beside them whose labels only keep a total's label off their figure;
 * `other_date`: a date that is not the invoice's (delivery, order, print, a software version), so never taken for it.
 */
type VocabularyField = InvoiceField | 'payable' | 'tendered' | 'change' | 'allowances' | 'charges' | 'prepaid' | 'other_date';

interface Label {
  field: VocabularyField;
  text: string;
  weight: number;
  pattern: RegExp;
}

/** A label found in a cell, and where. */
interface LabelHit {
  label: Label;
  cell: PageCell;
  /** Offsets of the label in the cell's text. */
  start: number;
  end: number;
}

interface Candidate<T> {
  value: T;
  /** 0..1: the label's strength times how the value was placed (before the page's reading confidence). */
  score: number;
  cell: PageCell;
  label: LabelHit | null;
  /** How the value was placed next to its label. */
  placement: Placement;
}

type Placement = 'same_cell' | 'right' | 'below' | 'sentence' | 'letterhead' | 'unlabelled';

const placementWeight: Record<Placement, number> = { same_cell: 1, right: 0.95, below: 0.85, sentence: 0.8, letterhead: 0.7, unlabelled: 0.55 };

const labels: Label[] = Object.entries(vocabulary.fields).flatMap(([field, languages]) =>
  Object.values(languages).flatMap((entries) =>
    (entries as [string, number][]).map(([text, weight]) => ({ field: field as VocabularyField, text, weight, pattern: labelPattern(text) })),
  ),
);

/** A label at a word boundary, folded; "nr", "no" and "#" may end with a dot or a colon. */
function labelPattern(label: string): RegExp {
  const body = foldAccents(label)
    .split(/\s+/)
    .map((word) => escapeRegExp(word))
    .join('\\s*');
  return new RegExp(`(?<![\\p{L}])${body}(?![\\p{L}\\d])\\.?\\s*(?:[:#]\\s*)?`, 'gu');
}


const legalForms = [...vocabulary.legal_forms].sort((a, b) => b.length - a.length);
// Not after a digit: "LS1 5AB" is a postcode, not an aktiebolag.
const legalFormPattern = new RegExp(`(?<![\\p{L}\\d])(?:${legalForms.map(escapeRegExp).join('|')})(?![\\p{L}])`, 'iu');
const registrationPattern = new RegExp(`(?<![\\p{L}])(?:${[...vocabulary.registration_labels].sort((a, b) => b.length - a.length).map((label) => escapeRegExp(foldAccents(label))).join('|')})(?![\\p{L}])`, 'u');
const nonNames = new Set(vocabulary.non_names.map(foldAccents));
const { about: _columnsAbout, ...columnLabels } = vocabulary.table_columns;
/** Column labels of line-item tables ("Description", "Qty", "Amount"), folded: a header cell names no party. */
const columnWords = new Set(Object.values(columnLabels).flatMap((languages) => Object.values(languages).flat()).map(foldAccents));
/** A cell's words as the name lists hold them: folded, letters only, single spaces. */
const plainWords = (text: string) => foldAccents(text).replace(/[^\p{L} ]/gu, ' ').replace(/\s+/g, ' ').trim();
const invoiceTitles = Object.values(vocabulary.document_titles.tax_invoice).flat().map(foldAccents).sort((a, b) => b.length - a.length);
const titleWords = new Set(Object.values(vocabulary.document_titles).flatMap((languages) => Object.values(languages).flat()).map(foldAccents));

export interface InvoiceReading {
  fields: Partial<Record<InvoiceField, LocatedValue>>;
}

export interface InvoiceReadOptions {
  country: string | undefined;
  /** A receipt: its date sits beside the till's clock, its issuer heads the slip, and cash less change is the total. */
  receipt: boolean;
}

/**
 * The pages' cells and label hits, found once per pages array: the reader, `labelledAmounts` and
 * `labelledReferences` all start from them, and finding labels is most of their time (every label of every
 * language against every cell). A pages array is not changed once read, so its identity keys the result.
 */
const readings = new WeakMap<readonly PageText[], { cells: CellPage[]; hits: readonly LabelHit[]; qualified: readonly LabelHit[] }>();

function cellsAndHits(pages: readonly PageText[]): { cells: CellPage[]; hits: readonly LabelHit[]; qualified: readonly LabelHit[] } {
  const known = readings.get(pages);
  if (known) return known;
  const cells = cellPages(pages);
  const qualified: LabelHit[] = [];
  const found = { cells, hits: labelHits(cells, qualified), qualified };
  readings.set(pages, found);
  return found;
}

/** The pages' cells as the invoice reader found them (found once per pages array, shared with its readers). */
export function invoiceCellPages(pages: readonly PageText[]): CellPage[] {
  return cellsAndHits(pages).cells;
}

export function readInvoiceFields(pages: readonly PageText[], options: InvoiceReadOptions): InvoiceReading {
  const { cells, hits } = cellsAndHits(pages);
  const dayFirst = documentDayFirst(
    pages.map((page) => page.text),
    options.country,
  );
  const fields: Partial<Record<InvoiceField, LocatedValue>> = {};
  Object.assign(fields, readAmounts(cells, hits));
  const invoiceDate = bestDate(cells, hits, 'invoice_date', dayFirst, options);
  if (invoiceDate) fields.invoice_date = invoiceDate;
  const dueDate = bestDate(cells, hits, 'due_date', dayFirst, options);
  if (dueDate && (!invoiceDate || String(dueDate.value) >= String(invoiceDate.value)) && dueDate.value !== invoiceDate?.value) fields.due_date = dueDate;
  const number = bestNumber(cells, hits, dayFirst);
  if (number) fields.invoice_number = number;
  const supplier = bestIssuer(cells, hits, options);
  if (supplier) fields.supplier_name = supplier;
  const buyer = bestBuyer(cells, hits);
  if (buyer && buyer.value !== supplier?.value) fields.buyer_name = buyer;
  return { fields };
}

/** One printed place of an invoice amount: the figure on a label's line, and the label as printed. */
export interface LabelledAmount {
  field: 'total' | 'payable' | 'subtotal' | 'tax';
  value: number;
  page: number;
  label: string;
  /** The label's weight for its field in vocabulary.json: 1 names only this field, less may name another. */
  weight: number;
  /** The 1-based line of the page the label and its figure are on. */
  line: number;
  /**
   * The label is not all its cell says: words before it ("Tax Total"), or words or a rate after it ("TVA 0%
   * export", "Forderung am Ausstellungstag"), so the figure may be a row of a breakdown or a sum of another kind.
   */
  qualified: boolean;
}

/** The most characters between a label and its figure in one cell ("Total (EUR): € 1.234,56"). */
const MAX_LABEL_GAP = 16;

/**
 * Every place the pages print the total, amount payable, subtotal or tax beside a label of its own, not only
 * the one the reader would choose: what a comparison with another source of the same figures needs, since an
 * edit may change one printed place of a figure and leave the others. Only a figure on the label's line counts:
 * the rest of its cell when the figure follows the label closely, or the next cells to its right. A column
 * heading labels every row under it ("Endbetrag" over one row per tax rate and a last row for the invoice), so
 * what is below a label is no place of the amount here.
 */
export function labelledAmounts(pages: readonly PageText[]): LabelledAmount[] {
  const { cells, hits: labelled, qualified } = cellsAndHits(pages);
  const fields = new Set<VocabularyField>(['total', 'payable', 'subtotal', 'tax']);
  const hits = [...labelled, ...splitLabelHits(cells, fields)];
  const inclusive = taxInclusiveHits(qualified, hits);
  const places: LabelledAmount[] = [];
  for (const hit of [...hits, ...inclusive]) {
    if (!fields.has(hit.label.field)) continue;
    for (const place of valuePlaces(cells, hit, hits)) {
      if (place.placement === 'below' || (place.placement !== 'same_cell' && isLabelCell(place.cell, hits))) break;
      const amounts = findAmounts(place.text).filter((amount) => !/%/.test(place.text.slice(amount.end, amount.end + 2)));
      if (amounts.length === 0) continue;
      // A figure after another word, number or rate in the cell ("TVA : FR11999999998 … capital de 120 000,00", "MwSt.-% 19,0") is not the label's.
      const before = place.text.slice(0, amounts[0]!.start);
      if (place.placement === 'same_cell' && (before.length > MAX_LABEL_GAP || /\p{L}{4,}|[\d%]/u.test(before))) break;
      const after = place.placement === 'same_cell' ? '' : hit.cell.text.slice(hit.end);
      // Several figures on the label's line make it a table's row (a rate's base, rate and tax), not one sum.
      const figuresAfter = [place.placement === 'same_cell' ? place.text : '', ...cellsRightOf(cells, hit.cell).map((cell) => cell.text)].filter((text) => findAmounts(text).length > 0).length;
      const qualifiedPlace = inclusive.includes(hit) || /\p{L}{3,}|%/u.test(hit.cell.text.slice(0, hit.start)) || /\p{L}{4,}|%/u.test(after) || figuresAfter > 1;
      places.push({ field: hit.label.field as LabelledAmount['field'], value: amounts[0]!.value, page: hit.cell.page, label: hit.cell.text.slice(hit.start, hit.end).trim(), weight: hit.label.weight, line: hit.cell.line + 1, qualified: qualifiedPlace });
      break;
    }
  }
  return places;
}

/** One printed place of the invoice's number, issue date or due date: the value beside a label of its own. */
export interface LabelledReference {
  field: 'invoice_number' | 'invoice_date' | 'due_date';
  /** The number as printed, or the date as ISO `YYYY-MM-DD` read in the document's date order. */
  value: string;
  page: number;
  /** The 1-based line of the page the value is on. */
  line: number;
  label: string;
  /** The label's weight for its field in vocabulary.json: 1 names only this field, less may name another. */
  weight: number;
}

/**
 * Every place the pages print the invoice number, issue date or due date beside a label of its own, not only the
 * one the reader would choose, so a comparison with another source can look at each (an edit may change one
 * place and keep another). Dates are read in one order for the whole document (`dayFirst`), never both ways, so
 * 03.05. is one date; a date label that belongs to another date ("Bestellung vom") names none of these.
 */
export function labelledReferences(pages: readonly PageText[], options: { country: string | undefined; dayFirst: boolean }): LabelledReference[] {
  const { cells, hits } = cellsAndHits(pages);
  const places: LabelledReference[] = [];
  for (const hit of hits) {
    const field = hit.label.field;
    if (field !== 'invoice_number' && field !== 'invoice_date' && field !== 'due_date') continue;
    if (field !== 'invoice_number' && qualifiedByOtherDate(hit, hits, options.country, options.dayFirst)) continue;
    for (const place of valuePlaces(cells, hit, hits)) {
      if (place.placement !== 'same_cell' && isLabelCell(place.cell, hits)) break;
      const value = field === 'invoice_number' ? referenceValue(place.text.trim(), options.dayFirst) : findDates(place.text, options.country, options.dayFirst).find((date) => place.placement !== 'same_cell' || date.start <= 40)?.value;
      if (value === undefined) continue;
      // As the reader: one or two digits are a row number or a page unless a label naming only the number is beside them.
      if (field === 'invoice_number' && /^\d{1,2}$/.test(value) && (hit.label.weight < 0.9 || place.placement === 'below')) continue;
      places.push({ field, value, page: place.cell.page, line: place.cell.line + 1, label: hit.cell.text.slice(hit.start, hit.end).trim(), weight: hit.label.weight });
      break;
    }
  }
  return places;
}

/** Words saying that an amount includes the tax named after them ("incl.", "inklusive 19 %", "inclusief"), or excludes it. */
const INCLUDING = String.raw`incl?|inc|including|inclusive|inkl|inklusive|einschl|einschliesslich|inclusief|incluido|incluida|incluso|inclusa`;
const EXCLUDING = String.raw`excl?|ex|excluding|exkl|exklusive|exclusief|excluido|escluso`;
const qualifierPattern = (words: string) => new RegExp(String.raw`(?:^|[^\p{L}])(?:${words})\.?\s*(?:\d+(?:[.,]\d+)?\s*%\s*)?$`, 'u');
const includingPattern = qualifierPattern(INCLUDING);
const qualifyingPattern = qualifierPattern(`${INCLUDING}|${EXCLUDING}`);

/** The weight of a label that is an amount "including" a tax, with no label of its own: an amount with tax, as often a line's as the total. */
const INCLUSIVE_WEIGHT = 0.6;

/**
 * Cells that name an amount as including a tax ("Beitrag inklusive 19 % Versicherungsteuer", "Preis inkl.
 * MwSt.") and hold no other amount label: the amount with tax, taken as a place of the total whose label is
 * qualified (it may as well be a line's gross amount), so only a figure of no other meaning disagrees there.
 */
function taxInclusiveHits(qualified: readonly LabelHit[], hits: readonly LabelHit[]): LabelHit[] {
  return qualified
    .filter((hit) => includingPattern.test(beforeLabel(hit)) && !hits.some((other) => other.cell === hit.cell && other.label.field !== 'tax'))
    .map((hit) => ({ label: { field: 'total', text: hit.cell.text.slice(0, hit.end), weight: INCLUSIVE_WEIGHT, pattern: /$^/u }, cell: hit.cell, start: 0, end: hit.end }));
}

/** The cells after `cell` on its line. */
function cellsRightOf(pages: readonly CellPage[], cell: PageCell): PageCell[] {
  const line = pages.find((page) => page.page === cell.page)?.lines[cell.line] ?? [];
  return line.filter((other) => other.index > cell.index);
}

/** Labels of one word this long or longer are found with a space inside them too. */
const MIN_SPLIT_LABEL = 8;

/**
 * Cells that are one label of one long word with a space a text layer put inside it ("Br uttosumme",
 * "Zahlbetr ag": a PDF that positions its glyphs one by one), which the label patterns do not match.
 */
function splitLabelHits(pages: readonly CellPage[], fields: ReadonlySet<VocabularyField>): LabelHit[] {
  const single = labels.filter((label) => fields.has(label.field) && /^\p{L}+$/u.test(label.text) && label.text.length >= MIN_SPLIT_LABEL);
  const hits: LabelHit[] = [];
  for (const cell of pages.flatMap((page) => page.lines.flat())) {
    if (!/^\p{L}+ \p{L}+[\s:]*$/u.test(cell.folded)) continue;
    const squashed = cell.folded.replace(/[\s:]+/g, '');
    const label = single.find((candidate) => foldAccents(candidate.text) === squashed);
    if (label) hits.push({ label, cell, start: 0, end: cell.text.length });
  }
  return hits;
}

/** Every label in every cell; where labels overlap the longer one keeps the place ("Total GST" is tax's, not total's). Tax words that qualify another label go to `qualified`. */
function labelHits(pages: readonly CellPage[], qualified: LabelHit[] = []): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const page of pages) {
    for (const line of page.lines) {
      for (const cell of line) {
        const found: LabelHit[] = [];
        for (const label of labels) {
          label.pattern.lastIndex = 0;
          for (const match of cell.folded.matchAll(label.pattern)) found.push({ label, cell, start: match.index, end: match.index + match[0].length });
        }
        found.sort((a, b) => b.label.text.length - a.label.text.length || b.label.weight - a.label.weight);
        const kept: LabelHit[] = [];
        for (const hit of found) if (!kept.some((other) => other.start < hit.end && hit.start < other.end)) kept.push(hit);
        hits.push(...kept.filter((hit) => !qualifiesLabel(hit)));
        qualified.push(...kept.filter(qualifiesLabel));
      }
    }
  }
  return hits;
}

/**
 * A tax word that only says how an amount is counted ("TOTAL AMOUNT PAYABLE (incl GST)", "UNIT PRICE (excl GST)"):
 * part of the label before it, not a tax label of its own, which would end that label's cell before its value.
 */
function qualifiesLabel(hit: LabelHit): boolean {
  return hit.label.field === 'tax' && qualifyingPattern.test(beforeLabel(hit));
}

/** A cell's folded text before a label, without an opening bracket: "total amount payable (" → "total amount payable". */
function beforeLabel(hit: LabelHit): string {
  return hit.cell.folded.slice(0, hit.start).replace(/\(\s*$/, '');
}

/** The texts a label's value may be in, nearest first: the rest of its cell, the cells to its right, the cell below. */
function valuePlaces(pages: readonly CellPage[], hit: LabelHit, hits: readonly LabelHit[]): { text: string; cell: PageCell; placement: Placement; rank: number }[] {
  const page = pages.find((candidate) => candidate.page === hit.cell.page)!;
  const lineIndex = page.lines.findIndex((line) => line.includes(hit.cell));
  const line = page.lines[lineIndex]!;
  const places: { text: string; cell: PageCell; placement: Placement; rank: number }[] = [];
  // The rest of the cell up to the next label in it.
  const nextLabel = hits.filter((other) => other.cell === hit.cell && other.start >= hit.end).sort((a, b) => a.start - b.start)[0];
  const rest = hit.cell.text.slice(hit.end, nextLabel?.start ?? hit.cell.text.length).replace(/^[\s:#.\-–—=]+/, '');
  if (rest.trim() !== '') places.push({ text: rest, cell: hit.cell, placement: 'same_cell', rank: 0 });
  if (nextLabel) return places;
  const right = line.filter((other) => other.index > hit.cell.index);
  right.slice(0, 3).forEach((other, index) => {
    places.push({ text: other.text, cell: other, placement: 'right', rank: index });
  });
  const column = headerColumnValue(page, lineIndex, hit);
  if (column) {
    places.push(column);
    return places;
  }
  // Below: the first lines underneath whose cell overlaps the label's column.
  for (let next = lineIndex + 1; next < Math.min(page.lines.length, lineIndex + 3); next++) {
    const below = page.lines[next]!;
    const gap = below[0]!.y - (hit.cell.y + hit.cell.height);
    if (!Number.isNaN(gap) && gap > 3 * Math.max(hit.cell.height, 6)) break;
    const under = Number.isNaN(hit.cell.x0) ? below.find((other) => other.index === hit.cell.index) : [...below].sort((a, b) => horizontalOverlap(b, hit.cell) - horizontalOverlap(a, hit.cell))[0];
    if (under && (Number.isNaN(hit.cell.x0) ? true : horizontalOverlap(under, hit.cell) > 0.3)) {
      places.push({ text: under.text, cell: under, placement: 'below', rank: next - lineIndex - 1 });
      break;
    }
  }
  return places;
}

/**
 * A header row of labels over a row of values with as many words ("Datum Zeit BonNr KasNr" over
 * "06.04.2020 14:43 2875 2"), as a till prints them: the label's value is the word in its position.
 */
function headerColumnValue(page: CellPage, lineIndex: number, hit: LabelHit): { text: string; cell: PageCell; placement: Placement; rank: number } | null {
  const header = page.lines[lineIndex]!;
  const values = page.lines[lineIndex + 1];
  if (!values || header.some((cell) => /\d/.test(cell.text))) return null;
  const words = (cells: readonly PageCell[]) => cells.flatMap((cell) => cell.text.split(/\s+/).map((word) => ({ word, cell })));
  const headerWords = words(header);
  const valueWords = words(values);
  if (headerWords.length < 3 || headerWords.length !== valueWords.length) return null;
  const before = header.filter((cell) => cell.index < hit.cell.index).flatMap((cell) => cell.text.split(/\s+/)).length;
  const position = before + hit.cell.text.slice(0, hit.start).split(/\s+/).filter((word) => word !== '').length;
  const value = valueWords[position];
  return value ? { text: value.word, cell: value.cell, placement: 'below', rank: 0 } : null;
}

function isLabelCell(cell: PageCell, hits: readonly LabelHit[]): boolean {
  return hits.some((hit) => hit.cell === cell && hit.start === 0 && hit.end >= cell.folded.replace(/[\s:.#]+$/, '').length - 1);
}

// ---------------------------------------------------------------- amounts

interface AmountCandidate extends Candidate<number> {
  field: VocabularyField;
}

function amountCandidates(pages: readonly CellPage[], hits: readonly LabelHit[], field: VocabularyField): AmountCandidate[] {
  const found: AmountCandidate[] = [];
  for (const hit of hits) {
    if (hit.label.field !== field) continue;
    for (const place of valuePlaces(pages, hit, hits)) {
      if (place.placement !== 'same_cell' && isLabelCell(place.cell, hits)) break;
      const amounts = findAmounts(place.text).filter((amount) => !/%/.test(place.text.slice(amount.end, amount.end + 2)));
      if (amounts.length === 0) continue;
      // A row of a table of rates ("19 % 198,00 37,62") ends with its figure; a "Label: value" cell starts with it.
      const chosen = place.placement === 'same_cell' && amounts.length > 1 ? [amounts[0]!, amounts.at(-1)!] : amounts.slice(0, 3);
      chosen.forEach((amount, index) => {
        const score = hit.label.weight * placementWeight[place.placement] * (1 - 0.08 * (place.rank + index));
        found.push({ value: amount.value, score, cell: place.cell, label: hit, placement: place.placement, field });
      });
      break;
    }
  }
  return found;
}

const near = (a: number, b: number) => Math.abs(a - b) <= 0.015 + Math.abs(b) * 0.00001;

/**
 * Total, subtotal and tax by evidence: each labelled candidate scores by its label and placement, then gains
 * where the arithmetic holds (subtotal + tax = total; tendered − change = total; the total is the document's
 * largest amount) and where labels agree, and loses to a rival value close behind.
 */
function readAmounts(pages: readonly CellPage[], hits: readonly LabelHit[]): Partial<Record<InvoiceField, LocatedValue>> {
  const grands = amountCandidates(pages, hits, 'total');
  const payables = amountCandidates(pages, hits, 'payable');
  const totals = [...payables, ...grands];
  const subtotals = amountCandidates(pages, hits, 'subtotal');
  const taxes = amountCandidates(pages, hits, 'tax');
  const tendered = amountCandidates(pages, hits, 'tendered');
  const change = amountCandidates(pages, hits, 'change');
  const allAmounts = pages.flatMap((page) => page.lines.flat().flatMap((cell) => findAmounts(cell.text).map((amount) => amount.value)));
  const tenderedValues = new Set(tendered.map((candidate) => candidate.value));
  const largest = Math.max(0, ...allAmounts.filter((value) => !tenderedValues.has(value)).map(Math.abs));
  const result: Partial<Record<InvoiceField, LocatedValue>> = {};
  if (totals.length === 0 && subtotals.length === 0) return result;

  const labelled: LabelledAmounts = { grands, totals, subtotals, taxes, tendered, change, tenderedValues, largest };
  const scored = totals.map((total) => scoreTotal(total, labelled));
  scored.sort((a, b) => b.evidence - a.evidence || b.total.cell.page - a.total.cell.page || b.total.cell.depth - a.total.cell.depth);
  const winner = scored[0];
  if (winner) {
    const rival = scored.find((other) => !near(other.total.value, winner.total.value));
    const margin = rival ? Math.max(0, winner.evidence - rival.evidence) : 1;
    const confidence = calibrate(winner.total.score, winner.reasons.length, margin) * winner.total.cell.confidence;
    result.total = located(winner.total.value, confidence, winner.total.cell);
    if (winner.subtotal && winner.tax) {
      result.subtotal = located(winner.subtotal.value, calibrate(winner.subtotal.score, 2, margin) * winner.subtotal.cell.confidence, winner.subtotal.cell);
      result.tax = located(winner.tax.value, calibrate(winner.tax.score, 2, margin) * winner.tax.cell.confidence, winner.tax.cell);
    }
  }
  if (!result.subtotal) {
    const subtotal = bestAlone(subtotals.filter((candidate) => !result.total || !near(candidate.value, Number(result.total.value)) || taxes.length === 0));
    if (subtotal) result.subtotal = subtotal;
  }
  if (!result.tax) {
    const tax = bestAlone(taxes.filter((candidate) => !result.total || Math.abs(candidate.value) < Math.abs(Number(result.total.value))));
    if (tax) result.tax = tax;
  }
  return result;
}

/** Every labelled amount of a document, and what the arithmetic between them is judged against. */
interface LabelledAmounts {
  grands: AmountCandidate[];
  /** Payable and grand totals: the candidates for the total. */
  totals: AmountCandidate[];
  subtotals: AmountCandidate[];
  taxes: AmountCandidate[];
  tendered: AmountCandidate[];
  change: AmountCandidate[];
  tenderedValues: ReadonlySet<number>;
  /** The document's largest amount that is not a tendered one. */
  largest: number;
}

interface ScoredTotal {
  total: AmountCandidate;
  subtotal: AmountCandidate | null;
  tax: AmountCandidate | null;
  evidence: number;
  reasons: string[];
}

/** One total candidate's evidence: its own score, then what the other amounts say for it. */
function scoreTotal(total: AmountCandidate, amounts: LabelledAmounts): ScoredTotal {
  const { grands, totals, subtotals, taxes, tendered, change, tenderedValues, largest } = amounts;
  let evidence = total.score;
  const reasons: string[] = [];
  let subtotal: AmountCandidate | null = null;
  let tax: AmountCandidate | null = null;
  let best = 0;
  for (const s of subtotals) {
    for (const x of taxes) {
      if (s.value !== 0 && near(s.value + x.value, total.value) && s.score + x.score > best && x.value !== total.value) {
        best = s.score + x.score;
        subtotal = s;
        tax = x;
      }
    }
  }
  if (subtotal && tax) {
    evidence += 0.3;
    reasons.push('subtotal plus tax');
  } else if (total.field === 'payable') {
    // What is payable after prepayments: the subtotal and tax add up to a gross total that is at least it.
    const gross = grands.find((g) => g.value >= total.value && subtotals.some((s) => taxes.some((x) => near(s.value + x.value, g.value))));
    if (gross) {
      evidence += 0.3;
      reasons.push('subtotal plus tax, less prepaid');
    }
  }
  if (total.field === 'payable') evidence += 0.1;
  if (tendered.some((t) => change.some((c) => near(t.value - c.value, total.value) && c.value > 0))) {
    evidence += 0.25;
    reasons.push('tendered less change');
  }
  if (total.value > 0 && near(Math.abs(total.value), largest)) {
    evidence += 0.1;
    reasons.push('largest amount');
  }
  const agreeing = new Set(totals.filter((other) => other !== total && near(other.value, total.value) && other.label?.label.text !== total.label?.label.text).map((other) => other.label?.label.text));
  if (agreeing.size > 0) {
    evidence += 0.1;
    reasons.push('labels agree');
  }
  if (tenderedValues.has(total.value) && !reasons.includes('tendered less change')) evidence -= 0.2;
  return { total, subtotal, tax, evidence, reasons };
}

function bestAlone(candidates: AmountCandidate[]): LocatedValue | null {
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const best = sorted[0];
  if (!best) return null;
  const rival = sorted.find((other) => !near(other.value, best.value));
  const margin = rival ? best.score - rival.score : 1;
  return located(best.value, calibrate(best.score, 0, margin) * best.cell.confidence, best.cell);
}

/**
 * Confidence from evidence: the label and placement score, each independent confirmation (arithmetic, an
 * agreeing label), and the margin over the best rival value. Uncorroborated values stay below 0.9.
 */
function calibrate(score: number, confirmations: number, margin: number): number {
  const base = 0.35 + 0.45 * Math.min(1, score);
  const confirmed = base + Math.min(2, confirmations) * 0.09;
  const contested = margin >= 0.3 ? 1 : 0.75 + margin;
  return Math.max(0.05, Math.min(0.99, confirmed * contested));
}

function located(value: string | number, confidence: number, cell: PageCell): LocatedValue {
  return { value, confidence: Math.round(confidence * 100) / 100, page: cell.page };
}

// ---------------------------------------------------------------- dates

function bestDate(pages: readonly CellPage[], hits: readonly LabelHit[], field: 'invoice_date' | 'due_date', dayFirst: boolean, options: InvoiceReadOptions): LocatedValue | null {
  const candidates: Candidate<string>[] = [];
  for (const hit of hits) {
    if (hit.label.field !== field || qualifiedByOtherDate(hit, hits, options.country, dayFirst)) continue;
    // A date word after the document's title and number ("Handelsrechnung Nr. 471102 vom 05.06.2018") dates the document itself.
    const weight = field === 'invoice_date' && opensWithTitle(hit) ? 1 : hit.label.weight;
    for (const place of valuePlaces(pages, hit, hits)) {
      if (place.placement !== 'same_cell' && isLabelCell(place.cell, hits)) break;
      const date = findDates(place.text, options.country, dayFirst)[0];
      if (!date) continue;
      // The date must follow the label closely in its own cell ("vom 05.03.2018"), not end a sentence.
      if (place.placement === 'same_cell' && date.start > 40) continue;
      candidates.push({ value: date.value, score: weight * placementWeight[place.placement] * (1 - 0.08 * place.rank), cell: place.cell, label: hit, placement: place.placement });
      break;
    }
  }
  if (field === 'invoice_date') {
    // Unlabelled: a receipt's date beside the till's clock, or an invoice's first date on page 1; never a due, delivery, order or print date.
    const excluded = new Set(hits.filter((hit) => hit.label.field === 'due_date' || hit.label.field === 'other_date').map((hit) => hit.cell));
    for (const page of pages.slice(0, 1)) {
      for (const cell of page.lines.flat()) {
        if (excluded.has(cell)) continue;
        const date = findDates(cell.text, options.country, dayFirst)[0];
        if (!date) continue;
        const clock = /\b\d{1,2}:\d{2}\b/.test(cell.text) || /\b\d{1,2}:\d{2}\b/.test(page.lines[cell.line]?.map((other) => other.text).join(' ') ?? '');
        candidates.push({ value: date.value, score: placementWeight.unlabelled * (clock && options.receipt ? 1.3 : clock ? 1 : 0.8), cell, label: null, placement: 'unlabelled' });
        if (!options.receipt) break;
      }
    }
  }
  return strongestCandidate(candidates);
}

/**
 * A date label that belongs to an earlier label of another date in its cell, with no date between them
 * ("Bestellung Nr. 2018-471331 vom 01.03.2018", "Stylesheet-Version: 2.5 vom 10.01.2023"): the order's or the
 * version's date, not the invoice's.
 */
function qualifiedByOtherDate(hit: LabelHit, hits: readonly LabelHit[], country: string | undefined, dayFirst: boolean): boolean {
  return hits.some((other) => other.cell === hit.cell && other.label.field === 'other_date' && other.end <= hit.start && findDates(hit.cell.text.slice(other.end, hit.start), country, dayFirst).length === 0);
}

/**
 * Whether the label's cell opens with an invoice title and its number, nothing else ("Rechnung # RE-20190121/507
 * von 21.01.2019", "Handelsrechnung (380) Nr. 471102 vom 05.06.2018"; not "Rechnung gemäß Bestellung Nr. … vom").
 */
function opensWithTitle(hit: LabelHit): boolean {
  const before = hit.cell.folded.slice(0, hit.start);
  return invoiceTitles.some((title) => {
    if (!before.startsWith(title) || /\p{L}/u.test(before.charAt(title.length))) return false;
    const rest = before.slice(title.length);
    return /\d/.test(rest) && rest.split(/\s+/).every((word) => /\d/.test(word) || !/\p{L}{4,}/u.test(word));
  });
}

/**
 * The best-scored candidate, with a confidence from its score, how many other candidates name the same value
 * (one value named by several labels and places is surer than any of them alone) and its lead over a rival.
 */
function strongestCandidate(candidates: Candidate<string>[]): LocatedValue | null {
  if (candidates.length === 0) return null;
  const support = new Map<string, number>();
  for (const candidate of candidates) support.set(candidate.value, (support.get(candidate.value) ?? 0) + 1);
  candidates.sort((a, b) => b.score - a.score || a.cell.page - b.cell.page || a.cell.depth - b.cell.depth);
  const best = candidates[0]!;
  const rival = candidates.find((other) => other.value !== best.value);
  const margin = rival ? best.score - rival.score : 1;
  return located(best.value, calibrate(best.score, (support.get(best.value) ?? 1) - 1, margin) * best.cell.confidence, best.cell);
}

// ---------------------------------------------------------------- invoice number

/** A document number: letters, digits and separators with at least one digit, not a date and not an amount. */
const referencePattern = /(?<![\p{L}\d])([A-Z]{0,6}[-/#\\]?\d[\w/\\.-]{0,24}(?:\s?-\s?\d{3,})?)(?![\p{L}\d])/iu;

/** The document number a label's value place opens with (not a date), or undefined. */
function referenceValue(text: string, dayFirst: boolean): string | undefined {
  const match = referencePattern.exec(text);
  if (!match || match.index > 12) return undefined;
  const value = match[1]!.replace(/[.:]$/, '');
  return findDates(value, undefined, dayFirst).some((date) => date.end - date.start >= value.length - 1) ? undefined : value;
}

function bestNumber(pages: readonly CellPage[], hits: readonly LabelHit[], dayFirst: boolean): LocatedValue | null {
  const candidates: Candidate<string>[] = [];
  for (const hit of hits) {
    if (hit.label.field !== 'invoice_number') continue;
    for (const place of valuePlaces(pages, hit, hits)) {
      if (place.placement !== 'same_cell' && isLabelCell(place.cell, hits)) break;
      const value = referenceValue(place.text.trim(), dayFirst);
      if (value === undefined) continue;
      // One or two digits are a column's row number or a page unless a label that names only the number stands beside them ("Rechnung Nr. 42").
      if (/^\d{1,2}$/.test(value) && (hit.label.weight < 0.9 || place.placement === 'below')) continue;
      candidates.push({ value, score: hit.label.weight * placementWeight[place.placement] * (1 - 0.08 * place.rank), cell: place.cell, label: hit, placement: place.placement });
      break;
    }
  }
  // "# 23413561D" alone at the head of the first page: many templates print the number so, under or beside the title.
  for (const cell of pages[0]?.lines.flat() ?? []) {
    const hash = /^#\s?([A-Z]{0,6}\d[\w/.-]{2,24})$/i.exec(cell.text);
    if (hash && cell.depth < 0.3) candidates.push({ value: hash[1]!, score: 0.5, cell, label: null, placement: 'unlabelled' });
  }
  // An AFIP invoice is numbered by its point of sale and its number: "Punto de Venta: 00003 Comp. Nro: 00001475" is 00003-00001475.
  for (const page of pages) {
    for (const line of page.lines) {
      const text = line.map((cell) => cell.text).join(' ');
      const afip = /punto\s+de\s+venta:?\s*(\d{4,5})\s+comp\.?\s*nro:?\s*(\d{8})/i.exec(text);
      if (afip) candidates.push({ value: `${afip[1]}-${afip[2]}`, score: 1, cell: line[0]!, label: null, placement: 'same_cell' });
    }
  }
  return strongestCandidate(candidates);
}

// ---------------------------------------------------------------- parties

const buyerLabelFields = new Set<VocabularyField>(['buyer_name']);

/** Text that is nothing but a label of some field ("Nummer", "Invoice Date"). */
function labelOnly(text: string): boolean {
  const folded = foldAccents(text).replace(/[\s:.#]+$/, '');
  return labels.some((label) => {
    label.pattern.lastIndex = 0;
    const match = label.pattern.exec(folded);
    return match !== null && match.index === 0 && match[0].trimEnd().replace(/[:.#\s]+$/, '').length >= folded.length - 1;
  }) || /^(?:nummer|number|name|adresse|address|anschrift|kontakt|contact|telefon|phone|fax|e-mail|email)$/i.test(folded);
}

/** A cell that names a party: letters, not a label, not an address line, a number or a sentence. */
function partyText(text: string): string | null {
  // A name ends where an address begins: "real 33100 Paderborn" is real's.
  const beforeAddress = text.replace(/\s+\d{4,5}\s+\p{Lu}.*$/u, '');
  const cleaned = beforeAddress
    .replace(/^(?:name|nom|nombre|firma)\s*:\s*/i, '')
    .replace(/[,;]?\s+\(?(?:ABN|ACN|ARBN|USt|VAT|CUIT|GSTIN)\b.*$/i, '')
    .replace(/[\s,;:|]+$/, '')
    .trim();
  if (cleaned.length < 2 || cleaned.length > 70 || !/\p{L}{2}/u.test(cleaned)) return null;
  if (/@|www\.|https?:|\.(?:com|de|fr|es|net|org)\b/i.test(cleaned)) return null;
  // An Australian address line ends with its state and postcode ("Tyson Vale SA 9999"): "SA" there is South Australia, not a legal form.
  if (/\b(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT)\s+\d{4}$/.test(cleaned)) return null;
  if (/^\d/.test(cleaned) && !legalFormPattern.test(cleaned)) return null;
  if ((cleaned.match(/\d/g)?.length ?? 0) > cleaned.length / 3) return null;
  const words = plainWords(cleaned);
  if (titleWords.has(words) || nonNames.has(words) || nonNames.has(words.split(' ')[0]!) || columnWords.has(words)) return null;
  // A label waiting for its value, a "Label: value" pair ("Address: 73 Regal Way"), or a sentence (a slogan, a note), is not a name.
  if (/:$/.test(cleaned) || labelOnly(cleaned)) return null;
  if (/^\p{L}[\p{L} .'’()/-]{0,40}:\s*\S/u.test(cleaned)) return null;
  if (/[.!]$/.test(cleaned) && cleaned.split(/\s+/).length >= 3 && !legalFormPattern.test(cleaned)) return null;
  if (cleaned.split(/\s+/).length > 8) return null;
  // Opening hours and clock times are not names.
  if (/\d{1,2}[.:]\d{2}\s*(?:uhr|hrs|h\b|am|pm)/i.test(cleaned)) return null;
  return cleaned;
}

/** The heading of a payment advice or remittance slip, the tear-off part at an invoice's foot that goes back to the seller. */
const paymentAdviceHeading = /^(?:payment|remittance)\s+(?:advice|slip)\b/;

/**
 * A "To:" in the first lines under a payment advice heading: the slip is addressed to the payee, so it names the
 * issuer there ("PAYMENT ADVICE / To: Orange Demo Co"), not the buyer it names at the head of the invoice.
 */
function payeeHit(pages: readonly CellPage[], hit: LabelHit): boolean {
  if (hit.label.field !== 'buyer_name' || hit.label.text !== 'to') return false;
  const page = pages.find((candidate) => candidate.page === hit.cell.page)!;
  const heading = page.lines.findIndex((line) => line.some((cell) => paymentAdviceHeading.test(cell.folded.trim())));
  return heading !== -1 && hit.cell.line > heading && hit.cell.line <= heading + 3;
}

/** A line-item table's header: two cells or more that are column labels. */
const tableHeader = (line: readonly PageCell[]) => line.filter((cell) => columnWords.has(plainWords(cell.text))).length >= 2;

/** Fields whose label closes a line-item table: the rows above it are items. */
const tableEndFields = new Set<VocabularyField>(['subtotal', 'total', 'tax', 'payable']);

/** The cells of line-item rows: from under a table header to the first subtotal or total label (40 lines at most). */
function tableBodyCells(pages: readonly CellPage[], hits: readonly LabelHit[]): Set<PageCell> {
  const closing = new Set(hits.filter((hit) => tableEndFields.has(hit.label.field)).map((hit) => `${hit.cell.page}:${hit.cell.line}`));
  const body = new Set<PageCell>();
  for (const page of pages) {
    const header = page.lines.findIndex(tableHeader);
    if (header === -1) continue;
    for (const line of page.lines.slice(header + 1, header + 41)) {
      if (line.some((cell) => closing.has(`${cell.page}:${cell.line}`))) break;
      for (const cell of line) body.add(cell);
    }
  }
  return body;
}

/** Where the buyer's block sits: the lines under a buyer label, in its column. */
function buyerBlockCells(pages: readonly CellPage[], hits: readonly LabelHit[]): Set<PageCell> {
  const buyerCells = new Set<PageCell>();
  for (const hit of hits) {
    if (!buyerLabelFields.has(hit.label.field) || hit.label.weight < 0.8) continue;
    const page = pages.find((candidate) => candidate.page === hit.cell.page)!;
    const lineIndex = page.lines.findIndex((line) => line.includes(hit.cell));
    for (const line of page.lines.slice(lineIndex, lineIndex + 5)) for (const cell of line) if (cell === hit.cell || horizontalOverlap(cell, hit.cell) > 0.3 || Number.isNaN(cell.x0)) buyerCells.add(cell);
  }
  return buyerCells;
}

type AddName = (name: string, cell: PageCell, score: number, reason: string) => void;

/**
 * What one cell says for being the issuer's name: a legal form (strongest at the head of page 1), the sender
 * line of a window envelope, large type, the web address it matches, and a company register or tax number
 * beside it (in the cell, or on the lines just under it), which only the issuer usually prints with its name.
 */
function nameCellEvidence(pages: readonly CellPage[], page: CellPage, cell: PageCell, domains: ReadonlySet<string>, add: AddName): void {
  const registeredHere = registrationPattern.test(cell.folded);
  // "Lieferant GmbH · Lieferantenstraße 20 · 80333 München": the sender line above a window envelope's address;
  // "BOUYGUES TELECOM - Société Anonyme au capital de … R.C.S. PARIS": a footer's legal notice.
  const parts = cell.text.split(registeredHere ? /\s+[·•|–-]\s+/ : /\s+[·•|–]\s+|\s+-\s+(?=\d)/);
  let name = partyText(parts.length > 1 ? parts[0]! : cell.text);
  if (!name) return;
  const legal = legalFormPattern.test(name) || (registeredHere && parts.slice(1, 3).some((part) => legalFormPattern.test(part)));
  // A name whose first word is set apart from the rest ("toom | Baumarkt GmbH"): the whole line is the name.
  const line = page.lines.find((candidate) => candidate.includes(cell))!;
  const left = line[cell.index - 1];
  if (legal && cell.index === 1 && left && /^\p{L}{2,15}$/u.test(left.text) && partyText(left.text)) name = `${left.text} ${name}`;
  const first = page.page === pages[0]?.page;
  const large = !Number.isNaN(cell.height) && cell.height >= page.bodyHeight * 1.4;
  if (legal) add(name, cell, first && cell.depth < 0.3 ? 0.6 : cell.depth > 0.75 ? 0.35 : 0.25, 'legal form');
  if (parts.length > 2 && legal) add(name, cell, 0.2, 'sender line');
  if (first && large && cell.depth < 0.3) add(name, cell, 0.25, 'large type');
  const lineIndex = page.lines.indexOf(line);
  const under = page.lines.slice(lineIndex + 1, lineIndex + 3).flatMap((next) => next.filter((other) => horizontalOverlap(other, cell) > 0.3 || (Number.isNaN(cell.x0) && other.index === cell.index)));
  const registeredUnder = under.some((other) => registrationPattern.test(other.folded));
  if (legal && (registeredHere || registeredUnder)) add(name, cell, 0.25, 'registered');
  // A letterhead name with its ABN, NZBN or VAT number on the line under it, legal form or not ("Mike's Big Bikes" over "ABN 12 345 678 901").
  else if (first && cell.depth < 0.3 && under.some((other) => other.line === lineIndex + 1 && registrationPattern.test(other.folded))) add(name, cell, 0.3, 'registered');
  const squashed = foldAccents(name).replace(/[^\p{L}\d]/gu, '');
  const word = foldAccents(name.split(/\s+/)[0] ?? '').replace(/[^\p{L}\d]/gu, '');
  if ([...domains].some((domain) => (word.length >= 3 && domain.includes(word)) || (squashed.length >= 4 && domain === squashed))) add(name, cell, 0.25, 'web address');
}

function bestIssuer(pages: readonly CellPage[], hits: readonly LabelHit[], options: InvoiceReadOptions): LocatedValue | null {
  const scores = new Map<string, NameScore>();
  const add: AddName = (name, cell, score, reason) => {
    const key = foldAccents(name).replace(/[^\p{L}\d]+/gu, ' ').trim();
    if (key === '') return;
    const entry = scores.get(key) ?? { name, score: 0, cell, reasons: new Set<string>() };
    if (!entry.reasons.has(reason)) entry.score += score;
    entry.reasons.add(reason);
    if (score > 0.3 && (reason === 'label' || reason === 'letterhead')) entry.cell = cell;
    scores.set(key, entry);
  };
  const buyerCells = buyerBlockCells(pages, hits);
  // A seller label and its value.
  for (const hit of hits) {
    if (hit.label.field !== 'supplier_name') continue;
    for (const place of valuePlaces(pages, hit, hits)) {
      const name = partyText(place.text);
      if (!name) continue;
      add(name, place.cell, 0.6 * hit.label.weight * placementWeight[place.placement], 'label');
      break;
    }
    // "Verkäufer" heading a block: its "Name:" line.
    const page = pages.find((candidate) => candidate.page === hit.cell.page)!;
    const lineIndex = page.lines.findIndex((line) => line.includes(hit.cell));
    for (const line of page.lines.slice(lineIndex + 1, lineIndex + 5)) {
      const named = line.find((cell) => /^name\s*:?$/i.test(cell.text) || /^name\s*:/i.test(cell.text));
      if (!named) continue;
      const value = /^name\s*:\s*(.+)$/i.exec(named.text)?.[1] ?? line[named.index + 1]?.text;
      const name = value ? partyText(value) : null;
      if (name) add(name, named, 0.6 * hit.label.weight, 'label');
      break;
    }
  }
  for (const hit of hits) {
    if (!payeeHit(pages, hit)) continue;
    const place = valuePlaces(pages, hit, hits).find((candidate) => partyText(candidate.text));
    if (place) add(partyText(place.text)!, place.cell, 0.6 * placementWeight[place.placement], 'payment advice');
  }
  const domains = new Set<string>();
  for (const page of pages) for (const cell of page.lines.flat()) for (const match of cell.folded.matchAll(/(?:@|www\.|https?:\/\/)([a-z0-9-]+)\./g)) if (!/^(gmail|yahoo|hotmail|outlook|example|web|gmx|t-online)$/.test(match[1]!)) domains.add(match[1]!.replace(/-/g, ''));
  // An item's description is no letterhead, legal form or not ("Company car park").
  const itemCells = tableBodyCells(pages, hits);
  for (const page of pages) for (const line of page.lines) for (const cell of line) if (!buyerCells.has(cell) && !itemCells.has(cell)) nameCellEvidence(pages, page, cell, domains, add);
  // The letterhead: the first line of page 1 that names something (not a title, label, date or number).
  const firstPage = pages[0];
  if (firstPage) {
    for (const line of firstPage.lines.slice(0, 8)) {
      // The letterhead is above the line items.
      if (tableHeader(line)) break;
      const cell = line[0]!;
      if (buyerCells.has(cell)) continue;
      // A head line that opens with the buyer's label ("To: Jordan Walsh Consulting   Invoice Date   Melrose Parking"):
      // the sender's name is the first one beside the buyer's, past the labels.
      const buyerHit = hits.find((hit) => hit.cell === cell && hit.start === 0 && hit.label.field === 'buyer_name');
      if (buyerHit) {
        const valueInCell = cell.text.slice(buyerHit.end).trim() !== '';
        const beside = line.slice(valueInCell ? 1 : 2).find((other) => !hits.some((hit) => hit.cell === other) && partyText(other.text) && findDates(other.text, undefined).length === 0);
        if (beside) {
          add(partyText(beside.text)!, beside, 0.3, 'letterhead');
          break;
        }
        continue;
      }
      if (hits.some((hit) => hit.cell === cell && hit.start === 0)) continue;
      const name = partyText(cell.text);
      if (!name || findDates(name, undefined).length > 0) continue;
      add(name, cell, options.receipt ? 0.4 : 0.3, 'letterhead');
      break;
    }
  }
  const ranked = mergeSameNames([...scores.values()]).sort((a, b) => b.score - a.score || a.cell.page - b.cell.page || a.cell.depth - b.cell.depth);
  const best = ranked[0];
  if (!best) return null;
  const margin = ranked[1] ? best.score - ranked[1].score : 1;
  return located(best.name, calibrate(Math.min(1, best.score), best.reasons.size - 1, margin) * best.cell.confidence, best.cell);
}

interface NameScore {
  name: string;
  score: number;
  cell: PageCell;
  reasons: Set<string>;
}

/**
 * One party named twice, once shorter or with a slip ("MARCIO Y AGUSTINN" in the letterhead, "MARCIO Y AGUSTIN
 * ADDAMO" beside "Razón Social"): the shorter's words begin the longer's, each the same or one letter apart, and
 * the evidence of both goes to the longer.
 */
function mergeSameNames(entries: NameScore[]): NameScore[] {
  const words = (name: string) => foldAccents(name).replace(/[^\p{L}\d]+/gu, ' ').trim().split(' ');
  const byLength = [...entries].sort((a, b) => words(b.name).length - words(a.name).length || b.score - a.score);
  const kept: NameScore[] = [];
  for (const entry of byLength) {
    const short = words(entry.name);
    const into = short.join('').length >= 4 ? kept.find((longer) => short.every((word, i) => sameWord(word, words(longer.name)[i]))) : undefined;
    if (!into) {
      kept.push(entry);
      continue;
    }
    for (const reason of entry.reasons) into.reasons.add(reason);
    into.score += entry.score;
  }
  return kept;
}

/** The same word, or (four letters and more) one letter added, dropped or changed. */
function sameWord(a: string, b: string | undefined): boolean {
  if (b === undefined) return false;
  if (a === b) return true;
  if (Math.min(a.length, b.length) < 4 || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.slice(i + 1) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i) || a.slice(i) === b.slice(i + 1);
}

function bestBuyer(pages: readonly CellPage[], hits: readonly LabelHit[]): LocatedValue | null {
  const candidates: Candidate<string>[] = [];
  for (const hit of hits) {
    if (hit.label.field !== 'buyer_name' || payeeHit(pages, hit)) continue;
    for (const place of valuePlaces(pages, hit, hits)) {
      if (place.placement !== 'same_cell' && isLabelCell(place.cell, hits)) {
        // "Käufer" heading a block whose first line is "Nummer: …": look for its "Name:" line.
        continue;
      }
      const name = partyText(place.text);
      if (!name) continue;
      candidates.push({ value: name, score: hit.label.weight * placementWeight[place.placement], cell: place.cell, label: hit, placement: place.placement });
      break;
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const best = candidates[0];
  if (!best) return null;
  const rival = candidates.find((other) => other.value !== best.value);
  return located(best.value, calibrate(best.score * 0.9, 0, rival ? best.score - rival.score : 1) * best.cell.confidence, best.cell);
}
