/**
 * Title words for the title-keyword heuristic (tender context: similar awards and similar open tenders).
 * `titleTerms` splits a title exactly as data/models/award_terms.sql and tender_terms.sql do: lower case,
 * accents folded, runs of letters and digits, a trailing plural "s" dropped except after s, u or i, words
 * under three letters, bare numbers and stop words left out. A test checks the model and this agree.
 */

const STOP_WORDS = new Set(['and', 'are', 'for', 'from', 'into', 'the', 'with']);

/**
 * Words in nearly every procurement title, which say how something is bought rather than what: two titles
 * sharing only these are not similar work. (Compared after the plural is dropped.)
 */
const PROCUREMENT_WORDS = new Set([
  'service', 'supply', 'provision', 'tender', 'request', 'quotation', 'quote', 'contract', 'panel', 'rft', 'rfq', 'rfp', 'eoi',
  'expression', 'interest', 'program', 'programme', 'project', 'work', 'new', 'various', 'including', 'good', 'purchase',
  'procurement', 'delivery', 'standing', 'offer', 'arrangement', 'deed', 'agreement', 'invitation', 'market', 'approach',
  'sourcing', 'stage', 'phase', 'part', 'lot', 'option', 'year', 'period', 'annual', 'ongoing', 'via', 'per', 'other', 'register',
  'pre', 'qualified', 'prequalified', 'prequalification', 'supplier',
]);

/** Most keywords a title contributes: enough for long titles, few enough for one small index lookup. */
export const MOST_KEYWORDS = 6;

export function titleTerms(title: string): string[] {
  const folded = title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const terms: string[] = [];
  for (const word of folded.split(/[^a-z0-9]+/)) {
    if (word.length < 3 || /^[0-9]+$/.test(word) || STOP_WORDS.has(word)) continue;
    const term = /^.{2,}[^sui]s$/.test(word) ? word.slice(0, -1) : word;
    if (!terms.includes(term)) terms.push(term);
  }
  return terms;
}

/** The words of a title that say what the work is, in title order (at most `MOST_KEYWORDS`). */
export function titleKeywords(title: string): string[] {
  return titleTerms(title).filter((term) => !PROCUREMENT_WORDS.has(term)).slice(0, MOST_KEYWORDS);
}

/**
 * How many of `keywordCount` keywords another title must share to count as similar work: all of one or
 * two, two of three or four, three of five or six. One shared word of a long title is too often a place name.
 */
export function requiredOverlap(keywordCount: number): number {
  return Math.min(keywordCount, Math.max(2, Math.ceil(keywordCount / 2)));
}
