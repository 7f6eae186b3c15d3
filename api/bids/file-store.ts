import { randomBytes } from 'node:crypto';
import { access, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFile } from '../../lib/private-files.ts';

/**
 * Bid files on disk, content-addressed: the bytes of a file are `<dir>/<sha256[0..2]>/<sha256>`, so the same
 * bytes uploaded to several bids (or twice to one) are stored once, and a name can never steer where a file is
 * written. Page renders are kept beside them as `<dir>/renders/<sha256>/<n>.png`, drawn on first request.
 * Nothing is ever deleted here: a file's bytes may belong to several bids. Folders are 0700 and files 0600: a bid
 * file is an organisation's own document.
 */
export class BidFileStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Stores the bytes under their hash unless they are already there. */
  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const path = this.#bytesPath(sha256);
    if (await exists(path)) return;
    await writeOnce(path, bytes);
  }

  read(sha256: string): Promise<Uint8Array> {
    return readFile(this.#bytesPath(sha256));
  }

  /** The stored render of page `n`, or null when it has not been drawn yet. */
  async render(sha256: string, n: number): Promise<Uint8Array | null> {
    try {
      return await readFile(this.#renderPath(sha256, n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async putRender(sha256: string, n: number, png: Uint8Array): Promise<void> {
    await writeOnce(this.#renderPath(sha256, n), png);
  }

  #bytesPath(sha256: string): string {
    return join(this.#dir, checkedHash(sha256).slice(0, 2), sha256);
  }

  #renderPath(sha256: string, n: number): string {
    if (!Number.isInteger(n) || n < 1) throw new Error(`page numbers start at 1, not ${n}`);
    return join(this.#dir, 'renders', checkedHash(sha256), `${n}.png`);
  }
}

function checkedHash(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('a bid file is addressed by its lowercase hex SHA-256');
  return sha256;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes to a temporary name and renames it into place, so a reader never meets half a file. Two writers
 * racing for one name write the same content (it is named by its hash), so whichever rename lands last is right.
 */
async function writeOnce(path: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  await writePrivateFile(temporary, bytes, 'wx');
  try {
    await rename(temporary, path);
  } finally {
    await rm(temporary, { force: true });
  }
}
