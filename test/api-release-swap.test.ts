import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../api/app.ts';
import { ReleaseStore, type LoadedRelease } from '../api/release-store.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');
const GRACE_MS = 300;

const alpha = tenderRow({ title: 'Alpha drainage works', reference: 'A-1', closing_date: '2026-07-01' });
const bravo = tenderRow({ title: 'Bravo drainage works', reference: 'B-1', closing_date: '2026-07-02' });
const inBoth = tenderRow({ title: 'Kerb and gutter renewal', reference: 'AB-1', closing_date: '2026-07-03' });

describe('release swap', () => {
  let dataDir: string;
  let store: ReleaseStore;

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [alpha, inBoth], sources: [sourceRow()], releaseId: 'release-a', computedAt: '2026-06-09T12:00:00.000Z' });
    store = await ReleaseStore.open({ dataDir, now: () => NOW, pollMs: 10, graceMs: GRACE_MS, log: () => {} });
  });

  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('swaps to a new release without failing a request, and closes the old one after the grace period', async () => {
    const app = await createApp({ store, burst: false });
    const before = store.state();
    assert.ok(before.ready);
    const oldRelease: LoadedRelease = before.release;
    assert.equal(oldRelease.id, 'release-a');

    const statuses: number[] = [];
    const releasesSeen = new Set<string>();
    let stop = false;
    const client = async () => {
      while (!stop) {
        for (const path of ['/v1/tenders?q=drainage', '/v1/tenders/strip', '/v1/tenders/sources', `/v1/tenders/${String(inBoth.tender_key)}`]) {
          const response = await app.request(path);
          statuses.push(response.status);
          if (path.startsWith('/v1/tenders?')) releasesSeen.add(((await response.json()) as { coverage: { last_run: string } }).coverage.last_run);
        }
        await sleep(1);
      }
    };
    const clients = Array.from({ length: 8 }, client);

    await sleep(30);
    await seedRelease({ dataDir, tenders: [bravo, inBoth], sources: [sourceRow()], releaseId: 'release-b', computedAt: '2026-06-10T00:30:00.000Z' });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const health = (await (await app.request('/health')).json()) as { release_id: string };
      if (health.release_id === 'release-b') break;
      await sleep(5);
    }
    await sleep(30);
    stop = true;
    await Promise.all(clients);

    assert.ok(statuses.length > 50, `only ${statuses.length} requests ran`);
    assert.deepEqual([...new Set(statuses)], [200], 'every request during the swap answered 200');
    assert.deepEqual([...releasesSeen].sort(), ['2026-06-09T12:00:00.000Z', '2026-06-10T00:30:00.000Z']);

    const after = (await (await app.request('/v1/tenders?q=drainage')).json()) as { results: { title: string }[] };
    assert.deepEqual(after.results.map((result) => result.title), ['Bravo drainage works']);
    assert.equal((await app.request(`/v1/tenders/${String(alpha.tender_key)}`)).status, 404, 'the old release no longer answers');

    // A request that started on the old release can still read its store during the grace period…
    assert.deepEqual(await oldRelease.store.all('SELECT count(*)::INTEGER AS n FROM tenders'), [{ n: 2 }]);
    // …and the old store is closed once the grace period is over.
    await sleep(GRACE_MS + 100);
    await assert.rejects(oldRelease.store.all('SELECT 1'));
  });

  it('keeps serving the current release when the pointer moves to one that cannot be opened', async () => {
    const logged: string[] = [];
    const watched = await ReleaseStore.open({ dataDir, now: () => NOW, pollMs: 60_000, log: (message) => logged.push(message) });
    try {
      const serving = watched.state();
      assert.ok(serving.ready);
      const broken = await seedRelease({ dataDir, tenders: [alpha], releaseId: 'release-c', computedAt: '2026-06-10T01:00:00.000Z' });
      await rm(`${broken.dir}/store.duckdb`);
      await watched.refresh();
      const state = watched.state();
      assert.ok(state.ready);
      assert.equal(state.release.id, serving.release.id);
      assert.ok(logged.some((message) => message.includes('release-c')), logged.join('\n'));
    } finally {
      await watched.close();
    }
  });
});

it('a fixture release is served on its own pinned clock; a live release on the system clock', async () => {
  const fixtureDir = await makeDataDir();
  await seedRelease({ dataDir: fixtureDir, computedAt: '2026-09-25T01:00:00.000Z', mode: 'fixtures' });
  const fixtureStore = await ReleaseStore.open({ dataDir: fixtureDir, pollMs: 60_000, log: () => {} });
  try {
    assert.equal(fixtureStore.now().toISOString(), '2026-09-25T01:00:00.000Z');
  } finally {
    await fixtureStore.close();
  }
  const liveDir = await makeDataDir();
  await seedRelease({ dataDir: liveDir, computedAt: '2026-09-25T01:00:00.000Z', mode: 'live' });
  const liveStore = await ReleaseStore.open({ dataDir: liveDir, pollMs: 60_000, log: () => {} });
  try {
    assert.ok(Math.abs(liveStore.now().getTime() - Date.now()) < 5_000);
  } finally {
    await liveStore.close();
  }
});
