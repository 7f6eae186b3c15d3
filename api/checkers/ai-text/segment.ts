/** A span of the checked text, by character offsets into it (end exclusive). */
export interface Span {
  start: number;
  end: number;
}

export interface Word extends Span {
  /** The word in lower case, curly apostrophes made straight. */
  lower: string;
}

export interface Sentence extends Span {
  words: Word[];
}

export interface Segmented {
  text: string;
  words: Word[];
  sentences: Sentence[];
  /** Non-blank lines. */
  lines: Span[];
}

// Letters joined by apostrophes or hyphens make one word ("don't", "well-known"); digits are not words.
const WORD = /\p{L}+(?:['’\-]\p{L}+)*/gu;
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

function wordsIn(text: string, offset: number): Word[] {
  const words: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = offset + match.index;
    words.push({ start, end: start + match[0].length, lower: match[0].toLowerCase().replaceAll('’', "'") });
  }
  return words;
}

/**
 * Splits text into words, sentences and lines, all by character offset. Sentences follow
 * Intl.Segmenter's English rules within each paragraph, with the paragraph's line breaks read as spaces:
 * text from a PDF breaks lines at the page's width, and the segmenter would end a sentence at each one.
 */
export function segment(text: string): Segmented {
  const sentences: Sentence[] = [];
  // A paragraph: lines up to a blank line.
  for (const block of text.matchAll(/[^\n]+(?:\n[ \t]*[^\s][^\n]*)*/g)) {
    for (const piece of sentenceSegmenter.segment(block[0].replaceAll('\n', ' '))) {
      const start = block.index + piece.index;
      const words = wordsIn(piece.segment, start);
      if (words.length > 0) sentences.push({ start, end: start + piece.segment.trimEnd().length, words });
    }
  }
  const lines: Span[] = [];
  for (const line of text.matchAll(/[^\n]*\S[^\n]*/g)) lines.push({ start: line.index, end: line.index + line[0].length });
  return { text, words: wordsIn(text, 0), sentences, lines };
}
