import { z } from '@hono/zod-openapi';
import { documentLayout, type Block, type DocumentLayout } from './layout.ts';
import { unionBox } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

/**
 * Six ways to cut a document for retrieval (checkers-research §5.1): one chunk per page (Unstructured
 * `by_page`), per heading section (`by_title`), per layout element (Docling hierarchical), sentences
 * packed to a size, fixed token windows with overlap, and `hybrid`: elements packed to a size, a heading
 * opening a new chunk only once the current one is half full (Docling HybridChunker's merging of peers).
 */
export const chunkStrategies = ['by_page', 'by_title', 'by_element', 'by_sentence', 'fixed', 'hybrid'] as const;

export const chunksSettings = z
  .object({
    strategy: z.enum(chunkStrategies).default('by_title'),
    max_tokens: z.number().int().min(8).max(8192).default(512).describe('Largest chunk in tokens (words and punctuation marks; no model tokenizer); a table kept whole may be larger'),
    overlap: z.number().int().min(0).default(0).describe('Tokens repeated from the end of the previous chunk (fixed and by_sentence)'),
    keep_tables_whole: z.boolean().default(true).describe('A table is never cut: it sits whole in a chunk, or is a chunk of its own when over max_tokens'),
  })
  .strict()
  .refine((settings) => settings.overlap < settings.max_tokens, { message: 'overlap must be smaller than max_tokens', path: ['overlap'] })
  .openapi('ChunksSettings');

export type ChunksSettings = z.output<typeof chunksSettings>;

export const documentChunk = z
  .object({
    index: z.number().int(),
    text: z.string(),
    tokens: z.number().int(),
    heading_path: z.array(z.string()).describe('Headings the chunk starts under, outermost first'),
    page: z.number().int().describe('Page the chunk starts on'),
    char_span: z.array(z.number().int()).length(2).describe('[start, end) in the reading-order text (layout blocks joined by a blank line)'),
    positions: z.array(z.object({ page: z.number().int(), bbox: z.array(z.number()).length(4).nullable() })).describe('Box around the chunk on each page it covers; null for text without page geometry'),
    element_types: z.array(z.string()).describe('Layout block types the chunk holds'),
  })
  .openapi('DocumentChunk');

export const chunksOutput = z
  .object({ strategy: z.enum(chunkStrategies), max_tokens: z.number().int(), overlap: z.number().int(), chunks: z.array(documentChunk) })
  .openapi('ChunksOutput');

export type ChunksOutput = z.infer<typeof chunksOutput>;
export type DocumentChunk = z.infer<typeof documentChunk>;

type Range = [number, number];

export async function chunks(input: OptionInput): Promise<ChunksOutput> {
  const settings = parseSettings(chunksSettings, input.settings);
  const document = documentLayout(input.pages);
  return { strategy: settings.strategy, max_tokens: settings.max_tokens, overlap: settings.overlap, chunks: chunkLayout(document, settings) };
}

function chunkLayout(document: DocumentLayout, settings: ChunksSettings): DocumentChunk[] {
  const cutter = new Cutter(document, settings);
  return cutter.ranges().map((range, index) => cutter.describe(range, index));
}

class Cutter {
  private readonly tokenStarts: number[];
  private readonly tokenEnds: number[];
  private readonly document: DocumentLayout;
  private readonly settings: ChunksSettings;

  constructor(document: DocumentLayout, settings: ChunksSettings) {
    this.document = document;
    this.settings = settings;
    this.tokenStarts = [];
    this.tokenEnds = [];
    for (const match of document.text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)) {
      this.tokenStarts.push(match.index);
      this.tokenEnds.push(match.index + match[0].length);
    }
  }

  ranges(): Range[] {
    const { blocks } = this.document;
    switch (this.settings.strategy) {
      case 'by_element':
        return blocks.flatMap((block) => this.fitted([block.start, block.end], block));
      case 'by_page':
        return groupsOf(blocks, (block, previous) => block.page !== previous.page).flatMap((group) => this.packed(group));
      case 'by_title':
        return groupsOf(blocks, (block) => block.type === 'heading').flatMap((group) => this.packed(group));
      case 'hybrid':
        return this.packed(blocks, true);
      case 'by_sentence':
        return this.segments().flatMap((segment) => (segment.table ? [segment.range] : this.sentencesPacked(segment.range)));
      case 'fixed':
        return this.segments().flatMap((segment) => (segment.table ? [segment.range] : this.windows(segment.range)));
    }
  }

  /** What the caller sees of a range: its text, tokens, headings and where it sits. */
  describe([start, end]: Range, index: number): DocumentChunk {
    const blocks = this.document.blocks.filter((block) => block.start < end && start < block.end);
    const first = blocks[0]!;
    const boxes = new Map<number, Box[]>();
    for (const block of blocks) for (const line of block.lines) if (line.start < end && start < line.end) boxes.set(line.page, [...(boxes.get(line.page) ?? []), ...(line.box ? [line.box] : [])]);
    const positions = [...boxes].map(([page, pageBoxes]) => ({ page, bbox: unionBox(pageBoxes) }));
    return {
      index,
      text: this.document.text.slice(start, end),
      tokens: this.tokens(start, end),
      heading_path: first.headingPath,
      page: positions[0]?.page ?? first.page,
      char_span: [start, end],
      positions,
      element_types: [...new Set(blocks.map((block) => block.type))],
    };
  }

  private tokens(start: number, end: number): number {
    return lowerBound(this.tokenStarts, end) - lowerBound(this.tokenStarts, start);
  }

  private keptWhole(block: Block): boolean {
    return block.type === 'table' && this.settings.keep_tables_whole;
  }

  /** Blocks packed in order up to the size, cut only between blocks; `hybrid` lets small sections share a chunk. */
  private packed(blocks: readonly Block[], headingsWhenHalfFull = false): Range[] {
    const ranges: Range[] = [];
    let current: Range | null = null;
    const flush = () => {
      if (current) ranges.push(current);
      current = null;
    };
    for (const block of blocks) {
      const size = this.tokens(block.start, block.end);
      // A block over the size (a table kept whole among them) stands alone; any other block fits whole.
      if (size > this.settings.max_tokens) {
        flush();
        ranges.push(...this.fitted([block.start, block.end], block));
        continue;
      }
      const open: Range | null = current;
      if (open) {
        const full = this.tokens(open[0], block.end) > this.settings.max_tokens;
        const newSection = headingsWhenHalfFull && block.type === 'heading' && this.tokens(open[0], open[1]) >= this.settings.max_tokens / 2;
        if (full || newSection) flush();
      }
      current = current ? [current[0], block.end] : [block.start, block.end];
    }
    flush();
    return ranges;
  }

  /** One block's range, cut at sentences when it is over the size (never a table kept whole). */
  private fitted(range: Range, block: Block): Range[] {
    if (this.keptWhole(block) || this.tokens(range[0], range[1]) <= this.settings.max_tokens) return [range];
    return this.sentencesPacked(range, 0);
  }

  /** The reading text cut around tables kept whole: runs of other blocks, and each table alone. */
  private segments(): { range: Range; table: boolean }[] {
    const segments: { range: Range; table: boolean }[] = [];
    for (const block of this.document.blocks) {
      const last = segments.at(-1);
      if (this.keptWhole(block)) segments.push({ range: [block.start, block.end], table: true });
      else if (last && !last.table) last.range[1] = block.end;
      else segments.push({ range: [block.start, block.end], table: false });
    }
    return segments;
  }

  /** Sentences packed up to the size; the next chunk repeats whole sentences worth up to `overlap` tokens. */
  private sentencesPacked(range: Range, overlap = this.settings.overlap): Range[] {
    const sentences = this.sentences(range).flatMap((sentence) => (this.tokens(sentence[0], sentence[1]) > this.settings.max_tokens ? this.windows(sentence, 0) : [sentence]));
    const ranges: Range[] = [];
    let first = 0;
    while (first < sentences.length) {
      let last = first;
      while (last + 1 < sentences.length && this.tokens(sentences[first]![0], sentences[last + 1]![1]) <= this.settings.max_tokens) last++;
      ranges.push([sentences[first]![0], sentences[last]![1]]);
      if (last + 1 >= sentences.length) break;
      let next = last + 1;
      while (next - 1 > first && this.tokens(sentences[next - 1]![0], sentences[last]![1]) <= overlap) next--;
      first = next;
    }
    return ranges;
  }

  /** Sentence ranges: ends at . ! ? before a capital or digit, and at line and block breaks. */
  private sentences([start, end]: Range): Range[] {
    const text = this.document.text.slice(start, end);
    const ranges: Range[] = [];
    let from = 0;
    for (const match of text.matchAll(/[.!?]["')\]]*[ \t]+(?=[\p{Lu}\p{N}"'(])|\n+/gu)) {
      const stop = match.index + match[0].trimEnd().length;
      if (stop > from) ranges.push([start + from, start + stop]);
      from = match.index + match[0].length;
    }
    if (from < text.length) ranges.push([start + from, end]);
    return ranges.filter(([a, b]) => this.document.text.slice(a, b).trim() !== '');
  }

  /** Windows of `max_tokens` tokens stepping by `max_tokens - overlap`, cut at token edges. */
  private windows([start, end]: Range, overlap = this.settings.overlap): Range[] {
    const first = lowerBound(this.tokenStarts, start);
    const stop = lowerBound(this.tokenStarts, end);
    const ranges: Range[] = [];
    for (let i = first; i < stop; i += this.settings.max_tokens - overlap) {
      const last = Math.min(i + this.settings.max_tokens, stop) - 1;
      ranges.push([this.tokenStarts[i]!, this.tokenEnds[last]!]);
      if (last === stop - 1) break;
    }
    return ranges;
  }
}

/** Consecutive blocks grouped, a new group wherever `startsGroup` says. */
function groupsOf(blocks: readonly Block[], startsGroup: (block: Block, previous: Block) => boolean): Block[][] {
  const groups: Block[][] = [];
  blocks.forEach((block, i) => {
    if (i === 0 || startsGroup(block, blocks[i - 1]!)) groups.push([block]);
    else groups.at(-1)!.push(block);
  });
  return groups;
}

/** Index of the first value ≥ `target` in a sorted array. */
function lowerBound(values: readonly number[], target: number): number {
  let [low, high] = [0, values.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}
