// The tender-pack fetch (spec, States: Bid document fetch; Limits: 5 per Sydney day, one portal) over the whole
// app and a loopback stand-in for NT Quotations and Tenders Online serving the recorded pages (test/helpers/nt-portal.ts:
// the real capture of /Tender/Details/26396, a page derived from it, a stood-in pack). The same fetch across a
// killed server process is test/bids-pack-fetch-kill.test.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../api/app.ts';
import type { ReleaseStore } from '../api/release-store.ts';
import { TenderIndex } from '../data/search/tender-index.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { createSafeFetcher } from '../lib/safe-fetch.ts';
import { keyFor, PUBLIC_URL, signIn, type SignedIn } from './helpers/access.ts';
import { markBidPaid } from './helpers/bid-payments.ts';
import { TENDER } from './helpers/bid-app.ts';
import { NT_TENDER_URL, PACK_PDF, startPortal, type Portal } from './helpers/nt-portal.ts';
import { testClock } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation } from './helpers/state.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SPACING_MS = 80;

const ntTender = (id: string, key: string) => ({
  ...TENDER,
  tender_key: key,
  source: 'au_nt_qtol',
  source_tag: 'QTOL',
  title: `NT tender ${id}`,
  buyer: 'Department of Logistics and Infrastructure',
  jurisdiction: 'AU-NT',
  url: NT_TENDER_URL(id),
});
const NT_KEY = 'a0000000000000000000000000026396';
const NT_LOGIN_KEY = 'a0000000000000000000000000026395';

describe('tender-pack fetch from NT Quotations and Tenders Online', () => {
  // 23:30 on Wednesday 10 June 2026 in Sydney (AEST): the day's count starts again at 14:00 UTC.
  const clock = testClock('2026-06-10T13:30:00.000Z');
  let portal: Portal;
  let state: StateDb;
  let service: Service;
  let owner: SignedIn;
  let member: SignedIn;
  let viewer: SignedIn;
  let orgId: string;
  let dataDir: string;
  let serviceOptions: (on: StateDb) => Parameters<typeof createService>[0];

  before(async () => {
    portal = await startPortal();
    dataDir = await tempDir('pack-fetch-');
    state = await openStateDb(await testStateLocation(dataDir));
    const tenders = await TenderIndex.build([ntTender('26396', NT_KEY), ntTender('26395', NT_LOGIN_KEY), TENDER], []);
    const store = { state: () => ({ ready: true as const, release: { tenders } }), now: clock.now } as unknown as Pick<ReleaseStore, 'state' | 'now'>;
    serviceOptions = (on: StateDb) => ({
      store,
      state: on,
      publicUrl: PUBLIC_URL,
      burst: false as const,
      now: clock.now,
      bidFilesDir: join(dataDir, 'bid-files'),
      documentsDir: join(dataDir, 'documents'),
      checkers: { poolLimits: { size: 1 } },
      packFetch: { fetch: createSafeFetcher({ testOnlyPermittedAddresses: ['127.0.0.1'] }), portalOrigin: portal.origin, delayMs: SPACING_MS },
      // Back-off short enough to watch a fetch use its attempts up.
      jobs: { retryBaseMs: 50 },
      notice: () => {},
      log: () => {},
    });
    service = await createService(serviceOptions(state));
    owner = await signIn(state, 'owner@territory.test', clock.now());
    member = await signIn(state, 'member@territory.test', clock.now());
    viewer = await signIn(state, 'viewer@territory.test', clock.now());
    const org = (await (await service.app.request('/v1/orgs', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ company_name: 'Territory Civil Pty Ltd' }) })).json()) as Json;
    orgId = org.org_id;
    for (const [who, role] of [[member, 'member'], [viewer, 'viewer']] as const) {
      await state.run('INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, ?, ?)', orgId, who.accountId, role, clock.now().toISOString());
    }
  });
  after(async () => {
    await service.analysisPool.close();
    await state.close();
    await portal.close();
  });

  async function newBid(body: Record<string, string>): Promise<string> {
    const reply = await service.app.request('/v1/bids', { method: 'POST', headers: { ...owner.headers, 'content-type': 'application/json' }, body: JSON.stringify({ org_id: orgId, ...body }) });
    assert.equal(reply.status, 201, await reply.clone().text());
    return ((await reply.json()) as Json).bid_id;
  }
  const status = async (bidId: string, who: SignedIn = owner) => (await (await service.app.request(`/v1/bids/${bidId}/pack/fetch`, { headers: who.headers })).json()) as Json;
  const queue = (bidId: string, headers: Record<string, string> = owner.headers) => service.app.request(`/v1/bids/${bidId}/pack/fetch`, { method: 'POST', headers });
  /** The bid's last fetch once it has ended. */
  async function ended(bidId: string): Promise<Json> {
    for (let waited = 0; waited < 60_000; waited += 50) {
      const last = (await status(bidId)).last_fetch;
      if (last && (last.state === 'succeeded' || last.state === 'failed')) return last;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the fetch did not end within a minute');
  }
  const usedToday = async () => await state.run('DELETE FROM bid_pack_fetches');

  it('offers the fetch for a tender of the portal, with the caller\'s count for the Sydney day', async () => {
    const bidId = await newBid({ page_key: NT_KEY });
    const offered = await status(bidId);
    assert.deepEqual(offered.offer, {
      available: true,
      portal: 'NT Quotations and Tenders Online',
      source: 'au_nt_qtol',
      tender_url: 'https://tendersonline.nt.gov.au/Tender/Details/26396',
      detail: "The tender's documents can be fetched from NT Quotations and Tenders Online into this bid's files.",
    });
    assert.deepEqual(offered.today, { limit: 5, used: 0, remaining: 5, reset_at: '2026-06-10T14:00:00.000Z' });
    assert.equal(offered.last_fetch, null);
  });

  it('does not offer it for a tender of another portal or a free title (422 on POST)', async () => {
    const nsw = await newBid({ page_key: TENDER.tender_key });
    const other = await status(nsw);
    assert.equal(other.offer.available, false);
    assert.match(other.offer.detail, /only from NT Quotations and Tenders Online.*\(au_nsw_buy_nsw\) needs a sign-in/);
    assert.equal((await queue(nsw)).status, 422);
    const free = await newBid({ title: 'Our own opportunity' });
    assert.match((await status(free)).offer.detail, /free title/);
    assert.equal((await queue(free)).status, 422);
    assert.equal(portal.requests.length, 0, 'nothing was fetched');
  });

  it('fetches the pack at once in the background, politely, into the bid\'s files, read like an upload', async () => {
    await usedToday();
    const bidId = await newBid({ page_key: NT_KEY });
    const before = portal.requests.length;
    const queued = await queue(bidId);
    assert.equal(queued.status, 202);
    const fetch = (await queued.json()) as Json;
    assert.equal(fetch.state, 'queued');
    const again = await queue(bidId);
    assert.equal(again.status, 409, 'one fetch at a time per bid');
    assert.match(((await again.json()) as Json).detail, /already (queued|running)/);
    const last = await ended(bidId);
    assert.equal(last.state, 'succeeded', last.detail);
    assert.match(last.detail, /^Fetched T26-1279\.pdf from NT Quotations and Tenders Online into the bid's files: \d+ pages read\.$/);
    const requests = portal.requests.slice(before);
    assert.deepEqual(requests.map((request) => request.path), ['/robots.txt', '/Tender/Details/26396', '/Tender/DownloadProfile/26396']);
    for (let i = 1; i < requests.length; i++) assert.ok(requests[i]!.at - requests[i - 1]!.at >= SPACING_MS - 5, `request ${i} waited the source's spacing (${requests[i]!.at - requests[i - 1]!.at} ms)`);
    assert.ok(requests.every((request) => request.userAgent.startsWith('TenderIntelBot/')), 'the bot names itself');
    const files = ((await (await service.app.request(`/v1/bids/${bidId}/files`, { headers: owner.headers })).json()) as Json).files as Json[];
    assert.equal(files.length, 1);
    assert.deepEqual(last.file_ids, [files[0]!.file_id]);
    assert.equal(files[0]!.filename, 'T26-1279.pdf');
    assert.equal(files[0]!.kind, 'pdf');
    assert.equal(files[0]!.read_status, 'read');
    assert.equal(files[0]!.uploaded_by, 'owner@territory.test', 'the file is the requester\'s');
    assert.equal(files[0]!.sha256, createHash('sha256').update(PACK_PDF).digest('hex'));
    const requirements = ((await (await service.app.request(`/v1/bids/${bidId}/requirements`, { headers: owner.headers })).json()) as Json).requirements as Json[];
    assert.ok(requirements.length > 0, 'its requirements were read, as for an upload');
    assert.ok(requirements.every((requirement) => requirement.source?.file_id === files[0]!.file_id));
  });

  it('keeps to robots.txt: a disallowed download is not fetched', async () => {
    await usedToday();
    portal.robots = 'User-agent: *\nDisallow: /Tender/DownloadProfile/\n';
    try {
      const bidId = await newBid({ page_key: NT_KEY });
      const before = portal.requests.length;
      assert.equal((await queue(bidId)).status, 202);
      const last = await ended(bidId);
      assert.equal(last.state, 'failed');
      assert.match(last.detail, /robots\.txt does not allow fetching \/Tender\/DownloadProfile\/26396/);
      assert.deepEqual(portal.requests.slice(before).map((request) => request.path), ['/robots.txt', '/Tender/Details/26396']);
      assert.deepEqual(last.file_ids, []);
    } finally {
      portal.robots = null;
    }
  });

  it('fails with the reason when the portal answers a web page instead of the documents', async () => {
    await usedToday();
    const bidId = await newBid({ page_key: NT_LOGIN_KEY });
    assert.equal((await queue(bidId)).status, 202);
    const last = await ended(bidId);
    assert.equal(last.state, 'failed');
    assert.match(last.detail, /sent a web page \(a sign-in or error page\?\) for the tender pack/);
    assert.deepEqual(((await (await service.app.request(`/v1/bids/${bidId}/files`, { headers: owner.headers })).json()) as Json).files, []);
  });

  it('allows 5 fetches a caller per Sydney day: the sixth is 429 with the reset time; others and the next day may fetch', async () => {
    await usedToday();
    for (let n = 1; n <= 5; n++) {
      const bidId = await newBid({ page_key: NT_KEY });
      assert.equal((await queue(bidId)).status, 202, `fetch ${n}`);
      await ended(bidId);
    }
    const sixthBid = await newBid({ page_key: NT_KEY });
    const sixth = await queue(sixthBid);
    assert.equal(sixth.status, 429);
    assert.equal(sixth.headers.get('retry-after'), String((Date.parse('2026-06-10T14:00:00.000Z') - clock.now().getTime()) / 1000));
    assert.match(((await sixth.json()) as Json).detail, /fetched 5 tender packs today.*midnight in Sydney \(2026-06-10T14:00:00\.000Z\)/);
    assert.deepEqual((await status(sixthBid)).today, { limit: 5, used: 5, remaining: 0, reset_at: '2026-06-10T14:00:00.000Z' });
    const byMember = await queue(sixthBid, member.headers);
    assert.equal(byMember.status, 202, 'another member has a count of their own');
    await ended(sixthBid);
    assert.equal((await queue(sixthBid, viewer.headers)).status, 403, 'a viewer may not fetch');
    clock.advance(31 * 60 * 1000);
    assert.equal((await queue(sixthBid)).status, 202, 'a new day in Sydney, a new count');
    await ended(sixthBid);
  });

  it('runs on the job table: a fetch whose process stopped after the tender page is taken over by drain and completes, each file fetched once; and takes an API key', async () => {
    await usedToday();
    // The stopped process: a service of its own on its own connection to the same store, closed mid-fetch.
    const stoppedState = await openStateDb(await testStateLocation(dataDir));
    const stopped = await createService({
      ...serviceOptions(stoppedState),
      packFetch: { fetch: createSafeFetcher({ testOnlyPermittedAddresses: ['127.0.0.1'] }), portalOrigin: portal.origin, delayMs: 1_500 },
      jobs: { leaseMs: 300 },
    });
    const bidId = await newBid({ page_key: NT_KEY });
    const before = portal.requests.length;
    const key = await keyFor(state, owner.accountId);
    const queued = await stopped.app.request(`/v1/bids/${bidId}/pack/fetch`, { method: 'POST', headers: key.headers });
    assert.equal(queued.status, 202);
    const { job_id: jobId } = (await state.get<{ job_id: string }>('SELECT job_id FROM bid_pack_fetches WHERE bid_id = ?', bidId))!;
    for (let waited = 0; !await state.get("SELECT 1 FROM job_steps WHERE job_id = ? AND step_key = 'tender_page' AND completed_at IS NOT NULL", jobId); waited += 10) {
      assert.ok(waited < 30_000, 'the tender page step completed');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Between the tender page and the pack (the source's spacing): the process loses its store and stops.
    await stoppedState.close();
    await stopped.jobs.close(0);
    await stopped.analysisPool.close();
    assert.equal((await status(bidId)).last_fetch.state, 'running', 'the fetch is left running under a lease nobody renews');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const drained = await service.app.request('/v1/jobs/drain', { method: 'POST', headers: owner.headers });
    assert.deepEqual(((await drained.json()) as Json).taken_over, [jobId]);
    const last = await ended(bidId);
    assert.equal(last.state, 'succeeded', last.detail);
    assert.deepEqual(portal.requests.slice(before).map((request) => request.path), ['/robots.txt', '/Tender/Details/26396', '/Tender/DownloadProfile/26396'], 'each file fetched once');
    const steps = await state.all<{ step_key: string; attempt: number }>('SELECT step_key, attempt FROM job_steps WHERE job_id = ? AND completed_at IS NOT NULL ORDER BY rowid', jobId);
    assert.deepEqual(steps.map((step) => ({ ...step })), [{ step_key: 'robots', attempt: 1 }, { step_key: 'tender_page', attempt: 1 }, { step_key: 'download', attempt: 2 }, { step_key: 'add_file', attempt: 2 }]);
    assert.deepEqual({ ...(await state.get<{ state: string; attempts: number }>('SELECT state, attempts FROM jobs WHERE job_id = ?', jobId))! }, { state: 'succeeded', attempts: 2 });
    const files = ((await (await service.app.request(`/v1/bids/${bidId}/files`, { headers: owner.headers })).json()) as Json).files as Json[];
    assert.deepEqual(files.map((file) => file.file_id), last.file_ids);
  });

  it('retries a portal that does not answer, with back-off, and ends failed with the last error when the attempts are used up', async () => {
    await usedToday();
    portal.down = true;
    try {
      const bidId = await newBid({ page_key: NT_KEY });
      assert.equal((await queue(bidId)).status, 202);
      const last = await ended(bidId);
      assert.equal(last.state, 'failed');
      assert.match(last.detail, /robots\.txt could not be fetched/);
      const job = (await state.get<{ attempts: number; max_attempts: number }>('SELECT j.attempts, j.max_attempts FROM jobs j JOIN bid_pack_fetches f ON f.job_id = j.job_id WHERE f.bid_id = ?', bidId))!;
      assert.deepEqual([job.attempts, job.max_attempts], [3, 3]);
    } finally {
      portal.down = false;
    }
  });

  it('a run on a paid bid of the portal with no files asks to fetch the pack, and once approved fetches it into the bid', async () => {
    await usedToday();
    portal.robots = null;
    const bidId = await newBid({ page_key: NT_KEY });
    await markBidPaid(state, bidId, clock.now());
    const call = async (method: string, path: string) => {
      const reply = await service.app.request(path, { method, headers: { ...owner.headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, ...(method === 'POST' ? { body: '{}' } : {}) });
      return { status: reply.status, body: (await reply.json()) as Json };
    };
    const started = await call('POST', `/v1/bids/${bidId}/runs`);
    assert.equal(started.status, 201, JSON.stringify(started.body));
    let action: Json | undefined;
    for (let waited = 0; !action && waited < 30_000; waited += 50) {
      action = ((await call('GET', `/v1/bids/${bidId}/actions`)).body.actions as Json[]).find((row) => row.kind === 'fetch_pack' && row.state === 'pending');
      if (!action) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(action, 'the run raised a fetch_pack action');
    assert.equal(action.arguments.tender_url, 'https://tendersonline.nt.gov.au/Tender/Details/26396');
    const downloadsBefore = portal.requests.filter((request) => request.path === '/Tender/DownloadProfile/26396').length;
    const approved = await call('POST', `/v1/bids/${bidId}/actions/${action.action_id}/approve`);
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.hermes_run_id, started.body.run_id);
    const last = await ended(bidId);
    assert.equal(last.state, 'succeeded', last.detail);
    const files = ((await call('GET', `/v1/bids/${bidId}/files`)).body.files as Json[]);
    assert.deepEqual(files.map((file) => file.filename), ['T26-1279.pdf']);
    assert.equal(portal.requests.filter((request) => request.path === '/Tender/DownloadProfile/26396').length, downloadsBefore + 1, 'fetched once');
    await call('POST', `/v1/bids/${bidId}/runs/${started.body.run_id}/stop`);
  });
});
