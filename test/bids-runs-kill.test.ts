import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { markBidPaid } from './helpers/bid-payments.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { assertResumedRunEvents, eventually, followEventStream, readEventStream, RUN_LIBRARY, RUN_TENDER, runModelReply, type SseEvent } from './helpers/bid-run.ts';
import { startFakeChatModel, type FakeChatModel } from './helpers/fake-chat-model.ts';
import { sessionCalls, signInAs } from './helpers/org-app.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';
import { testStateLocation } from './helpers/state.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A run that survives a killed server (issue 27 §1): the real server as a child process, a run started, its
 * email approved and sent, the server killed with SIGKILL while a draft waits on the language model, a new
 * server started on the same data, POST /v1/jobs/drain. The run completes; no step completes twice; every
 * finding is stored once and announced once; the email went once; and an event stream cut by the kill,
 * resumed from its Last-Event-ID on the new server, holds every event exactly once.
 */
describe('a bid run across a killed server', () => {
  const LEASE_SECONDS = 2;
  let dataDir: string;
  let fake: FakeChatModel;
  let inbox: SmtpInbox;
  let state: StateDb;
  let server: ServerProcess | null = null;

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Footpath renewal', closing_date: '2099-12-31' })], sources: [sourceRow()], releaseId: 'release-runs-kill' });
    fake = await startFakeChatModel();
    fake.reply = runModelReply;
    inbox = await startSmtpInbox();
  });

  after(async () => {
    await server?.stop();
    await state?.close();
    await fake.close();
    await inbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('kill -9 mid-step, a new server, drain: the run completes with no step done twice, no finding lost or doubled, no email sent twice', { timeout: 240_000 }, async () => {
    const env = {
      SVC_LLM_URL: fake.baseUrl,
      SVC_LLM_MODEL: 'drafting-model',
      SMTP_URL: inbox.smtpUrl,
      SVC_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      SVC_ANALYSIS_WORKERS: '1',
      // The test polls the run's state; the burst guard is not what it measures.
      SVC_BURST_CAPACITY: '1000',
      SVC_BURST_REFILL_PER_MIN: '60000',
    };
    server = await startServer({ dataDir, env });
    // The test signs in through the same state file the server uses (WAL: both processes read and write it).
    state = await openStateDb(await testStateLocation(dataDir));
    const cookie = await signInAs(state, new Date(), 'owner@harbour.test');
    const call = sessionCalls((path, init) => fetch(`${server!.url}${path}`, init), cookie, () => server!.url);
    const upload = async (path: string, name: string, text: string) => {
      const form = new FormData();
      form.set('file', new File([text], name, { type: 'text/plain' }));
      const response = await fetch(`${server!.url}${path}`, { method: 'POST', body: form, headers: { cookie, origin: server!.url } });
      assert.equal(response.status, 201, await response.text());
    };
    const orgId = (await call('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id as string;
    for (const document of RUN_LIBRARY) await upload(`/v1/orgs/${orgId}/documents`, document.name, document.text);
    const bidId = (await call('POST', '/v1/bids', { org_id: orgId, title: 'Footpath renewal, Harbour Street', due_date: '2099-06-30' })).body.bid_id as string;
    await upload(`/v1/bids/${bidId}/files`, 'RFQ-2026-41.txt', RUN_TENDER);
    await markBidPaid(state, bidId, new Date());

    const started = await call('POST', `/v1/bids/${bidId}/runs`, {});
    assert.equal(started.status, 201);
    const { run_id: runId, job_id: jobId } = started.body as { run_id: string; job_id: string };
    const eventsPath = `/v1/bids/${bidId}/runs/${runId}/events`;
    const watching = followEventStream(`${server.url}${eventsPath}`, { cookie });
    const pending = async (kind: string) => ((await call('GET', `/v1/bids/${bidId}/actions`)).body.actions as Json[]).find((action) => action.kind === kind && action.state === 'pending');

    const email = await eventually(() => pending('send_clarification'), 'the clarification action', 60_000);
    assert.equal((await call('POST', `/v1/bids/${bidId}/actions/${email.action_id}/approve`)).status, 200);
    const model = await eventually(() => pending('use_model'), 'the language model action', 60_000);
    assert.equal(inbox.messages.length, 1, 'the email went before the kill');

    // The second requirement's model call is held: the server is killed inside that draft step.
    let releaseHeld: () => void = () => {};
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    fake.hold = async () => {
      if (fake.requests.length >= 2) await held;
    };
    assert.equal((await call('POST', `/v1/bids/${bidId}/actions/${model.action_id}/approve`)).status, 200);
    await eventually(() => fake.requests.length >= 2, 'the second model call', 60_000);
    const inFlight = fake.requests[1]!.body.messages.at(-1)!.content.split('\n')[1]!;
    const atKill = (await state.get<{ step: string; state: string }>('SELECT step, state FROM jobs WHERE job_id = ?', jobId))!;
    assert.deepEqual([atKill.state, atKill.step.startsWith('draft:')], ['running', true], JSON.stringify(atKill));
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');
    assert.equal(await watching.ended, 'cut');
    fake.hold = null;
    releaseHeld();

    server = await startServer({ dataDir, env });
    // The killed worker's lease runs out; drain takes the job over (unless the new worker's own wake-up got there first).
    await eventually(async () => {
      const lease = (await state.get<{ lease_expires_at: string | null; lease_owner: string | null }>('SELECT lease_expires_at, lease_owner FROM jobs WHERE job_id = ?', jobId))!;
      return lease.lease_expires_at === null || Date.parse(lease.lease_expires_at) < Date.now();
    }, 'the dead lease to expire', 30_000);
    const drained = await call('POST', '/v1/jobs/drain');
    assert.equal(drained.status, 200);
    const run = await eventually(async () => {
      const current = (await call('GET', `/v1/bids/${bidId}/runs/${runId}`)).body;
      return ['completed', 'failed', 'stopped'].includes(current.state) ? current : null;
    }, 'the run to finish', 120_000);
    assert.equal(run.state, 'completed', JSON.stringify(run));

    // The stream cut by the kill, resumed on the new server from its Last-Event-ID: every event once.
    const lastSeen = watching.events.at(-1)!.id!;
    const resumed = await readEventStream(await fetch(`${server.url}${eventsPath}`, { headers: { cookie, 'last-event-id': lastSeen } }));
    const whole = await readEventStream(await fetch(`${server.url}${eventsPath}`, { headers: { cookie } }));
    const events = whole.events;
    assertResumedRunEvents(watching.events, resumed.events, events, atKill.step);
    // Requirements drafted before the kill were not asked again; only the one in flight was asked twice.
    const asked = new Map<string, number>();
    for (const request of fake.requests) {
      const requirement = request.body.messages.at(-1)!.content.split('\n')[1]!;
      asked.set(requirement, (asked.get(requirement) ?? 0) + 1);
    }
    assert.deepEqual([...asked].filter(([, count]) => count > 1), [[inFlight, 2]]);

    const findings = (await call('GET', `/v1/bids/${bidId}/findings?since_seq=0`)).body.findings as Json[];
    const announced = events.filter((event) => event.event === 'finding').map((event) => event.data.finding_id);
    assert.ok(findings.length > 0);
    assert.deepEqual(findings.map((finding) => finding.finding_id), announced);
    assert.equal(new Set(announced).size, announced.length);
    assert.equal((await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM bid_findings WHERE run_id = ?', runId))!.n, findings.length);

    assert.equal(inbox.messages.length, 1, 'the email was not sent again');
    const job = (await call('GET', `/v1/bids/${bidId}/jobs/${jobId}`)).body;
    // Every claim is an attempt, each told by run_started or run_resumed: those that parked on a person (the
    // approval may come before the run parks), the one killed, the one that finished; the crash used one of the cap's.
    const claims = (await state.all<{ kind: string }>("SELECT kind FROM bid_run_events WHERE run_id = ? AND kind IN ('run_started', 'run_resumed')", runId)).length;
    assert.deepEqual([job.state, job.attempts], ['succeeded', claims]);
    const counted = (await state.get<{ n: number }>('SELECT attempts - attempts_given_back AS n FROM jobs WHERE job_id = ?', jobId))!.n;
    assert.equal(Number(counted), 2, 'the crash used one attempt');
  });
});
