import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tryAdvisoryLock, type HeldAdvisoryLock } from '../data/state/advisory-lock.ts';

/** Any fixed number, the same on every cron host: the nightly run's session advisory lock in the state store's PostgreSQL. */
const PUBLISH_LOCK_KEY = 3_000_030_002;

/** Another host's nightly run holds the publish lock: this one stops before crawling, so it never publishes. */
export class PublishLockHeldError extends Error {}

/**
 * The nightly run's lock in PostgreSQL, held on a connection of its own for the whole run, so two cron hosts on one
 * state store and one shared release folder never run (and so never publish) at once: the folder's lock alone cannot
 * tell a live run on another host from a dead one, since it checks the holder's pid on this host. Null without a
 * database (one host: the folder's lock suffices). A killed host's lock goes with its connection.
 */
export async function holdPublishLock(databaseUrl: string | undefined): Promise<HeldAdvisoryLock | null> {
  if (databaseUrl === undefined) return null;
  const lock = await tryAdvisoryLock(databaseUrl, PUBLISH_LOCK_KEY);
  if (lock === null) throw new PublishLockHeldError('another host\'s nightly run holds the publish lock in PostgreSQL (DATABASE_URL); this run stops without publishing');
  return lock;
}

/**
 * One nightly run per data folder at a time: a second run would delete the first one's work folder as
 * abandoned. A lock left by a killed run (its process is gone) is taken over. `what` names the run
 * (a backfill locks its own folder the same way).
 */
export async function acquireRunLock(releasesDir: string, what = 'nightly'): Promise<() => Promise<void>> {
  const path = join(releasesDir, `.${what}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await readFile(path, 'utf8').catch(() => '0'));
      if (holder && processAlive(holder)) throw new Error(`another ${what} run (pid ${holder}) is using ${releasesDir}`);
      await rm(path, { force: true });
    }
  }
  throw new Error(`could not take the ${what} lock in ${releasesDir}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
