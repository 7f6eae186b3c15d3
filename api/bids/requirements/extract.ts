import { furnitureTest, pageLines, type PageLine } from './lines.ts';
import {
  asksForDocument,
  contextOf,
  introducesList,
  isBuyerSentence,
  isHandInInstruction,
  isHeaderRow,
  isTendererPromise,
  namesDocument,
  numberingOf,
  obligationOf,
  weightOf,
  type ContextKind,
  type Numbering,
} from './wording.ts';

/**
 * Requirements read from a bid's files: numbered clauses with must/shall/mandatory wording, returnable schedules
 * and forms, evaluation criteria with their weights and conditions for participation, each with the page and
 * characters it came from. A pure function of the pages' text: rules, no model.
 */

export const requirementKinds = ['clause', 'schedule', 'criterion', 'condition'] as const;
export type RequirementKind = (typeof requirementKinds)[number];

export interface BidFilePages {
  file_id: string;
  filename: string;
  pages: { n: number; text: string }[];
}

export interface RequirementSource {
  file_id: string;
  page: number;
  /** Character offsets in the page's text: `text` is that slice with its runs of white space folded. */
  start: number;
  end: number;
}

export interface ExtractedRequirement {
  /** The clause number it sits under, e.g. "5(a)(ii)", or null outside numbered clauses. */
  ref: string | null;
  text: string;
  kind: RequirementKind;
  mandatory: boolean;
  /** An evaluation criterion's weight in percent, when the document states one. */
  weight: number | null;
  source: RequirementSource;
  /** 0..1: how sure the rule that found it is (explicit "must" in a numbered clause scores highest). */
  confidence: number;
}

export function extractRequirements(files: readonly BidFilePages[]): ExtractedRequirement[] {
  return files.flatMap((file) => new FileReading(file).requirements());
}

/** A sentence shorter than this many words with a percentage in it reads as a criterion's title. */
const maxCriterionTitleWords = 15;

interface Block {
  numbering: Numbering | null;
  ref: string | null;
  /** The block's text with a space between lines, and where each of its characters sits in the page text. */
  text: string;
  offsets: number[];
}

interface LeadIn {
  /** true: the lead-in obliges ("The Respondent must:"); false: it asks ("should"); null: it does neither. */
  mandatory: boolean | null;
  hint: ContextKind | null;
}

/** The clause number and the list items open under it, outermost first ("5", then "(a)", then "(ii)"). */
interface ClauseRefs {
  number: string | null;
  items: { key: string; label: string }[];
}

const noRefs = (): ClauseRefs => ({ number: null, items: [] });

const bareWeight = /^(\d{1,3}(?:\.\d+)?)\s?%$/;
const trailingPassFail = /^(.*\S)\s*pass\s*\/\s*fail$/i;
const trailingPercent = /^(.*?\D)\s*(\d{1,3}(?:\.\d+)?\s?%)$/;

function words(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** A short title-like line: a heading, a criterion's name in a table, or a document in a list of schedules. */
function isShortTitle(text: string): boolean {
  return text.length <= 80 && words(text) <= 10 && !/[.;:,]$/.test(text) && /^[A-Z0-9("']/.test(text) && obligationOf(text) === null && weightOf(text) === null;
}

/** A heading that ends a list of schedules: PART or SECTION, capitals, or a single-number clause ("5. Conditions"). */
function isTopHeading(text: string, numbering: Numbering | null): boolean {
  return /^(part|section)\b/i.test(text) || (/[A-Z]/.test(text) && text === text.toUpperCase()) || (numbering?.level === 'number' && !numbering.label.includes('.'));
}

/** Sentence ends: a full stop, question or exclamation mark before a capital, except after "No." or "e.g.". */
function sentenceRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  for (const match of text.matchAll(/[.!?](?=\s+[A-Z(])/g)) {
    const before = text.slice(Math.max(0, match.index - 5), match.index + 1);
    if (/\b(No|e\.g|i\.e|etc|Pty|Cth|Qld|Vic)\.$/.test(before)) continue;
    ranges.push([start, match.index + 1]);
    start = match.index + 1;
  }
  ranges.push([start, text.length]);
  return ranges
    .map(([from, to]): [number, number] => {
      const slice = text.slice(from, to);
      const lead = slice.length - slice.trimStart().length;
      return [from + lead, from + slice.trimEnd().length];
    })
    .filter(([from, to]) => to > from);
}

class FileReading {
  readonly #file: BidFilePages;
  readonly #found: ExtractedRequirement[] = [];
  #page = 0;
  #pageText = '';
  #refs: ClauseRefs = noRefs();
  #lastLetter: string | null = null;
  #context: ContextKind | null = null;
  #leadIn: LeadIn | null = null;
  #tableWeighs = false;
  #block: Block | null = null;
  /** A title line waiting to learn whether the next line is its weight (a .docx table puts cells on lines). */
  #titleAwaitingWeight: PageLine | null = null;

  constructor(file: BidFilePages) {
    this.#file = file;
  }

  requirements(): ExtractedRequirement[] {
    const pages = this.#file.pages.map((page) => ({ n: page.n, text: page.text, lines: pageLines(page.text) }));
    const isFurniture = furnitureTest(pages.map((page) => page.lines));
    for (const page of pages) {
      this.#page = page.n;
      this.#pageText = page.text;
      const lines = page.lines.filter((line) => !isFurniture(line));
      // The next line with text after each line, found in one pass from the end.
      const nextFilled: (PageLine | null)[] = [];
      let following: PageLine | null = null;
      for (let index = lines.length - 1; index >= 0; index--) {
        nextFilled[index] = following;
        if (lines[index]!.text !== '') following = lines[index]!;
      }
      for (const [index, line] of lines.entries()) this.#readLine(line, nextFilled[index] ?? null);
      this.#closeBlock();
      this.#titleAwaitingWeight = null;
    }
    return this.#found;
  }

  #readLine(line: PageLine, next: PageLine | null): void {
    const text = line.text;
    if (text === '') return this.#closeBlock();
    const weightCell = bareWeight.exec(text);
    if (weightCell && this.#titleAwaitingWeight) {
      this.#emit(this.#titleAwaitingWeight.start, this.#titleAwaitingWeight.end, 'criterion', false, Number(weightCell[1]), 0.8);
      this.#titleAwaitingWeight = null;
      return;
    }
    if (isHeaderRow(text.split('\t'))) {
      this.#closeBlock();
      this.#tableWeighs ||= /weight/i.test(text);
      return;
    }
    if (this.#readTableRow(line)) return;
    const numbering = numberingOf(text, this.#lastLetter);
    const body = numbering ? text.slice(numbering.length) : text;
    if (!numbering && this.#block && this.#continues(this.#block, text)) return this.#extendBlock(line);
    this.#closeBlock();
    this.#advanceRefs(numbering);
    if (isShortTitle(body)) return this.#readTitle(line, numbering, body, next);
    this.#block = { numbering, ref: this.#ref(), text: '', offsets: [] };
    this.#extendBlock({ text: body, start: line.start + (numbering?.length ?? 0), end: line.end });
  }

  /** A line that carries on the open block: it starts in lower case, or the block has not finished its sentence. */
  #continues(block: Block, text: string): boolean {
    if (/^[a-z]/.test(text)) return true;
    if (/[.:;]$/.test(block.text)) return false;
    // A criterion's title with its weight is complete without a full stop.
    return weightOf(block.text) === null;
  }

  #extendBlock(line: PageLine): void {
    const block = this.#block!;
    if (block.text !== '') {
      block.text += ' ';
      block.offsets.push(block.offsets.at(-1)! + 1);
    }
    block.text += line.text;
    for (let offset = line.start; offset < line.end; offset++) block.offsets.push(offset);
  }

  /** A table row, tab-separated or with its last cell run on ("...Requirements30%", "...contract.Pass/Fail"). */
  #readTableRow(line: PageLine): boolean {
    const text = line.text;
    const cells = text.includes('\t') ? text.split('\t') : null;
    const passFail = trailingPassFail.exec(text);
    const percent = trailingPercent.exec(text);
    const runOn = !cells && (passFail ?? percent);
    if (!cells && !(runOn && words(runOn[1]!) <= maxCriterionTitleWords && obligationOf(runOn[1]!) === null)) return false;
    this.#closeBlock();
    const hint = this.#leadIn?.hint ?? this.#context;
    const lastCell = (cells ? cells.at(-1)! : runOn ? runOn[2] ?? 'Pass/Fail' : '').trim();
    const confidence = cells ? 0.85 : 0.7;
    if (/pass\s*\/\s*fail/i.test(lastCell) || (passFail && !cells)) {
      this.#emit(line.start, line.end, 'condition', true, null, confidence);
      return true;
    }
    const weight = bareWeight.test(lastCell) ? weightOf(lastCell) : this.#tableWeighs && /^\d{1,3}$/.test(lastCell) ? Number(lastCell) : null;
    if (weight !== null && hint !== 'condition') this.#emit(line.start, line.end, 'criterion', false, weight, confidence);
    else if (hint === 'schedule') this.#emit(line.start, line.end, 'schedule', this.#leadIn?.mandatory ?? true, null, confidence - 0.1);
    return true;
  }

  #readTitle(line: PageLine, numbering: Numbering | null, body: string, next: PageLine | null): void {
    const hint = this.#leadIn?.hint ?? this.#context;
    const start = line.start + (numbering?.length ?? 0);
    if (next && (bareWeight.test(next.text) || (this.#tableWeighs && /^\d{1,3}$/.test(next.text)))) {
      this.#titleAwaitingWeight = { text: body, start, end: line.end };
      return;
    }
    if (hint === 'schedule' && !isTopHeading(body, numbering)) {
      this.#emit(start, line.end, 'schedule', this.#leadIn?.mandatory ?? true, null, namesDocument(body) ? 0.8 : 0.65);
      return;
    }
    // A heading: it opens a passage whose heading may say what its requirements are.
    this.#context = contextOf(body);
    this.#leadIn = null;
    this.#tableWeighs = false;
    if (!numbering && isTopHeading(body, null)) this.#refs = noRefs();
  }

  /**
   * An item closes the items nested under an earlier item of its own level and style, and nests under the others:
   * "a)" then "(i)" then "(A)" reads 5(a)(i)(A), and "a." written under "(i)" nests rather than replacing "a)".
   */
  #advanceRefs(numbering: Numbering | null): void {
    if (!numbering || numbering.level === 'bullet') return;
    if (numbering.level === 'number') {
      this.#refs = { number: numbering.label, items: [] };
      this.#lastLetter = null;
      return;
    }
    if (numbering.level === 'letter') this.#lastLetter = numbering.label;
    const key = `${numbering.level} ${numbering.style}`;
    const items = this.#refs.items;
    const open = items.findIndex((item) => item.key === key);
    this.#refs = { number: this.#refs.number, items: [...(open < 0 ? items : items.slice(0, open)), { key, label: numbering.label }] };
  }

  #ref(): string | null {
    const ref = `${this.#refs.number ?? ''}${this.#refs.items.map((item) => `(${item.label})`).join('')}`;
    return ref === '' ? null : ref;
  }

  #closeBlock(): void {
    const block = this.#block;
    if (!block) return;
    this.#block = null;
    this.#titleAwaitingWeight = null;
    const span = (from: number, to: number): [number, number] => [block.offsets[from]!, block.offsets[to - 1]! + 1];
    const weight = weightOf(block.text);
    if (weight !== null && words(block.text) <= maxCriterionTitleWords && obligationOf(block.text) === null) {
      this.#emit(...span(0, block.text.length), 'criterion', false, weight, 0.9, block.ref);
      this.#leadIn = null;
      return;
    }
    const parent = this.#leadIn;
    const listItem = block.numbering !== null && block.numbering.level !== 'number';
    const hint = parent?.hint ?? this.#context;
    let opensList = false;
    for (const [index, [from, to]] of sentenceRanges(block.text).entries()) {
      const sentence = block.text.slice(from, to);
      const obligation = obligationOf(sentence) ?? (isHandInInstruction(sentence) ? 'mandatory' : null);
      if (introducesList(sentence)) {
        const promises = obligation === null && isTendererPromise(sentence);
        const own = obligation === 'mandatory' || promises ? true : obligation === 'optional' ? false : null;
        // A list inside an item of another list ("(i) an outline of its approach, including:") obliges as the outer one does.
        const inherited = listItem ? parent : null;
        this.#leadIn = { mandatory: own ?? inherited?.mandatory ?? null, hint: contextOf(sentence) ?? inherited?.hint ?? null };
        opensList = true;
        continue;
      }
      if (obligation === null) {
        // An item under a lead-in says what the lead-in asks for in its first sentence, without a verb of its own.
        if (index === 0 && listItem && parent) this.#readListItem(parent, block, span(from, to));
        continue;
      }
      if (isBuyerSentence(sentence)) continue;
      const kind: RequirementKind =
        hint === 'condition' ? 'condition' : asksForDocument(sentence) || isHandInInstruction(sentence) ? 'schedule' : 'clause';
      const mandatory = obligation === 'mandatory' || kind === 'condition';
      this.#emit(...span(from, to), kind, mandatory, null, obligation === 'optional' ? 0.6 : kind === 'clause' && block.numbering ? 0.9 : 0.85, block.ref);
    }
    if (!opensList && !listItem) this.#leadIn = null;
  }

  /** An item under a lead-in ("The Respondent must:", "the following criteria:") that states nothing itself. */
  #readListItem(leadIn: LeadIn, block: Block, [start, end]: [number, number]): void {
    const hint = leadIn.hint ?? this.#context;
    if (hint === 'criterion' && leadIn.mandatory === null) return this.#emit(start, end, 'criterion', false, weightOf(block.text), 0.7, block.ref);
    if (hint === 'condition') return this.#emit(start, end, 'condition', true, null, 0.8, block.ref);
    if (leadIn.mandatory === null) return;
    const kind: RequirementKind = hint === 'schedule' ? 'schedule' : 'clause';
    this.#emit(start, end, kind, leadIn.mandatory, null, 0.75, block.ref);
  }

  #emit(start: number, end: number, kind: RequirementKind, mandatory: boolean, weight: number | null, confidence: number, ref: string | null = this.#ref()): void {
    const text = this.#pageText.slice(start, end).replace(/\s+/g, ' ').trim();
    this.#found.push({ ref, text, kind, mandatory, weight: kind === 'criterion' ? weight : null, source: { file_id: this.#file.file_id, page: this.#page, start, end }, confidence });
  }
}
