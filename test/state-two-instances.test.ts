import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS_PER_ACCOUNT } from '../api/accounts/keys.ts';
import { openPostgresState } from '../data/state/postgres.ts';
import type { StateDb } from '../data/state/db.ts';
import { startFakeStripe, type FakeStripe } from './helpers/fake-stripe.ts';
import { signInAs } from './helpers/org-app.ts';
import { sharedPostgresCluster } from './helpers/postgres-cluster.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';
import { TWO_INSTANCES_SKIP } from './helpers/two-instances.ts';
import { tempDir } from './helpers/temp-dir.ts';

// Two real API processes on one PostgreSQL, each with a data folder of its own: whatever they agree on, they agree on
// through the shared state store. PostgreSQL-only, so run in the PostgreSQL pass of `npm test` (test/helpers/two-instances.ts).

/** A paragraph of ordinary prose, distinct per call so that no call is answered from another's stored result. */
const prose = (n: number) =>
  `Report ${n}. The council resurfaced the northern road this spring after residents asked for safer crossings near the school. ` +
  'Crews worked at night to keep traffic moving, and the depot kept a record of every delay so the next contract can plan for it. '.repeat(6);

const STRIPE_SECRET_KEY = 'sk_test_two_instances0123456789';
const STRIPE_WEBHOOK_SECRET = 'whsec_two_instances0123456789';

describe('two API instances on one PostgreSQL', { skip: TWO_INSTANCES_SKIP, timeout: 180_000 }, () => {
  let instances: ServerProcess[] = [];
  let databaseUrl: string;
  let state: StateDb;
  let stripe: FakeStripe;
  let inbox: SmtpInbox;

  before(async () => {
    databaseUrl = await (await sharedPostgresCluster()).freshDatabase();
    state = await openPostgresState(databaseUrl, { migrate: false });
    stripe = await startFakeStripe({ secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET });
    inbox = await startSmtpInbox();
    const env = {
      DATABASE_URL: databaseUrl,
      SVC_WEEKLY_CAP_ANONYMOUS: '3',
      SVC_BURST_CAPACITY: '1000',
      SVC_BURST_REFILL_PER_MIN: '100000',
      SMTP_URL: inbox.smtpUrl,
      SVC_BID_PRICE: '149',
      SVC_STRIPE_SECRET_KEY: STRIPE_SECRET_KEY,
      SVC_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
      SVC_STRIPE_API_BASE: stripe.origin,
    };
    instances = await Promise.all([1, 2].map(async (n) => await startServer({ dataDir: await tempDir(`instance-${n}-`), env })));
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await state.close();
    await stripe.close();
    await inbox.close();
  });

  /**
   * The rate header's remainder on `instance`, asked until it reads `expected` or 5 s pass: an instance reuses the
   * figures it read for up to a second (api/usage/meter.ts), so another instance's spending shows that late.
   */
  const remainingOn = async (instance: ServerProcess, expected: string): Promise<string | null> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const remaining = (await fetch(`${instance.url}/v1/pricing`)).headers.get('ratelimit-remaining');
      if (remaining === expected || Date.now() > deadline) return remaining;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const detect = (instance: ServerProcess, text: string, headers: Record<string, string> = {}) =>
    fetch(`${instance.url}/v1/detect-ai-text`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ text }) });

  /** A same-origin call on `instance` as the account whose session `cookie` carries. */
  const call = (instance: ServerProcess, cookie: string, method: string, path: string, body?: unknown) =>
    fetch(`${instance.url}${path}`, {
      method,
      headers: { cookie, origin: instance.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** An organisation `owner` creates on `instance`; its id. */
  const newOrg = async (instance: ServerProcess, owner: string, name: string): Promise<string> => {
    const created = await call(instance, owner, 'POST', '/v1/orgs', { company_name: name });
    assert.equal(created.status, 201, await created.clone().text());
    return ((await created.json()) as { org_id: string }).org_id;
  };

  /** Invites `email` on `instance`; the token, read from the one place it appears: the email's accept address. */
  const invite = async (instance: ServerProcess, owner: string, orgId: string, email: string): Promise<{ status: number; token: string | null }> => {
    const mailed = inbox.messages.length;
    const reply = await call(instance, owner, 'POST', `/v1/orgs/${orgId}/invites`, { email, role: 'member' });
    if (reply.status !== 201) return { status: reply.status, token: null };
    // Quoted-printable breaks long lines with a trailing `=`; joined again, the address reads whole.
    const message = inbox.messages.slice(mailed).find((raw) => raw.includes(email))!.replace(/=\r?\n/g, '');
    return { status: reply.status, token: /\/v1\/orgs\/invites\/([A-Za-z0-9_-]+)\/accept/.exec(message)![1]! };
  };

  const accept = (instance: ServerProcess, cookie: string, token: string) => call(instance, cookie, 'POST', `/v1/orgs/invites/${token}/accept`);

  const membershipsOf = async (orgId: string, email: string) =>
    (await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM memberships JOIN accounts USING (account_id) WHERE org_id = ? AND email = ?', orgId, email))!.n;

  it('an Idempotency-Key used on one instance replays on the other, counted once', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const first = await detect(a, prose(0), { 'idempotency-key': 'two-instances-1' });
    assert.equal(first.status, 200, await first.clone().text());
    const retry = await detect(b, prose(0), { 'idempotency-key': 'two-instances-1' });
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), await first.json(), 'the same reply');
    for (const instance of instances) assert.equal(await remainingOn(instance, '2'), '2', 'one unit of three spent, on either instance');
  });

  it('the weekly allowance is exact across both: 50 calls at once for 2 units left, spread over the instances, give exactly 2', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => detect(instances[i % 2]!, prose(i + 1))));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 200).length, 2, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((status) => status === 429).length, 48);
    for (const instance of instances) assert.equal(await remainingOn(instance, '0'), '0', 'each instance sees the allowance spent');
  });

  it(`an account's key cap holds across both: ${KEYS_PER_ACCOUNT * 2} keys asked at once over the two instances give exactly ${KEYS_PER_ACCOUNT}`, async () => {
    const cookie = await signInAs(state, new Date(), 'two-instances@example.com');
    const replies = await Promise.all(Array.from({ length: KEYS_PER_ACCOUNT * 2 }, (_, i) => {
      const instance = instances[i % 2]!;
      return fetch(`${instance.url}/v1/keys`, { method: 'POST', headers: { cookie, origin: instance.url, 'content-type': 'application/json' }, body: '{}' });
    }));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 201).length, KEYS_PER_ACCOUNT, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((status) => status === 409).length, KEYS_PER_ACCOUNT);
  });
  it('one invitation accepted at once on both instances, by its recipient and by another account: one acceptance, the membership once', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const owner = await signInAs(state, new Date(), 'owner@harbour-two.test');
    const outsider = await signInAs(state, new Date(), 'outsider@elsewhere-two.test');
    const orgId = await newOrg(a, owner, 'Harbour Two Pty Ltd');
    // Rounds with an invitation each: a race lost in one may be met in another.
    for (let round = 0; round < 4; round++) {
      const email = `recipient${round}@harbour-two.test`;
      const recipient = await signInAs(state, new Date(), email);
      const { token } = await invite(a, owner, orgId, email);
      // Ten tries by the recipient and four by another account, alternating over the instances, all at once.
      const tries = Array.from({ length: 14 }, (_, i) => ({ by: i < 10 ? 'recipient' : 'outsider', on: i % 2 === 0 ? a : b }));
      const replies = await Promise.all(tries.map(({ by, on }) => accept(on, by === 'recipient' ? recipient : outsider, token!)));
      const outcomes = replies.map((reply, i) => `${tries[i]!.by}:${reply.status}`);
      assert.deepEqual(outcomes.filter((outcome) => outcome.endsWith(':200')), ['recipient:200'], `round ${round}: ${outcomes.join(',')}`);
      assert.equal(outcomes.filter((outcome) => outcome.endsWith(':404')).length, 13, `round ${round}: ${outcomes.join(',')}`);
      assert.equal(await membershipsOf(orgId, email), 1);
      const used = await state.all<{ email: string }>('SELECT a.email FROM org_invitations i JOIN accounts a ON a.account_id = i.used_by WHERE i.org_id = ? AND i.email = ?', orgId, email);
      assert.deepEqual(used.map((row) => row.email), [email], 'the invitation was used once, by its recipient');
    }
    assert.equal(await membershipsOf(orgId, 'outsider@elsewhere-two.test'), 0);
    const members = (await (await call(b, owner, 'GET', `/v1/orgs/${orgId}/members`)).json()) as { members: { email: string }[] };
    assert.deepEqual(members.members.map((member) => member.email).sort(), ['owner@harbour-two.test', ...[0, 1, 2, 3].map((n) => `recipient${n}@harbour-two.test`)], 'the other instance lists each member once');
  });

  it('a newer invitation on one instance and the older one accepted on the other at once: exactly one of them happens', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const owner = await signInAs(state, new Date(), 'owner@reinvite-two.test');
    const orgId = await newOrg(a, owner, 'Reinvite Two Pty Ltd');
    // Rounds with a fresh address each, so that either order of the race may be met.
    for (let round = 0; round < 6; round++) {
      const email = `person${round}@reinvite-two.test`;
      const cookie = await signInAs(state, new Date(), email);
      const { token } = await invite(a, owner, orgId, email);
      const [reinvited, accepted] = await Promise.all([invite(a, owner, orgId, email), accept(b, cookie, token!)]);
      const outcome = `reinvite ${reinvited.status}, accept ${accepted.status}`;
      // The acceptance first: the address is a member, so the newer invitation is refused (409).
      // The newer invitation first: it withdrew the older one, whose link then fails like any unusable one (404).
      assert.ok(outcome === 'reinvite 409, accept 200' || outcome === 'reinvite 201, accept 404', `round ${round}: ${outcome}`);
      assert.equal(await membershipsOf(orgId, email), accepted.status === 200 ? 1 : 0, `round ${round}: ${outcome}`);
      if (reinvited.token !== null) {
        assert.equal((await accept(b, cookie, reinvited.token)).status, 200, 'the newer invitation works');
        assert.equal(await membershipsOf(orgId, email), 1);
      }
    }
  });

  it('one checkout at once on both instances for one bid: one session made at the payment provider, every other call 409', async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const owner = await signInAs(state, new Date(), 'owner@checkout-two.test');
    const orgId = await newOrg(a, owner, 'Checkout Two Pty Ltd');
    const created = await call(a, owner, 'POST', '/v1/bids', { org_id: orgId, title: 'Road resurfacing panel' });
    assert.equal(created.status, 201, await created.clone().text());
    const bidId = ((await created.json()) as { bid_id: string }).bid_id;
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 === 0 ? a : b, owner, 'POST', `/v1/bids/${bidId}/checkout`)));
    const statuses = replies.map((reply) => reply.status);
    assert.equal(statuses.filter((status) => status === 201).length, 1, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((status) => status === 409).length, 9, `statuses: ${statuses.join(',')}`);
    const sessionsAsked = stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions' && request.params['client_reference_id'] === bidId);
    assert.equal(sessionsAsked.length, 1, 'one Checkout Session was asked for');
    const made = [...stripe.sessions.values()].filter((session) => session.client_reference_id === bidId);
    assert.equal(made.length, 1, 'one Checkout Session exists at the provider');
    const checkout = (await replies[statuses.indexOf(201)]!.json()) as { checkout_id: string; url: string };
    assert.equal(checkout.url, made[0]!.url);
    const rows = await state.all<{ checkout_id: string; session_id: string | null; status: string }>('SELECT checkout_id, session_id, status FROM bid_payments WHERE bid_id = ?', bidId);
    assert.deepEqual(rows, [{ checkout_id: checkout.checkout_id, session_id: made[0]!.id, status: 'pending' }]);
  });
});

/**
 * The burst guard keeps its buckets in each process's memory, not in PostgreSQL (README, Deployment notes: a shared
 * bucket would be a write to the store on every request, where the meter is written only by metered calls). So a
 * caller reaching N instances may make N × capacity requests at once and regains N × refill a minute.
 */
describe('the burst guard on two instances: a bucket per instance', { skip: TWO_INSTANCES_SKIP, timeout: 120_000 }, () => {
  const CAPACITY = 4;
  let instances: ServerProcess[] = [];

  before(async () => {
    const env = { DATABASE_URL: await (await sharedPostgresCluster()).freshDatabase(), SVC_BURST_CAPACITY: String(CAPACITY), SVC_BURST_REFILL_PER_MIN: '1' };
    instances = await Promise.all([1, 2].map(async (n) => await startServer({ dataDir: await tempDir(`burst-${n}-`), env })));
  });

  after(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  it(`one address gets ${CAPACITY} requests at once from each instance, ${CAPACITY * 2} over both, and each instance then refuses it on its own`, async () => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const pricing = (instance: ServerProcess) => fetch(`${instance.url}/v1/pricing`);
    // Both instances at once, more than a bucket's worth each: each answers exactly its own bucket's worth.
    const replies = await Promise.all(Array.from({ length: CAPACITY * 4 }, (_, i) => pricing(i % 2 === 0 ? a : b)));
    const allowedOn = (instance: ServerProcess) => replies.filter((reply, i) => (i % 2 === 0 ? a : b) === instance && reply.status === 200).length;
    assert.deepEqual([allowedOn(a), allowedOn(b)], [CAPACITY, CAPACITY], replies.map((reply) => reply.status).join(','));
    assert.equal(replies.filter((reply) => reply.status === 429).length, CAPACITY * 2);
    const refused = replies.find((reply) => reply.status === 429)!;
    // At 1 a minute, the next request is allowed about a minute after the bucket emptied.
    assert.ok(Number(refused.headers.get('retry-after')) > 30, `Retry-After: ${refused.headers.get('retry-after')}`);
    for (const reply of replies) await reply.body?.cancel();
  });
});
