import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonRequest } from './helpers/org-app.ts';
import { startBidApp, TENDER, TENDER_KEY, type BidTestApp } from './helpers/bid-app.ts';

interface BidReply {
  bid_id: string;
  org_id: string;
  title: string;
  tender_key: string | null;
  stage: string;
  next_stages: string[];
  owner: { account_id: string; email: string } | null;
  due_date: string | null;
  goal: string | null;
  closing_date: string | null;
  closing_at: string | null;
  buyer_time_zone: string | null;
  buyer: string | null;
}

describe('bids: create, list, read, change', () => {
  let t: BidTestApp;
  let owner: string;
  let member: string;
  let viewer: string;
  let outsider: string;
  let orgId: string;
  let otherOrgId: string;

  before(async () => {
    t = await startBidApp();
    owner = t.signIn('owner@harbour.test');
    member = t.signIn('member@harbour.test');
    viewer = t.signIn('viewer@harbour.test');
    outsider = t.signIn('outsider@elsewhere.test');
    const created = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    orgId = ((await created.json()) as { org_id: string }).org_id;
    t.join(orgId, 'member@harbour.test', 'member');
    t.join(orgId, 'viewer@harbour.test', 'viewer');
    const other = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Elsewhere Pty Ltd' }, outsider));
    otherOrgId = ((await other.json()) as { org_id: string }).org_id;
  });

  const post = (body: unknown, cookie: string) => t.app.request('/v1/bids', jsonRequest('POST', body, cookie));
  const patch = (bidId: string, body: unknown, cookie: string) => t.app.request(`/v1/bids/${bidId}`, jsonRequest('PATCH', body, cookie));
  const get = (path: string, cookie?: string) => t.app.request(path, cookie ? { headers: { cookie } } : {});
  const newBid = async (body: Record<string, unknown> = { title: 'Free-title bid' }, cookie = member): Promise<BidReply> => {
    const response = await post({ org_id: orgId, ...body }, cookie);
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()) as BidReply;
  };

  it('a bid for a tender records its title, buyer, closing date and the buyer time zone, and starts qualifying', async () => {
    const bid = await newBid({ page_key: TENDER_KEY, due_date: '2026-06-28', goal: 'Win the Hunter lot' });
    assert.match(bid.bid_id, /^bid_[0-9a-f]{16}$/);
    assert.deepEqual(
      { title: bid.title, tender_key: bid.tender_key, buyer: bid.buyer, closing_date: bid.closing_date, closing_at: bid.closing_at, tz: bid.buyer_time_zone },
      { title: TENDER.title, tender_key: TENDER_KEY, buyer: 'Transport for NSW', closing_date: '2026-07-01', closing_at: '2026-07-01T04:00:00.000Z', tz: 'Australia/Sydney' },
    );
    assert.equal(bid.stage, 'qualifying');
    assert.deepEqual(bid.next_stages, ['preparing', 'withdrawn']);
    assert.equal(bid.owner?.email, 'member@harbour.test', 'the creator owns a new bid');
    assert.equal(bid.due_date, '2026-06-28');
    assert.equal(bid.goal, 'Win the Hunter lot');
  });

  it('a free-title bid has no tender fields; a title given with a page_key replaces the tender title', async () => {
    const free = await newBid({ title: 'Council fleet servicing' });
    assert.deepEqual([free.title, free.tender_key, free.closing_date, free.buyer_time_zone], ['Council fleet servicing', null, null, null]);
    const renamed = await newBid({ page_key: TENDER_KEY, title: 'Hunter resurfacing (our lot)' });
    assert.deepEqual([renamed.title, renamed.tender_key], ['Hunter resurfacing (our lot)', TENDER_KEY]);
  });

  it('refuses an unknown page_key (404), neither key nor title (400), an unknown field (400) and another org (404)', async () => {
    const unknown = await post({ org_id: orgId, page_key: 'ffffffffffffffffffffffffffffffff' }, member);
    assert.equal(unknown.status, 404);
    assert.match(((await unknown.json()) as { detail: string }).detail, /No tender has the page_key ffff/);
    const neither = await post({ org_id: orgId }, member);
    assert.equal(neither.status, 400);
    assert.match(((await neither.json()) as { detail: string }).detail, /page_key .*or title/);
    const extra = await post({ org_id: orgId, title: 'x', colour: 'blue' }, member);
    assert.equal(extra.status, 400);
    assert.match(((await extra.json()) as { detail: string }).detail, /colour|takes only/);
    const foreign = await post({ org_id: otherOrgId, title: 'Not mine' }, member);
    assert.equal(foreign.status, 404);
  });

  it('a viewer may not create a bid (403); signed out is 401', async () => {
    const refused = await post({ org_id: orgId, title: 'Viewer bid' }, viewer);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { detail: string }).detail, /viewer.*owner, admin, member/);
    const anonymous = await t.app.request('/v1/bids', jsonRequest('POST', { org_id: orgId, title: 'x' }));
    assert.equal(anonymous.status, 401);
    assert.equal((await get('/v1/bids')).status, 401);
  });

  it('lists only the bids of the caller organisations, newest first, and filters by org_id', async () => {
    t.clock.advance(1000);
    const latest = await newBid({ title: 'Newest bid' });
    const outsiderBid = await post({ org_id: otherOrgId, title: 'Elsewhere bid' }, outsider);
    assert.equal(outsiderBid.status, 201);
    const listed = (await (await get('/v1/bids', viewer)).json()) as { bids: BidReply[] };
    assert.equal(listed.bids[0]!.bid_id, latest.bid_id);
    assert.ok(listed.bids.every((bid) => bid.org_id === orgId), 'no bid of another organisation');
    const filtered = (await (await get(`/v1/bids?org_id=${orgId}`, owner)).json()) as { bids: BidReply[] };
    assert.deepEqual(filtered.bids.map((bid) => bid.bid_id), listed.bids.map((bid) => bid.bid_id));
    assert.equal((await get(`/v1/bids?org_id=${otherOrgId}`, owner)).status, 404);
  });

  it('reads a bid for every member role; a non-member gets the same 404 as a missing bid', async () => {
    const bid = await newBid();
    for (const cookie of [owner, member, viewer]) assert.equal((await get(`/v1/bids/${bid.bid_id}`, cookie)).status, 200);
    const hidden = await get(`/v1/bids/${bid.bid_id}`, outsider);
    const missing = await get('/v1/bids/bid_0000000000000000', outsider);
    assert.equal(hidden.status, 404);
    assert.equal(missing.status, 404);
    assert.deepEqual(await hidden.json(), await missing.json());
    assert.equal((await patch(bid.bid_id, { goal: 'x' }, outsider)).status, 404);
  });

  it('PATCH changes stage, goal, owner and due date; null clears; the viewer gets 403', async () => {
    const bid = await newBid();
    const response = await patch(bid.bid_id, { stage: 'preparing', goal: 'Price sharply', owner: 'OWNER@harbour.test', due_date: '2026-06-25' }, member);
    assert.equal(response.status, 200);
    const changed = (await response.json()) as BidReply;
    assert.deepEqual(
      [changed.stage, changed.goal, changed.owner?.email, changed.due_date, changed.next_stages],
      ['preparing', 'Price sharply', 'owner@harbour.test', '2026-06-25', ['reviewing', 'qualifying', 'withdrawn']],
    );
    const cleared = (await (await patch(bid.bid_id, { goal: null, owner: null, due_date: null }, owner)).json()) as BidReply;
    assert.deepEqual([cleared.stage, cleared.goal, cleared.owner, cleared.due_date], ['preparing', null, null, null]);
    const refused = await patch(bid.bid_id, { goal: 'viewer edit' }, viewer);
    assert.equal(refused.status, 403);
    assert.match(((await refused.json()) as { detail: string }).detail, /viewer/);
  });

  it('PATCH refuses an unknown field, an unknown stage and an owner who is not a member (400)', async () => {
    const bid = await newBid();
    const unknown = await patch(bid.bid_id, { stage: 'preparing', priority: 'high' }, member);
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { detail: string }).detail, /takes only stage, goal, owner, due_date/);
    assert.equal((await patch(bid.bid_id, { stage: 'drafting' }, member)).status, 400);
    const stranger = await patch(bid.bid_id, { owner: 'outsider@elsewhere.test' }, member);
    assert.equal(stranger.status, 400);
    assert.match(((await stranger.json()) as { detail: string }).detail, /not a member/);
    assert.equal(((await (await get(`/v1/bids/${bid.bid_id}`, member)).json()) as BidReply).stage, 'qualifying', 'nothing changed');
  });

  it('a bad stage move is 409 with the reason; final stages stay final', async () => {
    const bid = await newBid();
    const skip = await patch(bid.bid_id, { stage: 'submitted' }, member);
    assert.equal(skip.status, 409);
    assert.equal(((await skip.json()) as { detail: string }).detail, 'A bid in the stage qualifying may move only to preparing or withdrawn, not to submitted.');
    for (const stage of ['preparing', 'reviewing', 'submitted', 'won']) assert.equal((await patch(bid.bid_id, { stage }, member)).status, 200, stage);
    const reopen = await patch(bid.bid_id, { stage: 'preparing' }, member);
    assert.equal(reopen.status, 409);
    assert.match(((await reopen.json()) as { detail: string }).detail, /won, a final stage/);
  });
});
