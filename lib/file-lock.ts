import { open, readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FileLockOptions {
  /** How long to wait for another process's lock before giving up. */
  waitMs?: number;
  /** How often to look again while waiting. */
  pollMs?: number;
}

/**
 * Runs `work` while holding a lock file that names this process, so processes sharing a folder take turns.
 * A lock left by a process that is gone is taken over; a live holder is waited for, up to `waitMs`.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const { waitMs = 120_000, pollMs = 100 } = options;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // An empty file is a holder that has not written its pid yet: it is alive.
      const holder = Number(await readFile(path, 'utf8').catch(() => '0'));
      if (holder && !processAlive(holder)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() >= deadline) throw new Error(`${path} has been held by process ${holder || 'unknown'} for over ${waitMs / 1000} s; if no such process is working, delete the file`);
      await sleep(pollMs);
    }
  }
  try {
    return await work();
  } finally {
    await rm(path, { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
