import { PDFDict, PDFName } from 'pdf-lib';
import type { PageText } from '../../documents/types.ts';
import type { Signal } from './signal.ts';
import { contentEvents, type ContentEvent } from './pdf-content-stream.ts';
import { asDict, lookup, nameOf, numbersOf, pageContent, textOf, type PageEntry, type RevisionState } from './pdf-objects.ts';
import { OBJECT_LIMIT, refText } from './pdf-revisions.ts';
import { pdfSignal, quote } from './pdf-signals.ts';

/** Pages whose drawing is read for covers and edit markers. */
export const CONTENT_PAGE_LIMIT = 50;

/** Signals read from what the pages draw: Acrobat edit markers, white boxes over text. */
export function drawingSignals(state: RevisionState): Signal[] {
  const signals: Signal[] = [];
  const touchupPages: number[] = [];
  for (const page of state.pages.slice(0, CONTENT_PAGE_LIMIT)) {
    const events = contentEvents(pageContent(state.context, page.dict));
    if (events.some((event) => event.kind === 'marker' && event.tag === 'TouchUp_TextEdit')) touchupPages.push(page.number);
    const cover = whiteCover(events, pageArea(state, page));
    if (cover) {
      const hidden = cover.hidden.map((event) => event.sample).filter(Boolean).join(' ');
      const box = cover.box;
      signals.push(
        pdfSignal(
          'white_box_over_text',
          `On page ${page.number} a white rectangle (x ${round(box.x0)}–${round(box.x1)}, y ${round(box.y0)}–${round(box.y1)} pt) is filled after ${cover.hidden.length} text run(s) that start under it${hidden ? `, hiding ${quote(hidden, 60)}` : ''}.`,
          { page: page.number },
        ),
      );
    }
  }
  if (touchupPages.length > 0) {
    signals.push(pdfSignal('touchup_text_edit', `Page(s) ${touchupPages.join(', ')} carry the /TouchUp_TextEdit marker Acrobat leaves when text is edited in place.`, { page: touchupPages[0] }));
  }
  return signals;
}

type Fill = Extract<ContentEvent, { kind: 'fill' }>;
type Shown = Extract<ContentEvent, { kind: 'text' }>;

/** The first white fill drawn after visible text that starts inside it (page-sized backgrounds excepted). */
function whiteCover(events: ContentEvent[], area: number | null): { box: Fill['box']; hidden: Shown[] } | null {
  const shown: Shown[] = [];
  for (const event of events) {
    if (event.kind === 'text') {
      if (!event.invisible) shown.push(event);
      continue;
    }
    if (event.kind !== 'fill' || !event.white) continue;
    const { box } = event;
    const boxArea = (box.x1 - box.x0) * (box.y1 - box.y0);
    if (boxArea <= 1 || (area !== null && boxArea > area * 0.8)) continue;
    // A point within a point of the edge is a frame drawn next to a label, not a cover.
    const hidden = shown.filter((text) => text.x > box.x0 + 1 && text.x < box.x1 - 1 && text.y > box.y0 + 1 && text.y < box.y1 - 1);
    if (hidden.length > 0) return { box, hidden };
  }
  return null;
}

function pageArea(state: RevisionState, page: PageEntry): number | null {
  let dict: PDFDict | null = page.dict;
  for (let depth = 0; dict && depth < 32; depth++) {
    const box = numbersOf(state.context, dict.get(PDFName.of('MediaBox')));
    if (box && box.length === 4) return Math.abs((box[2]! - box[0]!) * (box[3]! - box[1]!));
    dict = asDict(lookup(state.context, dict, 'Parent'));
  }
  return null;
}

/** The same base font embedded as several subsets (`ABCDEF+Arial`, `GHIJKL+Arial`). */
export function fontSubsetSignals(state: RevisionState, objectOffset: (object: string) => number | undefined): Signal[] {
  const { context } = state;
  const tagsByFont = new Map<string, Set<string>>();
  /** The first font object of each subset tag, to point the finding at the second subset. */
  const objects = new Map<string, string>();
  for (const [ref, object] of context.enumerateIndirectObjects().slice(0, OBJECT_LIMIT)) {
    const dict = object instanceof PDFDict ? object : null;
    if (!dict || nameOf(context, dict.get(PDFName.of('Type'))) !== 'Font') continue;
    const subset = subsetName(textOf(context, dict.get(PDFName.of('BaseFont'))));
    if (!subset) continue;
    // Word and others embed one font twice on purpose, as a composite (Type0/CID) subset for Unicode text and
    // a simple subset for Latin text; only subsets of the same kind are duplicates.
    const key = `${subset.font}\u0000${fontKind(nameOf(context, dict.get(PDFName.of('Subtype'))))}`;
    tagsByFont.set(key, (tagsByFont.get(key) ?? new Set()).add(subset.tag));
    if (!objects.has(`${key}\u0000${subset.tag}`)) objects.set(`${key}\u0000${subset.tag}`, refText(ref));
  }
  const signals: Signal[] = [];
  for (const [key, tags] of tagsByFont) {
    if (tags.size < 2) continue;
    const font = key.split('\u0000')[0]!;
    const samePage = state.pages.slice(0, CONTENT_PAGE_LIMIT).find((page) => {
      const used = pageFontTags(state, page.dict).filter((name) => name.font === font && tags.has(name.tag));
      return new Set(used.map((name) => name.tag)).size > 1;
    });
    const names = [...tags].slice(0, 4).map((tag) => `${tag}+${font}`);
    const second = objects.get(`${key}\u0000${[...tags][1]}`)!;
    const where = { object: second, byte_offset: objectOffset(second) };
    signals.push(
      samePage
        ? pdfSignal('font_subset_duplicate', `Font ${font} is embedded as ${tags.size} different subsets (${names.join(', ')}), two of them on page ${samePage.number}: text set later with the same font by another program.`, { ...where, page: samePage.number }, 'medium')
        : pdfSignal('font_subset_duplicate', `Font ${font} is embedded as ${tags.size} different subsets (${names.join(', ')}) on different pages, as happens when pages from several files are joined; the second subset is ${second}.`, where),
    );
  }
  return signals;
}

function fontKind(subtype: string | null): 'composite' | 'simple' {
  return subtype === 'Type0' || subtype?.startsWith('CIDFontType') ? 'composite' : 'simple';
}

function subsetName(baseFont: string | null): { tag: string; font: string } | null {
  const match = baseFont ? /^([A-Z]{6})\+(.+)$/.exec(baseFont) : null;
  return match ? { tag: match[1]!, font: match[2]! } : null;
}

/** Subset fonts named by a page's resources (inherited resources included). */
function pageFontTags(state: RevisionState, page: PDFDict): { tag: string; font: string }[] {
  const { context } = state;
  let dict: PDFDict | null = page;
  for (let depth = 0; dict && depth < 32; depth++) {
    const fonts = asDict(lookup(context, asDict(lookup(context, dict, 'Resources')), 'Font'));
    if (fonts) {
      return fonts
        .keys()
        .map((key) => subsetName(textOf(context, lookup(context, asDict(lookup(context, fonts, key.decodeText())), 'BaseFont'))))
        .filter((name): name is { tag: string; font: string } => name !== null);
    }
    dict = asDict(lookup(context, dict, 'Parent'));
  }
  return [];
}

/** Text runs drawn on top of different text (pdfjs boxes overlapping by 70% of the larger box or more). */
export function textOverTextSignals(pages: PageText[]): Signal[] {
  const signals: Signal[] = [];
  for (const page of pages) {
    const items = page.items.filter((item) => item.width > 0 && item.height > 0 && item.text.trim() !== '').slice(0, 1500);
    const pairs: [string, string][] = [];
    for (let i = 0; i < items.length && pairs.length < 3; i++) {
      const a = items[i]!;
      for (let j = i + 1; j < items.length; j++) {
        const b = items[j]!;
        const overlapX = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
        const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
        if (overlapX <= 0 || overlapY <= 0) continue;
        // Against the larger box: an overlay sits where the old text was, while runs of a tight or
        // letter-spaced line overlap only by part of their (estimated) widths.
        const larger = Math.max(a.width * a.height, b.width * b.height);
        const textA = a.text.trim();
        const textB = b.text.trim();
        if (overlapX * overlapY >= larger * 0.7 && textA !== textB && !textA.includes(textB) && !textB.includes(textA)) {
          pairs.push([textA, textB]);
          break;
        }
      }
    }
    if (pairs.length > 0) {
      const shown = pairs.map(([a, b]) => `${quote(a, 30)} under ${quote(b, 30)}`).join('; ');
      signals.push(pdfSignal('text_over_text', `On page ${page.page} text is drawn over different text: ${shown}.`, { page: page.page }));
    }
  }
  return signals;
}

function round(value: number): number {
  return Math.round(value);
}
