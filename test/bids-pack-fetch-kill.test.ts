import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { after, before, describe, it, test } from 'node:test';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { packPortalTestOrigin } from '../lib/config.ts';
import { eventually } from './helpers/bid-run.ts';
import { NT_TENDER_URL, PACK_PDF, startPortal, type Portal } from './helpers/nt-portal.ts';
import { sessionCalls, signInAs } from './helpers/org-app.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { testStateLocation } from './helpers/state.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TENDER_PAGE = '/Tender/Details/26396';
const DOWNLOAD = '/Tender/DownloadProfile/26396';

/**
 * A tender-pack fetch that survives a killed server (issue 27 §1 and §5): the real server as a child process, its
 * pack fetches pointed at the loopback portal by SVC_TEST_PACK_PORTAL_ORIGIN, a fetch queued, the server killed
 * with SIGKILL while the pack's download is in flight (the portal holds its answer), a new server on the same data,
 * POST /v1/jobs/drain. The fetch completes; robots.txt and the tender page, whose steps completed before the kill,
 * are not asked again; the download the kill cut is asked once more; the pack joins the bid's files once.
 */
describe('a tender-pack fetch across a killed server', () => {
  const LEASE_SECONDS = 2;
  let dataDir: string;
  let portal: Portal;
  let state: StateDb;
  let server: ServerProcess | null = null;
  const tender = tenderRow({
    source: 'au_nt_qtol',
    source_tag: 'QTOL',
    title: 'NT tender 26396',
    buyer: 'Department of Logistics and Infrastructure',
    jurisdiction: 'AU-NT',
    url: NT_TENDER_URL('26396'),
    closing_date: '2099-12-31',
  });

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tender], sources: [sourceRow({ id: 'au_nt_qtol', tag: 'QTOL', name: 'NT Quotations and Tenders Online', jurisdiction: 'AU-NT' })], releaseId: 'release-pack-kill' });
    portal = await startPortal();
  });

  after(async () => {
    await server?.stop();
    await state?.close();
    await portal.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid-download, a new server, drain: the fetch completes, no completed request asked again, the pack kept once', { timeout: 180_000 }, async () => {
    const env = {
      SVC_TEST_PACK_PORTAL_ORIGIN: portal.origin,
      SVC_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      SVC_ANALYSIS_WORKERS: '1',
      // The test polls the fetch's state; the burst guard is not what it measures.
      SVC_BURST_CAPACITY: '1000',
      SVC_BURST_REFILL_PER_MIN: '60000',
    };
    let releaseDownload: () => void = () => {};
    const downloadHeld = new Promise<void>((resolve) => (releaseDownload = resolve));
    portal.hold = (path) => (path === DOWNLOAD ? downloadHeld : null);

    server = await startServer({ dataDir, env });
    await eventually(() => server!.output().includes(`tender-pack fetches go to ${portal.origin} (SVC_TEST_PACK_PORTAL_ORIGIN)`), 'the server to say where pack fetches go', 10_000);
    state = await openStateDb(await testStateLocation(dataDir));
    const cookie = await signInAs(state, new Date(), 'owner@territory.test');
    const call = sessionCalls((path, init) => fetch(`${server!.url}${path}`, init), cookie, () => server!.url);
    const orgId = (await call('POST', '/v1/orgs', { company_name: 'Territory Civil Pty Ltd' })).body.org_id as string;
    const bidId = (await call('POST', '/v1/bids', { org_id: orgId, page_key: tender.tender_key })).body.bid_id as string;
    assert.equal((await call('GET', `/v1/bids/${bidId}/pack/fetch`)).body.offer.available, true);

    const queued = await call('POST', `/v1/bids/${bidId}/pack/fetch`);
    assert.equal(queued.status, 202, JSON.stringify(queued.body));
    const { job_id: jobId } = (await state.get<{ job_id: string }>('SELECT job_id FROM bid_pack_fetches WHERE bid_id = ?', bidId))!;
    await eventually(() => portal.requests.some((request) => request.path === DOWNLOAD), 'the download to reach the portal', 60_000);
    const atKill = (await state.get<{ state: string; step: string | null }>('SELECT state, step FROM jobs WHERE job_id = ?', jobId))!;
    const completed = await state.all<{ step_key: string }>('SELECT step_key FROM job_steps WHERE job_id = ? AND completed_at IS NOT NULL ORDER BY step_key', jobId);
    assert.deepEqual([atKill.state, atKill.step], ['running', 'download'], 'killed inside the download step');
    assert.deepEqual(completed.map((step) => step.step_key), ['robots', 'tender_page']);
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    portal.hold = null;
    releaseDownload();

    server = await startServer({ dataDir, env });
    // The killed worker's lease runs out; drain takes the job over (unless the new worker's own wake-up got there first).
    await eventually(async () => {
      const lease = (await state.get<{ lease_expires_at: string | null }>('SELECT lease_expires_at FROM jobs WHERE job_id = ?', jobId))!;
      return lease.lease_expires_at === null || Date.parse(lease.lease_expires_at) < Date.now();
    }, 'the dead lease to expire', 30_000);
    const drained = await call('POST', '/v1/jobs/drain');
    assert.equal(drained.status, 200, JSON.stringify(drained.body));
    const last = await eventually(async () => {
      const fetched = (await call('GET', `/v1/bids/${bidId}/pack/fetch`)).body.last_fetch as Json | null;
      return fetched && ['succeeded', 'failed'].includes(fetched.state) ? fetched : null;
    }, 'the fetch to end', 60_000);
    assert.equal(last.state, 'succeeded', last.detail);

    assert.deepEqual(portal.requests.map((request) => request.path), ['/robots.txt', TENDER_PAGE, DOWNLOAD, DOWNLOAD], 'only the download the kill cut was asked again');
    const steps = await state.all<{ step_key: string; attempt: number }>('SELECT step_key, attempt FROM job_steps WHERE job_id = ? AND completed_at IS NOT NULL ORDER BY completed_at, step_key', jobId);
    assert.deepEqual(steps.map((step) => ({ ...step })), [{ step_key: 'robots', attempt: 1 }, { step_key: 'tender_page', attempt: 1 }, { step_key: 'download', attempt: 2 }, { step_key: 'add_file', attempt: 2 }]);
    assert.deepEqual({ ...(await state.get<{ state: string; attempts: number }>('SELECT state, attempts FROM jobs WHERE job_id = ?', jobId))! }, { state: 'succeeded', attempts: 2 });
    const files = (await call('GET', `/v1/bids/${bidId}/files`)).body.files as Json[];
    assert.deepEqual(files.map((file) => file.sha256), [createHash('sha256').update(PACK_PDF).digest('hex')], 'the pack joined the files once');
    assert.deepEqual(last.file_ids, [files[0]!.file_id]);
  });
});

test('SVC_TEST_PACK_PORTAL_ORIGIN names exactly a loopback origin, or the server does not start; unset, nothing is let through', () => {
  const saved = process.env.SVC_TEST_PACK_PORTAL_ORIGIN;
  try {
    delete process.env.SVC_TEST_PACK_PORTAL_ORIGIN;
    assert.equal(packPortalTestOrigin(), undefined);
    process.env.SVC_TEST_PACK_PORTAL_ORIGIN = 'http://127.0.0.1:41234';
    assert.deepEqual(packPortalTestOrigin(), { origin: 'http://127.0.0.1:41234', address: '127.0.0.1' });
    process.env.SVC_TEST_PACK_PORTAL_ORIGIN = 'http://[::1]:41234';
    assert.deepEqual(packPortalTestOrigin(), { origin: 'http://[::1]:41234', address: '::1' });
    for (const refused of ['http://10.0.0.7:80', 'http://localhost:41234', 'http://127.0.0.1:41234/', 'http://127.0.0.1', 'https://127.0.0.1:41234', 'http://127.0.0.1:0', 'http://169.254.169.254:80', 'https://tendersonline.nt.gov.au']) {
      process.env.SVC_TEST_PACK_PORTAL_ORIGIN = refused;
      assert.throws(() => packPortalTestOrigin(), /SVC_TEST_PACK_PORTAL_ORIGIN is for tests and must be exactly/, refused);
    }
  } finally {
    if (saved === undefined) delete process.env.SVC_TEST_PACK_PORTAL_ORIGIN;
    else process.env.SVC_TEST_PACK_PORTAL_ORIGIN = saved;
  }
});
