import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { secretHash } from '../../lib/tokens.ts';
import { StateUnavailableError, openStateDb, type StateDb } from '../../data/state/db.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { caller } from './caller.ts';
import { errorReplies } from './errors.ts';
import { idempotency, withholdOnReplay } from './idempotency.ts';
import { openTestState, testStateLocation } from '../../test/helpers/state.ts';

const HOUR_MS = 60 * 60 * 1000;

interface Harness {
  app: Hono<CallerEnv>;
  runs: () => number;
  /** Holds every /v1/orders run until released, to keep a run in flight. */
  gate: { open: Promise<void>; release: () => void };
}

function harness(state: StateDb, clock: { now: Date } = { now: new Date('2026-03-02T00:00:00Z') }): Harness {
  let runs = 0;
  let release = () => {};
  const gate = { open: new Promise<void>((resolve) => (release = resolve)), release: () => release() };
  let failuresLeft = 1;
  const app = new Hono<CallerEnv>();
  app.onError(errorReplies<CallerEnv>({ log: () => {} }).onError);
  app.use('*', caller({ state, clientIp: (c) => c.req.header('x-test-ip') ?? '198.51.100.1' }), idempotency({ state, now: () => clock.now }));
  app.post('/v1/orders', async (c) => {
    runs++;
    const run = runs;
    const body = await c.req.json();
    await sleep(20);
    await gate.open;
    return c.json({ order: `ord_${run}`, item: body.item }, 201, {
      location: `/v1/orders/ord_${run}`,
      'retry-after': '30',
      'svc-content-hash': 'abc123',
      'ratelimit-remaining': String(100 - run),
      'set-cookie': 'svc_session=should-not-replay',
    });
  });
  app.post('/v1/flaky', async (c) => {
    runs++;
    if (failuresLeft-- > 0) throw new Error('engine down');
    return c.json({ ok: true, run: runs });
  });
  app.post('/v1/unavailable', (c) => {
    runs++;
    return c.json({ detail: 'The engine is busy; retry shortly.' }, 503);
  });
  app.post('/v1/checked', async (c) => {
    runs++;
    const body = await c.req.json();
    if (typeof body.verdict !== 'string') return c.json({ detail: 'Invalid body field verdict: required.' }, 422);
    return c.json({ saved: body.verdict, run: runs });
  });
  app.post('/v1/secret', (c) => {
    runs++;
    return c.json({ token: `tok_${runs}` }, 201, { 'cache-control': 'private, no-store' });
  });
  app.post('/v1/withheld', (c) => {
    runs++;
    withholdOnReplay(c, { fields: ['token'], reason: 'Shown once.' });
    return c.json({ id: `id_${runs}`, token: `tok_${runs}` }, 201);
  });
  app.post('/v1/tool', (c) => {
    runs++;
    return c.json({ sandbox: c.req.header('svc-sandbox') === 'true', run: runs });
  });
  app.post('/v1/upload', async (c) => {
    runs++;
    const form = await c.req.parseBody({ all: true });
    return c.json({ fields: Object.keys(form).sort(), run: runs }, 201);
  });
  app.post('/v1/stream', (c) => {
    runs++;
    return streamSSE(c, async (stream) => stream.writeSSE({ event: 'result', data: String(runs) }));
  });
  return { app, runs: () => runs, gate };
}

function post(app: Hono<CallerEnv>, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } }));
}

async function openHarness(): Promise<Harness> {
  const h = harness(await openTestState());
  h.gate.release();
  return h;
}

test('a retry with the same key and body replays status, the headers that matter and the body, once executed', async () => {
  const { app, runs } = await openHarness();
  const first = await post(app, '/v1/orders', { item: 'tender pack' }, { 'idempotency-key': 'k-1' });
  assert.equal(first.status, 201);
  const firstBody = await first.json();
  const again = await post(app, '/v1/orders', { item: 'tender pack' }, { 'idempotency-key': 'k-1' });
  assert.equal(again.status, 201);
  assert.deepEqual(await again.json(), firstBody);
  assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
  assert.equal(again.headers.get('location'), '/v1/orders/ord_1');
  assert.equal(again.headers.get('retry-after'), '30');
  assert.equal(again.headers.get('svc-content-hash'), 'abc123', "the service's own headers replay");
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(first.headers.get('idempotent-replayed'), null);
  assert.equal(again.headers.get('ratelimit-remaining'), null, 'rate headers belong to the retry, not the first call');
  assert.equal(again.headers.get('set-cookie'), null);
  assert.equal(runs(), 1);
});

test('the same key with a different body, path or query answers 422 {detail} and runs nothing', async () => {
  const { app, runs } = await openHarness();
  await post(app, '/v1/orders', { item: 'a' }, { 'idempotency-key': 'k-2' });
  for (const [path, body] of [['/v1/orders', { item: 'b' }], ['/v1/orders?fresh=1', { item: 'a' }], ['/v1/checked', { item: 'a' }]] as const) {
    const reused = await post(app, path, body, { 'idempotency-key': 'k-2' });
    assert.equal(reused.status, 422, path);
    assert.match((await reused.json()).detail, /different request.*new key/);
  }
  assert.equal(runs(), 1);
});

test('the parsed request is compared, not its bytes: reordered JSON keys and a new multipart boundary replay; other content is 422', async () => {
  const { app, runs } = await openHarness();
  const json = (text: string) => app.request('/v1/checked', { method: 'POST', body: text, headers: { 'content-type': 'application/json', 'idempotency-key': 'k-json' } });
  assert.equal((await json('{"verdict":"up","note":{"a":1,"b":[1,2]}}')).status, 200);
  const reordered = await json('{ "note": { "b": [1, 2], "a": 1 },\n  "verdict": "up" }');
  assert.equal(reordered.status, 200);
  assert.equal(reordered.headers.get('idempotent-replayed'), 'true', 'keys in another order and other spacing are the same request');
  assert.equal((await json('{"verdict":"up","note":{"a":1,"b":[2,1]}}')).status, 422, 'an array in another order is another request');
  assert.equal(runs(), 1);

  // FormData gets a fresh random boundary each time it is sent, as a client's retry does.
  const upload = (parts: { file?: [string, string]; fields?: [string, string][] }) => {
    const form = new FormData();
    for (const [name, value] of parts.fields ?? []) form.append(name, value);
    if (parts.file) form.append('file', new File([parts.file[1]], parts.file[0]));
    return app.request('/v1/upload', { method: 'POST', body: form, headers: { 'idempotency-key': 'k-form' } });
  };
  const first = await upload({ fields: [['scheme', 'afp_100_point'], ['note', 'first']], file: ['licence.pdf', '%PDF-1.4 licence'] });
  assert.equal(first.status, 201);
  const retry = await upload({ file: ['licence.pdf', '%PDF-1.4 licence'], fields: [['note', 'first'], ['scheme', 'afp_100_point']] });
  assert.equal(retry.status, 201, 'another boundary, and the parts in another order');
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  const others: [string, Parameters<typeof upload>[0]][] = [
    ['another file', { fields: [['scheme', 'afp_100_point'], ['note', 'first']], file: ['licence.pdf', '%PDF-1.4 passport'] }],
    ['another file name', { fields: [['scheme', 'afp_100_point'], ['note', 'first']], file: ['passport.pdf', '%PDF-1.4 licence'] }],
    ['another field value', { fields: [['scheme', 'austrac_safe_harbour'], ['note', 'first']], file: ['licence.pdf', '%PDF-1.4 licence'] }],
  ];
  for (const [what, parts] of others) assert.equal((await upload(parts)).status, 422, what);
  assert.equal(runs(), 2);
});

test('ten concurrent requests with one key run the work once; the other nine replay its reply', async () => {
  const { app, runs, gate } = harness(await openTestState());
  const replies = Promise.all(Array.from({ length: 10 }, () => post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-burst' })));
  await sleep(50);
  gate.release();
  const all = await replies;
  assert.equal(runs(), 1);
  assert.deepEqual(all.map((r) => r.status), Array(10).fill(201));
  const bodies = await Promise.all(all.map((r) => r.json()));
  for (const body of bodies) assert.deepEqual(body, { order: 'ord_1', item: 'x' });
  assert.equal(all.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 9);
});

test('a concurrent retry with a different body is refused at once, without waiting for the run', async () => {
  const { app, runs, gate } = harness(await openTestState());
  const first = post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-race' });
  await sleep(5);
  assert.equal((await post(app, '/v1/orders', { item: 'y' }, { 'idempotency-key': 'k-race' })).status, 422);
  gate.release();
  assert.equal((await first).status, 201);
  assert.equal(runs(), 1);
});

test('keys are scoped by caller: IPs and accounts never share replies; one account shares across its keys', async () => {
  const state = await openTestState();
  for (const [account, keys] of [['acct_a', ['svc_a1', 'svc_a2']], ['acct_b', ['svc_b1']]] as const) {
    await state.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', account, `${account}@example.com`, '2026-01-01');
    for (const key of keys) {
      await state.run('INSERT INTO api_keys (key_id, key_hash, account_id, prefix, created_at) VALUES (?, ?, ?, ?, ?)', `key_${key}`, secretHash(key), account, key.slice(0, 8), '2026-01-01');
    }
  }
  const { app, runs, gate } = harness(state);
  gate.release();
  const order = async (headers: Record<string, string>) => (await (await post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'shared', ...headers })).json()).order;
  assert.equal(await order({ 'x-test-ip': '203.0.113.1' }), 'ord_1');
  assert.equal(await order({ 'x-test-ip': '203.0.113.2' }), 'ord_2', 'another IP runs its own request');
  assert.equal(await order({ authorization: 'Bearer svc_a1', 'x-test-ip': '203.0.113.1' }), 'ord_3', 'a keyed caller on the same IP is another caller');
  assert.equal(await order({ authorization: 'Bearer svc_b1' }), 'ord_4', 'another account runs its own request');
  assert.equal(await order({ authorization: 'Bearer svc_a2' }), 'ord_3', "an account's keys share its idempotency keys");
  assert.equal(await order({ 'x-test-ip': '203.0.113.2' }), 'ord_2');
  assert.equal(runs(), 4);
});

test('a reply is replayed for 24 hours, then the key is forgotten and its row purged', async () => {
  const state = await openTestState();
  const clock = { now: new Date('2026-03-02T09:00:00Z') };
  const { app, runs, gate } = harness(state, clock);
  gate.release();
  const start = clock.now.getTime();
  await post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-day' });
  clock.now = new Date(start + 24 * HOUR_MS - 1);
  const late = await post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-day' });
  assert.equal(late.headers.get('idempotent-replayed'), 'true');
  assert.equal(runs(), 1);
  await post(app, '/v1/orders', { item: 'y' }, { 'idempotency-key': 'k-other' });
  clock.now = new Date(start + 24 * HOUR_MS);
  const expired = await post(app, '/v1/orders', { item: 'z' }, { 'idempotency-key': 'k-day' });
  assert.equal(expired.status, 201, 'an expired key takes a new body');
  assert.equal((await expired.json()).order, 'ord_3');
  assert.equal(expired.headers.get('idempotent-replayed'), null);
  clock.now = new Date(start + 49 * HOUR_MS);
  await post(app, '/v1/orders', { item: 'w' }, { 'idempotency-key': 'k-new' });
  const keys = (await state.all<{ idempotency_key: string }>('SELECT idempotency_key FROM idempotency_keys')).map((row) => row.idempotency_key);
  assert.deepEqual(keys, ['k-new'], 'expired rows are deleted');
});

test('streamed calls (?stream=1 or Accept: text/event-stream) are exempt and leave no row', async () => {
  const state = await openTestState();
  const { app, runs } = harness(state);
  for (const [path, headers] of [['/v1/stream?stream=1', {}], ['/v1/stream', { accept: 'text/event-stream' }]] as const) {
    for (let i = 0; i < 2; i++) {
      const reply = await post(app, path, { item: 'x' }, { 'idempotency-key': 'k-stream', ...headers });
      assert.match(reply.headers.get('content-type') ?? '', /text\/event-stream/);
      assert.equal(reply.headers.get('idempotent-replayed'), null);
      await reply.text();
    }
  }
  assert.equal(runs(), 4);
  assert.equal((await state.all('SELECT * FROM idempotency_keys')).length, 0);
});

test('a failed run (exception or 5xx) is not stored: the retry runs again, and its success is then replayed', async () => {
  const { app, runs } = await openHarness();
  assert.equal((await post(app, '/v1/flaky', {}, { 'idempotency-key': 'k-fail' })).status, 500);
  const retried = await post(app, '/v1/flaky', {}, { 'idempotency-key': 'k-fail' });
  assert.deepEqual([retried.status, await retried.json()], [200, { ok: true, run: 2 }]);
  const replayed = await post(app, '/v1/flaky', {}, { 'idempotency-key': 'k-fail' });
  assert.deepEqual(await replayed.json(), { ok: true, run: 2 });
  assert.equal(runs(), 2);
  await post(app, '/v1/unavailable', {}, { 'idempotency-key': 'k-503' });
  await post(app, '/v1/unavailable', {}, { 'idempotency-key': 'k-503' });
  assert.equal(runs(), 4, 'a 503 reply runs again');
});

test('a 4xx is not stored, so the same key with a corrected body runs', async () => {
  const { app, runs } = await openHarness();
  assert.equal((await post(app, '/v1/checked', { verdict: 7 }, { 'idempotency-key': 'k-fix' })).status, 422);
  const fixed = await post(app, '/v1/checked', { verdict: 'useful' }, { 'idempotency-key': 'k-fix' });
  assert.deepEqual([fixed.status, await fixed.json()], [200, { saved: 'useful', run: 2 }]);
  assert.equal(runs(), 2);
});

test('a reply marked Cache-Control: no-store is never stored: the retry runs again', async () => {
  const state = await openTestState();
  const { app, runs } = harness(state);
  const bodies = [];
  for (let i = 0; i < 2; i++) bodies.push(await (await post(app, '/v1/secret', {}, { 'idempotency-key': 'k-secret' })).json());
  assert.deepEqual(bodies, [{ token: 'tok_1' }, { token: 'tok_2' }]);
  assert.equal(runs(), 2);
  assert.equal((await state.all('SELECT * FROM idempotency_keys')).length, 0);
});

test('a reply with withheld fields is stored and replayed without them, and says so; the work runs once', async () => {
  const state = await openTestState();
  const { app, runs } = harness(state);
  const first = await post(app, '/v1/withheld', {}, { 'idempotency-key': 'k-withheld' });
  assert.equal(first.headers.get('cache-control'), 'no-store');
  assert.deepEqual(await first.json(), { id: 'id_1', token: 'tok_1' });
  const replay = await post(app, '/v1/withheld', {}, { 'idempotency-key': 'k-withheld' });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(await replay.json(), { id: 'id_1', withheld: ['token'], withheld_reason: 'Shown once.' });
  assert.equal(runs(), 1);
  const stored = await state.all<{ body: Uint8Array }>('SELECT body FROM idempotency_keys');
  assert.ok(!Buffer.from(stored[0]!.body).toString('utf8').includes('tok_1'), 'the secret is not stored');
});

test('the Svc-Sandbox header is part of the request: a live call after a sandbox call with the same key never gets the sandbox reply', async () => {
  const { app, runs } = await openHarness();
  const sandboxed = await post(app, '/v1/tool', {}, { 'idempotency-key': 'k-sandbox', 'svc-sandbox': 'true' });
  assert.deepEqual(await sandboxed.json(), { sandbox: true, run: 1 });
  const live = await post(app, '/v1/tool', {}, { 'idempotency-key': 'k-sandbox' });
  assert.equal(live.status, 422);
  assert.match((await live.json()).detail, /Svc-Sandbox header.*new key/);
  const again = await post(app, '/v1/tool', {}, { 'idempotency-key': 'k-sandbox', 'svc-sandbox': 'TRUE' });
  assert.deepEqual(await again.json(), { sandbox: true, run: 1 }, 'the same switch, any case, replays');
  assert.equal(runs(), 1);
});

test('a malformed key answers 400; a POST without a key runs every time', async () => {
  const { app, runs } = await openHarness();
  for (const key of ['has space', 'x'.repeat(256)]) {
    const reply = await post(app, '/v1/orders', { item: 'x' }, { 'idempotency-key': key });
    assert.equal(reply.status, 400);
    assert.match((await reply.json()).detail, /Idempotency-Key header must be/);
  }
  await post(app, '/v1/orders', { item: 'x' });
  await post(app, '/v1/orders', { item: 'x' });
  assert.equal(runs(), 2);
});

test('another process sharing the store answers 409 while the first runs, replays after, and takes over an abandoned run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idempotency-'));
  const clock = { now: new Date('2026-03-02T09:00:00Z') };
  const first = harness(await openStateDb(await testStateLocation(dir)), clock);
  const second = harness(await openStateDb(await testStateLocation(dir)), clock);
  second.gate.release();
  const running = post(first.app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-proc' });
  await sleep(40);
  const busy = await post(second.app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-proc' });
  assert.equal(busy.status, 409);
  assert.equal(busy.headers.get('retry-after'), '1');
  assert.match((await busy.json()).detail, /still running/);
  first.gate.release();
  await running;
  const replayed = await post(second.app, '/v1/orders', { item: 'x' }, { 'idempotency-key': 'k-proc' });
  assert.deepEqual(await replayed.json(), { order: 'ord_1', item: 'x' });
  assert.equal(second.runs(), 0);

  const stalled = harness(await openStateDb(await testStateLocation(dir)), clock);
  const abandoned = post(stalled.app, '/v1/orders', { item: 'y' }, { 'idempotency-key': 'k-stalled' });
  await sleep(40);
  clock.now = new Date(clock.now.getTime() + 11 * 60 * 1000);
  const takenOver = await post(second.app, '/v1/orders', { item: 'y' }, { 'idempotency-key': 'k-stalled' });
  assert.deepEqual([takenOver.status, await takenOver.json()], [201, { order: 'ord_1', item: 'y' }]);
  stalled.gate.release();
  await abandoned;
  const replay = await post(second.app, '/v1/orders', { item: 'y' }, { 'idempotency-key': 'k-stalled' });
  assert.equal((await replay.json()).order, 'ord_1', "the late first run does not overwrite the run that took over");
});

test('an unreachable store answers 503 with Retry-After and does not run the call', async () => {
  const state = await openTestState();
  const broken: StateDb = { ...state, transaction: () => { throw new StateUnavailableError('disk I/O error'); } };
  let runs = 0;
  const app = new Hono<CallerEnv>();
  app.use('*', caller({ state, clientIp: () => '198.51.100.1' }), idempotency({ state: broken }));
  app.post('/v1/orders', (c) => c.json({ run: ++runs }));
  const reply = await post(app, '/v1/orders', {}, { 'idempotency-key': 'k-down' });
  assert.equal(reply.status, 503);
  assert.equal(reply.headers.get('retry-after'), '5');
  assert.match((await reply.json()).detail, /not run/);
  assert.equal(runs, 0);
});
