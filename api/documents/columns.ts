import { readingLines } from './pdf.ts';
import type { TextItem } from './types.ts';

/**
 * A PDF page's text read column by column. `readingOrder` reads each line across the whole page, which on a
 * two-column paper interleaves the columns line by line ("[1] LuaJIT …\t[12] C. Garrett …") and splits every
 * reference entry and sentence in two. Here the gutter is found (the vertical line near the middle that the
 * fewest runs cross); lines that cross it (a title, an abstract, a wide figure) stay whole and cut the page into
 * bands, and in each band the left column is read before the right one. A line indented from its column's left
 * edge starts with two spaces, so a reader can see a hanging indent (a reference list's continuation lines).
 * A page without a clear gutter is read line by line as `readingOrder` reads it, its indented lines marked the same way.
 */

/** At most this share of a page's runs may cross the gutter (titles, headers, wide tables). */
const MAX_CROSSING_SHARE = 0.08;
/** Each column holds at least this share of the runs. */
const MIN_COLUMN_SHARE = 0.15;
/** Points a line must start right of its column's edge to count as indented. */
const INDENT = 2.5;

export function columnText(items: readonly TextItem[], pageWidth: number): string {
  const visible = items.filter((item) => item.text.trim() !== '');
  const gutter = visible.length >= 20 && pageWidth > 0 ? gutterOf(visible, pageWidth) : null;
  if (gutter === null) return indentedText([visible]);
  const crosses = (item: TextItem) => item.x + 1 < gutter && item.x + item.width - 1 > gutter;
  // Every run on a line that crosses the gutter belongs to that whole-width line.
  const wide = readingLines(visible.filter(crosses)).map((line) => line.centre);
  const onWideLine = (item: TextItem) => wide.some((centre) => Math.abs(item.y + item.height / 2 - centre) <= Math.max(2, item.height / 2));
  const bandOf = (item: TextItem) => wide.filter((centre) => centre < item.y + item.height / 2).length;
  const bands = new Map<number, { wide: TextItem[]; left: TextItem[]; right: TextItem[] }>();
  for (const item of visible) {
    const band = bandOf(item);
    const slot = bands.get(band) ?? { wide: [], left: [], right: [] };
    if (crosses(item) || onWideLine(item)) slot.wide.push(item);
    else if (item.x + item.width / 2 < gutter) slot.left.push(item);
    else slot.right.push(item);
    bands.set(band, slot);
  }
  const parts: string[] = [];
  for (const band of [...bands.keys()].sort((a, b) => a - b)) {
    const slot = bands.get(band)!;
    // A wide line sits above its band's columns (the band is counted from the wide lines above each run).
    const text = [indentedText([slot.wide]), indentedText([slot.left]), indentedText([slot.right])].filter((part) => part !== '');
    parts.push(...text);
  }
  return parts.join('\n');
}

/** The x near the page's middle crossed by the fewest runs, when few enough cross it and both sides hold text. */
function gutterOf(items: readonly TextItem[], pageWidth: number): number | null {
  let best: { x: number; crossing: number } | null = null;
  for (let x = pageWidth * 0.3; x <= pageWidth * 0.7; x += 1) {
    let crossing = 0;
    for (const item of items) if (item.x + 1 < x && item.x + item.width - 1 > x) crossing++;
    if (best === null || crossing < best.crossing || (crossing === best.crossing && Math.abs(x - pageWidth / 2) < Math.abs(best.x - pageWidth / 2))) best = { x, crossing };
  }
  if (best === null || best.crossing > items.length * MAX_CROSSING_SHARE) return null;
  const left = items.filter((item) => item.x + item.width <= best.x).length;
  const right = items.filter((item) => item.x >= best.x).length;
  return left >= items.length * MIN_COLUMN_SHARE && right >= items.length * MIN_COLUMN_SHARE ? best.x : null;
}

/** The lines of one column (or of whole-width lines), those indented from its left edge starting with two spaces. */
function indentedText(groups: TextItem[][]): string {
  const lines = groups.flatMap((group) => readingLines(group));
  if (lines.length === 0) return '';
  // The column's edge: the leftmost start shared by two lines or more (a stray run further left is not the edge).
  const starts = lines.map((line) => Math.round(line.x * 2) / 2).sort((a, b) => a - b);
  const edge = starts.find((start, index) => starts.filter((other) => Math.abs(other - start) <= 1).length >= 2 || index === starts.length - 1) ?? starts[0]!;
  return lines.map((line) => (line.x > edge + INDENT && line.x < edge + 40 ? `  ${line.text}` : line.text)).join('\n');
}
