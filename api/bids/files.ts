import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';
import type { DocumentKind } from '../documents/types.ts';

/**
 * The files of a bid in the state store: one row per upload and the text of each page, read once when the
 * file was uploaded (api/bids/file-reading.ts). The bytes live on disk (api/bids/file-store.ts).
 */

/** One file of a bid with the text of its pages, as the requirement extraction and drafts read it. */
export interface FilePages {
  file_id: string;
  filename: string;
  pages: { n: number; text: string }[];
}

/** A bid file as stored. */
export interface BidFile {
  file_id: string;
  bid_id: string;
  filename: string;
  kind: DocumentKind;
  content_type: string;
  size_bytes: number;
  sha256: string;
  page_count: number;
  read_status: 'read' | 'failed';
  read_detail: string | null;
  uploaded_by: string;
  uploaded_at: string;
}

/** A bid file as the routes list it. */
export interface BidFileView extends Omit<BidFile, 'uploaded_by'> {
  /** Pages whose text is stored (at most `MAX_READ_PAGES`; 0 when the file could not be read). */
  pages_read: number;
  /** Email address of the member who uploaded it. */
  uploaded_by: string;
}

/** A page's stored text. */
export interface StoredPage {
  n: number;
  text: string;
  source: 'text_layer' | 'ocr';
}

/** What reading a file gave: its pages, or why it could not be read. */
export type FileReading =
  | { status: 'read'; pageCount: number; pages: StoredPage[]; detail: string | null }
  | { status: 'failed'; pageCount: number; pages: []; detail: string };

export interface NewBidFile {
  bidId: string;
  accountId: string;
  filename: string;
  kind: DocumentKind;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  reading: FileReading;
  now: Date;
}

/** Writes the file's row and its pages in one transaction. */
export async function recordBidFile(state: StateDb, file: NewBidFile): Promise<BidFile> {
  const fileId = newId('file_');
  await state.transaction(async () => {
    await state.run(
      `INSERT INTO bid_files (file_id, bid_id, filename, kind, content_type, size_bytes, sha256, page_count, read_status, read_detail, uploaded_by, uploaded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      fileId,
      file.bidId,
      file.filename,
      file.kind,
      file.contentType,
      file.sizeBytes,
      file.sha256,
      file.reading.pageCount,
      file.reading.status,
      file.reading.detail,
      file.accountId,
      file.now.toISOString(),
    );
    for (const page of file.reading.pages) {
      await state.run('INSERT INTO bid_file_pages (file_id, n, text, source) VALUES (?, ?, ?, ?)', fileId, page.n, page.text, page.source);
    }
  });
  return (await bidFile(state, file.bidId, fileId))!;
}

/**
 * The pages of the same bytes read for any earlier upload, so a file is read once whichever bid it is
 * uploaded to; null when these bytes were never read successfully.
 */
export async function readingOf(state: StateDb, sha256: string): Promise<FileReading | null> {
  const earlier = await state.get<{ file_id: string; page_count: number; read_detail: string | null }>(
    "SELECT file_id, page_count, read_detail FROM bid_files WHERE sha256 = ? AND read_status = 'read' ORDER BY uploaded_at LIMIT 1",
    sha256,
  );
  if (earlier === undefined) return null;
  const pages = await state.all<StoredPage>('SELECT n, text, source FROM bid_file_pages WHERE file_id = ? ORDER BY n', earlier.file_id);
  return { status: 'read', pageCount: earlier.page_count, pages, detail: earlier.read_detail };
}

export async function bidFile(state: StateDb, bidId: string, fileId: string): Promise<BidFile | null> {
  return await state.get<BidFile>('SELECT * FROM bid_files WHERE bid_id = ? AND file_id = ?', bidId, fileId) ?? null;
}

/** A file by id alone, for signed links (which carry no bid). */
export async function fileById(state: StateDb, fileId: string): Promise<BidFile | null> {
  return await state.get<BidFile>('SELECT * FROM bid_files WHERE file_id = ?', fileId) ?? null;
}

/** The bid's files, oldest upload first. */
export async function listBidFiles(state: StateDb, bidId: string): Promise<BidFileView[]> {
  return await state.all<BidFileView>(
    `SELECT f.file_id, f.bid_id, f.filename, f.kind, f.content_type, f.size_bytes, f.sha256, f.page_count, f.read_status, f.read_detail,
            a.email AS uploaded_by, f.uploaded_at, (SELECT COUNT(*) FROM bid_file_pages p WHERE p.file_id = f.file_id) AS pages_read
       FROM bid_files f JOIN accounts a ON a.account_id = f.uploaded_by
      WHERE f.bid_id = ?
      ORDER BY f.uploaded_at, f.rowid`,
    bidId,
  );
}

/** The stored text of page `n`, or null when that page was not read. */
export async function storedPage(state: StateDb, fileId: string, n: number): Promise<StoredPage | null> {
  return await state.get<StoredPage>('SELECT n, text, source FROM bid_file_pages WHERE file_id = ? AND n = ?', fileId, n) ?? null;
}

/**
 * The text of every readable file of a bid, oldest upload first, pages in order. The text was read once,
 * when the file was uploaded; a file whose text could not be read is left out.
 */
export async function filePages(state: StateDb, bidId: string): Promise<FilePages[]> {
  const rows = await state.all<{ file_id: string; filename: string; n: number; text: string }>(
    `SELECT f.file_id, f.filename, p.n, p.text
       FROM bid_files f JOIN bid_file_pages p ON p.file_id = f.file_id
      WHERE f.bid_id = ? AND f.read_status = 'read'
      ORDER BY f.uploaded_at, f.rowid, p.n`,
    bidId,
  );
  const files = new Map<string, FilePages>();
  for (const row of rows) {
    let file = files.get(row.file_id);
    if (file === undefined) {
      file = { file_id: row.file_id, filename: row.filename, pages: [] };
      files.set(row.file_id, file);
    }
    file.pages.push({ n: row.n, text: row.text });
  }
  return [...files.values()];
}
