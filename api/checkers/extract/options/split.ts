import { z } from '@hono/zod-openapi';
import type { PageText } from '../../../documents/types.ts';
import { classifyDocument, extractDocumentTypes, titleType } from '../classify.ts';
import { locatePage, placedLines, type LocatedPage } from './page-lines.ts';
import { parseSettings } from './settings.ts';
import type { OptionInput } from './types.ts';

export const splitSettings = z.object({}).strict().openapi('SplitSettings');

export const splitDocument = z
  .object({
    pages: z.array(z.number().int()).length(2).describe('[first, last] page of this document, inclusive'),
    document_type: z.enum([...extractDocumentTypes, 'unrecognised']),
    cues: z.array(z.string()).describe('Why a new document starts at the first page (empty for the first document)'),
  })
  .openapi('SplitDocument');

export const splitOutput = z.object({ documents: z.array(splitDocument) }).openapi('SplitOutput');

export type SplitOutput = z.infer<typeof splitOutput>;

interface PageCues {
  page: number;
  /** "Page 3 of 5" as [3, 5]; [3, null] for "Page 3". */
  number: [number, number | null] | null;
  header: string | null;
  footer: string | null;
  type: string;
  /** The type its title names (TAX INVOICE, Payslip …), or null. */
  title: string | null;
  /** The fonts its text is set in (each font object of the file once). */
  fonts: Set<string>;
  /** Width and height in points, rounded. */
  size: string;
  /** The first document number the page prints under its label ("Invoice number" INV-2), label folded. */
  identifier: { label: string; value: string } | null;
}

/** "Page 3 of 5", "Seite 3 von 5", "Page 3 sur 5", "Página 3 de 5", "Pagina 3 di 5", "Strana 3 z 5", "Blad 3 van 5", "Page 3/5", "Page 3". */
const pageNumbering = /\b(?:page|seite|p[aá]gina|strana|blad|sida|side)\s*:?\s+(\d{1,4})(?:\s*(?:of|von|sur|de|di|z|van|av|\/)\s*(\d{1,4}))?\b/i;

/** A new document starts where the cues at a page boundary add up to this. */
const boundaryScore = 2;

/**
 * Page ranges of the distinct documents in one file: a page numbered 1 again (or one after "page N of
 * N"), a page opening with a document title, a page that reads as another type of document, and a change
 * of the running header and footer, against page numbers that run on. Only the pages read are judged.
 */
export async function split(input: OptionInput): Promise<SplitOutput> {
  parseSettings(splitSettings, input.settings);
  if (input.pages.length === 0) return { documents: [] };
  const cues = input.pages.map(pageCues);
  const starts: { index: number; cues: string[] }[] = [{ index: 0, cues: [] }];
  for (let i = 1; i < cues.length; i++) {
    const found = boundaryCues(cues[i - 1]!, cues[i]!);
    if (found.reduce((sum, cue) => sum + cue.weight, 0) >= boundaryScore) starts.push({ index: i, cues: found.filter((cue) => cue.weight > 0).map((cue) => cue.text) });
  }
  return {
    documents: starts.map((start, n) => {
      const end = (starts[n + 1]?.index ?? input.pages.length) - 1;
      const pages = input.pages.slice(start.index, end + 1);
      return { pages: [pages[0]!.page, pages.at(-1)!.page], document_type: classifyDocument(renumbered(pages)).document_type, cues: start.cues };
    }),
  };
}

function boundaryCues(before: PageCues, page: PageCues): { text: string; weight: number }[] {
  const cues: { text: string; weight: number }[] = [];
  if (page.number?.[0] === 1) cues.push({ text: `page ${page.page} is numbered 1 again`, weight: 3 });
  else if (before.number && before.number[1] !== null && before.number[0] === before.number[1]) cues.push({ text: `page ${before.page} was the last of its ${before.number[1]}`, weight: 3 });
  if (page.title !== null) cues.push({ text: `page ${page.page} opens with a ${page.title.replace('_', ' ')} title`, weight: 2 });
  // Numbering that runs on (page 2 after page 1) outweighs the rest: a title repeated on every page of one document.
  if (page.number && before.number && page.number[0] === before.number[0] + 1) cues.push({ text: `page ${page.page} continues the numbering`, weight: -3 });
  if (page.type !== 'unrecognised' && page.type !== before.type) cues.push({ text: `page ${page.page} reads as a ${page.type.replace('_', ' ')}`, weight: 1 });
  if (before.header !== null && page.header !== null && before.header !== page.header) cues.push({ text: `header changes on page ${page.page}`, weight: 1 });
  if (before.footer !== null && page.footer !== null && before.footer !== page.footer) cues.push({ text: `footer changes on page ${page.page}`, weight: 1 });
  // Files joined into one keep each original's fonts and paper: a font object two pages share says they were typeset together.
  if (before.fonts.size > 0 && page.fonts.size > 0) {
    if ([...page.fonts].some((font) => before.fonts.has(font))) cues.push({ text: `page ${page.page} is set in the fonts of page ${before.page}`, weight: -1 });
    else cues.push({ text: `page ${page.page} shares no font with page ${before.page}`, weight: 1 });
  }
  if (before.size !== page.size) cues.push({ text: `page size changes on page ${page.page}`, weight: 1 });
  // One system may print several documents into one file: the same label with another number ("Invoice number INV-2") is another one.
  if (before.identifier && page.identifier && before.identifier.label === page.identifier.label && before.identifier.value !== page.identifier.value) {
    cues.push({ text: `page ${page.page} carries another ${page.identifier.label}`, weight: 1 });
  }
  return cues;
}

function pageCues(page: PageText): PageCues {
  const lines = locatePage(page).lines;
  const numbering = pageNumbering.exec(page.text);
  // The running header and footer: the first and last line within a tenth of the page's edge, numbers blanked.
  const edge = (line: (typeof lines)[number] | undefined, top: boolean) => {
    if (!line?.box || page.height === 0) return null;
    const inMargin = top ? line.box[1] < page.height * 0.1 : line.box[1] + line.box[3] > page.height * 0.9;
    return inMargin ? line.text.replace(/\d+/g, '#').toLowerCase() : null;
  };
  return {
    page: page.page,
    number: numbering ? [Number(numbering[1]), numbering[2] ? Number(numbering[2]) : null] : null,
    header: edge(lines[0], true),
    footer: edge(lines.at(-1), false),
    // The page judged alone, as if it were page 1: does it open a document of its own?
    type: classifyDocument(renumbered([page])).document_type,
    title: pageTitle(locatePage(page)),
    fonts: new Set(page.items.map((item) => item.font).filter((font): font is string => typeof font === 'string' && font !== '')),
    size: `${Math.round(page.width)}x${Math.round(page.height)}`,
    identifier: documentIdentifier(page.text),
  };
}

/** "Invoice number: INV-2", "Rechnungsnummer 4711", "Factura N° 0001-0005", "Statement no. 12": a document's own number and its label. */
const identifierPattern =
  /\b(invoice|receipt|statement|account|document|credit\s+note|rechnung|beleg|konto|factura|facture|fattura|faktura|re[cç]ibo|advice|voucher)\s*-?\s*(?:number|nummer|numero|número|num[eé]ro|no\.?|nr\.?|n[º°o]\.?|#|id)\s*[:.]?\s*([A-Z0-9][\w/-]{2,})/i;

function documentIdentifier(text: string): { label: string; value: string } | null {
  const found = identifierPattern.exec(text);
  return found ? { label: found[1]!.toLowerCase().replace(/\s+/g, ' '), value: found[2]!.toUpperCase() } : null;
}

/**
 * The type a page's title names: among its first three lines, one set at least a fifth larger than the
 * page's usual line (or, for text without geometry, one of six words or fewer) that names a document type.
 * The words alone are not enough: a contract says "agreement" on every page.
 */
function pageTitle(located: LocatedPage): string | null {
  const placed = placedLines(located);
  const heights = placed.map((line) => line.box[3]).sort((a, b) => a - b);
  const usual = heights[Math.floor(heights.length / 2)] ?? 0;
  const candidates = placed.length > 0 ? placed.slice(0, 3).filter((line) => line.box[3] >= usual * 1.2) : located.lines.slice(0, 3).filter((line) => line.text.split(/\s+/).length <= 6);
  for (const line of candidates) {
    const type = titleType(line.text);
    if (type) return type;
  }
  return null;
}

/** Pages numbered from 1, so the classifier weighs the first of a range as a first page. */
function renumbered(pages: readonly PageText[]): PageText[] {
  return pages.map((page, i) => ({ ...page, page: i + 1 }));
}
