import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBinaries, sharedPostgresCluster } from './helpers/postgres-cluster.ts';
import { tempDir } from './helpers/temp-dir.ts';

const CLI = fileURLToPath(new URL('../pipeline/cli.ts', import.meta.url));
const GUARD = fileURLToPath(new URL('../lib/node-guard.mjs', import.meta.url));
const SKIP = postgresBinaries() === null ? 'needs PostgreSQL server binaries (/usr/lib/postgresql/*/bin)' : false;

interface Run {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
}

/** A nightly CLI process on `dataDir` and the database `url`, as a cron host starts it. */
function nightly(dataDir: string, url: string, sources: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['--import', GUARD, CLI, '--fixtures', '--data-dir', dataDir, '--now', '2026-09-26T01:00:00Z', '--sources', sources.join(',')], {
    env: { ...process.env, DATABASE_URL: url, ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves once `run` has printed `pattern`: it is past both locks then, crawling. */
async function reaches(run: Run, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!pattern.test(run.output())) {
    if (run.child.exitCode !== null) throw new Error(`the run ended (${run.child.exitCode}) before ${pattern}: ${run.output()}`);
    if (Date.now() > deadline) throw new Error(`the run never reached ${pattern}: ${run.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function releasesIn(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'releases'))).filter((name) => !name.startsWith('.')).sort();
}

test('two cron hosts on one PostgreSQL and one data folder: exactly one publishes, the other is refused by the PostgreSQL lock', { skip: SKIP, timeout: 300_000 }, async () => {
  const url = await (await sharedPostgresCluster()).freshDatabase();
  const dataDir = await tempDir('publish-lock-');
  const first = nightly(dataDir, url, ['au_federal_austender_atm']);
  await reaches(first, /\[crawl\]/);
  const second = nightly(dataDir, url, ['au_federal_austender_atm']);
  assert.equal(await second.exited, 75, second.output());
  // The refusal is PostgreSQL's, not the folder's: the folder's lock could not tell another host's live run from a dead one.
  assert.match(second.output(), /refused: another host's nightly run holds the publish lock in PostgreSQL/);
  assert.equal(await first.exited, 0, first.output());
  const releases = await releasesIn(dataDir);
  assert.equal(releases.length, 1, `one release published: ${releases.join(', ')}`);
  assert.match(await readFile(join(dataDir, 'current.json'), 'utf8'), new RegExp(releases[0]!));
  assert.doesNotMatch(second.output(), /published at/);
});

test('a host killed while holding the publish lock frees it: the next run publishes', { skip: SKIP, timeout: 300_000 }, async () => {
  const url = await (await sharedPostgresCluster()).freshDatabase();
  const dataDir = await tempDir('publish-lock-killed-');
  // GETS hangs, so the run still holds the lock when it is killed.
  const killed = nightly(dataDir, url, ['au_federal_austender_atm', 'nz_gets'], { SVC_FIXTURE_FAULTS: 'nz_gets:hang' });
  await reaches(killed, /\[crawl\] nz_gets: started/);
  killed.child.kill('SIGKILL');
  await killed.exited;
  const next = nightly(dataDir, url, ['au_federal_austender_atm']);
  assert.equal(await next.exited, 0, next.output());
  assert.equal((await releasesIn(dataDir)).length, 1);
});
