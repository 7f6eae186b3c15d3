/**
 * The words overlap is compared in. Winnowing compares normalised text (case, accents, punctuation and
 * whitespace folded away) but a match must be reported in the document's own characters, so every token
 * keeps the span of the original text it came from (checkers-research §4: "keep a position map back to the
 * original offsets").
 */
export interface Token {
  /** Lower case, accents removed, compatibility forms folded (NFKD): what two texts are compared by. */
  norm: string;
  /** UTF-16 offset of the token's first character in the original text. */
  start: number;
  /** UTF-16 offset just past its last character. */
  end: number;
}

// A word is a run of letters and digits; apostrophes, hyphens and every other mark separate words, so
// "don't" and "don’t", or "co-operate" and "co operate", give the same tokens.
const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}/gu;

export function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const norm = match[0].normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
    if (norm === '') continue;
    tokens.push({ norm, start: match.index, end: match.index + match[0].length });
  }
  return tokens;
}
