import type { StateDb } from '../../data/state/db.ts';

/** One file of a bid with the text of its pages, as the requirement extraction and drafts read it. */
export interface FilePages {
  file_id: string;
  filename: string;
  pages: { n: number; text: string }[];
}

/**
 * The text of every readable file of a bid, oldest upload first, pages in order. The text was read once,
 * when the file was uploaded; a file whose text could not be read is left out.
 */
export function filePages(state: StateDb, bidId: string): FilePages[] {
  const rows = state.all<{ file_id: string; filename: string; n: number; text: string }>(
    `SELECT f.file_id, f.filename, p.n, p.text
       FROM bid_files f JOIN bid_file_pages p ON p.file_id = f.file_id
      WHERE f.bid_id = ? AND f.read_status = 'read'
      ORDER BY f.uploaded_at, f.file_id, p.n`,
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
