import { furnitureTest, pageLines, type PageLine } from './lines.ts';
import { numberingOf, type Numbering } from './numbering.ts';
import { isAnswerCell } from './wording.ts';

/**
 * A file's pages cut into paragraphs: the unit a heading, a list item, a table row or a run of prose lines
 * makes. Each keeps, for every character of its text, where that character sits in its page's text, so a
 * requirement found in it carries a verbatim span. Markdown markup (`#`, `>`, `**`, `\(`) stays in the text
 * and is looked through (`plain`) when numbering, headings and wording are judged.
 */

export interface Paragraph {
  page: number;
  /** The paragraph's text, its lines joined by one space, numbering left out. */
  text: string;
  /** Where each character of `text` sits in the page text. */
  offsets: number[];
  /** `text` without Markdown markup, white space folded: what the wording rules read. */
  plain: string;
  numbering: Numbering | null;
  /** A Markdown heading (`## Title`) or a title underlined by `---`. */
  markedHeading: boolean;
  /** The whole paragraph is emphasised (`**Title**`), as headings often are in Markdown. */
  emphasised: boolean;
  /** Cells of a table row (tab-separated, or Markdown `a | b`), else null. */
  cells: string[] | null;
  /** A blank line (or a page break) comes before it. */
  blankBefore: boolean;
  /** Its first line is indented (in Markdown, a list item's further paragraph). */
  indented: boolean;
}

/** The text of a line with Markdown markup taken out, and for each of its characters the index in the line. */
interface PlainView {
  plain: string;
  index: number[];
}

/** `line` read through its Markdown markup (quote and heading marks, emphasis, escapes). */
function plainView(line: string): PlainView {
  let plain = '';
  const index: number[] = [];
  let atStart = true;
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!;
    if (atStart && (char === '>' || char === '#' || char === ' ' || char === '\t')) continue;
    // A Markdown bullet ("* item", "+ item") is numbering, not emphasis.
    if (atStart && (char === '*' || char === '+') && /\s/.test(line[at + 1] ?? '')) {
      atStart = false;
      plain += '*';
      index.push(at);
      continue;
    }
    atStart = false;
    if (char === '*' || (char === '\\' && /[()[\]._*#>-]/.test(line[at + 1] ?? ''))) continue;
    plain += char;
    index.push(at);
  }
  return { plain, index };
}

/** Folds a text's Markdown markup and white space, for the wording rules. */
export function plainText(text: string): string {
  return text
    .replace(/\\(?=[()[\]._*#>-])/g, '')
    .replace(/\*+/g, '')
    .replace(/(^|\s)>+(?=\s|$)/g, '$1')
    .replace(/^#+\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const markdownRule = /^(\s*[-=]{3,}\s*|\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*)$/;
const htmlComment = /^<!--.*-->$/;
const markdownHeading = /^#{1,6}\s*\S/;
/** A Markdown table row: cells parted by " | ". */
const pipeRow = /\S\s+\|\s+\S|^\|.*\|$/;

interface Open {
  paragraph: Paragraph;
  /** The last line ended a sentence (., ;, :, ? or !). */
  ended: boolean;
  lines: number;
  /** Started on the line after a lead-in ending in a colon, or after an item of one: a short one is a list item of its own line ("Schedule 1 - Form of Quotation"). */
  listItem: boolean;
}

/** Whether a page parts its paragraphs with blank lines (Markdown, .docx) rather than only by layout (a PDF text layer). */
function partsWithBlankLines(lines: readonly PageLine[]): boolean {
  const filled = lines.filter((line) => line.text !== '').length;
  const blank = lines.length - filled;
  return filled > 0 && blank >= filled * 0.25;
}

function isTitleLike(plain: string, numbered: boolean): boolean {
  if (plain.length > 90 || /[.;,:]$/.test(plain) || !/^[A-Z0-9("'“‘]/.test(plain) || /\b(?:must|shall|will|should|may)\b/i.test(plain)) return false;
  const words = plain.split(/\s+/);
  if (words.length > 12) return false;
  // "3.2 Evaluation criteria": a numbered short line is a heading however it is capitalised.
  if (numbered && words.length <= 8 && !/\b(?:must|shall|will|is|are)\b/i.test(plain)) return true;
  const capitalised = words.filter((word) => /^[A-Z0-9("'“‘&–—-]/.test(word)).length;
  return capitalised >= Math.ceil(words.length * 0.6);
}

/** A line that ends a table row's last cell run on ("…Requirements30%", "…contract.Pass/Fail"): the row ends there. */
const rowEnd = /(?:\d\s?%|pass\s*\/\s*fail)$/i;

/** The paragraph `line` starts, its numbering (when it has one) and leading space left out of its text. */
function paragraphAt(page: { n: number; text: string }, line: PageLine, plain: PlainView, numbering: Numbering | null, blankBefore: boolean, extra: Partial<Paragraph>): Paragraph {
  const skipped = numbering ? plain.index[Math.min(numbering.length, plain.index.length) - 1]! + 1 : (plain.index[0] ?? 0);
  const body = line.text.slice(numbering ? skipped : 0);
  const lead = body.length - body.trimStart().length;
  const from = (numbering ? skipped : 0) + lead;
  const text = line.text.slice(from);
  return {
    page: page.n,
    text,
    offsets: Array.from({ length: text.length }, (_, at) => line.start + from + at),
    plain: plainText(text),
    numbering,
    markedHeading: false,
    emphasised: false,
    cells: null,
    blankBefore,
    indented: /[ \t]/.test(page.text[line.start - 1] ?? '') && (page.text[line.start - 1] ?? '') !== '\n',
    ...extra,
  };
}

export function paragraphsOf(pages: readonly { n: number; text: string }[]): Paragraph[] {
  const lined = pages.map((page) => ({ n: page.n, text: page.text, lines: pageLines(page.text) }));
  const isFurniture = furnitureTest(lined.map((page) => page.lines));
  const paragraphs: Paragraph[] = [];
  for (const page of lined) {
    const blankParted = partsWithBlankLines(page.lines);
    let open: Open | null = null;
    let blankBefore = true;
    const close = () => {
      if (open && open.paragraph.text !== '') paragraphs.push(open.paragraph);
      open = null;
    };
    const start = (line: PageLine, plain: PlainView, numbering: Numbering | null, extra: Partial<Paragraph> = {}) => {
      const before = open as Open | null;
      const listItem = before !== null && !blankBefore && (before.listItem || /:["'”’)*]*$/.test(before.paragraph.plain));
      close();
      const paragraph = paragraphAt(page, line, plain, numbering, blankBefore, extra);
      open = { paragraph, ended: /[.;:?!]["'”’)*]*$/.test(paragraph.text) || rowEnd.test(paragraph.text), lines: 1, listItem };
      blankBefore = false;
    };
    for (const line of page.lines) {
      // A line of markup alone (a Markdown quote's ">") parts paragraphs as a blank line does.
      if (line.text === '' || /^[>\s]+$/.test(line.text)) {
        if (blankParted) close();
        blankBefore = true;
        continue;
      }
      if (isFurniture(line) || htmlComment.test(line.text)) continue;
      if (markdownRule.test(line.text)) {
        // "Title\n-----" underlines a heading; a table's "---|---" or a bare rule parts paragraphs.
        const current = open as Open | null;
        if (current && current.lines === 1 && /^[-=]+$/.test(line.text.trim())) current.paragraph.markedHeading = true;
        close();
        continue;
      }
      const plain = plainView(line.text);
      if (markdownHeading.test(line.text.trimStart())) {
        start(line, plain, null, { markedHeading: true });
        close();
        continue;
      }
      const numbering = numberingOf(plain.plain);
      // A tab right after a list's numbering ("b.\t*Communications*") is spacing, not a table's cell break.
      const afterNumbering = numbering ? line.text.slice(plain.index[Math.min(numbering.length, plain.index.length) - 1]! + 1) : line.text;
      // "True | False" is a form's answer box, not a table row.
      if (afterNumbering.includes('\t') || (pipeRow.test(line.text) && !isAnswerCell(plain.plain))) {
        const cells = line.text.split(afterNumbering.includes('\t') ? '\t' : /\s*\|\s*/).map((cell) => plainText(cell)).filter((cell) => cell !== '');
        if (cells.length > 1) {
          start(line, plain, null, { cells });
          close();
          continue;
        }
      }
      const current = open as Open | null;
      if (!numbering && current && current.paragraph.cells === null && !current.paragraph.markedHeading && continues(current, plain.plain, blankParted)) {
        extend(current, line);
        continue;
      }
      start(line, plain, numbering);
      const opened = open as Open | null;
      if (opened) opened.paragraph.emphasised = /^\s*(\*\*|__)[^*]+(\*\*|__)[.:]?\s*$/.test(line.text.replace(/^[>\s#]+/, ''));
    }
    close();
    blankBefore = true;
  }
  return paragraphs;
}

/**
 * Whether a line carries on the paragraph open before it. Where blank lines part paragraphs every line until
 * the next blank one does; in a PDF's text layer a line does unless the paragraph has ended its sentence and
 * the line starts a new one, or the paragraph so far is a title (a heading on a line of its own).
 */
function continues(open: Open, plain: string, blankParted: boolean): boolean {
  const startsCapital = /^[A-Z0-9]/.test(plain);
  // Even where blank lines part paragraphs, a lead-in's items may stand one to a line under it, and a heading in
  // capitals on a line of its own is not the start of the paragraph below it.
  if (startsCapital && (/:["'”’)*]*$/.test(open.paragraph.plain) || (open.listItem && open.lines === 1 && !open.ended && open.paragraph.plain.split(/\s+/).length <= 8))) return false;
  if (startsCapital && open.lines === 1 && /^[^a-z]*[A-Z]{3}[^a-z]*$/.test(open.paragraph.plain) && open.paragraph.plain.length <= 60) return false;
  if (blankParted) return true;
  if (/^[a-z(]/.test(plain)) return true;
  if (open.ended) return false;
  if (open.lines !== 1) return true;
  // A short line of its own ("Returnable schedules", "Offer validity period") is a heading, not the start of a wrapped sentence.
  const plainLine = open.paragraph.plain;
  if (plainLine.split(/\s+/).length <= 6 && plainLine.length <= 50 && /^[A-Z0-9]/.test(plain) && !/\b(?:must|shall|will|is|are|the|a|an|of|and|or|to|for|with|in)$/i.test(plainLine)) return false;
  return !isTitleLike(plainLine, open.paragraph.numbering !== null);
}

function extend(open: Open, line: PageLine): void {
  const paragraph = open.paragraph;
  paragraph.text += ' ';
  paragraph.offsets.push(paragraph.offsets.at(-1)! + 1);
  paragraph.text += line.text;
  for (let at = 0; at < line.text.length; at++) paragraph.offsets.push(line.start + at);
  paragraph.plain = plainText(paragraph.text);
  paragraph.emphasised = false;
  open.ended = /[.;:?!]["'”’)*]*$/.test(line.text) || rowEnd.test(line.text);
  open.lines++;
}
