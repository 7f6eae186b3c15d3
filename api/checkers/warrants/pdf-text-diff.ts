import { openPdf, readPageText } from '../../documents/pdf.ts';

/** Pages whose text is compared between two revisions, at most, per update. */
export const TEXT_DIFF_PAGE_LIMIT = 5;

/** The text of the given pages of the file as it stood at `bytes` (one revision's prefix), read by pdfjs-dist. */
export async function revisionPageTexts(bytes: Uint8Array, pages: number[]): Promise<Map<number, string>> {
  const texts = new Map<number, string>();
  const pdf = await openPdf(bytes);
  try {
    for (const page of pages) {
      if (page > pdf.numPages) continue;
      texts.set(page, (await readPageText(pdf, page)).text);
    }
  } finally {
    await pdf.destroy();
  }
  return texts;
}

export interface TextDiff {
  removed: string[];
  added: string[];
}

/** Words removed and added between two texts, compared as multisets so reflowed lines do not count. */
export function diffWords(before: string, after: string): TextDiff {
  const count = (text: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const word of text.split(/\s+/).filter(Boolean)) counts.set(word, (counts.get(word) ?? 0) + 1);
    return counts;
  };
  const old = count(before);
  const now = count(after);
  const difference = (a: Map<string, number>, b: Map<string, number>): string[] =>
    [...a].flatMap(([word, n]) => Array.from({ length: Math.max(0, n - (b.get(word) ?? 0)) }, () => word));
  return { removed: difference(old, now), added: difference(now, old) };
}
