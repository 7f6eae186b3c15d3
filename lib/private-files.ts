import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * Folders and files only their owner may read: 0700 and 0600. Creating with a mode is not enough, since the
 * process umask takes bits away from it (a umask of 0 leaves 0777 and 0666), so each is set with chmod once made.
 * The account state, bid files, library documents and mail holding sign-in links are written through these.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `mkdir -p` whose every folder it makes is private; folders that were already there are left as they are. */
export function makePrivateDirSync(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const made of madeChain(first, dir)) chmodSync(made, PRIVATE_DIR_MODE);
}

export async function makePrivateDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const made of madeChain(first, dir)) await chmod(made, PRIVATE_DIR_MODE);
}

/** Creates an empty private file unless one is there (which is made private too). */
export function touchPrivateFileSync(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** `writeFile` of a private file in a private folder; `flag` as writeFile takes it (`wx` refuses an existing file). */
export async function writePrivateFile(path: string, bytes: Uint8Array | string, flag = 'w'): Promise<void> {
  await makePrivateDir(dirname(path));
  await writeFile(path, bytes, { flag, mode: PRIVATE_FILE_MODE });
  await chmod(path, PRIVATE_FILE_MODE);
}

export function writePrivateFileSync(path: string, bytes: Uint8Array | string, flag = 'w'): void {
  makePrivateDirSync(dirname(path));
  writeFileSync(path, bytes, { flag, mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE);
}

/**
 * Makes every folder and file under `dir` (and `dir` itself) private, for what an earlier version stored open:
 * one lstat each, a chmod only where the mode is wrong, links left alone. It walks the whole tree, which stays
 * cheap at the scale one state folder reaches (a few thousand bid files: milliseconds). Returns how many were mended.
 */
export function restrictTreeSync(dir: string): number {
  let mended = 0;
  const visit = (path: string): void => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      // Removed meanwhile, or never made: nothing to mend.
      return;
    }
    if (stats.isSymbolicLink()) return;
    const wanted = stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o777) !== wanted) {
      chmodSync(path, wanted);
      mended++;
    }
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return mended;
}

/** The folders from `first` (the first one `mkdir -p` made, or undefined when it made none) down to `dir`. */
function madeChain(first: string | undefined, dir: string): string[] {
  if (first === undefined) return [];
  const target = resolve(dir);
  const chain = [resolve(first)];
  for (const part of relative(chain[0]!, target).split(sep).filter(Boolean)) chain.push(join(chain.at(-1)!, part));
  return chain;
}
