import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { tempDir } from '../test/helpers/temp-dir.ts';
import { withFileLock } from './file-lock.ts';

async function lockPath(): Promise<string> {
  return join(await tempDir('file-lock-'), 'work.lock');
}

test('holders take turns: the second starts only once the first has finished, and the lock is gone after', async () => {
  const path = await lockPath();
  const events: string[] = [];
  const hold = (name: string) => withFileLock(path, async () => {
    events.push(`${name} start`);
    await sleep(50);
    events.push(`${name} end`);
    return name;
  }, { pollMs: 5 });
  assert.deepEqual(await Promise.all([hold('a'), hold('b')]), ['a', 'b']);
  assert.deepEqual(events, ['a start', 'a end', 'b start', 'b end']);
  assert.equal(existsSync(path), false);
});

test('a lock left by a process that is gone is taken over', async () => {
  const path = await lockPath();
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  await writeFile(path, String(gone));
  assert.equal(await withFileLock(path, async () => 'ran', { waitMs: 1000, pollMs: 5 }), 'ran');
});

test('a live holder is waited for, then named in the error', async () => {
  const path = await lockPath();
  await writeFile(path, String(process.pid));
  await assert.rejects(withFileLock(path, async () => 'ran', { waitMs: 50, pollMs: 5 }), new RegExp(`held by process ${process.pid} for over 0.05 s; if no such process is working, delete the file$`));
  assert.equal(existsSync(path), true, 'another holder\'s lock is left alone');
});

test('work that throws still releases the lock', async () => {
  const path = await lockPath();
  await assert.rejects(withFileLock(path, async () => { throw new Error('unpack failed'); }), /unpack failed/);
  assert.equal(existsSync(path), false);
});
