import { afterLetter, type Numbering } from './numbering.ts';
import { paragraphsOf, plainText, type Paragraph } from './paragraphs.ts';
import { flatTableAt, type FlatRow, type FlatTable } from './tables.ts';
import {
  asksForDocument,
  asksForForm,
  returnableAskedFor,
  bindsTheBuyer,
  buyerActs,
  isImperative,
  listOpening,
  isDisqualifying,
  isPassFail,
  isFormField,
  isHeaderRow,
  isLodging,
  isParticipation,
  leadInNamesDocument,
  obligationOf,
  speaksToTheDrafter,
  pointsOf,
  sectionKindOf,
  subjectOf,
  tendererWill,
  totalPointsOf,
  weightOf,
  type Obligation,
  type SectionKind,
} from './wording.ts';

/**
 * Requirements read from a bid's files by rules, no model: sentences that oblige or ask (the grammar in
 * wording.ts, imperatives addressed to the tenderer included), each list item under a lead-in with the lead-in's
 * force, evaluation criteria with their weights, each returnable schedule or form as its own row, conditions for
 * participation, and the instructions to tenderers (how, where, when and in what form to lodge), which are
 * `instruction` and never a gap. What a passage holds is read from its headings and numbering, not from one
 * phrase. Each requirement keeps its file, page and character span, so its text is a verbatim slice of the page.
 */

export const requirementKinds = ['clause', 'schedule', 'criterion', 'condition', 'instruction'] as const;
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
  /** 0..1: how sure the rule that found it is (an explicit "must" in a numbered clause scores highest). */
  confidence: number;
}

export function extractRequirements(files: readonly BidFilePages[]): ExtractedRequirement[] {
  return files.flatMap((file) => new FileReading(file).requirements());
}

/** A form's required-field mark: an asterisk after the field's name or question ("DUNS *", "… projects? *"). */
const requiredMark = /[\w?)]\s*\*\s*$/;

/** "Factor 1 – Technical Approach", "Criterion 2", "Sub-factor A": the title of an evaluation criterion. */
const factorTitle = /^(?:evaluation\s+)?(?:factor|criterion|sub-?factor)\s+(?:\d+|[A-Z])\b/i;

/** A lead-in whose own words stop at its verb or at "the following": without its items it asks nothing. */
const announcesOnly = /\b(?:shall|must|will)(?:\s+(?:be\s+met|include|consist\s+of|comprise|contain))?(?:\s+the\s+following)?\s*:\s*["'”’*)]*$/i;

/** Words that oblige whatever the sentence's form. */
const strongWord = /\bmust\b|\bshall\b|\brequired\b|\bmandatory\b|\bneeds?\s+to\b/i;

/** Headings of passages that describe the buyer's situation and aims. */
const describingHeading = /\b(?:background|purpose)\b/i;

/** A criterion's title is at most this many words. */
const maxTitleWords = 15;
/** An item of a list without numbering (a .docx list loses it) is at most this many words. */
const maxBareItemWords = 40;

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

/** What items under a lead-in are. */
type ItemKind = 'clause' | 'schedule' | 'criterion' | 'condition' | 'instruction';

interface LeadIn {
  /** true: the lead-in obliges ("The Respondent must:"); false: it asks; null: neither. */
  mandatory: boolean | null;
  kind: ItemKind;
  /** The lead-in paragraph's own numbering: an item numbered as it is (or above) ends the list. */
  numbering: Numbering | null;
  /** Level and style of the first item's numbering ('' for an item without numbering), once one is read. */
  itemKey: string | null;
  /** Items seen so far. */
  items: number;
  /** The lead-in sentence, to be a requirement itself when no item follows it ("Please include the following subject line:"). */
  pending: { paragraph: Paragraph; start: number; end: number; sentence: string; obligation: Obligation } | null;
  /** An item ended in "or": the list offers alternatives. */
  alternatives: boolean;
  /** The last item read ended as a sentence does (a full stop, a semicolon, "and"). */
  lastItemSentence: boolean;
  /** The lead-in speaks of what the buyer may do ("We reserve the right to:") or of exceptions ("does not apply to:"): its items bind no one unless they say so. */
  others: boolean;
}

interface Section {
  kind: SectionKind | null;
  title: string;
  /** The heading's clause number ("1.3"), if numbered: a clause numbered at its depth or above ends the section. */
  number: string | null;
}

/** How deep a clause number sits: "6" and "1.0" are 1, "1.3" is 2. */
const depthOf = (label: string): number => label.replace(/\.0$/, '').split('.').length;

/** The clause number and the list items open under it, outermost first ("5", then "(a)", then "(ii)"). */
interface ClauseRefs {
  number: string | null;
  items: { key: string; label: string }[];
}

/** Sentence ends: a full stop, question or exclamation mark (and any closing markup) before a capital. */
function sentenceRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  // "…; please provide screenshots as attachments." is a request of its own after the semicolon.
  for (const match of text.matchAll(/[.!?]["'”’)\]*_]*(?=\s+[>*_"'“‘(\\[]*[A-Z0-9(])|;(?=\s+[Pp]lease\b)/g)) {
    const before = text.slice(Math.max(0, match.index - 6), match.index + 1);
    const around = text.slice(Math.max(0, match.index - 16), match.index + 1);
    // "Appendix B. Price …" ends a sentence; "J. Smith" and "No. 4" do not.
    const labelLetter = /\b(?:appendix|attachment|schedule|annex|annexure|part|section|form|exhibit|volume|lot|table|phase|item|option|category|pool|stage|factor)\s+[A-Z]\.$/i.test(around);
    if (!labelLetter && /(?:\b(?:No|e\.g|i\.e|Pty|Ltd|Inc|Co|Cth|Qld|Vic|St|Mr|Ms|Mrs|Dr|vs|approx|Sec|Art|para|p|pp|Vol|Fig|U\.S|U\.K|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.|\b[A-Z]\.)$/.test(before)) continue;
    const end = match.index + match[0].length;
    ranges.push([start, end]);
    start = end;
  }
  ranges.push([start, text.length]);
  return ranges
    .map(([from, to]): [number, number] => {
      const slice = text.slice(from, to);
      const lead = slice.length - slice.trimStart().length;
      return [from + lead, from + slice.trimEnd().length];
    })
    .filter(([from, to]) => to > from && /[A-Za-z]/.test(text.slice(from, to)));
}

/** A short run of title words at the start of a paragraph ("Format.", "c. Cover Page.", "**Price:**") before its first sentence. */
function inlineHeadingOf(paragraph: Paragraph): number | null {
  const emphasised = /^\s*(?:[>\s]*)(\*{1,3}|_{1,3})([^*_]{2,80}?)[.:]?\1[.:]?\s+(?=\S)/.exec(paragraph.text);
  if (emphasised && words(emphasised[2]!) <= 10 && obligationOf(emphasised[2]!) === null) return emphasised[0].length;
  const plain = /^([A-Z][A-Za-z0-9/&'’,()\- ]{1,70}?)[*_]*[.:][*_]*\s+(?=[A-Z*"“_])/.exec(paragraph.text);
  if (!plain) return null;
  const title = plain[1]!;
  const titleWords = title.split(/\s+/);
  if (titleWords.length > 8 || obligationOf(title) !== null || /\b(?:is|are|was|were|will|the\s+\w+\s+of)\b/i.test(title)) return null;
  const capitalised = titleWords.filter((word) => /^[A-Z0-9(]/.test(word)).length;
  // "Key personnel. The offeror shall …": a short phrase without a verb is a title however it is capitalised.
  const short = titleWords.length <= 3 && !/\b(?:a|an|the|this|that|it|we|you)\b/i.test(title) && !isImperative(title);
  return short || capitalised >= Math.ceil(titleWords.length * 0.6) ? plain[0].length : null;
}

function isTitle(plain: string, numbered = false): boolean {
  if (plain.length > 110 || !/^[A-Z0-9("'“‘]/.test(plain) || /[;,]$/.test(plain)) return false;
  // "3. What you need to know": a numbered short line without a verb that binds is a heading however it is capitalised.
  if (numbered && words(plain) <= 8 && !/[.;:]\s|[.;,]$/.test(plain) && (/^(?:what|how|when|where|why|who)\b/i.test(plain) || !/\b(?:must|shall|should|will|may|cannot|is|are|needs?\s+to)\b/i.test(plain))) return true;
  const titleWords = plain.replace(/[.:]$/, '').split(/\s+/);
  if (titleWords.length > 14) return false;
  if (/[.]$/.test(plain) && /\.\s/.test(plain.slice(0, -1))) return false;
  const capitalised = titleWords.filter((word) => /^[A-Z0-9("'“‘&–—/-]/.test(word)).length;
  // "Mandatory Requirements" is a title; a title has no verb that binds.
  return capitalised >= Math.ceil(titleWords.length * 0.5) && !/\b(?:must|shall|should|will|may|cannot|is|are|needs?\s+to)\b/i.test(plain) && !isImperative(plain);
}

/** A heading line in capitals, with PART or SECTION, or with a single-number clause ("5. Conditions"): it opens a major section. */
function isMajorHeading(paragraph: Paragraph): boolean {
  const plain = paragraph.plain;
  if (paragraph.markedHeading && /^#{1,2}[^#]/.test(paragraph.text.trimStart())) return true;
  if (/^(?:part|section|stage|volume)\b/i.test(plain)) return true;
  // "K.2 PRICE" and "5.1 SCOPE" are sub-headings however they are written.
  if (/^[A-Z]?\d*\.\d/.test(plain) || (paragraph.numbering?.level === 'number' && paragraph.numbering.label.includes('.') && !/\.0$/.test(paragraph.numbering.label))) return false;
  if (/[A-Z]/.test(plain) && plain === plain.toUpperCase() && words(plain) >= 2) return true;
  return paragraph.numbering?.level === 'number' && /^\d+(?:\.0)?$/.test(paragraph.numbering.label);
}

class FileReading {
  readonly #file: BidFilePages;
  readonly #found: ExtractedRequirement[] = [];
  readonly #paragraphs: Paragraph[];
  #major: Section = { kind: null, title: '', number: null };
  #minor: Section | null = null;
  #refs: ClauseRefs = { number: null, items: [] };
  #lastLetter: string | null = null;
  /** Lead-ins whose lists are open, outermost first: an item may open a list of its own ("(i) …, including:"). */
  #leadIns: LeadIn[] = [];
  /** The sub-heading the current paragraphs sit under, and whether a schedule row was taken from under it. */
  #subsection: { title: string; schedule: boolean; criterion: boolean } | null = null;
  #tableWeighs = false;
  /** Where in the found list each "Price will be evaluated …" criterion sits. */
  readonly #priceCriteria: number[] = [];
  /** A sentence another paragraph's requirement took in (a factor's title with how it is evaluated). */
  #consumed: { paragraph: Paragraph; end: number } | null = null;
  /** The numbering of the last numbered paragraph outside a list. */
  #lastNumbering: Numbering | null = null;
  /** The paragraph before was a returnable's title in a list of them. */
  #lastWasReturnableTitle = false;
  /** Returnables already given a row, by name, so one asked for again is a clause. */
  readonly #returnables = new Set<string>();
  /** Returnables already listed by title: a list or table naming one again adds no row. */
  readonly #returnableTitles = new Set<string>();
  readonly #totalPoints: number | null;
  /** The file is a form that marks its required fields with an asterisk ("Business Name *"): those are its mandatory questions. */
  readonly #asteriskForm: boolean;
  /** The file is a buyer's template (it speaks of the reader's own procurement): its bare imperatives are notes to the drafter. */
  readonly #draftersTemplate: boolean;

  constructor(file: BidFilePages) {
    this.#file = file;
    this.#paragraphs = paragraphsOf(file.pages);
    this.#asteriskForm = this.#paragraphs.filter((paragraph) => requiredMark.test(paragraph.text)).length >= 3;
    this.#draftersTemplate = file.pages.some((page) => speaksToTheDrafter(page.text));
    this.#totalPoints = file.pages.map((page) => totalPointsOf(page.text.replace(/\s+/g, ' '))).find((total) => total !== null) ?? null;
  }

  requirements(): ExtractedRequirement[] {
    for (let index = 0; index < this.#paragraphs.length; index++) {
      const table = this.#paragraphs[index]!.cells === null ? flatTableAt(this.#paragraphs, index) : null;
      if (table) {
        this.#readFlatTable(table);
        index = table.end - 1;
        continue;
      }
      this.#read(this.#paragraphs[index]!, this.#paragraphs[index + 1] ?? null);
    }
    this.#closeLeadIns();
    // Where the stated weights already make up 100% without it, "Price will be evaluated …" is judged apart (a price
    // and quality method), not one of the weighted criteria.
    const weighted = this.#found.reduce((sum, requirement) => sum + (requirement.kind === 'criterion' ? (requirement.weight ?? 0) : 0), 0);
    if (weighted >= 99.5 && weighted <= 100.5) {
      const price = new Set(this.#priceCriteria);
      return this.#found.filter((_, index) => !price.has(index));
    }
    return this.#found;
  }

  /** A lead-in no item followed was a sentence like any other. */
  #closeLeadIn(leadIn: LeadIn): void {
    const pending = leadIn.pending;
    leadIn.pending = null;
    // "The Contractor shall:" or "The price submission shall include the following:" with nothing after it says nothing;
    // "Please include the following subject line:" does.
    if (pending && leadIn.items === 0 && words(pending.sentence) >= 6 && !announcesOnly.test(pending.sentence)) this.#emitSentence(pending.paragraph, pending.start, pending.end, pending.sentence, pending.obligation, null);
  }

  #closeLeadIns(): void {
    for (const leadIn of this.#leadIns.reverse()) this.#closeLeadIn(leadIn);
    this.#leadIns = [];
  }

  /**
   * A table a .docx reader flattened: certifications answered True/False are conditions; in a passage of
   * instructions or returnables, each row's title is a returnable; in an evaluation passage with a weight
   * column, a criterion. Other tables' cells are read as prose.
   */
  #readFlatTable(table: FlatTable): void {
    this.#closeLeadIns();
    const answered = table.rows.filter((row) => row.answered).length;
    const names = (row: FlatRow) => row.cells.map((index) => this.#paragraphs[index]!);
    if (answered > 0 && answered >= table.rows.length / 2) {
      for (const row of table.rows) for (const paragraph of names(row)) this.#emit(paragraph, 0, paragraph.text.length, 'condition', obligationOf(paragraph.plain) !== 'optional', null, 0.8);
      return;
    }
    // A weight column: each row is a criterion with the weight its attribute cell gives.
    if (table.header.some((cell) => /\bweight|\bpoints\b|%/i.test(cell)) && this.#context !== 'condition') {
      for (const row of table.rows) {
        const cells = names(row);
        const weight = row.value === null ? null : /^\d{1,3}(?:\.\d+)?$/.test(row.value) ? Number(row.value) : weightOf(row.value);
        if (cells.some((cell) => cell.page !== cells[0]!.page)) continue;
        this.#markCriterion();
        this.#emitSpan(cells[0]!.page, cells[0]!.offsets[0]!, cells.at(-1)!.offsets.at(-1)! + 1, 'criterion', false, weight, 0.8);
      }
      return;
    }
    const documents = table.header.some((cell) => /\b(?:title|document|part|volume|schedule|attachment|form|deliverable)\b/i.test(cell));
    if (documents && (this.#context === 'instruction' || this.#context === 'schedule' || this.#context === null)) {
      for (const row of table.rows) {
        const cells = names(row);
        const first = cells[0]!;
        const last = cells.at(-1)!;
        const title = cells.map((cell) => cell.plain).join(' ');
        if (cells.some((cell) => cell.page !== first.page) || words(title) > maxTitleWords * 2) continue;
        if (!this.#claimTitle(title)) continue;
        this.#emitAcross(first, last, 'schedule', !/\bif\s+applicable\b|\(if\b/i.test(title), 0.7);
      }
      return;
    }
    for (const row of table.rows) for (const paragraph of names(row)) this.#read(paragraph, null);
  }

  get #context(): SectionKind | null {
    return this.#minor?.kind ?? this.#major.kind;
  }

  #read(paragraph: Paragraph, next: Paragraph | null): void {
    if (paragraph.cells) return this.#readRow(paragraph);
    const numbering = paragraph.numbering ? afterLetter(paragraph.numbering, this.#lastLetter) : null;
    const plain = paragraph.plain;
    // Blanks, rules and a table's lone numbers ("1.", "a)") say nothing.
    if (plain === '' || /^(?:[_\s.:-]+|\d{1,3}[.)]?|[A-Za-z][.)])$/.test(plain)) return;
    // In a form that stars its required fields, a starred field or question is required, and an unstarred request only asks.
    if (this.#asteriskForm && words(plain) <= maxBareItemWords) {
      if (requiredMark.test(paragraph.text)) return this.#emit(paragraph, 0, paragraph.text.length, 'clause', true, null, 0.7);
      if (isImperative(plain) && !/\bmust\b|\bshall\b|\brequired\b/i.test(plain)) return this.#emit(paragraph, 0, paragraph.text.length, 'clause', false, null, 0.6);
    }
    while (this.#leadIns.length > 0) {
      const leadIn = this.#leadIns.at(-1)!;
      // An indented paragraph after a numbered item is more of that item ("- Staffing Plan: …" then "    The Government will also …").
      if (!numbering && paragraph.indented && leadIn.itemKey) return this.#readSentences(paragraph, sentenceRanges(paragraph.text), leadIn);
      if (this.#isItem(leadIn, paragraph, numbering, next)) {
        this.#advanceRefs(numbering, true);
        return this.#readItem(paragraph, leadIn);
      }
      this.#closeLeadIn(this.#leadIns.pop()!);
    }
    if (this.#readFactorTitle(paragraph, numbering, next)) return;
    const wasReturnableTitle = this.#lastWasReturnableTitle;
    this.#lastWasReturnableTitle = false;
    if (this.#isHeading(paragraph, next)) {
      this.#lastWasReturnableTitle = wasReturnableTitle;
      return this.#readHeading(paragraph, numbering, next);
    }
    this.#advanceRefs(numbering);
    this.#closeSectionsAt(numbering);
    if (numbering && numbering.level !== 'bullet') this.#lastNumbering = numbering;
    if (numbering && numbering.level !== 'number' && this.#context === 'criterion' && this.#readCriterionTitle(paragraph)) return;
    if (this.#readWeighted(paragraph)) return;
    // A pass/fail table row whose last cell ran on ("… the Proposed Contract.Pass/Fail").
    if (/pass\s*\/\s*fail\s*$/i.test(plain) && words(plain) <= maxBareItemWords) return this.#emit(paragraph, 0, paragraph.text.length, 'condition', true, null, 0.7);
    this.#readProse(paragraph, numbering);
  }

  /** Clause 1.4 ends the passage under heading 1.3 (and clause 2 the one under heading 1). */
  #closeSectionsAt(numbering: Numbering | null): void {
    if (numbering?.level !== 'number') return;
    const depth = depthOf(numbering.label);
    if (this.#minor?.number && depth <= depthOf(this.#minor.number) && numbering.label !== this.#minor.number) this.#minor = null;
    if (this.#major.number && depth <= depthOf(this.#major.number) && numbering.label !== this.#major.number) this.#major = { kind: null, title: '', number: null };
  }

  #isHeading(paragraph: Paragraph, next: Paragraph | null): boolean {
    if (paragraph.markedHeading || paragraph.emphasised) return words(paragraph.plain) <= 20;
    const plain = paragraph.plain;
    if (!isTitle(plain, paragraph.numbering?.level === 'number') || weightOf(plain) !== null) return false;
    if (/:$/.test(plain)) return true;
    // A bullet or a lettered line in a list of titles is an item, unless prose follows it under it.
    if (paragraph.numbering && paragraph.numbering.level !== 'number' && next?.numbering && next.numbering.style === paragraph.numbering.style) return false;
    if (paragraph.numbering?.level === 'bullet') return false;
    return true;
  }

  #readHeading(paragraph: Paragraph, numbering: Numbering | null, next: Paragraph | null): void {
    const title = paragraph.plain.replace(/[.:]$/, '');
    // In a list of returnables, or a run of titles that each name one ("Appendix A - Response Form"), each title is a returnable.
    const documentTitle = (text: string) =>
      /^(?:returnable\s+)?(?:schedule|appendix|attachment|annexure|exhibit|form|submittal\s+form)\s+[A-Z0-9]{1,3}\b/i.test(text) &&
      /\b(?:forms?|declaration|schedule|response|questionnaire|checklist|certificat\w*|statement|plan|pric\w*|tender|offer|quot\w*|referees?|experience|methodology|capability|personnel|insurance)\b/i.test(text.replace(/^\S+\s+\S+/, ''));
    const listed = this.#context === 'schedule' && !isMajorHeading(paragraph) && !/:$/.test(paragraph.plain) && sectionKindOf(title) !== 'schedule' && !/\b(?:mandatory|minimum)\s+requirements\b|\bconditions\s+(?:for|of)\s+participation\b|\bevaluation\s+criteria\b|\binstructions\b/i.test(title) && !isFormField(title);
    const run = documentTitle(title) && ((next !== null && documentTitle(next.plain)) || this.#lastWasReturnableTitle);
    if (listed || run) {
      this.#advanceRefs(numbering);
      this.#lastWasReturnableTitle = true;
      if (!this.#claimTitle(title)) return;
      return this.#emit(paragraph, 0, paragraph.text.length, 'schedule', !/\bif\s+applicable\b|\(if\b/i.test(title), null, 0.7);
    }
    const kind = sectionKindOf(title);
    if (isMajorHeading(paragraph) || (kind !== null && kind !== this.#major.kind && !paragraph.numbering && this.#minor === null)) {
      this.#major = { kind, title, number: numberOf(numbering) };
      this.#minor = null;
      if (!numbering) this.#refs = { number: null, items: [] };
    } else {
      this.#minor = { kind: kind ?? this.#major.kind, title, number: numberOf(numbering) };
    }
    this.#advanceRefs(numbering);
    this.#subsection = { title, schedule: false, criterion: false };
    this.#tableWeighs = false;
    // A heading that names a form or schedule to return is that returnable's row ("SUBMITTAL FORM A – Offeror Information").
    if ((/\b(?:submittal|response|returnable|tender|offer|bid)\s+(?:form|schedule)\b/i.test(title) || /^(?:[Ff]orm|[Ss]chedule|FORM|SCHEDULE)\s+[A-Z0-9]{1,3}\b/.test(title)) && this.#claimTitle(title)) {
      this.#emit(paragraph, 0, paragraph.text.length, 'schedule', !/\bif\s+applicable\b|\(if\b/i.test(title), null, 0.7);
    }
    // A heading ending in a colon introduces what follows it, as a lead-in does.
    // A title's words are no imperative ("Schedule and Agenda:"): only a promise or a modal in it obliges its list.
    if (/:\s*[*_]*$/.test(paragraph.text.trim())) this.#openLeadIn(paragraph.plain, tendererWill(paragraph.plain) ? 'mandatory' : isImperative(paragraph.plain) ? null : obligationOf(paragraph.plain), numbering, null);
  }

  /** Whether a paragraph is an item of the list the open lead-in introduced. */
  #isItem(leadIn: LeadIn, paragraph: Paragraph, numbering: Numbering | null, next: Paragraph | null): boolean {
    if (paragraph.markedHeading || paragraph.emphasised) return false;
    const plain = paragraph.plain;
    if (numbering) {
      const key = `${numbering.level} ${numbering.style}`;
      // 1.4.1 under the lead-in of 1.4 is its item; another item written as the lead-in's own clause is its sibling.
      const subNumber = numbering.level === 'number' && leadIn.numbering?.level === 'number' && numbering.label.startsWith(`${leadIn.numbering.label}.`);
      if (!subNumber && leadIn.numbering && numbering.level === leadIn.numbering.level && numbering.style === leadIn.numbering.style) return false;
      if (leadIn.itemKey === null || leadIn.itemKey === '') {
        // A list numbered 1, 2, 3 under a lead-in starts at 1; a numbered title ("8. Basis of Award") is the next heading.
        if (numbering.level === 'number' && !subNumber && (numbering.label !== '1' || isTitle(plain))) return false;
        if (leadIn.itemKey === '' && leadIn.items > 0) return numbering.level !== 'number';
        leadIn.itemKey = key;
        return true;
      }
      if (key === leadIn.itemKey) return true;
      return numbering.level !== 'number' || subNumber;
    }
    if (leadIn.itemKey !== null && leadIn.itemKey !== '') return false;
    // An item ending in a semicolon ("…;", "…; and") is one of a list however long it runs.
    if (words(plain) > maxBareItemWords && !/;\s*(?:and|or)?$/.test(plain)) return false;
    // "Transition" after items written as sentences ("Conduct training sessions.") is the next heading, not one more item.
    if (leadIn.lastItemSentence && isTitle(plain) && !/[.;:,]$|\b(?:and|or)$/.test(plain)) return false;
    // A title with prose under it is the next heading, not the last item.
    if (isTitle(plain) && !/[;,]$|\band$|\bor$/.test(plain) && next && !next.numbering && /[.:]["'”’)*]*$/.test(next.plain) && words(next.plain) >= 6 && !isTitle(next.plain)) return false;
    leadIn.itemKey = '';
    return true;
  }

  /** A lead-in opens a list; one written in an item of another list opens a list inside it, which obliges as the outer one does. */
  #openLeadIn(sentence: string, obligation: Obligation | null, numbering: Numbering | null, inItem: LeadIn | null, pending: LeadIn['pending'] = null): void {
    // A lead-in in an unnumbered paragraph under "e." ends its list at "f.".
    numbering ??= inItem ? null : this.#lastNumbering;
    const own = obligation === 'mandatory' ? true : obligation === 'optional' ? false : null;
    const leadIn: LeadIn = {
      // "… with respect to:" lists what the lead-in is about, not what must be done.
      mandatory: /\b(?:does|do|shall|will)\s+not\s+apply\b/i.test(sentence) ? null : /\b(?:with\s+respect\s+to|regarding|relating\s+to|concerning|such\s+as)\s*:\s*$/i.test(sentence) ? false : own ?? inItem?.mandatory ?? (this.#context === 'condition' ? true : null),
      kind: this.#itemKindOf(sentence, inItem?.kind ?? null, obligation),
      numbering,
      itemKey: null,
      items: 0,
      lastItemSentence: false,
      alternatives: false,
      pending,
      // "… shall be given precedence in the following order:" ranks documents; its items bind no one.
      others: (bindsTheBuyer(sentence) && !tendererWill(sentence)) || /\b(?:does|do|shall|will)\s+not\s+apply\b|\bexcept(?:ions?)?\b|\bprecedence\b/i.test(sentence) || (inItem?.others ?? false),
    };
    if (inItem) this.#leadIns.push(leadIn);
    else {
      this.#closeLeadIns();
      this.#leadIns = [leadIn];
    }
  }

  /** Records a returnable listed by its title; false when a list already named it. */
  #claimTitle(title: string): boolean {
    const name = titleName(title);
    if (this.#returnableTitles.has(name)) return false;
    this.#returnableTitles.add(name);
    this.#returnables.add(returnableName(title));
    return true;
  }

  /** What the items under a lead-in are, from its words and the section it sits in. */
  #itemKindOf(leadIn: string, inherited: ItemKind | null, obligation: Obligation | null): ItemKind {
    if (/\bspecifications?\b|\bformat(?:ted|ting)?\b|\blegend\b|\bsubject\s+line\b|\belectronically\b|\bfields?\b/i.test(leadIn)) return 'instruction';
    // A list of documents is of returnables when its lead-in asks for them; "the pack is made up of:" only describes.
    if (/\b(?:documents?|attachments?|forms?|schedules?|submission\s+of|submit(?:ted)?\s+the\s+following|volumes?|returnables?|deliverables\s+with)\b/i.test(leadIn) && !/\binformation\b/i.test(leadIn) && (obligation !== null || /\b(?:submit|submission|return|complete|include|lodge|provide|require)/i.test(leadIn))) return 'schedule';
    // "The Technical submission shall include the following:" lists the parts of the response.
    if (/\b(?:submission|proposal|quotation|quote|response|offer|tender|bid)s?\s+(?:shall|must|will|is\s+to|are\s+to)\s+(?:include|contain|consist\s+of|comprise)\b/i.test(leadIn) && !/\binformation\b/i.test(leadIn)) return 'schedule';
    if (/\bmust\s+be\s+met\b|\bmandatory\s+requirements\b|\bminimum\s+(?:requirements|qualifications|criteria|standards|experience)\b|\bconditions?\b|\beligib|\bpass\s*\/\s*fail\b|\bacceptable\s*\/\s*unacceptable\b/i.test(leadIn) || this.#context === 'condition') return 'condition';
    if ((this.#context === 'criterion' && obligation !== 'mandatory') || (/\bevaluat\w*\b/i.test(leadIn) && /\b(?:factors?|criteri(?:a|on)|sub-?factors?)\b/i.test(leadIn))) return 'criterion';
    return inherited ?? 'clause';
  }

  /** An item under a lead-in: with wording of its own it is read as a sentence, else it takes the lead-in's force. */
  #readItem(paragraph: Paragraph, leadIn: LeadIn): void {
    leadIn.items++;
    leadIn.lastItemSentence = /[.;]["'”’)*]*$|\b(?:and|or)$/.test(paragraph.plain) && !isTitle(paragraph.plain);
    if (!paragraph.numbering && isFormField(paragraph.plain)) return;
    // A caption ("Table 2") names what follows; it asks nothing.
    if (/^(?:table|figure|exhibit|chart)\s+\d+[.:]?$/i.test(paragraph.plain)) return;
    const inline = leadIn.kind === 'criterion' ? null : inlineHeadingOf(paragraph);
    if (inline !== null) {
      // "c. Cover Page. Your quotation must include …": a sub-heading, then sentences that speak for themselves.
      this.#subsection = { title: plainText(paragraph.text.slice(0, inline)).replace(/[.:]$/, ''), schedule: false, criterion: false };
      return this.#readSentences(paragraph, sentenceRanges(paragraph.text.slice(inline)).map(([from, to]): [number, number] => [from + inline, to + inline]), leadIn);
    }
    const sentences = sentenceRanges(paragraph.text);
    const first = sentences[0];
    if (!first) return;
    const firstText = plainText(paragraph.text.slice(...first));
    const own = obligationOf(firstText);
    if (sentences.length === 1 && listOpening(firstText) === 'lead-in' && !(leadInNamesDocument(firstText) && own === 'mandatory')) return this.#openLeadIn(firstText, own, paragraph.numbering, leadIn, own ? { paragraph, start: first[0], end: first[1], sentence: firstText, obligation: own } : null);
    if (leadIn.kind === 'criterion') {
      const inline = inlineHeadingOf(paragraph);
      if (inline !== null || own === null) {
        const end = inline ?? first[1];
        this.#markCriterion();
        this.#emit(paragraph, 0, trimmedEnd(paragraph.text, end), 'criterion', false, this.#weightOf(paragraph.plain), 0.7);
        return this.#readSentences(paragraph, sentenceRanges(paragraph.text.slice(end)).map(([from, to]): [number, number] => [from + end, to + end]), null);
      }
    }
    if (own !== null && !(leadIn.kind === 'schedule' && words(firstText) <= maxTitleWords && !/[.]$/.test(firstText))) return this.#readSentences(paragraph, sentences, leadIn);
    if ((leadIn.mandatory === null || leadIn.others) && leadIn.kind !== 'schedule' && leadIn.kind !== 'condition') return this.#readSentences(paragraph, sentences.slice(1), leadIn);
    // "The Contracting Officer will evaluate …" listed under "The Contractor shall:" is the buyer's doing, not the list's; an item
    // in lower case ("assume that the Customer …") goes on with the lead-in's sentence and its subject.
    if (/^[A-Z]/.test(firstText) && buyerActs(firstText)) return this.#readSentences(paragraph, sentences, leadIn);
    // Returnables listed as alternatives ("New Offer Proposal; or", "Contract Modification;") are each not required.
    leadIn.alternatives ||= /\bor$/.test(paragraph.plain);
    const mandatory = (leadIn.mandatory ?? true) && !(leadIn.kind === 'schedule' && leadIn.alternatives);
    // A returnable listed with its page limit ("Technical Concept Paper (Not to exceed 8 pages)") is still the returnable.
    const title = words(firstText) <= maxTitleWords && !/[.]$/.test(firstText);
    let kind: RequirementKind = leadIn.kind === 'schedule' && title ? 'schedule' : isLodging(firstText) ? 'instruction' : leadIn.kind;
    if (kind === 'schedule') {
      // A title the list names again adds nothing; a sentence asking again for one already listed is a clause.
      if (title && !this.#claimTitle(firstText)) return;
      if (!title) {
        const name = returnableName(firstText);
        if (this.#returnables.has(name)) kind = 'clause';
        else this.#returnables.add(name);
      }
      if (/\bif\s+applicable\b|\(if\b|\bif\s+(?:any|using|required|requested)\b/i.test(firstText)) return this.#emit(paragraph, first[0], first[1], kind, false, null, 0.7);
    }
    this.#emit(paragraph, first[0], first[1], kind, mandatory, null, 0.75);
    this.#readSentences(paragraph, sentences.slice(1), leadIn);
  }

  /** A row of a table: weights, pass/fail, answers of a certification, returnables. */
  #readRow(paragraph: Paragraph): void {
    const cells = paragraph.cells!;
    // A table under a lead-in is its list.
    const open = this.#leadIns.at(-1);
    if (open) open.items++;
    if (isHeaderRow(cells)) {
      this.#tableWeighs ||= cells.some((cell) => /weight|points|%/i.test(cell));
      return;
    }
    const last = cells.at(-1) ?? '';
    if (/pass\s*\/\s*fail/i.test(last)) return this.#emit(paragraph, 0, paragraph.text.length, 'condition', true, null, 0.85);
    const weight = /^\d{1,3}(?:\.\d+)?\s?%$/.test(last) ? weightOf(last) : this.#tableWeighs && /^\d{1,3}$/.test(last) ? Number(last) : null;
    if (weight !== null && this.#context !== 'condition' && cells.length >= 2) return this.#emit(paragraph, 0, paragraph.text.length, 'criterion', false, weight, 0.85);
    if (/^\d{1,3}$/.test(last)) return; // a contents line or a count
    const leadIn = this.#leadIns.at(-1);
    // An agenda's rows ("Introductions | 5 minutes") are times, not returnables.
    const listed = (leadIn?.kind ?? this.#context) === 'schedule' && !/\b(?:minutes?|hours?|time\s+allocated)\b/i.test(paragraph.plain);
    if (listed && cells.length <= 3 && words(paragraph.plain) <= maxTitleWords && this.#claimTitle(last)) return this.#emit(paragraph, 0, paragraph.text.length, 'schedule', leadIn?.mandatory ?? true, null, 0.7);
  }

  /** "Factor 1 – Technical Approach" on a line of its own in an evaluation section: that criterion, and a sub-heading for what follows. */
  #readFactorTitle(paragraph: Paragraph, numbering: Numbering | null, next: Paragraph | null): boolean {
    const plain = paragraph.plain;
    if (!factorTitle.test(plain) || words(plain) > maxTitleWords || /[.;]$/.test(plain)) return false;
    if (this.#context !== 'criterion' || obligationOf(plain) !== null) return false;
    this.#advanceRefs(numbering);
    this.#subsection = { title: plain, schedule: false, criterion: true };
    // "FACTOR 1 – Performance Work Statement" then "The Government will evaluate …": the criterion and how it is judged.
    const [judged] = next && next.page === paragraph.page && next.cells === null ? sentenceRanges(next.text) : [];
    if (next && judged && /\bevaluat/i.test(next.text.slice(...judged)) && obligationOf(plainText(next.text.slice(...judged))) === null && !isTitle(next.plain)) {
      this.#consumed = { paragraph: next, end: judged[1] };
      this.#emitSpan(paragraph.page, paragraph.offsets[0]!, next.offsets[judged[1] - 1]! + 1, 'criterion', false, this.#weightOf(plain), 0.75);
      return true;
    }
    this.#emit(paragraph, 0, paragraph.text.length, 'criterion', false, this.#weightOf(plain), 0.8);
    return true;
  }

  /** A list item in an evaluation section that names a criterion ("- Technical Approach", "(b) Price"). */
  #readCriterionTitle(paragraph: Paragraph): boolean {
    const inline = inlineHeadingOf(paragraph);
    const [first] = inline !== null ? [[0, trimmedEnd(paragraph.text, inline)] as [number, number]] : sentenceRanges(paragraph.text);
    if (!first) return false;
    const title = plainText(paragraph.text.slice(...first)).replace(/[:.]$/, '');
    // "b. Technical Evaluation Factors. The Government will …" is a sub-heading of the evaluation, not a criterion.
    if (sectionKindOf(title) === 'criterion' && first[1] < paragraph.text.length) return false;
    if (words(title) > maxTitleWords || obligationOf(title) !== null) return false;
    if (/\b(?:rating|ratings)\b/i.test(title) && !/\bfactor\b/i.test(title)) return false;
    this.#markCriterion();
    this.#emit(paragraph, first[0], first[1], 'criterion', false, this.#weightOf(paragraph.plain), 0.75);
    this.#readSentences(paragraph, sentenceRanges(paragraph.text.slice(first[1])).map(([a, b]): [number, number] => [a + first[1], b + first[1]]), null);
    return true;
  }

  /** A sub-heading of the instructions that names a part of the response, not a rule of lodging ("Format", "Page Limits", "Rules"). */
  #isResponsePart(title: string): boolean {
    return !isLodging(title) && !/\b(?:format|limits?|rules?|instructions?|validity|validation|date|communications?|general|administration|process|participants?|agenda|schedule\s+and|part\s+(?:one|two|three))\b/i.test(title) && sectionKindOf(title) !== 'criterion';
  }

  #markCriterion(): void {
    if (this.#subsection) this.#subsection.criterion = true;
  }

  /** A criterion's weight: written as a percentage or weighting, or its points against the document's total. */
  #weightOf(text: string): number | null {
    const written = weightOf(text);
    if (written !== null) return written;
    const points = pointsOf(text);
    return points !== null && this.#totalPoints !== null && points < this.#totalPoints ? Math.round((points / this.#totalPoints) * 1000) / 10 : null;
  }

  /** A short line with a weight ("Technical Approach – 10% (100 points)", "Price: 40 per cent") is a criterion. */
  #readWeighted(paragraph: Paragraph): boolean {
    const [first] = sentenceRanges(paragraph.text);
    if (!first) return false;
    const text = plainText(paragraph.text.slice(...first));
    const weight = weightOf(text);
    if (weight === null || words(text) > maxTitleWords + 4 || obligationOf(text) !== null) return false;
    if (/\b(?:test\s+coverage|error\s+free|uptime|availability|discount|accuracy|gst|vat|tax|retention|interest|deposit|insurance)\b/i.test(text)) return false;
    this.#markCriterion();
    this.#emit(paragraph, first[0], first[1], 'criterion', false, weight, 0.85);
    return true;
  }

  #readProse(paragraph: Paragraph, numbering: Numbering | null): void {
    let from = 0;
    // A factor's title with its paragraph: "Factor 1: Technical Approach: Quoters are required …" is the title, then a sentence;
    // "Factor 2 - Management Approach: The Management Approach will be evaluated …" is the criterion as it will be judged.
    const factor = this.#context === 'criterion' ? /^((?:evaluation\s+)?(?:factor|criterion|sub-?factor)\s+(?:\d+|[A-Z])\b\s*[:.–—-]*\s*[^:.]{0,80}?[:.]\s*[*_]*)\s+(?=[A-Z*"“])/i.exec(paragraph.text) : null;
    if (factor) {
      const titleEnd = trimmedEnd(paragraph.text, factor[1]!.length);
      const rest = sentenceRanges(paragraph.text.slice(factor[0].length)).map(([a, b]): [number, number] => [a + factor[0].length, b + factor[0].length]);
      const first = rest[0];
      this.#markCriterion();
      if (first && obligationOf(plainText(paragraph.text.slice(...first))) === null) {
        this.#emit(paragraph, 0, first[1], 'criterion', false, this.#weightOf(paragraph.plain), 0.75);
        return this.#readSentences(paragraph, rest.slice(1), null);
      }
      this.#emit(paragraph, 0, titleEnd, 'criterion', false, this.#weightOf(paragraph.plain), 0.75);
      return this.#readSentences(paragraph, rest, null);
    }
    if (this.#consumed?.paragraph === paragraph) {
      from = this.#consumed.end;
      this.#consumed = null;
    }
    const inline = from === 0 ? inlineHeadingOf(paragraph) : null;
    if (inline !== null) {
      const title = plainText(paragraph.text.slice(0, inline)).replace(/[.:]$/, '');
      const kind = sectionKindOf(title);
      if (numbering && (numbering.level === 'number' && /^\d+(?:\.0)?$/.test(numbering.label))) {
        this.#major = { kind, title, number: numberOf(numbering) };
        this.#minor = null;
      } else if (numbering) {
        // "c. Cover Page." replaces the sub-heading "b. Page Limits." before it: lettered sub-headings are siblings.
        this.#minor = kind !== null ? { kind, title, number: numberOf(numbering) } : null;
      } else if (kind !== null) this.#minor = { kind, title, number: null };
      this.#subsection = { title, schedule: false, criterion: false };
      from = inline;
    }
    const ranges = sentenceRanges(paragraph.text.slice(from)).map(([start, end]): [number, number] => [start + from, end + from]);
    // A paragraph that opens with "Factor 1 – …" or "Criterion 2: …" in an evaluation section is that criterion.
    if (this.#context === 'criterion' && ranges[0] && /^(?:factor|criterion|sub-?factor|evaluation\s+factor)\s+(?:\d+|[A-Z])\b/i.test(plainText(paragraph.text.slice(...ranges[0])))) {
      const [start, end] = ranges[0];
      this.#markCriterion();
      this.#emit(paragraph, start, end, 'criterion', false, this.#weightOf(plainText(paragraph.text.slice(start, end))), 0.75);
      return this.#readSentences(paragraph, ranges.slice(1), null);
    }
    this.#readSentences(paragraph, ranges, null);
  }

  /** Each sentence that obliges or asks is a requirement; one ending in a colon opens a list. */
  #readSentences(paragraph: Paragraph, ranges: [number, number][], leadIn: LeadIn | null): void {
    for (const [start, end] of ranges) {
      const sentence = plainText(paragraph.text.slice(start, end));
      // "The Contractor will submit a signed cover letter …": the tenderer's own doing, asked as "should" asks.
      let obligation = obligationOf(sentence) ?? (tendererWill(sentence) ? 'optional' : null);
      // "Describe what work is required …" in a buyer's template tells the buyer what to write; a "must" still binds the tenderer.
      if (this.#draftersTemplate && isImperative(sentence) && !/\bmust\b|\bshall\b/i.test(sentence)) obligation = null;
      const opening = listOpening(sentence);
      const lastSentence = start === ranges.at(-1)?.[0];
      if (opening === 'lead-in' && (lastSentence || /:\s*$/.test(sentence))) {
        const names = leadInNamesDocument(sentence) && obligation === 'mandatory' && !bindsTheBuyer(sentence);
        if (names) this.#emitSentence(paragraph, start, end, sentence, obligation!, leadIn);
        this.#openLeadIn(sentence, obligation ?? (tendererWill(sentence) ? 'mandatory' : null), paragraph.numbering, leadIn, !names && obligation && /:\s*["'”’*)]*$/.test(sentence) ? { paragraph, start, end, sentence, obligation } : null);
        continue;
      }
      // "The following are mandatory requirements." introduces what comes after it in the paragraph.
      if (opening === 'lead-in') continue;
      if (opening === 'announces' && lastSentence) {
        if (obligation !== null) this.#emitSentence(paragraph, start, end, sentence, obligation, leadIn);
        this.#openLeadIn(sentence, obligation ?? (tendererWill(sentence) ? 'mandatory' : null), paragraph.numbering, leadIn);
        continue;
      }
      if (obligation === null) {
        if (this.#context === 'criterion' && this.#subsection && !this.#subsection.criterion && /^(?:each\s+\w+['’]s\s+)?(?:price|cost|pricing)\b[^.]*\b(?:will|shall)\s+be\s+evaluated\b|^(?:price|cost)\s+(?:quotes?|quotations?|proposals?)\s+will\s+be\s+evaluated\b/i.test(sentence)) {
          this.#markCriterion();
          this.#priceCriteria.push(this.#found.length);
          this.#emit(paragraph, start, end, 'criterion', false, null, 0.6);
        } else if (this.#totalPoints !== null && /\b\d+\s+points\s+(?:are|is|will\s+be)\s+(?:allocated|awarded|assigned|given)\s+(?:to|for)\b/i.test(sentence)) {
          this.#emit(paragraph, start, end, 'criterion', false, this.#weightOf(sentence), 0.7);
        }
        continue;
      }
      if (tendererWill(sentence) && obligation === 'mandatory' && !/\bmust\b|\bshall\b|\brequired\b/i.test(sentence)) obligation = 'optional';
      // A task written as a bare verb ("Advise on cost optimisation") obliges as far as its list or passage does: not under
      // "The Contractor is expected to:", nor in a background passage.
      if (obligation === 'mandatory' && isImperative(sentence) && !strongWord.test(sentence) && (leadIn?.mandatory === false || this.#describesOnly())) obligation = 'optional';
      this.#emitSentence(paragraph, start, end, sentence, obligation, leadIn);
    }
  }

  /** The passage only describes: its headings speak of background or purpose. */
  #describesOnly(): boolean {
    return [this.#major.title, this.#minor?.title, this.#subsection?.title].some((title) => title !== undefined && describingHeading.test(title));
  }

  #emitSentence(paragraph: Paragraph, start: number, end: number, sentence: string, obligation: Obligation, leadIn: LeadIn | null): void {
    const disqualifies = isDisqualifying(sentence) || isPassFail(sentence);
    // An item of the buyer's list ("We may: verify …; exclude you if …") is the buyer's, unless it says must or shall itself.
    if (leadIn?.others && !/\bmust\b|\bshall\b|\brequired\b/i.test(sentence)) return;
    if (bindsTheBuyer(sentence) && !disqualifies) return;
    const mandatory = obligation === 'mandatory';
    const context = this.#context;
    const asks = asksForDocument(sentence);
    const inSubmission = context === 'instruction' || context === 'schedule' || leadIn?.kind === 'schedule' || this.#subsection !== null;
    const subsection = this.#subsection;
    let kind: RequirementKind = 'clause';
    // Under a sub-heading about lodging ("Column B:", "Page Limits.") a sentence is an instruction too; a sentence
    // asking for a document is a returnable unless it also says where, when or in how many pages to lodge it.
    if (leadIn?.kind === 'instruction' || (subsection !== null && isLodging(subsection.title, true)) || isLodging(sentence, asks && inSubmission)) kind = 'instruction';
    else if (disqualifies) kind = 'condition';
    else if (asks && (inSubmission || asksForForm(sentence)) && (!(context === 'condition' || leadIn?.kind === 'condition') || asksForForm(sentence)) && !this.#returnables.has(returnableName(returnableAskedFor(sentence)))) {
      // A form or certificate to sign is a returnable even among the conditions it certifies.
      this.#returnables.add(returnableName(returnableAskedFor(sentence)));
      kind = 'schedule';
      if (subsection) subsection.schedule = true;
    } else if (context === 'condition' || leadIn?.kind === 'condition') kind = 'condition';
    else if (context === 'instruction' && mandatory && subsection && !subsection.schedule && this.#isResponsePart(subsection.title) && !isImperative(sentence) && /\b(?:tenderers?|offerors?|quoters?|respondents?|contractors?|proponents?|bidders?|you|your)\b/i.test(subjectOf(sentence))) {
      // The first thing a sub-heading naming a part of the response ("Staffing Plan", "Technical Approach") asks of the tenderer is that part.
      subsection.schedule = true;
      kind = 'schedule';
    } else if (isParticipation(sentence) && context !== 'contract') kind = 'condition';
    // "… if applicable", "… if the offeror has any conflicts": a returnable only some tenderers hand in.
    const conditional = kind === 'schedule' && /\bif\s+applicable\b|\bif\s+using\b|\bif\s+(?:the\s+)?(?:offeror|tenderer|respondent|quoter|bidder)\s+(?:has|have|uses|proposes|intends|is\s+(?:proposing|using))\b/i.test(sentence);
    this.#emit(paragraph, start, end, kind, mandatory && !conditional, null, obligation === 'optional' ? 0.6 : paragraph.numbering ? 0.9 : 0.8);
  }

  /**
   * An item closes the items nested under an earlier item of its own level and style, and nests under the others:
   * "a)" then "(i)" then "(A)" reads 5(a)(i)(A), and "a." written under "(i)" nests rather than replacing "a)".
   */
  #advanceRefs(numbering: Numbering | null, inList = false): void {
    if (!numbering || numbering.level === 'bullet') return;
    // "1. 2. 3." listed under "e." are items of e, not clauses 1 to 3.
    const listedNumber = inList && numbering.level === 'number' && !(this.#refs.number !== null && numbering.label.startsWith(`${this.#refs.number}.`));
    if (numbering.level === 'number' && !listedNumber) {
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

  #emit(paragraph: Paragraph, from: number, to: number, kind: RequirementKind, mandatory: boolean, weight: number | null, confidence: number): void {
    this.#emitSpan(paragraph.page, paragraph.offsets[from]!, paragraph.offsets[to - 1]! + 1, kind, mandatory, weight, confidence);
  }

  /** One requirement from the start of one paragraph to the end of another on the same page (a table row's cells). */
  #emitAcross(first: Paragraph, last: Paragraph, kind: RequirementKind, mandatory: boolean, confidence: number): void {
    this.#emitSpan(first.page, first.offsets[0]!, last.offsets.at(-1)! + 1, kind, mandatory, null, confidence);
  }

  #emitSpan(pageNumber: number, start: number, end: number, kind: RequirementKind, mandatory: boolean, weight: number | null, confidence: number): void {
    const page = this.#file.pages.find((candidate) => candidate.n === pageNumber)!;
    const text = page.text.slice(start, end).replace(/\s+/g, ' ').trim();
    this.#found.push({
      ref: this.#ref(),
      text,
      kind,
      mandatory: kind === 'criterion' ? false : mandatory,
      weight: kind === 'criterion' ? weight : null,
      source: { file_id: this.#file.file_id, page: pageNumber, start, end },
      confidence,
    });
  }
}

const numberOf = (numbering: Numbering | null): string | null => (numbering?.level === 'number' ? numbering.label : null);

/** The end of a span with the white space before it left out. */
function trimmedEnd(text: string, end: number): number {
  return text.slice(0, end).trimEnd().length;
}

/** A listed returnable's name: its title's words, without numbering words, parentheses and filler ("Technical Concept Paper;" and "Technical Concept Paper (Not to exceed 8 pages)" are one). */
function titleName(title: string): string {
  return title
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b(?:a|an|the|and|or|of|if\s+applicable)\b/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The returnable a sentence asks for ("… shall submit a Staffing Plan which …" → "staffing plan"), for telling one asked for again. */
function returnableName(text: string): string {
  const noun = /\b((?:(?!(?:submit|submitted|provide|include|includes|prepare|complete|sign|signed|return|furnish|attach|the|a|an|its|their|your|one|and|or|of|with|must|shall)\b)[a-z-]+\s+){0,3}(?:schedule|form|declaration|certificate|certification|statement|plan|letters?\s+of\s+\w+|cover\s+(?:page|letter|sheet)|quotation|quote|proposal|narrative|resumes?|agreement|questionnaire|checklist|template|attachment\s+\w+|appendix\s+\w+|volume\s+\w+))\b/i.exec(text.toLowerCase().replace(/\([^)]*\)/g, ' '));
  return titleName(noun ? noun[1]! : text);
}
