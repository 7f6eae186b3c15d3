import { referenceEntries } from './find.ts';

/**
 * The numbers of a text that are never arithmetic operands, blanked out before figures are recomputed. A
 * citation marker (`[309]`, `[2, 3]`, `[note 1]`), an author–year citation (`(Nallapati et al., 2016)`), a
 * date (`26 August`, `July 31, 2014`, `2014-07-18`), a page or page range (`pp. 12–15`, `pages 291–300`), a
 * numbered thing (`Table 3`, `Section 4.2`, `§ 315`, `version 15`), an enumerator (`(3)`, a list item's or
 * an algorithm line's number), an address, DOI, ISBN or arXiv number, and every entry of a reference list:
 * summing any of these is the worst error the checker can make (a false "does not add up"), so they go first.
 *
 * Every character of a blanked span that is not white space becomes `#`: the text keeps its length and its
 * white space, so offsets and sentence spans stay those of the original.
 */

const MONTH = String.raw`(?:jan(?:uary|\.)?|feb(?:ruary|\.)?|mar(?:ch|\.)?|apr(?:il|\.)?|may|june?|july?|aug(?:ust|\.)?|sep(?:t(?:ember)?|\.)?|oct(?:ober|\.)?|nov(?:ember|\.)?|dec(?:ember|\.)?|januar|februar|märz|juni|juli|oktober|dezember|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre)`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th|er|\.)?`;
const YEAR = String.raw`(?:1[6-9]\d\d|20\d\d)`;

const PATTERNS: RegExp[] = [
  // Addresses, DOIs, ISBNs, ISSNs, arXiv numbers, e-mail addresses.
  /\b(?:https?:\/\/|www\.)\S+/gi,
  /\b10\.\d{4,9}\/\S+/g,
  /\b(?:ISBN|ISSN|PMID|PMCID|OCLC|LCCN|arXiv|doi)(?:-1[03])?\s*:?\s*[\dXx][\dXx.\-– ]{3,}\d/gi,
  /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/g,
  // Citation markers: [3], [2, 3], [4–7], [note 1], [a], [Hol14], and a run of them.
  /\[(?:\s*(?:\d{1,4}|[a-z]{1,2}|note\s+\d+|[A-Za-z][\w.+-]{0,20})\s*(?:[,;–-]\s*)?)+\]/g,
  // Narrative author–year citations: Smith et al. (2016), Smith and Lee (2018).
  new RegExp(String.raw`\b\p{Lu}[\p{L}'’-]+(?:\s+et\s+al\.?|\s+(?:and|&)\s+\p{Lu}[\p{L}'’-]+)?\s*\(${YEAR}[a-z]?\)`, 'gu'),
  // Dates.
  new RegExp(String.raw`\b${DAY}\s+(?:of\s+)?${MONTH}\b(?:,?\s+${YEAR})?`, 'gi'),
  new RegExp(String.raw`\b${MONTH}\s+${DAY}(?:,?\s+${YEAR})?\b`, 'gi'),
  new RegExp(String.raw`\b${MONTH}\s+${YEAR}\b`, 'gi'),
  new RegExp(String.raw`\b${YEAR}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.](?:${YEAR}|\d{2})\b`, 'g'),
  // Times of day.
  /\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?/gi,
  // Pages, volumes and issues: p. 4, pp. 12–15, pages 291–300, 28(1):134–174, vol. 521, no. 3.
  /\b(?:pp?\.|pg\.?|pages?|vol\.?|volume|no\.|nr\.|issue|S\.)\s*\d+(?:\s*[-–—]\s*\d+)?/gi,
  /\b\d+\s*\(\d+\)\s*:\s*\d+(?:\s*[-–]\s*\d+)?/g,
  // Numbered things.
  /(?:§+|\bArt(?:icle)?s?\.?|\bSection|\bSec\.|\bChapter|\bCh\.|\bTable|\bTab\.|\bFigure|\bFigs?\.|\bAppendix|\bEquation|\bEqs?\.|\bAlgorithm|\bStep|\bLines?|\bVersion|\bv(?=\d)|\bRelease|\bRFC|\bISO|\bClause|\bcl\.|\bPart|\bRule|\bSchedule|\bStage|\bPhase|\bLevel|\bEpisode|\bSeason|\bRoom|\bRoute|\bFirefox|\bChrome|\bWindows|\bPython|\bCOVID|\bH\d?N)\s*[-–]?\s*\(?\d+(?:\.\d+)*[a-z]?\)?(?:\s*(?:[-–]|and|to)\s*\(?\d+(?:\.\d+)*[a-z]?\)?)?/gi,
  // Enumerators: (3), (iv), (b), and a list item's or an algorithm line's number at the start of a line.
  /\((?:\d{1,2}|[ivx]{1,5}|[a-h])\)/g,
  /^[ \t]*(?:\d{1,3}[.):]|[a-z][.)])(?=\s)/gm,
];

/** Bracketed author–year citations: (Smith, 2020), (Nallapati et al., 2016), (Smith 2020; Lee et al. 2018, p. 4). */
const BRACKETED = /\(([^()\n]{3,200})\)/g;
const CITES_AUTHOR_YEAR = new RegExp(String.raw`\p{Lu}[\p{L}'’.-]+(?:\s+et\s+al\.?)?,?\s+${YEAR}[a-z]?(?:,\s*pp?\.\s*\d+(?:[-–]\d+)?)?\s*(?:;|$)`, 'u');

/** The text with every span that holds no operand blanked (`#` for each character that is not white space). */
export function maskNonOperands(text: string): string {
  const characters = text.split('');
  const blank = (start: number, end: number) => {
    for (let index = start; index < end; index++) if (!/\s/.test(characters[index]!)) characters[index] = '#';
  };
  for (const entry of referenceEntries(text)) blank(entry.start, entry.end);
  for (const pattern of PATTERNS) for (const match of text.matchAll(pattern)) blank(match.index, match.index + match[0].length);
  for (const match of text.matchAll(BRACKETED)) if (CITES_AUTHOR_YEAR.test(match[1]!)) blank(match.index, match.index + match[0].length);
  return characters.join('');
}
