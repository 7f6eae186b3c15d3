import { numbersIn } from './consistency.ts';
import { contentWords, sentenceSpans } from './text.ts';

/**
 * Deep mode's judgement of a citing sentence against the page it cites: `supports`, `contradicts` or
 * `unclear`, by a stated method and never with more certainty than it has.
 *
 * 1. The claim is the citing sentence without its URL, DOI and citation markers. The page is cut into
 *    sentences; each is scored by the share of the claim's content words (stop words dropped, plural and
 *    -ed/-ing endings trimmed) that it contains.
 * 2. The best sentence must hold at least `MIN_OVERLAP` (0.5) of the claim's content words, else `unclear`
 *    ("the page does not state it in the claim's words").
 * 3. With such a sentence: `contradicts` when one of them negates (not, no, never, …) and the other does
 *    not, when one says a figure rose and the other that it fell, or when the claim's figures (other than
 *    years) are missing from the sentence while it gives different figures of the same kind (a percentage
 *    for a percentage); `supports` when none of that holds, the overlap reaches `SUPPORT_OVERLAP` (0.6) and
 *    every figure of the claim appears in the sentence; otherwise `unclear`.
 * Paraphrase, hedging and context beyond one sentence are beyond this method: the reply says so.
 */

export const MIN_OVERLAP = 0.5;
export const SUPPORT_OVERLAP = 0.6;

export type ClaimVerdict = 'supports' | 'contradicts' | 'unclear';

export interface ClaimJudgement {
  verdict: ClaimVerdict;
  /** The page sentence closest to the claim, or null when the page had no text. */
  evidence: string | null;
  /** Share of the claim's content words found in `evidence` (0..1, two decimals). */
  overlap: number;
  reason: string;
}

const NEGATION = /\b(?:not|no|never|none|neither|nor|without|cannot|can't|won't|isn't|wasn't|aren't|weren't|doesn't|didn't|don't|hasn't|haven't|hadn't|fail(?:s|ed)? to)\b|n't\b/i;
const UP = /\b(?:increase[sd]?|rise[sn]?|rose|grew|grow[sn]?|growth|higher|gain(?:s|ed)?|climb(?:s|ed)?|jump(?:s|ed)?|up)\b/i;
const DOWN = /\b(?:decrease[sd]?|fall[sn]?|fell|decline[sd]?|drop(?:s|ped)?|lower|loss(?:es)?|shr[ai]nk|down|reduc(?:ed|es|tion))\b/i;
/** Markers the citing sentence carries that are not part of its claim. */
const MARKERS = /\(?\bhttps?:\/\/[^\s)]+\)?|\(?\bwww\.[^\s)]+\)?|\(?\bdoi:\s*[^\s)]+\)?|\b10\.\d{4,9}\/[^\s)]+|\[\d+(?:[,–-]\s*\d+)*\]|\((?:[A-Z][\p{L}'’-]+(?: et al\.?| and [A-Z][\p{L}'’-]+)?,? \d{4}[a-z]?(?:; )?)+\)|\(see\s*\)|\(\s*\)/gu;

export function claimOf(sentence: string): string {
  return sentence.replace(MARKERS, ' ').replace(/\s+/g, ' ').replace(/\s+([.,;:!?])/g, '$1').trim();
}

const shown = (figure: { value: number; unit: string }) => `${figure.unit === 'currency' ? '$' : ''}${figure.value}${figure.unit === 'percent' ? '%' : ''}`;
const direction = (text: string) => (UP.test(text) === DOWN.test(text) ? 0 : UP.test(text) ? 1 : -1);

export function judgeClaim(citingSentence: string, pageText: string): ClaimJudgement {
  const claim = claimOf(citingSentence);
  const claimWords = [...new Set(contentWords(claim))];
  if (claimWords.length === 0) return { verdict: 'unclear', evidence: null, overlap: 0, reason: 'The citing sentence states nothing to compare beyond the reference itself.' };
  let best: { text: string; overlap: number } | null = null;
  for (const sentence of sentenceSpans(pageText.slice(0, 400_000))) {
    const words = new Set(contentWords(sentence.text));
    const overlap = claimWords.filter((word) => words.has(word)).length / claimWords.length;
    if (best === null || overlap > best.overlap) best = { text: sentence.text, overlap };
  }
  if (best === null) return { verdict: 'unclear', evidence: null, overlap: 0, reason: 'The cited page had no readable text.' };
  const overlap = Math.round(best.overlap * 100) / 100;
  const evidence = best.text.slice(0, 500);
  if (best.overlap < MIN_OVERLAP) {
    return { verdict: 'unclear', evidence, overlap, reason: `No sentence of the page holds half of the claim's content words (best ${Math.round(overlap * 100)}%); the page may say it in other words, or not at all.` };
  }
  if (NEGATION.test(claim) !== NEGATION.test(best.text)) {
    return { verdict: 'contradicts', evidence, overlap, reason: `The closest sentence of the page (${Math.round(overlap * 100)}% of the claim's words) ${NEGATION.test(claim) ? 'affirms what the claim denies' : 'denies what the claim affirms'}.` };
  }
  const [claimDirection, pageDirection] = [direction(claim), direction(best.text)];
  if (claimDirection !== 0 && pageDirection !== 0 && claimDirection !== pageDirection) {
    return { verdict: 'contradicts', evidence, overlap, reason: `The claim says the figure ${claimDirection > 0 ? 'rose' : 'fell'}; the closest sentence of the page says it ${pageDirection > 0 ? 'rose' : 'fell'}.` };
  }
  const claimFigures = numbersIn(claim).filter((token) => !token.yearLike);
  const pageFigures = numbersIn(best.text).filter((token) => !token.yearLike);
  const missing = claimFigures.filter((figure) => !pageFigures.some((page) => Math.abs(page.value - figure.value) < figure.step / 2 + 1e-9));
  if (missing.length > 0 && missing.some((figure) => pageFigures.some((page) => page.unit === figure.unit))) {
    return {
      verdict: 'contradicts',
      evidence,
      overlap,
      reason: `The claim gives ${missing.map(shown).join(', ')}; the closest sentence of the page gives ${pageFigures.filter((page) => page.unit === missing[0]!.unit).map(shown).join(', ')} instead.`,
    };
  }
  if (best.overlap >= SUPPORT_OVERLAP && missing.length === 0) {
    return { verdict: 'supports', evidence, overlap, reason: `A sentence of the page holds ${Math.round(overlap * 100)}% of the claim's content words${claimFigures.length > 0 ? ' and every figure it gives' : ''}, with the same polarity.` };
  }
  return { verdict: 'unclear', evidence, overlap, reason: `The closest sentence of the page shares ${Math.round(overlap * 100)}% of the claim's content words${missing.length > 0 ? ' but not its figures' : ''}: not enough to call it support.` };
}
