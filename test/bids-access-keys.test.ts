// Spec, Authentication 1: a Bearer key works on any REST call. Every bid route of the whole app (read from its
// route table, so a route added later is covered too) is called three ways: with neither a session nor a key
// (401), with a session, and with an API key of the same account, which must be answered exactly as the session
// is. A key acts as its account: the viewer's key reads and may not write, an outsider's key sees a 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { keyFor, PUBLIC_URL, signIn, type SignedIn } from './helpers/access.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation } from './helpers/state.ts';

const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release in this test.' }), now: () => new Date() };

describe('bid routes take an API key of an account as they take its session', () => {
  let state: StateDb;
  let app: Awaited<ReturnType<typeof createApp>>;
  let owner: SignedIn;
  let viewer: SignedIn;
  let outsider: SignedIn;
  let orgId: string;

  before(async () => {
    state = await openStateDb(await testStateLocation(await tempDir('bid-keys-')));
    app = await createApp({ store: NO_RELEASE, state, publicUrl: PUBLIC_URL, burst: false, payments: null, notice: () => {}, log: () => {} });
    owner = await signIn(state, 'owner@harbour.test');
    viewer = await signIn(state, 'viewer@harbour.test');
    outsider = await signIn(state, 'outsider@elsewhere.test');
    const created = await app.request('/v1/orgs', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ company_name: 'Harbour Civil Pty Ltd' }) });
    orgId = ((await created.json()) as { org_id: string }).org_id;
    await state.run("INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, 'viewer', ?)", orgId, viewer.accountId, new Date().toISOString());
  });
  after(async () => await state.close());

  async function newBid(): Promise<string> {
    const reply = await app.request('/v1/bids', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ org_id: orgId, title: 'Road resurfacing panel' }) });
    return ((await reply.json()) as { bid_id: string }).bid_id;
  }

  /** The bid routes the app serves, as `METHOD path` with Hono's `:param` placeholders. */
  const bidRoutes = () => {
    const seen = new Set<string>();
    for (const route of app.routes) {
      if (route.method === 'ALL' || !route.path.startsWith('/v1/bids')) continue;
      seen.add(`${route.method} ${route.path}`);
    }
    return [...seen].sort();
  };

  /** A request to `route` for `bidId`, with placeholder ids for the other path parameters and an empty JSON body for writes. */
  async function request(route: string, bidId: string, headers: Record<string, string>): Promise<Response> {
    const [method, pattern] = route.split(' ') as [string, string];
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => (name === 'bid' ? bidId : name === 'n' ? '1' : `${name}_none`));
    const writes = method !== 'GET' && method !== 'HEAD';
    return app.request(path, { method, headers: { ...headers, ...(writes ? { 'content-type': 'application/json' } : {}) }, ...(writes ? { body: '{}' } : {}) });
  }

  it('covers every bid route of the spec the app serves', () => {
    const routes = bidRoutes();
    for (const expected of ['GET /v1/bids', 'POST /v1/bids', 'GET /v1/bids/:bid', 'PATCH /v1/bids/:bid', 'POST /v1/bids/:bid/checkout', 'GET /v1/bids/:bid/files', 'GET /v1/bids/:bid/plan', 'GET /v1/bids/:bid/gaps']) {
      assert.ok(routes.includes(expected), `${expected} is among ${routes.join(', ')}`);
    }
  });

  it('answers each route with neither a session nor a key 401, and a key exactly as its account\'s session', async (t) => {
    const key = await keyFor(state, owner.accountId);
    const routes = bidRoutes();
    const mismatches: string[] = [];
    for (const route of routes) {
      // A fresh bid for each way of calling, so a write by one (a stage move, a checkout) cannot change what the other is answered.
      const [bySession, byKey, byNobody] = [await newBid(), await newBid(), await newBid()];
      const session = await request(route, bySession, owner.headers);
      const keyed = await request(route, byKey, key.headers);
      const nobody = await request(route, byNobody, {});
      if (nobody.status !== 401) mismatches.push(`${route}: no credentials answered ${nobody.status}, not 401`);
      if (session.status === 401) mismatches.push(`${route}: the session was refused (401)`);
      if (keyed.status !== session.status) mismatches.push(`${route}: the key got ${keyed.status}, the session ${session.status}: ${await keyed.text()}`);
    }
    t.diagnostic(`${routes.length} bid routes called with a session, a key and neither`);
    assert.deepEqual(mismatches, []);
  });

  it('opens the bids of the key\'s account with that account\'s role', async () => {
    const bidId = await newBid();
    const viewerKey = await keyFor(state, viewer.accountId);
    const outsiderKey = await keyFor(state, outsider.accountId);
    const ownerKey = await keyFor(state, owner.accountId);
    assert.equal((await app.request(`/v1/bids/${bidId}`, { headers: viewerKey.headers })).status, 200, 'a viewer\'s key reads');
    const patch = (headers: Record<string, string>) => app.request(`/v1/bids/${bidId}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ goal: 'Win the Hunter region' }) });
    assert.equal((await patch(viewerKey.headers)).status, 403, 'a viewer\'s key may not write');
    assert.equal((await app.request(`/v1/bids/${bidId}`, { headers: outsiderKey.headers })).status, 404, 'an outsider\'s key sees no bid');
    assert.equal((await patch(ownerKey.headers)).status, 200, 'the owner\'s key writes, without an Origin header');
    const listed = (await (await app.request('/v1/bids', { headers: viewerKey.headers })).json()) as { bids: { bid_id: string }[] };
    assert.ok(listed.bids.some((bid) => bid.bid_id === bidId), 'the viewer\'s key lists the organisation\'s bids');
  });

  it('refuses a key of no account and a connector key, and a revoked key, with 401', async () => {
    const bidId = await newBid();
    const orphan = await keyFor(state, null);
    const orphanReply = await app.request(`/v1/bids/${bidId}`, { headers: orphan.headers });
    assert.equal(orphanReply.status, 401);
    assert.match(((await orphanReply.json()) as { detail: string }).detail, /belongs to no account.*POST \/v1\/account\/keys\/link/);
    const connector = await keyFor(state, owner.accountId, 'mcp');
    assert.equal((await app.request(`/v1/bids/${bidId}`, { headers: connector.headers })).status, 401);
    const revoked = await keyFor(state, owner.accountId);
    await state.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ?', new Date().toISOString(), revoked.keyId);
    assert.equal((await app.request(`/v1/bids/${bidId}`, { headers: revoked.headers })).status, 401);
  });
});
