// The paid bid checkout (spec, States: Bid checkout; Errors 409 and 503) and the Stripe webhook, over the
// whole app and a local fake of Stripe on 127.0.0.1 speaking Stripe's wire format (test/helpers/fake-stripe.ts),
// reached by the official stripe package through SVC_STRIPE_API_BASE's host, port and protocol options.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type Stripe from 'stripe';
import { createApp } from '../api/app.ts';
import { bidIsPaid, type BidPaymentRow } from '../api/bids/payments.ts';
import { checkoutProviderFromEnv, stripeCheckout } from '../api/providers/stripe.ts';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { openStateDb, StateUnavailableError, type StateDb } from '../data/state/db.ts';
import { keyFor, PUBLIC_URL, signIn } from './helpers/access.ts';
import { startFakeStripe, type FakeStripe } from './helpers/fake-stripe.ts';
import { testClock } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation } from './helpers/state.ts';

const SECRET_KEY = 'sk_test_checkout0123456789';
const WEBHOOK_SECRET = 'whsec_checkout0123456789';
const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release in this test.' }), now: () => new Date() };

interface Checkout {
  checkout_id: string;
  bid_id: string;
  status: string;
  url: string | null;
  amount: number;
  currency: string;
  expires_at: string;
}

/** A state store whose binding of a session to its claim can be made to fail, as a lost disk would. */
function bindingCanFail(real: StateDb): { state: StateDb; failBinding(fail: boolean): void } {
  let fail = false;
  const check = (sql: string) => {
    if (fail && sql.includes('SET session_id = ?')) throw new StateUnavailableError('disk I/O error');
  };
  return {
    failBinding: (value) => (fail = value),
    state: {
      engine: real.engine,
      run: async (sql, ...params) => (check(sql), await real.run(sql, ...params)),
      get: async (sql, ...params) => await real.get(sql, ...params),
      all: async (sql, ...params) => await real.all(sql, ...params),
      transaction: async (work, options) => await real.transaction(work, options),
      close: async () => await real.close(),
    },
  };
}

describe('bid checkout through Stripe Checkout', () => {
  const clock = testClock('2026-06-10T02:00:00.000Z');
  let fake: FakeStripe;
  let real: StateDb;
  let store: ReturnType<typeof bindingCanFail>;
  let app: Awaited<ReturnType<typeof createApp>>;
  let owner: Awaited<ReturnType<typeof signIn>>;
  let viewer: Awaited<ReturnType<typeof signIn>>;
  let outsider: Awaited<ReturnType<typeof signIn>>;
  let orgId: string;

  before(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, now: clock.now });
    real = await openStateDb(await testStateLocation(await tempDir('checkout-')));
    store = bindingCanFail(real);
    const payments = stripeCheckout({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase: new URL(fake.origin) });
    app = await createApp({ store: NO_RELEASE, state: store.state, publicUrl: PUBLIC_URL, burst: false, now: clock.now, bidPrice: { amount: 149, currency: 'AUD' }, payments, notice: () => {} });
    owner = await signIn(real, 'owner@harbour.test', clock.now());
    viewer = await signIn(real, 'viewer@harbour.test', clock.now());
    outsider = await signIn(real, 'outsider@elsewhere.test', clock.now());
    const created = await app.request('/v1/orgs', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ company_name: 'Harbour Civil Pty Ltd' }) });
    orgId = ((await created.json()) as { org_id: string }).org_id;
    await real.run("INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, 'viewer', ?)", orgId, viewer.accountId, clock.now().toISOString());
  });
  after(async () => {
    await fake.close();
    await real.close();
  });
  beforeEach(() => store.failBinding(false));

  async function newBid(): Promise<string> {
    const reply = await app.request('/v1/bids', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ org_id: orgId, title: 'Road resurfacing panel' }) });
    assert.equal(reply.status, 201);
    return ((await reply.json()) as { bid_id: string }).bid_id;
  }
  const checkout = (bidId: string, headers: Record<string, string> = owner.headers) => app.request(`/v1/bids/${bidId}/checkout`, { method: 'POST', headers });
  const sessionIdOf = (url: string) => url.split('/').at(-1)!;
  const rows = async (bidId: string) => await real.all<BidPaymentRow>('SELECT * FROM bid_payments WHERE bid_id = ? ORDER BY created_at', bidId);

  async function deliver(event: Stripe.Event | string, options: { timestamp?: number; secret?: string; signature?: string } = {}): Promise<Response> {
    const payload = typeof event === 'string' ? event : JSON.stringify(event);
    const timestamp = options.timestamp ?? Math.floor(clock.now().getTime() / 1000);
    const signature = options.signature ?? fake.sign(payload, timestamp, options.secret);
    return app.request(PAYMENT_WEBHOOK_PATH, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  }

  /** An event about the session as Stripe would send it, with the session's fields changed by `change`. */
  function eventAbout(sessionId: string, type: string, change: Partial<Stripe.Checkout.Session> = {}): Stripe.Event {
    const event = fake.eventFor(sessionId, type);
    Object.assign(event.data.object, change);
    return event;
  }

  it('creates a Checkout Session in payment mode for the configured price, binds it and answers its hosted page', async () => {
    const bidId = await newBid();
    const reply = await checkout(bidId);
    assert.equal(reply.status, 201);
    const body = (await reply.json()) as Checkout;
    assert.equal(body.bid_id, bidId);
    assert.equal(body.status, 'pending');
    assert.equal(body.amount, 149);
    assert.equal(body.currency, 'AUD');
    assert.ok(body.url?.startsWith(`${fake.origin}/c/pay/cs_test_`), body.url ?? 'no url');
    const request = fake.requests.at(-1)!;
    assert.equal(request.path, '/v1/checkout/sessions');
    assert.equal(request.params['mode'], 'payment');
    assert.equal(request.params['client_reference_id'], bidId);
    assert.deepEqual(request.params['metadata'], { bid_id: bidId, checkout_id: body.checkout_id });
    assert.deepEqual(request.params['line_items'], [{ quantity: '1', price_data: { currency: 'aud', unit_amount: '14900', product_data: { name: 'Bid preparation: Road resurfacing panel' } } }]);
    assert.equal(request.params['success_url'], `${PUBLIC_URL}/account/bids/bid/?id=${bidId}&checkout=paid`);
    assert.equal(request.idempotencyKey, `bid-checkout-${body.checkout_id}`);
    const [row] = await rows(bidId);
    assert.equal(row!.session_id, sessionIdOf(body.url!));
    assert.equal(row!.expires_at, new Date(clock.now().getTime() + 3600_000).toISOString());
    assert.equal(await bidIsPaid(real, bidId), false, 'a created checkout is not a payment');
  });

  it('refuses a second checkout while one is pending (409, naming its page), and allows one once the first has expired', async () => {
    const bidId = await newBid();
    const first = (await (await checkout(bidId)).json()) as Checkout;
    const second = await checkout(bidId);
    assert.equal(second.status, 409);
    assert.match(((await second.json()) as { detail: string }).detail, new RegExp(`already pending.*Finish it at ${first.url!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.equal((await rows(bidId)).length, 1, 'the refused checkout created nothing');
    clock.advance(3600_000);
    const third = await checkout(bidId);
    assert.equal(third.status, 201, 'the first session has expired, so a new one is made');
    assert.deepEqual((await rows(bidId)).map((row) => row.status), ['expired', 'pending']);
  });

  it('marks the bid paid when the signed checkout.session.completed arrives from paying the hosted page; then checkout is 409', async () => {
    const bidId = await newBid();
    const created = (await (await checkout(bidId)).json()) as Checkout;
    const event = await fake.pay(sessionIdOf(created.url!));
    const reply = await deliver(event);
    assert.equal(reply.status, 200);
    assert.deepEqual(await reply.json(), { received: true, duplicate: false, outcome: 'paid' });
    assert.equal(await bidIsPaid(real, bidId), true);
    const [row] = await rows(bidId);
    assert.equal(row!.status, 'paid');
    assert.equal(row!.paid_at, clock.now().toISOString());
    assert.deepEqual(JSON.parse(row!.provider_event_ids), [event.id]);
    const again = await checkout(bidId);
    assert.equal(again.status, 409);
    assert.match(((await again.json()) as { detail: string }).detail, /already paid/);
  });

  it('refuses an event with a wrong signature, with no signature and with a stale timestamp (over 300 s), changing nothing', async () => {
    const bidId = await newBid();
    const created = (await (await checkout(bidId)).json()) as Checkout;
    const event = await fake.pay(sessionIdOf(created.url!));
    const wrong = await deliver(event, { secret: 'whsec_someone_else' });
    assert.equal(wrong.status, 400);
    assert.match(((await wrong.json()) as { detail: string }).detail, /does not verify: No signatures found matching the expected signature/);
    const unsigned = await app.request(PAYMENT_WEBHOOK_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(event) });
    assert.equal(unsigned.status, 400);
    const tampered = JSON.stringify(event).replace('"paid"', '"unpaid"');
    assert.equal((await deliver(tampered, { signature: fake.sign(JSON.stringify(event)) })).status, 400, 'a body changed after signing does not verify');
    const stale = await deliver(event, { timestamp: Math.floor(clock.now().getTime() / 1000) - 301 });
    assert.equal(stale.status, 400);
    assert.match(((await stale.json()) as { detail: string }).detail, /Timestamp outside the tolerance zone/);
    assert.equal(await bidIsPaid(real, bidId), false);
    assert.equal(await real.get('SELECT 1 AS seen FROM payment_events WHERE event_id = ?', event.id), undefined, 'no refused event is recorded');
    const inTime = await deliver(event, { timestamp: Math.floor(clock.now().getTime() / 1000) - 299 });
    assert.equal(inTime.status, 200, 'an event 299 s old is still in the tolerance');
    assert.equal(await bidIsPaid(real, bidId), true);
  });

  it('acts on a replayed event once: the replay answers duplicate and changes nothing', async () => {
    const bidId = await newBid();
    const created = (await (await checkout(bidId)).json()) as Checkout;
    const sessionId = sessionIdOf(created.url!);
    const expired = eventAbout(sessionId, 'checkout.session.expired', { status: 'expired' });
    assert.deepEqual(await (await deliver(expired)).json(), { received: true, duplicate: false, outcome: 'expired' });
    const paid = await fake.pay(sessionId);
    assert.deepEqual(await (await deliver(paid)).json(), { received: true, duplicate: false, outcome: 'paid' }, 'a payment confirmed after the expiry still counts');
    const before = await rows(bidId);
    const replay = await deliver(expired);
    assert.equal(replay.status, 200);
    assert.deepEqual(await replay.json(), { received: true, duplicate: true, outcome: 'expired' });
    const replayedPaid = await deliver(paid);
    assert.deepEqual(await replayedPaid.json(), { received: true, duplicate: true, outcome: 'paid' });
    assert.deepEqual(await rows(bidId), before);
    assert.equal((await real.get<{ n: number }>('SELECT COUNT(*) AS n FROM payment_events WHERE session_id = ?', sessionId))!.n, 2);
  });

  it('ends in the same state whatever order the events come in', async () => {
    // A delayed payment: completed unpaid, then the async success; delivered success first, then completed, then expired.
    const asyncBid = await newBid();
    const asyncSession = sessionIdOf(((await (await checkout(asyncBid)).json()) as Checkout).url!);
    const completedUnpaid = eventAbout(asyncSession, 'checkout.session.completed', { status: 'complete', payment_status: 'unpaid' });
    const succeeded = eventAbout(asyncSession, 'checkout.session.async_payment_succeeded', { status: 'complete', payment_status: 'paid' });
    const expired = eventAbout(asyncSession, 'checkout.session.expired', { status: 'expired' });
    assert.equal(((await (await deliver(succeeded)).json()) as { outcome: string }).outcome, 'paid');
    assert.match(((await (await deliver(completedUnpaid)).json()) as { outcome: string }).outcome, /^ignored: checkout .* is paid; a completion without payment changes nothing$/);
    assert.match(((await (await deliver(expired)).json()) as { outcome: string }).outcome, /^ignored: checkout .* is paid and does not become expired$/);
    assert.equal(await bidIsPaid(real, asyncBid), true);

    // The same three in Stripe's own order end the same way.
    const inOrderBid = await newBid();
    const inOrderSession = sessionIdOf(((await (await checkout(inOrderBid)).json()) as Checkout).url!);
    assert.equal(((await (await deliver(eventAbout(inOrderSession, 'checkout.session.completed', { status: 'complete', payment_status: 'unpaid' }))).json()) as { outcome: string }).outcome, 'pending: session completed, its payment not yet confirmed');
    assert.equal(await bidIsPaid(real, inOrderBid), false, 'a completed session whose payment is still on its way is not paid');
    await deliver(eventAbout(inOrderSession, 'checkout.session.async_payment_succeeded', { status: 'complete', payment_status: 'paid' }));
    await deliver(eventAbout(inOrderSession, 'checkout.session.expired', { status: 'expired' }));
    assert.equal(await bidIsPaid(real, inOrderBid), true);
    assert.equal((await rows(inOrderBid))[0]!.status, (await rows(asyncBid))[0]!.status);

    // A failed delayed payment before its completion: the checkout ends failed, and the completion does not revive it.
    const failedBid = await newBid();
    const failedSession = sessionIdOf(((await (await checkout(failedBid)).json()) as Checkout).url!);
    await deliver(eventAbout(failedSession, 'checkout.session.async_payment_failed', { status: 'complete', payment_status: 'unpaid' }));
    await deliver(eventAbout(failedSession, 'checkout.session.completed', { status: 'complete', payment_status: 'unpaid' }));
    assert.equal((await rows(failedBid))[0]!.status, 'failed');
    assert.equal(await bidIsPaid(real, failedBid), false);
    assert.equal((await checkout(failedBid)).status, 201, 'a failed checkout leaves the bid free to check out again');
  });

  it('records a charge.refunded for a paid bid and leaves it paid: the spec defines no refund transition', async () => {
    const bidId = await newBid();
    const sessionId = sessionIdOf(((await (await checkout(bidId)).json()) as Checkout).url!);
    assert.equal(((await (await deliver(eventAbout(sessionId, 'checkout.session.completed', { status: 'complete', payment_status: 'paid' }))).json()) as { outcome: string }).outcome, 'paid');
    const refund = {
      id: `evt_refund_${bidId}`, object: 'event', type: 'charge.refunded', api_version: '2025-01-27.acacia', created: Math.floor(clock.now().getTime() / 1000), livemode: false, pending_webhooks: 1, request: null,
      data: { object: { id: `ch_${bidId}`, object: 'charge', amount: 14900, amount_refunded: 14900, currency: 'aud', refunded: true, payment_intent: `pi_${bidId}` } },
    };
    const reply = await deliver(JSON.stringify(refund));
    assert.equal(reply.status, 200);
    assert.match(((await reply.json()) as { outcome: string }).outcome, /^ignored: charge\.refunded: the specification defines no refund transition/);
    assert.equal(await bidIsPaid(real, bidId), true);
    assert.equal((await real.get<{ type: string }>('SELECT type FROM payment_events WHERE event_id = ?', refund.id))!.type, 'charge.refunded', 'recorded for a person');
  });

  it('acknowledges and ignores an event for a session it did not create, and one whose amount is not the checkout\'s', async () => {
    const made = await fetch(`${fake.origin}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mode: 'payment', success_url: 'https://elsewhere.example/done', 'line_items[0][quantity]': '1', 'line_items[0][price_data][currency]': 'aud', 'line_items[0][price_data][unit_amount]': '500', 'line_items[0][price_data][product_data][name]': 'Something else' }),
    });
    const foreign = (await made.json()) as { id: string };
    const unknown = await deliver(await fake.pay(foreign.id));
    assert.equal(unknown.status, 200, 'acknowledged, so Stripe does not retry it for days');
    assert.deepEqual(await unknown.json(), { received: true, duplicate: false, outcome: `ignored: no checkout of this service has session ${foreign.id}` });

    const bidId = await newBid();
    const sessionId = sessionIdOf(((await (await checkout(bidId)).json()) as Checkout).url!);
    const cheap = eventAbout(sessionId, 'checkout.session.completed', { status: 'complete', payment_status: 'paid', amount_total: 100 });
    assert.match(((await (await deliver(cheap)).json()) as { outcome: string }).outcome, /^ignored: .* it charged 100, not 14900$/);
    assert.equal(await bidIsPaid(real, bidId), false);
    assert.equal((await deliver(eventAbout(sessionId, 'customer.created'))).status, 200, 'an event type the service does not act on is acknowledged');
  });

  it('clears the claim when the provider fails, so the caller may retry at once', async () => {
    const bidId = await newBid();
    const before = fake.requests.length;
    // Two failures: the package retries a 500 once on its own, with the same Idempotency-Key.
    fake.failNext(2, { status: 500, type: 'api_error' });
    const failed = await checkout(bidId);
    assert.equal(failed.status, 502);
    assert.match(((await failed.json()) as { detail: string }).detail, /refused \(api_error, HTTP 500\).*Nothing was charged; try again now\.$/);
    const attempts = fake.requests.slice(before);
    assert.equal(attempts.length, 2);
    assert.equal(attempts[0]!.idempotencyKey, attempts[1]!.idempotencyKey);
    assert.deepEqual(await rows(bidId), [], 'the claim is cleared');
    const retried = await checkout(bidId);
    assert.equal(retried.status, 201);
    assert.notEqual(fake.requests.at(-1)!.idempotencyKey, attempts[0]!.idempotencyKey, 'a new claim, a new key');
  });

  it('expires the session at the provider and answers 503 with Retry-After when binding it fails; the retry works', async () => {
    const bidId = await newBid();
    store.failBinding(true);
    const failed = await checkout(bidId);
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get('retry-after'), '5');
    assert.match(((await failed.json()) as { detail: string }).detail, /could not be recorded \(the state store failed \(disk I\/O error\)\).*nothing was charged/);
    const expire = fake.requests.at(-1)!;
    assert.match(expire.path, /^\/v1\/checkout\/sessions\/cs_test_[^/]+\/expire$/);
    const sessionId = expire.path.split('/')[4]!;
    assert.equal(fake.sessions.get(sessionId)!.status, 'expired', 'nobody can pay the unrecorded session');
    assert.deepEqual((await rows(bidId)).map((row) => [row.status, row.session_id]), [['expired', null]]);
    store.failBinding(false);
    assert.equal((await checkout(bidId)).status, 201);
  });

  it('lets owners, admins and members buy, by session or by an API key of their account; viewers 403, outsiders 404, anonymous 401', async () => {
    const bidId = await newBid();
    assert.equal((await checkout(bidId, viewer.headers)).status, 403);
    assert.equal((await checkout(bidId, outsider.headers)).status, 404);
    assert.equal((await checkout(bidId, {})).status, 401);
    const key = await keyFor(real, owner.accountId);
    const byKey = await checkout(bidId, key.headers);
    assert.equal(byKey.status, 201);
  });
});

describe('checkout without payment set up', () => {
  it('answers 503 with a sentence that payment is not set up, and pricing says the same', async () => {
    assert.equal(checkoutProviderFromEnv({}).provider, null);
    assert.deepEqual(checkoutProviderFromEnv({ SVC_STRIPE_SECRET_KEY: SECRET_KEY }), { provider: null, missing: 'SVC_STRIPE_WEBHOOK_SECRET' });
    const clock = testClock('2026-06-10T02:00:00.000Z');
    const state = await openStateDb(await testStateLocation(await tempDir('checkout-off-')));
    const app = await createApp({ store: NO_RELEASE, state, publicUrl: PUBLIC_URL, burst: false, now: clock.now, bidPrice: { amount: 149, currency: 'AUD' }, payments: null });
    const owner = await signIn(state, 'owner@harbour.test', clock.now());
    const org = (await (await app.request('/v1/orgs', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ company_name: 'Harbour Civil' }) })).json()) as { org_id: string };
    const bid = (await (await app.request('/v1/bids', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ org_id: org.org_id, title: 'Fencing' }) })).json()) as { bid_id: string };
    const reply = await app.request(`/v1/bids/${bid.bid_id}/checkout`, { method: 'POST', headers: owner.headers });
    assert.equal(reply.status, 503);
    assert.match(((await reply.json()) as { detail: string }).detail, /^Payment is not set up on this server, so bid preparation \(AUD 149\.00\) cannot be bought here yet\./);
    const pricing = (await (await app.request('/v1/pricing')).json()) as { bid_preparation: { available: boolean; detail: string } };
    assert.equal(pricing.bid_preparation.available, false);
    assert.match(pricing.bid_preparation.detail, /Payment is not set up on this server/);
    const webhook = await app.request(PAYMENT_WEBHOOK_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(webhook.status, 503);
    await state.close();
  });
});
