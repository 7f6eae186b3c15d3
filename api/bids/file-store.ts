import type { FileStore } from '../../lib/file-store/store.ts';
import { FolderFileStore } from '../../lib/file-store/folder-store.ts';

/** Where bid files are kept in the service's file store: `<dataDir>/state/bid-files/` on the default folder. */
export const BID_FILES_PREFIX = 'bid-files';

/**
 * Bid files in the file store (lib/file-store/), content-addressed: the bytes of a file are the key
 * `<sha256[0..2]>/<sha256>`, so the same bytes uploaded to several bids (or twice to one) are stored once, and a name
 * can never steer where a file is written. Page renders are kept beside them as `renders/<sha256>/<n>.png`, drawn on
 * first request. Nothing is ever deleted here: a file's bytes may belong to several bids. On the folder store the
 * folders are 0700 and files 0600: a bid file is an organisation's own document.
 */
export class BidFileStore {
  readonly #files: FileStore;

  /** `files` is the part of the file store kept for bid files; a path means a folder there. */
  constructor(files: FileStore | string) {
    this.#files = typeof files === 'string' ? new FolderFileStore(files) : files;
  }

  /**
   * Stores the bytes under their hash unless they are already there. Two writers racing for one key write the
   * same content (it is named by its hash), so whichever lands last is right.
   */
  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const key = bytesKey(sha256);
    if (await this.#files.has(key)) return;
    await this.#files.put(key, bytes);
  }

  async read(sha256: string): Promise<Uint8Array> {
    const bytes = await this.#files.get(bytesKey(sha256));
    if (bytes === null) throw new Error(`bid file ${sha256} is not in the file store ${this.#files.description}`);
    return bytes;
  }

  /** The stored render of page `n`, or null when it has not been drawn yet. */
  async render(sha256: string, n: number): Promise<Uint8Array | null> {
    return this.#files.get(renderKey(sha256, n));
  }

  async putRender(sha256: string, n: number, png: Uint8Array): Promise<void> {
    await this.#files.put(renderKey(sha256, n), png);
  }
}

function bytesKey(sha256: string): string {
  return `${checkedHash(sha256).slice(0, 2)}/${sha256}`;
}

function renderKey(sha256: string, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new Error(`page numbers start at 1, not ${n}`);
  return `renders/${checkedHash(sha256)}/${n}.png`;
}

function checkedHash(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('a bid file is addressed by its lowercase hex SHA-256');
  return sha256;
}
