import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../private-files.ts';
import { checkedKey, checkedPrefix, isKey, type FileBody, type FileStore } from './store.ts';

/**
 * The file store as a folder: key `a/b/c` is the file `<root>/a/b/c`, folders 0700 and files 0600
 * (lib/private-files.ts). A put writes a temporary `.<name>.<random>.partial` beside the file and renames it into
 * place, so a reader meets the old bytes or the new ones, never half; keys cannot start a segment with `.`, so no
 * key names a temporary file and `list` leaves them out. A key may not also be the folder of another key
 * (`a` and `a/b`), as on any file system.
 */
export class FolderFileStore implements FileStore {
  readonly description: string;
  readonly #root: string;

  constructor(root: string) {
    this.#root = resolve(root);
    this.description = this.#root;
  }

  async put(key: string, body: FileBody): Promise<void> {
    const path = this.#pathOf(key);
    const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.partial`);
    await makePrivateDir(dirname(path));
    try {
      if (body instanceof Uint8Array) await writeFile(temporary, body, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      else await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: PRIVATE_FILE_MODE }));
      // The umask may have taken bits from the mode the file was made with.
      await chmod(temporary, PRIVATE_FILE_MODE);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await readFile(this.#pathOf(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stream(key: string): Promise<Readable | null> {
    try {
      // Opened here, so a missing file is null now rather than an error on the stream's first read.
      const handle = await open(this.#pathOf(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.#pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const dir = join(this.#root, ...checkedPrefix(prefix).split('/').filter(Boolean));
    let entries;
    try {
      entries = await readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const keys: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = relative(this.#root, join(entry.parentPath, entry.name)).split(sep).join('/');
      // Temporary files, and whatever else is here that no key could name.
      if (isKey(key)) keys.push(key);
    }
    return keys.sort();
  }

  close(): void {}

  #pathOf(key: string): string {
    return join(this.#root, ...checkedKey(key).split('/'));
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // ENOTDIR: a key under what is a file here (`a/b` when `a` is a file) names nothing.
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
