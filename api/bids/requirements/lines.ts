/** A page's text cut into lines that keep their place in it, and the lines a file repeats on every page. */

export interface PageLine {
  /** The line without its surrounding blanks ('' for a blank line). */
  text: string;
  /** Offsets of `text` in the page text. */
  start: number;
  end: number;
}

export function pageLines(pageText: string): PageLine[] {
  const lines: PageLine[] = [];
  let offset = 0;
  for (const raw of pageText.split('\n')) {
    const leading = raw.length - raw.trimStart().length;
    const text = raw.trim();
    lines.push({ text, start: offset + leading, end: offset + leading + text.length });
    offset += raw.length + 1;
  }
  return lines;
}

/** How many lines at the top and at the bottom of a page can be a running header or footer. */
const furnitureDepth = 3;

/** A line with its numbers blanked, so "Page 2 of 9" and "Page 3 of 9" compare equal. */
function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

const pageNumberLine = /^(page\s+)?#(\s+of\s+#)?$/;

/**
 * The running headers and footers of a file: lines among the first or last few of a page that recur on at
 * least half its pages (and on two or more), plus bare page numbers. Returned as a test on a line.
 */
export function furnitureTest(pages: readonly PageLine[][]): (line: PageLine) => boolean {
  const counts = new Map<string, number>();
  for (const lines of pages) {
    const filled = lines.filter((line) => line.text !== '');
    const edges = new Set([...filled.slice(0, furnitureDepth), ...filled.slice(-furnitureDepth)].map((line) => furnitureKey(line.text)));
    for (const key of edges) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  const repeated = new Set([...counts].filter(([, count]) => count >= needed).map(([key]) => key));
  return (line) => {
    const key = furnitureKey(line.text);
    return repeated.has(key) || pageNumberLine.test(key);
  };
}
