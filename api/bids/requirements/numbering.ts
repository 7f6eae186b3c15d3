/** Clause and list numbering at the start of a line: "3.1", "(a)", "iv.", "A.", "IV.", a bullet. */

export type NumberingLevel = 'number' | 'letter' | 'roman' | 'upper' | 'upper-roman' | 'bullet';

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

const roman = '(?:x{0,2}(?:ix|iv|v?i{1,3}|v|x))';
/** "3.1 Text", "5.01 Text", "1.2.3. Text", "1.The" as Markdown writers run it on, and "1.4.1 the …" of a contract's sub-clauses. */
const numberToken = /^(\d{1,2}(?:\.\d{1,2}){0,3})(?:[.)]\s*(?=[A-Z(“"'‘])|\s+(?=[A-Z(“"'‘]))|^(\d{1,2}(?:\.\d{1,2}){2,3}|\d{1,2}(?:\.\d{1,2}){1,3}(?=\.?\t))\.?(?:\t|\s+)(?=[a-z])/;
const romanToken = new RegExp(`^(?:\\((${roman})\\)\\.?|(${roman})[.)]\\.?)\\s+`);
const letterToken = /^(?:\(([a-z])\)\.?|([a-z])[.)]\.?)\s+/;
const upperRomanToken = /^(?:\(((?:X{0,2}(?:IX|IV|V?I{1,3}|V|X)))\)|((?:X{0,2}(?:IX|IV|V?I{1,3}|V|X)))[.)])\s+(?=[A-Z(“"'‘])/;
const upperToken = /^(?:\(([A-Z])\)|([A-Z])[.)])\s+(?=[A-Z0-9(“"'‘])/;
const bulletToken = /^[•▪◦‣●■□➢►✓·\uf0a7\uf0b7\uf076\uf0d8–*+-]\s+|^o\s+(?=[A-Z])/;

/** The numbering a line starts with, if any. "(i)" and "(v)" come back as roman numerals: `afterLetter` reads them as letters after "(h)" or "(u)". */
export function numberingOf(line: string): Numbering | null {
  const number = numberToken.exec(line);
  if (number) return numbering('number', (number[1] ?? number[2])!, number[0]);
  const lowerRoman = romanToken.exec(line);
  if (lowerRoman) return numbering('roman', (lowerRoman[1] ?? lowerRoman[2])!, lowerRoman[0]);
  const letter = letterToken.exec(line);
  if (letter) return numbering('letter', (letter[1] ?? letter[2])!, letter[0]);
  const upperRoman = upperRomanToken.exec(line);
  // "I." and "V." are as often letters of an A, B, C list: only "II" and longer are surely roman.
  if (upperRoman && (upperRoman[1] ?? upperRoman[2])!.length > 1) return numbering('upper-roman', (upperRoman[1] ?? upperRoman[2])!, upperRoman[0]);
  const upper = upperToken.exec(line);
  if (upper) return numbering('upper', (upper[1] ?? upper[2])!, upper[0]);
  const bullet = bulletToken.exec(line);
  if (bullet) return numbering('bullet', '', bullet[0]);
  return null;
}

/** "(i)" after "(h)", or "(v)" after "(u)": the next letter, not a roman numeral. */
export function afterLetter(item: Numbering, lastLetter: string | null): Numbering {
  if (item.level !== 'roman' || item.label.length !== 1 || lastLetter === null) return item;
  if (lastLetter.charCodeAt(0) + 1 !== item.label.charCodeAt(0)) return item;
  return { ...item, level: 'letter' };
}
