import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import type { Caller } from '../api/accounts/caller.ts';
import { createMeter } from '../api/usage/meter.ts';
import { mintKey } from '../api/accounts/keys.ts';
import { accountFor } from '../api/accounts/sign-in.ts';
import { openStateDb } from '../data/state/db.ts';
import { readCurrentRelease } from '../data/release.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { encryptedBombPdf } from './helpers/hostile-files.ts';
import { signInAs } from './helpers/org-app.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { openTestState, SQLITE_ONLY, testStateLocation } from './helpers/state.ts';

/**
 * Chaos (issue 24's standing tests): the server killed with SIGKILL in the middle of a checker call and of an
 * upload, the state store locked by another process, writes failing in the middle of a nightly run (a full disk),
 * and the clock jumping across the weekly boundary. What must hold: nothing half-done is left behind, the next
 * start serves, the store's refusals are 503 with Retry-After (never 500), and the previous release keeps serving.
 */

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const CLI = join(import.meta.dirname, '..', 'pipeline', 'cli.ts');

async function childrenOf(pid: number): Promise<number[]> {
  try {
    const listed = (await readFile(`/proc/${pid}/task/${pid}/children`, 'latin1')).trim();
    return listed === '' ? [] : listed.split(/\s+/).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'latin1'));

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the server killed mid-request', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Stormwater upgrade', reference: 'SW-9', closing_date: '2099-12-31' })], sources: [sourceRow()], releaseId: 'release-chaos' });
  });
  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 during a checker call: its analysis process goes with it, and the next start answers', { timeout: 180_000 }, async () => {
    server = await startServer({ dataDir });
    const form = new FormData();
    form.append('file', new Blob([encryptedBombPdf(1024) as Uint8Array<ArrayBuffer>]), 'statement.pdf');
    const call = fetch(`${server.url}/v1/extract`, { method: 'POST', body: form }).then(() => 'answered', () => 'cut off');
    const pid = server.child.pid!;
    await until(async () => (await childrenOf(pid)).length > 0, 60_000, 'an analysis process');
    const analyses = await childrenOf(pid);
    server.child.kill('SIGKILL');
    assert.equal(await call, 'cut off');
    // The analysis process sees its channel close and ends: no orphan keeps inflating the bomb.
    await until(() => analyses.every((child) => !alive(child)), 10_000, 'the analysis processes to end');
    server = await startServer({ dataDir });
    assert.equal((await fetch(`${server.url}/livez`)).status, 200);
    const search = (await (await fetch(`${server.url}/v1/tenders?q=stormwater`)).json()) as { total: number };
    assert.equal(search.total, 1);
  });

  it('kill -9 during an upload: nothing half-stored, and the same upload then succeeds', { timeout: 180_000 }, async () => {
    await server?.stop();
    const state = await openStateDb(await testStateLocation(dataDir));
    const cookie = await signInAs(state, new Date(), 'owner@harbour.test');
    await state.close();
    server = await startServer({ dataDir });
    const write = (path: string, body: unknown) => fetch(`${server!.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie, origin: server!.url } });
    const org = (await (await write('/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).json()) as { org_id: string };
    const bid = (await (await write('/v1/bids', { org_id: org.org_id, title: 'Fleet servicing' })).json()) as { bid_id: string };
    const form = () => {
      const body = new FormData();
      body.append('file', new Blob([encryptedBombPdf(1024) as Uint8Array<ArrayBuffer>]), 'pack.pdf');
      return body;
    };
    const upload = fetch(`${server.url}/v1/bids/${bid.bid_id}/files`, { method: 'POST', body: form(), headers: { cookie, origin: server.url } }).then(() => 'answered', () => 'cut off');
    await until(async () => (await childrenOf(server!.child.pid!)).length > 0, 60_000, 'the upload to be read');
    server.child.kill('SIGKILL');
    assert.equal(await upload, 'cut off');
    server = await startServer({ dataDir });
    const listed = (await (await fetch(`${server.url}/v1/bids/${bid.bid_id}/files`, { headers: { cookie } })).json()) as { files: unknown[] };
    assert.deepEqual(listed.files, [], 'no file row without its reading');
    const again = await fetch(`${server.url}/v1/bids/${bid.bid_id}/files`, { method: 'POST', body: form(), headers: { cookie, origin: server.url } });
    assert.equal(again.status, 422, 'the retry is answered (the bomb is refused, as it would have been)');
  });

  it('a state store another process holds locked answers 503 with Retry-After, never 500', { timeout: 120_000, skip: SQLITE_ONLY }, async () => {
    const state = await openStateDb(await testStateLocation(dataDir));
    const minted = await mintKey(state, { accountId: await accountFor(state, 'keyholder@example.com', new Date()), scope: 'api', now: new Date() });
    await state.close();
    assert.ok(minted.minted);
    const key = { authorization: `Bearer ${minted.apiKey}` };
    const locker = new DatabaseSync(join(dataDir, 'state', 'state.sqlite'));
    locker.exec('PRAGMA busy_timeout = 10000; BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS chaos_lock (n INTEGER);');
    try {
      // A writer holds the store: every write waits its 2 s and is refused; reads go on (WAL).
      const writes: [string, RequestInit][] = [
        ['/v1/detect-ai-text', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'The council will resurface the road. '.repeat(40) }) }],
        ['/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json', origin: server!.url }, body: JSON.stringify({ email: 'someone@example.com' }) }],
        ['/v1/keys', { method: 'GET', headers: key }],
      ];
      for (const [path, init] of writes) {
        const reply = await fetch(`${server!.url}${path}`, init);
        const body = await reply.text();
        assert.notEqual(reply.status, 500, `${path}: ${body.slice(0, 200)}`);
        if (reply.status === 503) assert.match(reply.headers.get('retry-after') ?? '', /^\d+$/, `${path} has no Retry-After`);
      }
      const metered = await fetch(`${server!.url}${writes[0]![0]}`, writes[0]![1]);
      assert.equal(metered.status, 503, 'a metered call that cannot be counted is not run');
      assert.match(((await metered.json()) as { detail: string }).detail, /\w/);
      assert.equal((await fetch(`${server!.url}/v1/tenders?q=stormwater`)).status, 200, 'reads go on while a writer holds the store');
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    const after = await fetch(`${server!.url}/v1/detect-ai-text`, { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify({ text: 'The council will resurface the road. '.repeat(40) }) });
    assert.equal(after.status, 200, 'once the writer is gone the store answers again');
  });
});

describe('what a process killed mid-call held', () => {
  let dataDir: string;
  let server: ServerProcess | null = null;
  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [], sources: [sourceRow()], releaseId: 'release-leases' });
  });
  after(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid-call: the next start frees the Idempotency-Key and the reserved unit, so the retry runs at once', { timeout: 180_000 }, async () => {
    const call = (url: string) => {
      const form = new FormData();
      form.append('file', new Blob([encryptedBombPdf(1024) as Uint8Array<ArrayBuffer>]), 'statement.pdf');
      return fetch(`${url}/v1/extract`, { method: 'POST', body: form, headers: { 'idempotency-key': 'killed-mid-call' } });
    };
    server = await startServer({ dataDir });
    const cut = call(server.url).then(() => 'answered', () => 'cut off');
    await until(async () => (await childrenOf(server!.child.pid!)).length > 0, 60_000, 'an analysis process');
    server.child.kill('SIGKILL');
    assert.equal(await cut, 'cut off');
    const held = await openStateDb(await testStateLocation(dataDir));
    const leases = async () => ({
      keys: (await held.get<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE state = 'running'"))!.n,
      units: (await held.get<{ n: number }>('SELECT COUNT(*) AS n FROM usage_reservations'))!.n,
    });
    assert.deepEqual(await leases(), { keys: 1, units: 1 }, 'the killed call held its key and its unit');

    server = await startServer({ dataDir, env: { SVC_ANALYSIS_TIMEOUT_SECONDS: '5' } });
    assert.deepEqual(await leases(), { keys: 0, units: 0 }, 'the start released what the process that is gone held');
    await held.close();
    const probe = await fetch(`${server.url}/v1/pricing`);
    assert.equal(probe.headers.get('ratelimit-remaining'), probe.headers.get('ratelimit-limit'), 'the reserved unit is free again');
    const retry = await call(server.url);
    assert.notEqual(retry.status, 409, `the retry runs instead of waiting out the lease: ${await retry.clone().text()}`);
    assert.equal(retry.status, 422, 'and is answered as the call would have been (the bomb is refused)');
  });
});

describe('writes failing in the middle of a nightly run (a full disk)', () => {
  it('fails the run, leaves current.json on the previous release, and the next run publishes', { timeout: 600_000 }, async () => {
    const dataDir = await tempDir('disk-full-');
    const three = ['au_federal_austender_ocds', 'nz_gets', 'au_nsw_buy_nsw'];
    await runNightly({ dataDir, fixtures: true, progress: quiet, sourceIds: three, digests: false });
    const pointerBefore = await readFile(join(dataDir, 'current.json'), 'utf8');
    // The shell's file-size limit makes every write past 1 MB fail (EFBIG), as a full disk makes it fail
    // (ENOSPC); SIGXFSZ is ignored so the writer sees the error instead of being killed.
    const run = spawn('sh', ['-c', `trap '' XFSZ; ulimit -f 2048; exec "$0" "$@"`, process.execPath, CLI, '--fixtures', '--data-dir', dataDir, '--now', '2026-09-26T01:00:00Z', '--sources', three.join(',')], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    let output = '';
    run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = await new Promise<[number | null]>((resolve) => run.on('exit', (exitCode) => resolve([exitCode])));
    assert.notEqual(code, 0, `the run should fail when its writes fail:\n${output.slice(-2000)}`);
    assert.equal(await readFile(join(dataDir, 'current.json'), 'utf8'), pointerBefore);
    const current = await readCurrentRelease(dataDir);
    assert.ok(current && existsSync(current.storePath), 'the previous release still serves');
    const next = await runNightly({ dataDir, fixtures: true, progress: quiet, now: new Date('2026-09-27T01:00:00Z'), sourceIds: three, digests: false });
    assert.equal((await readCurrentRelease(dataDir))?.pointer.release_id, next.manifest.release_id);
    assert.deepEqual((await readdir(join(dataDir, 'releases'))).filter((name) => name.startsWith('.work-')), [], 'the failed run\'s work folder is cleared');
    await rm(dataDir, { recursive: true, force: true });
  });
});

describe('the clock jumping across the weekly boundary', () => {
  it('counts each call in the week the clock says, resets on Monday 00:00 Sydney, and loses nothing when it jumps back', async () => {
    const state = await openTestState();
    let clock = new Date('2026-06-14T13:59:30.000Z'); // Sunday 23:59:30 in Sydney (AEST, UTC+10)
    const meter = createMeter({ state, now: () => clock, caps: { anonymous: 2 } });
    const caller: Caller = { kind: 'anonymous', ip: '203.0.113.9' };
    const use = async () => {
      const outcome = await meter.reserve(caller);
      if (outcome.granted) await meter.commit(outcome.reservation);
      return outcome.granted;
    };
    assert.equal(await use(), true);
    assert.equal(await use(), true);
    assert.equal(await use(), false, 'the week\'s two calls are used');
    clock = new Date('2026-06-14T14:00:30.000Z'); // Monday 00:00:30 in Sydney
    const monday = await meter.allowance(caller);
    assert.deepEqual([monday.used, monday.remaining, monday.resetAt.toISOString()], [0, 2, '2026-06-21T14:00:00.000Z']);
    assert.equal(await use(), true);
    clock = new Date('2026-06-14T13:59:50.000Z'); // back to Sunday night
    const sunday = await meter.allowance(caller);
    assert.deepEqual([sunday.used, sunday.remaining], [2, 0], 'the earlier week is as it was');
    clock = new Date('2026-06-15T01:00:00.000Z');
    assert.equal((await meter.allowance(caller)).used, 1, 'Monday\'s call is still counted once');
    await state.close();
  });
});

