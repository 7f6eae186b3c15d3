import type { StateDb } from '../../../data/state/db.ts';
import type { ReadTextResult } from '../../checkers/read-text.ts';
import { READ_TEXT_ANALYSIS } from '../../checkers/_runner/answer.ts';
import { sniffDocument } from '../../documents/sniff.ts';
import type { AnalysisPool } from '../../checkers/_runner/pool.ts';
import type { DocumentLibrary, LibraryDocument } from '../../orgs/documents.ts';

/**
 * The text of an organisation's library documents, page by page, read once per document (per content) and
 * kept in `library_document_text`. Reading is the checkers' reading step (`read_text`) in a pool thread,
 * under its time and memory caps, since the bytes are whatever a member uploaded.
 */

export interface LibraryPage {
  n: number;
  text: string;
}

export interface LibraryText {
  document: LibraryDocument;
  /** Empty when the document could not be read (its kind is not one the readers take, or reading failed). */
  pages: LibraryPage[];
}

/** Pages read per library document: capability statements and policies are short; a manual past this is cut. */
const LIBRARY_READ_PAGES = 40;

interface StoredText {
  sha256: string;
  pages: string;
}

/**
 * Every library document of `orgId` with its text, reading the ones not read before. Throws
 * `AnalysisPoolFullError` when no reading thread is free (the caller answers 503 and nothing is kept).
 */
export async function libraryTexts(state: StateDb, library: DocumentLibrary, orgId: string, pool: AnalysisPool, now: Date): Promise<LibraryText[]> {
  const texts: LibraryText[] = [];
  for (const document of await library.list(orgId)) {
    const stored = await state.get<StoredText>('SELECT sha256, pages FROM library_document_text WHERE doc_id = ?', document.doc_id);
    const pages = stored?.sha256 === document.sha256 ? (JSON.parse(stored.pages) as LibraryPage[]) : await readAndKeep(state, library, orgId, document, pool, now);
    texts.push({ document, pages });
  }
  return texts;
}

async function readAndKeep(state: StateDb, library: DocumentLibrary, orgId: string, document: LibraryDocument, pool: AnalysisPool, now: Date): Promise<LibraryPage[]> {
  const read = await readPages(await library.read(orgId, document.doc_id), document, pool, now);
  // A reading stopped by the time limit or a dying thread may succeed next time: not kept, so it is tried again.
  if (!read.ok && read.transient) return [];
  await state.run(
    `INSERT INTO library_document_text (doc_id, sha256, status, pages, detail, read_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (doc_id) DO UPDATE SET sha256 = excluded.sha256, status = excluded.status, pages = excluded.pages, detail = excluded.detail, read_at = excluded.read_at`,
    document.doc_id,
    document.sha256,
    read.ok ? 'read' : 'failed',
    JSON.stringify(read.ok ? read.pages : []),
    read.ok ? null : read.detail,
    now.toISOString(),
  );
  return read.ok ? read.pages : [];
}

async function readPages(bytes: Uint8Array, document: LibraryDocument, pool: AnalysisPool, now: Date): Promise<{ ok: true; pages: LibraryPage[] } | { ok: false; transient: boolean; detail: string }> {
  const sniffed = await sniffDocument(bytes);
  if (sniffed.format === null) return { ok: false, transient: false, detail: `The file is ${sniffed.received}, which has no text to read.` };
  const outcome = await pool.run<ReadTextResult>({
    analysis: READ_TEXT_ANALYSIS,
    documents: [{ bytes, sha256: document.sha256, kind: sniffed.kind, mime: sniffed.mime, filename: document.filename }],
    options: { max_pages: LIBRARY_READ_PAGES },
    now: now.toISOString(),
  });
  if (!outcome.ok) return { ok: false, transient: outcome.failure === 'timeout' || outcome.failure === 'crashed', detail: outcome.detail };
  return { ok: true, pages: outcome.result.documents[0]!.pages.map((page) => ({ n: page.page, text: page.text })) };
}
