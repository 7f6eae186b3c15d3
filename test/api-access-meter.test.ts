import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, type AppOptions } from '../api/app.ts';
import { stripeCheckout } from '../api/providers/stripe.ts';
import { metered, type MeteredOptions } from '../api/middleware/metered.ts';
import { createMeter, type MeterOptions } from '../api/usage/meter.ts';
import { PUBLIC_URL, keyFor, signIn, switchableState } from './helpers/access.ts';
import { openTestState } from './helpers/state.ts';

// Wednesday 10 June 2026, 12:00 in Sydney: the week resets Monday 15 June 00:00 Sydney, 4 days and 12 hours on.
const NOW = new Date('2026-06-10T02:00:00.000Z');
const RESET_AT = '2026-06-14T14:00:00.000Z';
const SECONDS_TO_RESET = (Date.parse(RESET_AT) - NOW.getTime()) / 1000;
const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release is loaded yet.' }), now: () => NOW };

interface Setup {
  app: Awaited<ReturnType<typeof createApp>>;
  state: Awaited<ReturnType<typeof switchableState>>['state'];
  setDown(down: boolean): void;
  /** Times the metered work actually ran. */
  runs(): number;
  /** Commits `units` for a caller directly, as earlier calls would have. */
  spend(caller: Parameters<ReturnType<typeof createMeter>['reserve']>[0], units: number): Promise<void>;
}

/**
 * The app with a small checker mounted behind `metered()`, as checker routes will be: POST /test/check
 * answers `{outcome}` from its body (`fail` throws, `bad` answers 400), after `delay_ms`.
 */
async function setup(options: Partial<AppOptions> & Pick<MeteredOptions, 'countIf'> & Pick<MeterOptions, 'caps'> = {}): Promise<Setup> {
  const { state, setDown } = switchableState(await openTestState());
  const now = () => NOW;
  const { caps, countIf, ...appOptions } = options;
  const meter = createMeter({ state, now, ...(caps ? { caps } : {}) });
  const app = await createApp({ store: NO_RELEASE, state, meter, publicUrl: PUBLIC_URL, burst: false, trustProxy: true, now, log: () => {}, ...appOptions });
  let runs = 0;
  app.post('/test/check', metered({ meter, log: () => {}, ...(countIf ? { countIf } : {}) }), async (c) => {
    runs++;
    const body = (await c.req.json().catch(() => ({}))) as { outcome?: string; delay_ms?: number };
    if (body.delay_ms) await sleep(body.delay_ms);
    if (body.outcome === 'fail') throw new Error('engine failure');
    if (body.outcome === 'bad') return c.json({ detail: 'empty document' }, 400);
    return c.json({ outcome: body.outcome ?? 'assessed' }, 200);
  });
  return {
    app,
    state,
    setDown,
    runs: () => runs,
    async spend(caller, units) {
      for (let i = 0; i < units; i++) {
        const outcome = await meter.reserve(caller);
        assert.ok(outcome.granted);
        await meter.commit(outcome.reservation);
      }
    },
  };
}

const check = (app: Setup['app'], headers: Record<string, string> = {}, body: object = {}) =>
  app.request('/test/check', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const fromIp = (ip: string) => ({ 'x-forwarded-for': ip });

async function usage(app: Setup['app'], headers: Record<string, string>) {
  const response = await app.request('/v1/usage', { headers });
  assert.equal(response.status, 200);
  return (await response.json()) as { key_id?: string; counted_per: string; current: { limit: number; used: number; remaining: number; reset_at: string } };
}

describe('weekly metering', () => {
  it('gives anonymous callers 20 calls a week per IP, shared by everyone on it, then 429 with Retry-After and a sentence to act on', async () => {
    const { app, runs } = await setup();
    for (let i = 0; i < 20; i++) assert.equal((await check(app, fromIp('203.0.113.7'))).status, 200, `call ${i + 1}`);
    const refused = await check(app, fromIp('203.0.113.7'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), String(SECONDS_TO_RESET));
    const { detail } = (await refused.json()) as { detail: string };
    assert.match(detail, /used its 20 free checks this week/);
    assert.match(detail, /Monday 15 June at 00:00 Sydney time, in 4 days and 12 hours\./);
    assert.match(detail, /create an API key/);
    assert.equal(runs(), 20, 'the refused call did not run');

    assert.equal((await check(app, fromIp('198.51.100.1'))).status, 200, 'another address has its own allowance');
    assert.deepEqual(await usage(app, fromIp('203.0.113.7')), { counted_per: 'ip', current: { limit: 20, used: 20, remaining: 0, reset_at: RESET_AT } });
  });

  it('gives an account 100 a week across all its keys and its session; a key of no account has its own 100', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'buyer@example.com', NOW);
    const first = await keyFor(state, person.accountId);
    const second = await keyFor(state, person.accountId);
    for (let i = 0; i < 100; i++) {
      const headers = [first.headers, second.headers, person.headers][i % 3]!;
      assert.equal((await check(app, headers)).status, 200, `call ${i + 1}`);
    }
    for (const headers of [first.headers, second.headers, person.headers]) {
      const refused = await check(app, headers);
      assert.equal(refused.status, 429);
      assert.match(((await refused.json()) as { detail: string }).detail, /Your account has used its 100 checks this week, across all its keys/);
    }
    assert.deepEqual((await usage(app, first.headers)).current, { limit: 100, used: 100, remaining: 0, reset_at: RESET_AT });
    assert.equal((await usage(app, first.headers)).key_id, first.keyId);
    assert.equal((await usage(app, person.headers)).counted_per, 'account');

    const loose = await keyFor(state, null);
    assert.equal((await check(app, loose.headers)).status, 200);
    assert.deepEqual(await usage(app, loose.headers), { key_id: loose.keyId, counted_per: 'key', current: { limit: 100, used: 1, remaining: 99, reset_at: RESET_AT } });
  });

  it('is exact under concurrency: 50 parallel calls from an account with 1 unit left give exactly one success', async () => {
    const { app, state, spend, runs } = await setup();
    const person = await signIn(state, 'rush@example.com', NOW);
    const key = await keyFor(state, person.accountId);
    await spend({ kind: 'session', ip: 'unknown', accountId: person.accountId, sessionHash: '' }, 99);
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => check(app, key.headers, { delay_ms: 20 })))).map((r) => r.status);
    assert.equal(statuses.filter((status) => status === 200).length, 1);
    assert.equal(statuses.filter((status) => status === 429).length, 49);
    assert.equal(runs(), 1);
    assert.deepEqual((await usage(app, key.headers)).current, { limit: 100, used: 100, remaining: 0, reset_at: RESET_AT });
  });

  it('counts only calls that succeed: refusals, failures and outcomes a route excludes give the unit back', async () => {
    const { app } = await setup({ countIf: async (response) => response.ok && ((await response.clone().json()) as { outcome: string }).outcome === 'assessed' });
    const ip = fromIp('192.0.2.44');
    assert.equal((await check(app, ip, { outcome: 'bad' })).status, 400);
    assert.equal((await check(app, ip, { outcome: 'fail' })).status, 500);
    assert.equal((await check(app, ip, { outcome: 'abstained' })).status, 200);
    assert.equal((await usage(app, ip)).current.used, 0);
    assert.equal((await check(app, ip, { outcome: 'assessed' })).status, 200);
    assert.deepEqual((await usage(app, ip)).current, { limit: 20, used: 1, remaining: 19, reset_at: RESET_AT });
  });

  it('never counts reads: usage, pricing, health, tender routes and the OpenAPI document', async () => {
    const { app } = await setup();
    const ip = fromIp('192.0.2.45');
    for (const path of ['/v1/usage', '/v1/pricing', '/health', '/v1/tenders', '/v1/tenders/strip', '/openapi.json']) await app.request(path, { headers: ip });
    assert.equal((await usage(app, ip)).current.used, 0);
  });

  it('answers 503 with Retry-After and does not run the work while the meter store is unreachable', async () => {
    const { app, state, setDown, runs } = await setup();
    const key = await keyFor(state, null);
    setDown(true);
    try {
      for (const headers of [fromIp('192.0.2.50'), key.headers]) {
        const response = await check(app, headers);
        assert.equal(response.status, 503);
        assert.equal(response.headers.get('Retry-After'), '30');
        assert.match(((await response.json()) as { detail: string }).detail, /unreachable just now, so this call was not run/);
      }
      assert.equal(runs(), 0);
      // Anonymous reads need no state: they still answer, with what is known of the allowance.
      const health = await app.request('/health');
      assert.equal(health.status, 200);
      assert.equal(health.headers.get('RateLimit-Limit'), '20');
      assert.equal(health.headers.get('RateLimit-Reset'), String(SECONDS_TO_RESET));
      assert.equal(health.headers.get('RateLimit-Remaining'), null, 'unknown while the store is down');
    } finally {
      setDown(false);
    }
    assert.equal((await check(app, key.headers)).status, 200);
  });
});

describe('rate headers', () => {
  it('carry the weekly allowance on successes and on every kind of error', async () => {
    const { app, state } = await setup({ caps: { anonymous: 1 } });
    const ip = fromIp('192.0.2.60');
    const expectHeaders = (response: Response, limit: number, remaining: number) => {
      assert.equal(response.headers.get('RateLimit-Limit'), String(limit), `${response.status} limit`);
      assert.equal(response.headers.get('RateLimit-Remaining'), String(remaining), `${response.status} remaining`);
      assert.equal(response.headers.get('RateLimit-Reset'), String(SECONDS_TO_RESET), `${response.status} reset`);
    };
    expectHeaders(await app.request('/health', { headers: ip }), 1, 1);
    const counted = await check(app, ip);
    assert.equal(counted.status, 200);
    expectHeaders(counted, 1, 0);
    const exhausted = await check(app, ip);
    assert.equal(exhausted.status, 429);
    expectHeaders(exhausted, 1, 0);
    const missing = await app.request('/v1/nothing', { headers: ip });
    assert.equal(missing.status, 404);
    expectHeaders(missing, 1, 0);
    const invalid = await app.request('/v1/auth/login', { method: 'POST', headers: { ...ip, 'content-type': 'application/json' }, body: '{"email":"no"}' });
    assert.equal(invalid.status, 422);
    expectHeaders(invalid, 1, 0);
    const failed = await check(app, fromIp('192.0.2.61'), { outcome: 'fail' });
    assert.equal(failed.status, 500);
    expectHeaders(failed, 1, 1);
    // A refused key names no caller: the reply carries the figures of its address.
    const badKey = await app.request('/health', { headers: { ...ip, authorization: 'Bearer svc_not-a-key' } });
    assert.equal(badKey.status, 401);
    expectHeaders(badKey, 1, 0);
    const key = await keyFor(state, null);
    expectHeaders(await app.request('/v1/tenders', { headers: key.headers }), 100, 100);
  });
});

describe('burst guard', () => {
  it('allows about 10 at once, refills about 30 a minute, per caller, on every route', async () => {
    let ms = NOW.getTime();
    const { app, state } = await setup({ burst: { now: () => ms } });
    const ip = fromIp('192.0.2.70');
    for (let i = 0; i < 10; i++) assert.equal((await app.request('/health', { headers: ip })).status, 200, `request ${i + 1}`);
    const refused = await app.request('/v1/pricing', { headers: ip });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), '2', 'one request comes back every 2 seconds');
    assert.match(((await refused.json()) as { detail: string }).detail, /^Too many requests at once from this network address: wait 2 seconds/);
    assert.ok(refused.headers.get('RateLimit-Limit'), 'a burst refusal carries rate headers too');

    assert.equal((await app.request('/health', { headers: fromIp('192.0.2.71') })).status, 200, 'another caller has its own bucket');
    ms += 2_000;
    assert.equal((await app.request('/health', { headers: ip })).status, 200);
    assert.equal((await app.request('/health', { headers: ip })).status, 429);

    // An account's keys share one bucket.
    const person = await signIn(state, 'burst@example.com', NOW);
    const [one, two] = [await keyFor(state, person.accountId), await keyFor(state, person.accountId)];
    for (let i = 0; i < 10; i++) assert.equal((await app.request('/health', { headers: (i % 2 ? one : two).headers })).status, 200);
    assert.equal((await app.request('/health', { headers: one.headers })).status, 429);
    assert.match(((await (await app.request('/health', { headers: two.headers })).json()) as { detail: string }).detail, /from your account/);
  });

  it('charges each MCP tool call one request, batched or not, and refuses the calls of a batch beyond the bucket one by one', async () => {
    const { app } = await setup({ burst: { capacity: 5, now: () => NOW.getTime() } });
    const toolCall = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'extract_capabilities', arguments: {} } });
    const mcp = (body: unknown, ip: string) =>
      app.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...fromIp(ip) }, body: JSON.stringify(body) });

    // A batch of 8 calls from a bucket of 5: the POST itself pays for the first call, the next four take a token each.
    const batch = await mcp([1, 2, 3, 4, 5, 6, 7, 8].map(toolCall), '192.0.2.80');
    assert.equal(batch.status, 200);
    const replies = ((await batch.json()) as { id: number; result?: { isError?: boolean }; error?: { code: number; message: string; data?: { status?: number; retry_after_seconds?: number } } }[])
      .toSorted((a, b) => a.id - b.id);
    assert.deepEqual(replies.map((reply) => reply.id), [1, 2, 3, 4, 5, 6, 7, 8], 'one reply per call');
    assert.deepEqual(replies.filter((reply) => reply.result !== undefined && reply.result.isError !== true).map((reply) => reply.id), [1, 2, 3, 4, 5], 'the calls the bucket held ran');
    for (const refused of replies.slice(5)) {
      assert.ok(refused.error, `call ${refused.id} beyond the bucket is a JSON-RPC error`);
      assert.match(refused.error.message, /^Too many requests at once from this network address: wait 2 seconds/);
      assert.deepEqual(refused.error.data, { status: 429, retry_after_seconds: 2 });
    }
    assert.equal(batch.headers.get('Retry-After'), '2', 'the reply says when the refused calls may be sent again');
    assert.equal((await app.request('/health', { headers: fromIp('192.0.2.80') })).status, 429, 'the batch emptied the bucket REST calls share');

    // One call per POST costs what its REST call costs: one request each.
    for (let i = 0; i < 5; i++) {
      const single = (await (await mcp(toolCall(i), '192.0.2.81')).json()) as { result?: { isError?: boolean } };
      assert.equal(single.result?.isError, undefined, `single call ${i + 1} ran`);
    }
    assert.equal((await mcp(toolCall(6), '192.0.2.81')).status, 429, 'the sixth POST is refused by the guard itself');
  });

  it('lets through requests the MCP server forwards in process', async () => {
    const { app, state } = await setup({ burst: { capacity: 1, now: () => NOW.getTime() } });
    const key = await keyFor(state, null);
    assert.equal((await app.request('/health', { headers: key.headers })).status, 200);
    assert.equal((await app.request('/health', { headers: key.headers })).status, 429);
    assert.equal((await app.request('/health', { headers: key.headers }, { mcpForward: true })).status, 200);
  });
});

describe('GET /v1/pricing', () => {
  it('shows the live caps, and bid preparation on sale only when a price is set and payment is set up', async () => {
    const payments = stripeCheckout({ secretKey: 'sk_test_pricing', webhookSecret: 'whsec_pricing' });
    const { app } = await setup({ caps: { anonymous: 5, identified: 50 }, bidPrice: { amount: 149.5, currency: 'NZD' }, payments });
    const pricing = (await (await app.request('/v1/pricing')).json()) as Record<string, Record<string, unknown>>;
    assert.deepEqual(pricing.checkers!.weekly_allowance, { anonymous_per_ip: 5, per_account: 50 });
    assert.equal(pricing.checkers!.reset_at, RESET_AT);
    assert.match(String(pricing.checkers!.week), /Monday 00:00 Australia\/Sydney/);
    assert.deepEqual(pricing.bid_preparation, {
      available: true,
      amount: 149.5,
      currency: 'NZD',
      detail: 'Preparing a bid costs NZD 149.50, paid once per bid by card through a hosted checkout (POST /v1/bids/{bid}/checkout).',
    });
    const unpaid = (await (await (await setup({ bidPrice: { amount: 149.5, currency: 'NZD' }, payments: null })).app.request('/v1/pricing')).json()) as Record<string, Record<string, unknown>>;
    assert.deepEqual(unpaid.bid_preparation, {
      available: false,
      amount: 149.5,
      currency: 'NZD',
      detail: 'Payment is not set up on this server, so bid preparation (NZD 149.50) cannot be bought here yet.',
    });
    const unpriced = (await (await (await setup({ payments })).app.request('/v1/pricing')).json()) as Record<string, Record<string, unknown>>;
    assert.deepEqual(unpriced.bid_preparation, { available: false, detail: 'Bid preparation is not on sale on this server: no price is set for it.' });
    assert.deepEqual(unpriced.checkers!.weekly_allowance, { anonymous_per_ip: 20, per_account: 100 });
  });
});
