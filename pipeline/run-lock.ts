import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

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
