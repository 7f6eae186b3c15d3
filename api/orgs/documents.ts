import { createHash } from 'node:crypto';
import { FolderFileStore } from '../../lib/file-store/folder-store.ts';
import type { FileStore } from '../../lib/file-store/store.ts';
import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/** The largest library document accepted (spec, Limits: document size). */
export const LARGEST_DOCUMENT_BYTES = 25 * 1024 * 1024;

/** Where library documents are kept in the service's file store: `<dataDir>/state/documents/` on the default folder. */
export const DOCUMENTS_PREFIX = 'documents';

/** A document in an organisation's library, as listed. */
export interface LibraryDocument {
  doc_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  uploaded_by: string;
  uploaded_at: string;
  /** The one expiry date a person sets (YYYY-MM-DD), or null. */
  expires_on: string | null;
}

export interface DocumentUpload {
  orgId: string;
  accountId: string;
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  now: Date;
}

const SELECT_DOCUMENT = `SELECT d.doc_id, d.filename, d.content_type, d.size_bytes, d.sha256, a.email AS uploaded_by, d.uploaded_at, d.expires_on
  FROM org_documents d JOIN accounts a ON a.account_id = d.uploaded_by`;

/**
 * The document library of every organisation: metadata in the state store, bytes in the file store under
 * `<org_id>/<doc_id>` (on the folder store, folders 0700 and files 0600). The uploader's filename is kept as metadata
 * only, so it can never steer where a file is written.
 */
export class DocumentLibrary {
  readonly #state: StateDb;
  readonly #files: FileStore;

  /** `files` is the part of the file store kept for library documents; a path means a folder there. */
  constructor(state: StateDb, files: FileStore | string) {
    this.#state = state;
    this.#files = typeof files === 'string' ? new FolderFileStore(files) : files;
  }

  async list(orgId: string): Promise<LibraryDocument[]> {
    return await this.#state.all<LibraryDocument>(`${SELECT_DOCUMENT} WHERE d.org_id = ? ORDER BY d.uploaded_at DESC, d.doc_id`, orgId);
  }

  async get(orgId: string, docId: string): Promise<LibraryDocument | null> {
    return await this.#state.get<LibraryDocument>(`${SELECT_DOCUMENT} WHERE d.org_id = ? AND d.doc_id = ?`, orgId, docId) ?? null;
  }

  /** Writes the file, then its row; a file whose row could not be written is removed again. */
  async add(upload: DocumentUpload): Promise<LibraryDocument> {
    const docId = newId('doc_');
    const key = documentKey(upload.orgId, docId);
    // A fresh id: no other document is ever under this key.
    await this.#files.put(key, upload.bytes);
    try {
      await this.#state.run(
        `INSERT INTO org_documents (doc_id, org_id, filename, content_type, size_bytes, sha256, uploaded_by, uploaded_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        docId,
        upload.orgId,
        safeFilename(upload.filename),
        upload.contentType || 'application/octet-stream',
        upload.bytes.byteLength,
        createHash('sha256').update(upload.bytes).digest('hex'),
        upload.accountId,
        upload.now.toISOString(),
      );
    } catch (error) {
      await this.#files.delete(key);
      throw error;
    }
    return (await this.get(upload.orgId, docId))!;
  }

  /** Sets or clears the document's expiry date; null when the organisation holds no such document. */
  async setExpiry(orgId: string, docId: string, expiresOn: string | null): Promise<LibraryDocument | null> {
    const { changes } = await this.#state.run('UPDATE org_documents SET expires_on = ? WHERE org_id = ? AND doc_id = ?', expiresOn, orgId, docId);
    return changes === 0 ? null : await this.get(orgId, docId);
  }

  /**
   * Removes the row, then the file: a failure in between leaves an unreferenced file, never a listed
   * document whose bytes are gone. False when the organisation holds no such document.
   */
  async remove(orgId: string, docId: string): Promise<boolean> {
    const { changes } = await this.#state.run('DELETE FROM org_documents WHERE org_id = ? AND doc_id = ?', orgId, docId);
    if (changes === 0) return false;
    await this.#files.delete(documentKey(orgId, docId));
    return true;
  }

  /** A listed document's bytes; throws when the file store has lost them. */
  async read(orgId: string, docId: string): Promise<Uint8Array> {
    const bytes = await this.#files.get(documentKey(orgId, docId));
    if (bytes === null) throw new Error(`library document ${orgId}/${docId} is not in the file store ${this.#files.description}`);
    return bytes;
  }
}

function documentKey(orgId: string, docId: string): string {
  return `${orgId}/${docId}`;
}

/** The last path segment without control characters, at most 200 characters; `document` when nothing is left. */
function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return cleaned || 'document';
}
