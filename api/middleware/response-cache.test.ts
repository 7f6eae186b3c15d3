import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { canonicalQuery, createReplyStore, responseCache } from './response-cache.ts';

function countingApp(clock: { minute: number }) {
  let calls = 0;
  const app = new Hono();
  app.use('/search', responseCache({ keyOf: (c) => `${clock.minute}|${canonicalQuery(c.req.url)}`, store: createReplyStore() }));
  app.get('/search', (c) => {
    calls++;
    return c.req.query('fail') ? c.json({ detail: 'bad' }, 400) : c.json({ call: calls, q: c.req.query('q') ?? null });
  });
  app.post('/search', (c) => c.json({ posted: true }));
  return { app, calls: () => calls };
}

test('a GET asked for a second time is kept and answered from the cache after; parameter order does not matter', async () => {
  const clock = { minute: 1 };
  const { app, calls } = countingApp(clock);
  await app.request('/search?q=road&limit=5');
  assert.equal(calls(), 1);
  const second = await (await app.request('/search?limit=5&q=road')).json();
  assert.equal(calls(), 2, 'a query asked once is not kept: the second asking is computed, and kept');
  const third = await app.request('/search?q=road&limit=5');
  assert.equal(third.headers.get('content-type'), 'application/json');
  assert.deepEqual(await third.json(), second);
  assert.equal(calls(), 2, 'the third is answered from the cache');
  await app.request('/search?q=bridge');
  assert.equal(calls(), 3, 'another query is computed');
});

test('the next clock minute, an error reply and a POST are never served from the cache', async () => {
  const clock = { minute: 1 };
  const { app, calls } = countingApp(clock);
  await app.request('/search?q=road');
  await app.request('/search?q=road');
  clock.minute = 2;
  assert.deepEqual(await (await app.request('/search?q=road')).json(), { call: 3, q: 'road' });
  for (let i = 0; i < 3; i++) await app.request('/search?fail=1');
  assert.equal(calls(), 6, 'a 400 is not cached');
  assert.deepEqual(await (await app.request('/search?q=road', { method: 'POST' })).json(), { posted: true });
});

test('the canonical query orders parameters by name, keeps repeated names in their order and ignores the fragment', () => {
  assert.equal(canonicalQuery('http://x/search?q=road&limit=5'), 'limit=5&q=road');
  assert.equal(canonicalQuery('http://x/search?b=2&a=9&b=1#top'), 'a=9&b=2&b=1');
  assert.notEqual(canonicalQuery('http://x/s?a=2&a=1'), canonicalQuery('http://x/s?a=1&a=2'));
  assert.equal(canonicalQuery('http://x/search'), '');
  assert.equal(canonicalQuery('http://x/search?q=road&&limit=5'), 'limit=5&q=road');
});

test('mounts sharing one store share its keys, and the store keeps to its byte budget', async () => {
  const store = createReplyStore({ maxBytes: 64 });
  const app = new Hono();
  app.use('/a', responseCache({ keyOf: (c) => c.req.path, store }));
  app.use('/b', responseCache({ keyOf: (c) => c.req.path, store }));
  app.use('/big', responseCache({ keyOf: (c) => c.req.path, store }));
  app.get('/a', (c) => c.json({ route: 'a' }));
  app.get('/b', (c) => c.json({ route: 'b' }));
  app.get('/big', (c) => c.json({ padding: 'x'.repeat(100) }));
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(await (await app.request('/a')).json(), { route: 'a' });
    assert.deepEqual(await (await app.request('/b')).json(), { route: 'b' });
  }
  assert.deepEqual(await (await app.request('/a')).json(), { route: 'a' });
  assert.deepEqual([...store.keys()].sort(), ['/a', '/b'], 'each kept under the key its mount gave');
  assert.ok(store.calculatedSize <= 64);
  await app.request('/big');
  await app.request('/big');
  assert.ok(store.calculatedSize <= 64, 'a reply over the budget is not kept');
});

test('concurrent misses of one key run the route once and share its reply; the next asking is a cache hit', async () => {
  let calls = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const app = new Hono();
  app.use('/slow', responseCache({ keyOf: (c) => canonicalQuery(c.req.url), store: createReplyStore() }));
  app.get('/slow', async (c) => {
    calls++;
    await gate;
    return c.json({ call: calls, q: c.req.query('q') });
  });
  const replies = Array.from({ length: 200 }, () => app.request('/slow?q=summary'));
  const other = app.request('/slow?q=other');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, 2, 'one run for each distinct key in flight, whoever else asks meanwhile');
  open();
  const bodies = await Promise.all(replies.map(async (reply) => {
    const response = await reply;
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    return response.json();
  }));
  assert.ok(bodies.every((body) => body.q === 'summary' && body.call === bodies[0].call), 'every caller gets the one run\'s reply');
  assert.deepEqual(await (await other).json(), { call: 2, q: 'other' });
  assert.deepEqual(await (await app.request('/slow?q=summary')).json(), bodies[0], 'asked more than once, the shared reply is kept');
  assert.equal(calls, 2);
});

test('callers waiting on a run that fails run the route themselves', async () => {
  let calls = 0;
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const app = new Hono();
  app.use('/flaky', responseCache({ keyOf: (c) => c.req.path, store: createReplyStore() }));
  app.get('/flaky', async (c) => {
    calls++;
    if (calls === 1) {
      await gate;
      return c.json({ detail: 'The store is busy; try again.' }, 503);
    }
    return c.json({ call: calls });
  });
  const first = app.request('/flaky');
  const waiting = [app.request('/flaky'), app.request('/flaky')];
  await new Promise((resolve) => setImmediate(resolve));
  open();
  assert.equal((await first).status, 503);
  const statuses = await Promise.all(waiting.map(async (reply) => (await reply).status));
  assert.deepEqual(statuses, [200, 200], 'an error reply is never handed to another caller');
  assert.equal(calls, 3, 'each waiter ran the route once');
});
