import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '../../lib/private-files.ts';
import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/** The largest library document accepted (spec, Limits: document size). */
export const LARGEST_DOCUMENT_BYTES = 25 * 1024 * 1024;

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
 * The document library of every organisation: metadata in the state store, bytes on disk under
 * `<documentsDir>/<org_id>/<doc_id>` (folders 0700, files 0600). The uploader's filename is kept as metadata only,
 * so it can never steer where a file is written.
 */
export class DocumentLibrary {
  readonly #state: StateDb;
  readonly #documentsDir: string;

  constructor(state: StateDb, documentsDir: string) {
    this.#state = state;
    this.#documentsDir = documentsDir;
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
    const path = this.pathOf(upload.orgId, docId);
    await writePrivateFile(path, upload.bytes, 'wx');
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
      await rm(path, { force: true });
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
    await rm(this.pathOf(orgId, docId), { force: true });
    return true;
  }

  /** Where a document's bytes are kept. */
  pathOf(orgId: string, docId: string): string {
    return join(this.#documentsDir, orgId, docId);
  }
}

/** The last path segment without control characters, at most 200 characters; `document` when nothing is left. */
function safeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return cleaned || 'document';
}
