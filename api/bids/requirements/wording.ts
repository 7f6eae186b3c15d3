/**
 * The wording tender documents use: clause numbering, obligation verbs, and the headings and words that say a
 * passage is about evaluation criteria, conditions for participation or returnable schedules.
 */

export type ContextKind = 'criterion' | 'condition' | 'schedule';

export type NumberingLevel = 'number' | 'letter' | 'roman' | 'upper' | 'bullet';

export interface Numbering {
  level: NumberingLevel;
  /** The label without brackets or dots: "3.1", "a", "iv", "B"; '' for a bullet. */
  label: string;
  /** How it is written, the label replaced by x: "(x)", "x).", "x.". Two lists of one level in different styles nest. */
  style: string;
  /** Characters the numbering takes at the start of the line, spaces included. */
  length: number;
}

function numbering(level: NumberingLevel, label: string, token: string): Numbering {
  return { level, label, style: label === '' ? token.trim() : token.trim().replace(label, 'x'), length: token.length };
}

const numberToken = /^(\d{1,2}(?:\.\d{1,2}){0,3})[.)]?\s+(?=[A-Z(])/;
const romanToken = /^(?:\(((?:x|ix|iv|v?i{1,3}|v))\)\.?|((?:x|ix|iv|v?i{1,3}|v))[.)]\.?)\s+/;
const letterToken = /^(?:\(([a-z])\)\.?|([a-z])[.)]\.?)\s+/;
const upperToken = /^\(([A-Z])\)\s+/;
const bulletToken = /^[•▪◦‣–*-]\s+/;

/**
 * The numbering a line starts with, if any. `lastLetter` decides "(i)" and "(v)": after "(h)" or "(u)" they are
 * letters, otherwise roman numerals.
 */
export function numberingOf(line: string, lastLetter: string | null): Numbering | null {
  const number = numberToken.exec(line);
  if (number) return numbering('number', number[1]!, number[0]);
  const roman = romanToken.exec(line);
  const romanLabel = roman ? (roman[1] ?? roman[2])! : null;
  const followsLetter = romanLabel !== null && lastLetter !== null && romanLabel.length === 1 && lastLetter.charCodeAt(0) + 1 === romanLabel.charCodeAt(0);
  if (roman && !followsLetter) return numbering('roman', romanLabel!, roman[0]);
  const letter = letterToken.exec(line);
  if (letter) return numbering('letter', (letter[1] ?? letter[2])!, letter[0]);
  const upper = upperToken.exec(line);
  if (upper) return numbering('upper', upper[1]!, upper[0]);
  const bullet = bulletToken.exec(line);
  if (bullet) return numbering('bullet', '', bullet[0]);
  return null;
}

const mandatoryWording = /\b(must|shall|(is|are|will be) required to|required to be|(is|are) to|(is|are) responsible for|it is a requirement|agrees (to|that))\b|(?<!non-)\bmandatory\b|\bmay\b.*\bonly if\b/i;
const optionalWording = /\b(should|(is|are) encouraged to|may wish to|(is|are) preferred)\b/i;

/** Whether a sentence obliges ('mandatory'), asks ('optional') or neither (null). */
export function obligationOf(sentence: string): 'mandatory' | 'optional' | null {
  if (mandatoryWording.test(sentence)) return 'mandatory';
  if (optionalWording.test(sentence)) return 'optional';
  return null;
}

/** A sentence about what the buyer will or may do is not a requirement on the tenderer. */
const buyerSubject = /^(the\s+)?(customer|department|principal|council|commonwealth|state|buyer|agency|dva|minister|evaluation panel|panel|we|our)\b/i;
/** A tenderer's promise in a lead-in ("Each Respondent will:") obliges as "must" does. */
const tendererSubject = /\b(tenderers?|respondents?|offerors?|suppliers?|contractors?|proponents?)\b/i;

export function isBuyerSentence(sentence: string): boolean {
  return buyerSubject.test(sentence.trim());
}

export function isTendererPromise(sentence: string): boolean {
  return tendererSubject.test(sentence) && /\bwill\b/i.test(sentence);
}

/** "The following pre-conditions must be met:" introduces a list rather than stating a requirement. */
export function introducesList(sentence: string): boolean {
  return /:\s*$/.test(sentence) || /^the following\b/i.test(sentence.trim());
}

const conditionWords = /conditions? (for|of) participation|pre-?conditions?|pre-?qualification|mandatory criteri(a|on)|gate 1\b|pass\s*\/\s*fail/i;
const criterionWords = /criteri(a|on)|qualitative requirements|evaluation approach|weightings?\b/i;
const scheduleWords = /returnable schedules?|response forms?|tender schedules|what to lodge|tender form|appendices|required additional information|following (documents|schedules|information)/i;

/** What a heading or a list's lead-in says its passage holds, if it says. */
export function contextOf(text: string): ContextKind | null {
  if (conditionWords.test(text)) return 'condition';
  if (scheduleWords.test(text)) return 'schedule';
  if (criterionWords.test(text)) return 'criterion';
  return null;
}

/** A line naming a document to return: "Schedule 3 - Pricing", "Appendix A - RFP Response Form". */
const documentName = /^(returnable\s+)?(schedule|appendix|attachment|annexure|form)\s+[A-Z0-9]{1,3}\b|\b(form|declaration|schedule|certificates? of currency|check ?list|plan)\b/i;

export function namesDocument(text: string): boolean {
  return documentName.test(text);
}

/** A sentence asking for a document to be completed or handed in. */
export function asksForDocument(sentence: string): boolean {
  return /\b(complete|completed|completing|sign|signed|prepare|return)\b/i.test(sentence) && /\b(schedule|form|declaration|attachment|plan)\b/i.test(sentence);
}

/** A weight in a criterion's own line: "(30% Weighting)", "Weighting: 30%", a trailing "30%". */
export function weightOf(text: string): number | null {
  const match = /(\d{1,3}(?:\.\d+)?)\s?%/.exec(text);
  if (!match) return null;
  const weight = Number(match[1]);
  return weight > 0 && weight <= 100 ? weight : null;
}

/** A table's header cells: a row of them is not a requirement. */
const headerCell = /^(criteri(on|a)|evaluation criterion|weighting( \(%\))?|weight|response|schedule|title|requirement|pre-condition|insurance|insured amount|expiry date|item|description|document)$/i;

export function isHeaderRow(cells: readonly string[]): boolean {
  return cells.length > 0 && cells.every((cell) => headerCell.test(cell.trim()));
}

/** An instruction in the imperative to hand something in ("Complete and sign the Tenderer's Declaration."). */
export function isHandInInstruction(sentence: string): boolean {
  return /^(complete|sign|submit|lodge|return|attach)\b/i.test(sentence.trim());
}
