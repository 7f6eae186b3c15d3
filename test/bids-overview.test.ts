// GET /v1/bids/{bid}?include=overview: the bid page's one read. Each part must be what its own route answers,
// so the page shows the same thing whichever it reads; without `include` the reply is the bid alone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../api/app.ts';
import { stripeCheckout } from '../api/providers/stripe.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { PUBLIC_URL, signIn, type SignedIn } from './helpers/access.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { eventually } from './helpers/bid-run.ts';
import { markBidPaid } from './helpers/bid-payments.ts';
import { testStateLocation } from './helpers/state.ts';

const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release is loaded yet.' }), now: () => new Date() };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TENDER_TEXT = [
  'Request for Tender RFT-2026-31: Fleet telematics',
  '4.1 The Respondent must hold public liability insurance of at least $20 million.',
  '4.2 The Respondent must provide 24/7 support from an Australian call centre.',
  '5.1 Describe your experience with GPS fleet tracking for councils (weighting 40%).',
].join('\n');

describe('the bid overview', () => {
  let state: StateDb;
  let service: Service;
  let owner: SignedIn;
  let viewer: SignedIn;
  let bidId: string;

  before(async () => {
    const dataDir = await tempDir('bid-overview-');
    state = await openStateDb(await testStateLocation(dataDir));
    service = await createService({
      store: NO_RELEASE,
      state,
      publicUrl: PUBLIC_URL,
      burst: false,
      bidPrice: { amount: 149, currency: 'AUD' },
      payments: stripeCheckout({ secretKey: 'sk_test_overview', webhookSecret: 'whsec_overview' }),
      bidFilesDir: `${dataDir}/bid-files`,
      documentsDir: `${dataDir}/documents`,
      checkers: { poolLimits: { size: 1 } },
      notice: () => {},
      log: () => {},
    });
    owner = await signIn(state, 'owner@fleet.test');
    viewer = await signIn(state, 'viewer@fleet.test');
    const org = (await (await service.app.request('/v1/orgs', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ company_name: 'Harbour Fleet Services' }) })).json()) as Json;
    await state.run("INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, 'viewer', ?)", org.org_id, viewer.accountId, new Date().toISOString());
    const bid = (await (await service.app.request('/v1/bids', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ org_id: org.org_id, title: 'Fleet telematics' }) })).json()) as Json;
    bidId = bid.bid_id;
    const form = new FormData();
    form.append('file', new Blob([TENDER_TEXT], { type: 'text/plain' }), 'rft.txt');
    const uploaded = await service.app.request(`/v1/bids/${bidId}/files`, { method: 'POST', headers: owner.headers, body: form });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    assert.equal((await service.app.request(`/v1/bids/${bidId}/plan/recompute`, { method: 'POST', headers: owner.headers })).status, 200);
    await service.app.request(`/v1/bids/${bidId}/thread`, { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ text: 'Insurance certificate is with the broker.' }) });
  });
  after(async () => {
    await service.stopBackground();
    await service.analysisPool.close();
    await state.close();
  });

  const read = async (path: string, who: SignedIn = owner) => {
    const reply = await service.app.request(path, { headers: who.headers });
    return { status: reply.status, body: (await reply.json()) as Json };
  };

  it('gives each part exactly as its own route does, in one call', async () => {
    const { status, body } = await read(`/v1/bids/${bidId}?include=overview`);
    assert.equal(status, 200);
    const { overview, ...bid } = body;
    assert.deepEqual(bid, (await read(`/v1/bids/${bidId}`)).body, 'the bid fields are the plain read\'s');
    assert.deepEqual(overview.files, (await read(`/v1/bids/${bidId}/files`)).body.files);
    assert.ok(overview.requirements.length >= 3, `requirements were read from the file: ${JSON.stringify(overview.requirements.map((r: Json) => r.text))}`);
    assert.deepEqual(overview.requirements, (await read(`/v1/bids/${bidId}/requirements`)).body.requirements);
    assert.deepEqual(overview.drafts, (await read(`/v1/bids/${bidId}/drafts`)).body.drafts);
    assert.deepEqual(overview.gaps, (await read(`/v1/bids/${bidId}/gaps`)).body);
    assert.deepEqual(overview.plan, (await read(`/v1/bids/${bidId}/plan`)).body);
    assert.deepEqual(overview.thread, (await read(`/v1/bids/${bidId}/thread`)).body.messages);
    const worth = await read(`/v1/bids/${bidId}/worth-bidding`);
    assert.equal(worth.status, 503);
    assert.deepEqual(overview.worth_bidding, worth.body);
    assert.equal(overview.role, 'owner');
    assert.equal(overview.may_write, true);
    assert.deepEqual(overview.payment, { paid: false, available: true, amount: 149, currency: 'AUD', detail: 'Preparing this bid costs AUD 149.00, paid once.', checkout: null });
    const { today: _today, ...packFetch } = (await read(`/v1/bids/${bidId}/pack/fetch`)).body;
    assert.deepEqual(overview.pack_fetch, packFetch);
    assert.equal(overview.pack_fetch.offer.available, false, 'a free-title bid has no pack to fetch');
    assert.deepEqual(overview.run, { latest: null, pending_actions: [], decided_actions: [], findings: 0 }, 'no run yet');
  });

  it("gives the latest run as GET …/runs/{run} does, the actions waiting in plain words, and the run's findings count", async () => {
    await markBidPaid(state, bidId, new Date());
    const started = await service.app.request(`/v1/bids/${bidId}/runs`, { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(started.status, 201, await started.clone().text());
    const runId = ((await started.json()) as Json).run_id as string;
    const run = await eventually(async () => {
      const body = (await read(`/v1/bids/${bidId}/runs/${runId}`)).body;
      return body.state === 'completed' && body;
    }, 'the run completes');
    const { overview } = (await read(`/v1/bids/${bidId}?include=overview`, viewer)).body;
    assert.deepEqual(overview.run.latest, {
      run_id: runId,
      state: 'completed',
      step: run.step,
      progress: run.progress,
      stop_requested: false,
      error: null,
      last_seq: run.last_seq,
      started_at: run.created_at,
      ended_at: run.finished_at,
    });
    const findings = (await read(`/v1/bids/${bidId}/findings`)).body.findings as Json[];
    assert.ok(findings.length > 0, 'the unanswered mandatory requirements are findings');
    assert.equal(overview.run.findings, findings.length);
    const pending = ((await read(`/v1/bids/${bidId}/actions`)).body.actions as Json[]).filter((action) => action.state === 'pending');
    assert.deepEqual(overview.run.pending_actions.map((action: Json) => [action.action_id, action.kind, action.title, action.waits]), pending.map((action) => [action.action_id, 'sign_off', action.title, false]));
    assert.deepEqual(overview.run.pending_actions[0].in_words, [`You sign the response off as ready to lodge; the run it follows left ${findings.length} finding${findings.length === 1 ? '' : 's'}. Nothing is sent.`]);
    assert.deepEqual(overview.run.decided_actions, [], 'nothing decided yet');
    // Decided: the overview names who decided it and when, as GET …/actions does, and what it did.
    const signOff = pending[0]!;
    const decided = await service.app.request(`/v1/bids/${bidId}/actions/${signOff.action_id}/reject`, { method: 'POST', headers: owner.headers });
    assert.equal(decided.status, 200, await decided.clone().text());
    const listed = ((await read(`/v1/bids/${bidId}/actions`)).body.actions as Json[]).find((action) => action.action_id === signOff.action_id)!;
    const after = (await read(`/v1/bids/${bidId}?include=overview`, viewer)).body.overview;
    assert.deepEqual(after.run.pending_actions, []);
    assert.deepEqual(after.run.decided_actions, [{
      action_id: signOff.action_id,
      kind: 'sign_off',
      title: signOff.title,
      state: 'rejected',
      decided_by: 'owner@fleet.test',
      decided_at: listed.decided_at,
      came_to: 'The response is not signed off.',
    }]);
  });

  it('reads an organisation in one call (GET /v1/orgs/{org}): membership, profile, members and documents as their own routes give them', async () => {
    const orgId = (await read(`/v1/bids/${bidId}`)).body.org_id as string;
    const form = new FormData();
    form.append('file', new Blob(['Capability statement: GPS telematics in 900 council vehicles.'], { type: 'text/plain' }), 'capability.txt');
    assert.equal((await service.app.request(`/v1/orgs/${orgId}/documents`, { method: 'POST', headers: owner.headers, body: form })).status, 201);
    const { status, body } = await read(`/v1/orgs/${orgId}`, viewer);
    assert.equal(status, 200);
    const { profile, members, documents, ...membership } = body;
    assert.deepEqual(membership, (await read('/v1/orgs', viewer)).body.orgs.find((org: Json) => org.org_id === orgId));
    assert.equal(membership.role, 'viewer');
    assert.deepEqual(profile, (await read(`/v1/orgs/${orgId}/profile`, viewer)).body);
    assert.deepEqual(members, (await read(`/v1/orgs/${orgId}/members`, viewer)).body.members);
    assert.deepEqual(documents, (await read(`/v1/orgs/${orgId}/documents`, viewer)).body.documents);
    assert.equal(documents.length, 1);
    const outsider = await signIn(state, 'outsider@elsewhere.test');
    assert.equal((await read(`/v1/orgs/${orgId}`, outsider)).status, 404, 'a non-member gets the same 404 as a missing organisation');
  });

  it('tells a viewer its role, and leaves the overview out unless asked', async () => {
    const { body } = await read(`/v1/bids/${bidId}?include=overview`, viewer);
    assert.equal(body.overview.role, 'viewer');
    assert.equal(body.overview.may_write, false);
    assert.equal((await read(`/v1/bids/${bidId}`, viewer)).body.overview, undefined);
    const unknown = await read(`/v1/bids/${bidId}?include=everything`);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /include/);
  });
});
