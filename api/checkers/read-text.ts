import { columnText } from '../documents/columns.ts';
import { openOcrSession } from '../documents/ocr.ts';
import { textPage } from '../documents/plain-text.ts';
import { readDocument } from '../documents/read.ts';
import type { DocumentKind, IntakeDocument } from '../documents/types.ts';
import { readReferencePage } from './references/html-page.ts';
import type { AnalysisContext } from './types.ts';

/**
 * The reading step of the checkers that judge a document against the outside world (DESIGN §10): the
 * untrusted bytes are read here, in a pool thread under its time and memory caps, and only the text goes
 * back to the main thread, where the checker's judging step (with its outside clients) takes over.
 */

/** Pages read per PDF by default: a long report's reference list sits at its end, so well past page 10. */
export const DEFAULT_READ_PAGES = 60;

export interface ReadTextOptions {
  /** Pages read per PDF, from the first (default 60). */
  max_pages?: number;
  /** false: pages without a text layer and images stay empty instead of being read by OCR (default true). */
  ocr?: boolean;
  /**
   * true: an HTML document is read as the reference checker needs it (`references/html-page.ts`): its
   * navigation and page furniture dropped, its reference lists written as lists after the text, inline
   * markers as `[n]`, and links in the article to other sites written after their text as `text (href)`,
   * since a page cites by link and the visible text alone loses the address (default false).
   */
  html_links?: boolean;
  /**
   * true: a PDF page set in columns is read column by column, lines indented from their column's edge written
   * with two leading spaces (`documents/columns.ts`), so a two-column paper's sentences and reference entries
   * stay whole (default false: lines across the page, as the other readers expect).
   */
  columns?: boolean;
}

export interface ReadTextPage {
  /** 1-based. */
  page: number;
  text: string;
  source: 'text_layer' | 'ocr';
}

export interface ReadTextDocument {
  sha256: string;
  filename: string | null;
  kind: DocumentKind;
  /** Pages the document has (1 for text, HTML, .docx and images). */
  page_count: number;
  /** Whether any page was read by OCR (its text may carry recognition errors). */
  ocr_used: boolean;
  pages: ReadTextPage[];
  /** An HTML page read with `html_links`: its own address, site and DOIs, whose links are not citations. */
  page_identity?: { url: string | null; site: string | null; self_dois: string[] };
}

export interface ReadTextResult {
  documents: ReadTextDocument[];
}

/** The text of each document, page by page (api/documents/read.ts), one OCR worker shared by all of them. */
export async function readText(documents: IntakeDocument[], options: ReadTextOptions, context: AnalysisContext): Promise<ReadTextResult> {
  const ocr = openOcrSession();
  try {
    const read: ReadTextDocument[] = [];
    for (const document of documents) {
      context.progress?.('reading');
      if (options.html_links === true && document.kind === 'html') {
        const page = readReferencePage(new TextDecoder('utf-8').decode(document.bytes));
        read.push({
          sha256: document.sha256,
          filename: document.filename,
          kind: document.kind,
          page_count: 1,
          ocr_used: false,
          pages: [{ page: 1, text: textPage(page.text).text, source: 'text_layer' }],
          page_identity: { url: page.url, site: page.site, self_dois: page.self_dois },
        });
        continue;
      }
      const { pageCount, pages } = await readDocument(document, { maxPages: options.max_pages ?? DEFAULT_READ_PAGES, renderScale: 2, ocr: options.ocr ?? true }, ocr);
      read.push({
        sha256: document.sha256,
        filename: document.filename,
        kind: document.kind,
        page_count: pageCount,
        ocr_used: pages.some((page) => page.source === 'ocr'),
        pages: pages.map((page) => ({ page: page.page, text: options.columns === true && page.source === 'text_layer' && page.items.length > 0 ? columnText(page.items, page.width) : page.text, source: page.source })),
      });
    }
    return { documents: read };
  } finally {
    await ocr.close();
  }
}
