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
