import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { createService, type AppOptions } from '../api/app.ts';
import { readKey } from '../api/middleware/cached-reads.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { type StateDb } from '../data/state/db.ts';
import { PUBLIC_URL, keyFor } from './helpers/access.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');

/** The API served as `npm run serve` serves it, counting the requests that reached the Hono app. */
async function serveCounting(options: AppOptions): Promise<{ origin: string; appAnswers: () => number; close: () => Promise<void> }> {
  const { app, answerCachedRead } = await createService(options);
  let appAnswers = 0;
  const answerWithApp = getRequestListener((request, env) => {
    appAnswers++;
    return app.fetch(request, env);
  });
  const server: Server = createServer(async (incoming, outgoing) => {
    if (!(await answerCachedRead(incoming, outgoing))) void answerWithApp(incoming, outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    appAnswers: () => appAnswers,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** GET `target` exactly as written, without the URL rewriting fetch does. */
function statusOf(origin: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${origin}/`, { path: target }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'keep-alive') headers[name] = value;
  });
  return headers;
}

describe('repeated anonymous reads answered before routing', () => {
  let dataDir: string;
  let store: ReleaseStore;
  let state: StateDb;

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({
      dataDir,
      tenders: [
        tenderRow({ title: 'Stormwater pump station renewal', reference: 'SW-1', closing_date: '2026-07-01', url: 'https://buy.nsw.gov.au/notices/sw-1' }),
        tenderRow({ title: 'Stormwater outfall repairs', reference: 'SW-3', closing_date: '2026-07-03' }),
      ],
      sources: [sourceRow()],
    });
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    state = await openTestState();
  });

  after(async () => {
    await state.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers the third asking without the app, with the same status, headers and bytes the app gave, in any parameter order', async () => {
    const served = await serveCounting({ store, state, publicUrl: PUBLIC_URL, burst: false, now: () => NOW });
    try {
      await fetch(`${served.origin}/v1/tenders?q=stormwater&limit=5`);
      const kept = await fetch(`${served.origin}/v1/tenders?q=stormwater&limit=5`);
      assert.equal(served.appAnswers(), 2, 'a reply is kept from its second asking');
      const keptBody = await kept.text();

      const replayed = await fetch(`${served.origin}/v1/tenders?limit=5&q=stormwater`);
      assert.equal(served.appAnswers(), 2, 'the third asking never reached the app');
      assert.equal(replayed.status, 200);
      assert.equal(await replayed.text(), keptBody);
      assert.deepEqual(headersOf(replayed), headersOf(kept));
      assert.equal(replayed.headers.get('ratelimit-limit'), '20');
      assert.equal(replayed.headers.get('ratelimit-remaining'), '20');
      assert.match(replayed.headers.get('ratelimit-reset') ?? '', /^\d+$/);

      await fetch(`${served.origin}/v1/tenders?q=outfall`);
      assert.equal(served.appAnswers(), 3, 'a query not kept goes to the app');
    } finally {
      await served.close();
    }
  });

  it('answers a valid API key\'s repeats too, with the identified reply and the key\'s rate headers; refused and connector keys go to the app', async () => {
    const served = await serveCounting({ store, state, publicUrl: PUBLIC_URL, burst: false, now: () => NOW });
    try {
      const path = '/v1/tenders?q=pump';
      const key = await keyFor(state, null);
      await fetch(`${served.origin}${path}`, key);
      const kept = await fetch(`${served.origin}${path}`, key);
      const keptBody = await kept.text();
      assert.equal(served.appAnswers(), 2);
      const replayed = await fetch(`${served.origin}${path}`, key);
      assert.equal(served.appAnswers(), 2, 'the keyed third asking never reached the app');
      assert.equal(await replayed.text(), keptBody);
      assert.deepEqual(headersOf(replayed), headersOf(kept));
      assert.equal(replayed.headers.get('ratelimit-limit'), '100', 'the key\'s own allowance, not the anonymous one');
      const [tender] = (JSON.parse(keptBody) as { results: Record<string, unknown>[] }).results;
      assert.equal(tender!.link, 'https://buy.nsw.gov.au/notices/sw-1', 'the identified reply, with the links anonymous replies leave out');

      const anonymous = await fetch(`${served.origin}${path}`);
      assert.equal(((await anonymous.json()) as { results: Record<string, unknown>[] }).results[0]!.link, undefined, 'an anonymous caller never gets the identified reply');

      await state.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ?', NOW.toISOString(), key.keyId);
      const before = served.appAnswers();
      assert.equal((await fetch(`${served.origin}${path}`, key)).status, 401, 'a revoked key is refused although its reply is kept');
      const connector = await keyFor(state, null, 'mcp');
      assert.equal((await fetch(`${served.origin}${path}`, connector)).status, 401, 'a connector key works only at /mcp');
      assert.equal((await fetch(`${served.origin}${path}`, { headers: { authorization: 'Bearer nonsense' } })).status, 401);
      assert.equal(served.appAnswers(), before + 3);
    } finally {
      await served.close();
    }
  });

  it('leaves cookie callers, other methods and unusual targets to the app', async () => {
    const served = await serveCounting({ store, state, publicUrl: PUBLIC_URL, burst: false, now: () => NOW });
    try {
      const path = '/v1/tenders?q=pump';
      for (let i = 0; i < 3; i++) await fetch(`${served.origin}${path}`);
      const before = served.appAnswers();
      await fetch(`${served.origin}${path}`, { headers: { cookie: 'theme=dark' } });
      await fetch(`${served.origin}${path}`, { method: 'HEAD' });
      assert.equal(served.appAnswers(), before + 2);
      // Targets URL parsing would rewrite (sent as they are: fetch would rewrite them first), each asked three times.
      for (const target of ['/v1/./tenders?q=pump', '/v1/%2E/tenders?q=pump', '/v1/tenders?q="pump"']) {
        for (let i = 0; i < 3; i++) assert.equal(await statusOf(served.origin, target), 200);
      }
      assert.equal(served.appAnswers(), before + 11);
    } finally {
      await served.close();
    }
  });

  it('takes each answer from the caller\'s burst bucket, so the guard refuses the request after the last token', async () => {
    const served = await serveCounting({ store, state, publicUrl: PUBLIC_URL, burst: { capacity: 4, refillPerMinute: 1 }, now: () => NOW });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${served.origin}/v1/tenders?q=repairs`)).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      assert.equal(served.appAnswers(), 3, 'the third and fourth answers were the cache\'s, the 429 the app\'s');
    } finally {
      await served.close();
    }
  });
});

describe('readKey', () => {
  it('is the same for a request target and its absolute URL, and differs by release, audience, minute, path and query', () => {
    const at = new Date('2026-06-10T02:00:30Z');
    const key = readKey('r1', false, at, '/v1/tenders?q=road&limit=5');
    assert.equal(readKey('r1', false, at, 'http://127.0.0.1:8787/v1/tenders?limit=5&q=road'), key);
    assert.equal(readKey('r1', false, new Date('2026-06-10T02:00:59Z'), '/v1/tenders?q=road&limit=5'), key);
    for (const other of [
      readKey('r2', false, at, '/v1/tenders?q=road&limit=5'),
      readKey('r1', true, at, '/v1/tenders?q=road&limit=5'),
      readKey('r1', false, new Date('2026-06-10T02:01:00Z'), '/v1/tenders?q=road&limit=5'),
      readKey('r1', false, at, '/v1/awards?q=road&limit=5'),
      readKey('r1', false, at, '/v1/tenders?q=roads&limit=5'),
    ]) assert.notEqual(other, key);
  });
});
