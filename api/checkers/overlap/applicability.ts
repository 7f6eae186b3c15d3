import { FUNCTION_WORDS } from './function-words.ts';
import type { Token } from './tokens.ts';

/**
 * Whether a text can be checked for overlap at all. Too few words give too few distinctive passages to
 * search for and a ratio that means nothing; tables, forms, lists and code are not prose, and searching
 * their cells finds templates rather than copied writing. Either way the check abstains and says why,
 * rather than report "no overlap".
 */

export const MIN_WORDS = 80;
/**
 * Share of words that must sit in runs of running text: at least `RUN_WORDS` words between two breaks (a
 * sentence's end, a line break, a tab). Table cells, form labels, list items and code lines are short
 * runs; sentences, and the lines of a wrapped paragraph, are long ones, punctuated or not.
 */
export const MIN_RUNNING_SHARE = 0.5;
const RUN_WORDS = 8;
/** Share of words that must be English function words (running English prose has a third or more). */
export const MIN_FUNCTION_WORD_SHARE = 0.2;

export type Applicability =
  | { applicable: true }
  | { applicable: false; outcome: 'abstained_too_short' | 'abstained_not_prose'; reason: string };

const RUN_BREAK = /[.!?;:]+["'\u2019\u201d)\]]*\s|[\n\t]/u;
const WORD = /[\p{L}\p{N}]+/gu;

export function applicability(text: string, tokens: readonly Token[]): Applicability {
  if (tokens.length < MIN_WORDS) {
    return { applicable: false, outcome: 'abstained_too_short', reason: `The document has ${tokens.length} words; an overlap check needs at least ${MIN_WORDS} words of running text.` };
  }
  let running = 0;
  for (const segment of text.split(RUN_BREAK)) {
    const words = segment.match(WORD)?.length ?? 0;
    if (words >= RUN_WORDS) running += words;
  }
  const runningShare = running / tokens.length;
  const functionShare = tokens.filter((token) => FUNCTION_WORDS.has(token.norm)).length / tokens.length;
  if (runningShare < MIN_RUNNING_SHARE || functionShare < MIN_FUNCTION_WORD_SHARE) {
    return {
      applicable: false,
      outcome: 'abstained_not_prose',
      reason:
        `The document does not read as English prose: ${percent(runningShare)} of its words are in runs of running text (at least ${percent(MIN_RUNNING_SHARE)} needed) ` +
        `and ${percent(functionShare)} are common English words (at least ${percent(MIN_FUNCTION_WORD_SHARE)} needed). Tables, forms, lists, code and other languages are not checked.`,
    };
  }
  return { applicable: true };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
