import type { StateDb } from '../../data/state/db.ts';
import { AnalysisPoolFullError, type AnalysisPool } from '../checkers/_runner/pool.ts';
import type { IntakeDocument } from '../documents/types.ts';
import { nameMismatch, readFilePages } from './file-reading.ts';
import type { BidFileStore } from './file-store.ts';
import { listBidFiles, readingOf, recordBidFile, type BidFileView } from './files.ts';

/**
 * A document joining a bid's files, whichever way it came (an upload, a tender pack fetched from the portal):
 * its name checked against its content, its text read once in an analysis process (the same bytes again reuse
 * the pages read), the bytes stored by SHA-256, the file recorded, and the file-read listeners told (requirements
 * are extracted there) before the caller is answered.
 */

/** Told once a file's pages are stored, before the upload is answered (requirement extraction listens here). */
export type FileReadListener = (bidId: string, fileId: string) => void | Promise<void>;

export interface FileIntakeDeps {
  state: StateDb;
  files: BidFileStore;
  pool: AnalysisPool;
  onFileRead: readonly FileReadListener[];
  /** Where a failing listener is reported: the file is still added. */
  log: (error: unknown) => void;
}

export type AddedFile =
  | { ok: true; file: BidFileView }
  | { ok: false; status: 400 | 422 | 503; detail: string; retryAfterSeconds?: number };

export async function addBidFile(deps: FileIntakeDeps, input: { bidId: string; accountId: string; document: IntakeDocument; now: Date }): Promise<AddedFile> {
  const { document } = input;
  const mismatch = nameMismatch(document.filename, document.kind);
  if (mismatch !== null) return { ok: false, status: 400, detail: mismatch };
  let reading = await readingOf(deps.state, document.sha256);
  if (reading === null) {
    let read;
    try {
      read = await readFilePages(deps.pool, document, input.now);
    } catch (error) {
      if (!(error instanceof AnalysisPoolFullError)) throw error;
      return { ok: false, status: 503, detail: `${error.message} Nothing was stored.`, retryAfterSeconds: error.retryAfterSeconds };
    }
    if (read.status === 'refused') return { ok: false, status: read.httpStatus, detail: `${read.detail} Nothing was stored.` };
    reading = read;
  }
  await deps.files.put(document.sha256, document.bytes);
  const file = await recordBidFile(deps.state, {
    bidId: input.bidId,
    accountId: input.accountId,
    filename: document.filename ?? 'file',
    kind: document.kind,
    contentType: document.mime,
    sizeBytes: document.bytes.byteLength,
    sha256: document.sha256,
    reading,
    now: input.now,
  });
  if (file.read_status === 'read') {
    for (const listener of deps.onFileRead) {
      try {
        await listener(file.bid_id, file.file_id);
      } catch (error) {
        deps.log(error);
      }
    }
  }
  return { ok: true, file: (await listBidFiles(deps.state, file.bid_id)).find((listed) => listed.file_id === file.file_id)! };
}
