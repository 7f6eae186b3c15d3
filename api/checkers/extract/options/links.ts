import { z } from '@hono/zod-openapi';
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.d.ts';
import type { PdfDocument } from '../../../documents/pdf.ts';
import { locatePage, round, spanBox, textInBox } from './page-lines.ts';
import { eachPdfPage } from './pdf-pages.ts';
import { parseSettings } from './settings.ts';
import type { Box, OptionInput } from './types.ts';

export const linksSettings = z.object({}).strict().openapi('LinksSettings');

export const foundLink = z
  .object({
    page: z.number().int(),
    kind: z.enum(['url', 'email', 'internal']).describe('internal: a link annotation to a place in the same PDF'),
    target: z.string().describe('The URL, the address, or the destination name or page of an internal link'),
    text: z.string().describe('The text shown: the annotation covers it, or the text is the link itself'),
    source: z.enum(['annotation', 'text']),
    bbox: z.array(z.number()).length(4).nullable(),
  })
  .openapi('FoundLink');

export const linksOutput = z.array(foundLink).openapi('LinksOutput');

export type FoundLink = z.infer<typeof foundLink>;

const urlPattern = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
const emailPattern = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/**
 * Links a reader can follow: PDF link annotations (their target may differ from the text they cover,
 * which a person should see) and URLs and email addresses written in the text.
 */
export async function links(input: OptionInput): Promise<FoundLink[]> {
  parseSettings(linksSettings, input.settings);
  const located = input.pages.map(locatePage);
  const annotated = await eachPdfPage(input.document, input.pages, annotationLinks);
  for (const link of annotated) {
    const page = located.find((candidate) => candidate.page === link.page);
    if (page && link.bbox) link.text = textInBox(page, link.bbox as Box);
  }
  const written: FoundLink[] = [];
  for (const page of located) {
    for (const [kind, pattern] of [['url', urlPattern], ['email', emailPattern]] as const) {
      for (const match of page.text.matchAll(pattern)) {
        const text = match[0].replace(/[.,;:!?)\]]+$/, '');
        if (kind === 'email' && /^(?:https?:\/\/|www\.)/i.test(text)) continue;
        // An address inside a URL (https://user@host) belongs to the URL.
        if (kind === 'email' && written.some((link) => link.page === page.page && link.kind === 'url' && link.text.includes(text))) continue;
        written.push({ page: page.page, kind, target: kind === 'email' ? `mailto:${text}` : text, text, source: 'text', bbox: spanBox(page, match.index, match.index + text.length) });
      }
    }
  }
  return [...annotated, ...written].sort((a, b) => a.page - b.page || (a.bbox?.[1] ?? 0) - (b.bbox?.[1] ?? 0) || (a.bbox?.[0] ?? 0) - (b.bbox?.[0] ?? 0));
}

interface LinkAnnotation {
  subtype?: string;
  rect?: number[];
  url?: string;
  unsafeUrl?: string;
  dest?: unknown;
}

async function annotationLinks(page: PDFPageProxy, pdf: PdfDocument): Promise<FoundLink[]> {
  const viewport = page.getViewport({ scale: 1 });
  const annotations = (await page.getAnnotations()) as LinkAnnotation[];
  const found: FoundLink[] = [];
  for (const annotation of annotations) {
    if (annotation.subtype !== 'Link' || !annotation.rect) continue;
    const target = annotation.url ?? annotation.unsafeUrl ?? (await destination(pdf, annotation.dest));
    if (!target) continue;
    const [x1, y1, x2, y2] = viewport.convertToViewportRectangle(annotation.rect) as [number, number, number, number];
    const bbox: Box = [round(Math.min(x1, x2)), round(Math.min(y1, y2)), round(Math.abs(x2 - x1)), round(Math.abs(y2 - y1))];
    const kind = annotation.url || annotation.unsafeUrl ? (target.toLowerCase().startsWith('mailto:') ? 'email' : 'url') : 'internal';
    found.push({ page: page.pageNumber, kind, target, text: '', source: 'annotation', bbox });
  }
  return found;
}

/** An internal link's target: `page N` when the destination names a page, else the named destination. */
async function destination(pdf: PdfDocument, dest: unknown): Promise<string | null> {
  const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
  const target = Array.isArray(explicit) ? explicit[0] : null;
  if (target && typeof target === 'object' && 'num' in target) {
    const index = await pdf.getPageIndex(target as { num: number; gen: number }).catch(() => null);
    if (index !== null) return `page ${index + 1}`;
  }
  if (typeof target === 'number') return `page ${target + 1}`;
  return typeof dest === 'string' ? dest : null;
}
