import { Hono } from 'hono';
import assert from 'node:assert/strict';
import { rename } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pointCurrentAt } from '../data/release.ts';
import { writeServingIndex } from '../data/search/serving-index.ts';
import { requireRelease } from '../api/middleware/require-release.ts';
import { ReleaseStore, whileHeld, type LoadedRelease, type ReleaseEnv } from '../api/release-store.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';

// Issue 30: N API instances read one release folder and pick up the nightly's switch of current.json by themselves.
// The intervals are short here by option; nothing below asserts how long anything took (the test's timeout bounds it).
const POLL_MS = 20;
const NOW = new Date('2026-06-10T02:00:00.000Z');

const servedId = (store: ReleaseStore) => {
  const state = store.state();
  return state.ready ? state.release.id : null;
};

/** Waits, without a deadline of its own, until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(5);
}

describe('releases on shared storage: several instances over one data folder', { timeout: 60_000 }, () => {
  let dataDir: string;
  const opened: ReleaseStore[] = [];
  const logged: string[] = [];
  const open = async (pollMs: number, extra: { graceMs?: number; retryMs?: number } = {}) => {
    const store = await ReleaseStore.open({ dataDir, now: () => NOW, pollMs, log: (message) => logged.push(message), ...extra });
    opened.push(store);
    return store;
  };

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Alpha drainage works' })], sources: [sourceRow()], releaseId: 'release-a', computedAt: '2026-06-09T12:00:00.000Z' });
  });
  after(() => Promise.all(opened.map((store) => store.close())));

  it('each instance serves the new release once current.json is switched, by its own poll; a rollback is picked up the same way', async () => {
    const instances = [await open(POLL_MS), await open(POLL_MS)];
    // An instance that polls only once a minute shows the switch is the poll's doing, not something the test did.
    const slowPoller = await open(60_000);
    assert.deepEqual([...instances, slowPoller].map(servedId), ['release-a', 'release-a', 'release-a']);

    const b = await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Bravo drainage works' })], sources: [sourceRow()], releaseId: 'release-b', computedAt: '2026-06-10T00:30:00.000Z' });
    await until(() => instances.every((store) => servedId(store) === 'release-b'));
    assert.equal(servedId(slowPoller), 'release-a', 'no poll has run on the slow instance yet');

    // The nightly (or an operator) points current.json back at an older release: the instances follow.
    const a = await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Alpha drainage works' })], sources: [sourceRow()], releaseId: 'release-a2', computedAt: '2026-06-10T01:00:00.000Z', point: false });
    await writeServingIndex(a.dir);
    await pointCurrentAt(dataDir, a.manifest, new Date());
    await until(() => instances.every((store) => servedId(store) === 'release-a2'));
    await pointCurrentAt(dataDir, b.manifest, new Date());
    await until(() => instances.every((store) => servedId(store) === 'release-b'));
  });

  it('a pointer that reaches an instance before its release folder does is tried again, though current.json does not move', async () => {
    const instance = await open(POLL_MS, { retryMs: 30 });
    await until(() => servedId(instance) === 'release-b');
    const c = await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Charlie drainage works' })], sources: [sourceRow()], releaseId: 'release-c', computedAt: '2026-06-10T01:30:00.000Z', point: false });
    await writeServingIndex(c.dir);
    // As on a shared file system whose copy of the new folder lags behind the pointer's.
    await rename(c.dir, `${c.dir}-arriving`);
    await pointCurrentAt(dataDir, c.manifest, new Date());
    await until(() => logged.some((message) => message.includes('cannot be read')));
    assert.equal(servedId(instance), 'release-b', 'the open release keeps serving meanwhile');

    await rename(`${c.dir}-arriving`, c.dir);
    await until(() => servedId(instance) === 'release-c');
  });

  it("a data route's request holds the release it started on: the release check middleware keeps it open to the end", async () => {
    const graceMs = 10;
    const instance = await open(60_000, { graceMs });
    let releaseGate: () => void = () => {};
    const gate = new Promise<void>((resolve) => (releaseGate = resolve));
    let started: () => void = () => {};
    const startedOnOld = new Promise<void>((resolve) => (started = resolve));
    const app = new Hono<ReleaseEnv>();
    app.use('*', requireRelease({ store: instance }));
    app.get('/slow', async (c) => {
      started();
      await gate;
      return c.json(await c.get('release').store.all('SELECT count(*)::INTEGER AS n FROM tenders'));
    });
    const reply = app.request('/slow');
    await startedOnOld;
    const before = servedId(instance);
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Echo drainage works' }), tenderRow({ title: 'Foxtrot drainage works' })], sources: [sourceRow()], releaseId: 'release-e', computedAt: '2026-06-10T01:50:00.000Z' });
    await instance.refresh();
    assert.notEqual(servedId(instance), before);
    await sleep(graceMs * 10);
    releaseGate();
    const response = await reply;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), [{ n: 1 }], 'answered from the release the request started on, past its grace period');
  });

  it('a replaced release stays open past its grace period while a request holds it, and closes when that request ends', async () => {
    const graceMs = 10;
    const instance = await open(60_000, { graceMs });
    const served = instance.state();
    assert.ok(served.ready);
    const old: LoadedRelease = served.release;
    const tendersOfOld = await old.store.all('SELECT count(*)::INTEGER AS n FROM tenders');
    let swappedUnder = false;
    await whileHeld(instance, old, async () => {
      await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Delta drainage works' })], sources: [sourceRow()], releaseId: 'release-d', computedAt: '2026-06-10T01:45:00.000Z' });
      await instance.refresh();
      swappedUnder = servedId(instance) === 'release-d';
      await sleep(graceMs * 10);
      // A slow request still reads the release it started on, past the grace period.
      assert.deepEqual(await old.store.all('SELECT count(*)::INTEGER AS n FROM tenders'), tendersOfOld);
    });
    assert.ok(swappedUnder, 'the release was replaced while the request held it');
    await assert.rejects(old.store.all('SELECT 1'), 'closed once the request that held it ended');
  });
});
