import { existsSync } from 'node:fs';
import { copyFile, link, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** `<data>/backfill/<source>/`: the checkpoint, the staged windows awaiting a release (`pending/`), and the lock. */
export function backfillDir(dataDir: string, sourceId: string): string {
  return join(dataDir, 'backfill', sourceId);
}

/** A pending file a nightly run staged, with the inode it had then. */
export interface StagedBackfill {
  path: string;
  inode: number;
}

/**
 * Puts every source's pending backfill files into a nightly run's staging folder (hard links where the file
 * system allows, else copies), so the run's load stage reads them with its own crawl. Returns what it staged.
 */
export async function stagePendingBackfill(dataDir: string, stagingDir: string): Promise<StagedBackfill[]> {
  const root = join(dataDir, 'backfill');
  if (!existsSync(root)) return [];
  const staged: StagedBackfill[] = [];
  for (const sourceId of await readdir(root)) {
    const pending = join(root, sourceId, 'pending');
    if (!existsSync(pending)) continue;
    for (const name of (await readdir(pending)).filter((n) => n.endsWith('.ndjson')).sort()) {
      // why: the inode before the link, so a window re-read in between is kept rather than cleared unread
      const inode = (await stat(join(pending, name))).ino;
      await link(join(pending, name), join(stagingDir, name)).catch(() => copyFile(join(pending, name), join(stagingDir, name)));
      staged.push({ path: join(pending, name), inode });
    }
  }
  return staged;
}

/**
 * After the release holding them is published: the pending files are in its store, and later releases carry
 * them forward. A file a backfill has since replaced (a window read again) is a new inode and stays for the next run.
 */
export async function clearLoadedBackfill(files: StagedBackfill[]): Promise<void> {
  for (const file of files) {
    const now = await stat(file.path).catch(() => null);
    if (now?.ino === file.inode) await rm(file.path, { force: true });
  }
}
