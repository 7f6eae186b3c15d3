import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { markBidPaid } from './helpers/bid-payments.ts';
import { assertResumedRunEvents, eventually, followEventStream, readEventStream, RUN_LIBRARY, RUN_TENDER, runModelReply, type SseEvent } from './helpers/bid-run.ts';
import { startFakeChatModel, type FakeChatModel } from './helpers/fake-chat-model.ts';
import { signInAs } from './helpers/org-app.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { startServer, type ServerProcess } from './helpers/server-process.ts';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';
import { testDatabaseUrlFor } from './helpers/state.ts';
import { TWO_INSTANCES_SKIP } from './helpers/two-instances.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A bid job taken over by an instance already running (issue 30 §2): instances A and B on one PostgreSQL and one
 * data folder (a deployment's shared release and file folder), both up; a run started on A, its email sent, A
 * killed with SIGKILL inside a draft step. Once A's lease expires B completes the run: first by its worker alone
 * (B had never seen the job, so only its periodic look finds it), then, with A started again and killed again,
 * through POST /v1/jobs/drain on B. Each time no step completes twice, every finding is stored and announced once,
 * the email went once, and the event stream cut by the kill resumes on B from its Last-Event-ID with every event once.
 */
describe('a bid run taken over by a second instance already running', { skip: TWO_INSTANCES_SKIP, timeout: 300_000 }, () => {
  const LEASE_SECONDS = 2;
  let dataDir: string;
  let fake: FakeChatModel;
  let inbox: SmtpInbox;
  let state: StateDb;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: [tenderRow({ title: 'Footpath renewal', closing_date: '2099-12-31' })], sources: [sourceRow()], releaseId: 'release-two-instances-run' });
    fake = await startFakeChatModel();
    fake.reply = runModelReply;
    inbox = await startSmtpInbox();
    env = {
      DATABASE_URL: (await testDatabaseUrlFor(dataDir))!,
      SVC_LLM_URL: fake.baseUrl,
      SVC_LLM_MODEL: 'drafting-model',
      SMTP_URL: inbox.smtpUrl,
      SVC_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      SVC_ANALYSIS_WORKERS: '1',
      // The test polls the run's state; the burst guard is not what it measures.
      SVC_BURST_CAPACITY: '1000',
      SVC_BURST_REFILL_PER_MIN: '60000',
    };
    // One after the other: the first start writes the data folder's bid-link secret, which the second then reads.
    a = await startServer({ dataDir, env });
    b = await startServer({ dataDir, env });
    state = await openStateDb(env['DATABASE_URL']!);
  });

  after(async () => {
    await a?.stop();
    await b?.stop();
    await state?.close();
    await fake.close();
    await inbox.close();
  });

  interface KilledRun {
    cookie: string;
    bidId: string;
    runId: string;
    jobId: string;
    /** The step A was inside when killed, and A's worker's name in the job's lease. */
    stepAtKill: string;
    ownerAtKill: string;
    /** The requirement whose model call A was waiting on. */
    inFlight: string;
    /** The event stream followed on A, cut by the kill. */
    watching: ReturnType<typeof followEventStream>;
    /** Where this run's model calls and emails begin in the fakes' records. */
    firstRequest: number;
    firstMessage: number;
  }

  const call = async (on: ServerProcess, cookie: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${on.url}${path}`, {
      method,
      headers: { cookie, origin: on.url, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };

  /** A paid bid's run started on A, its email approved and sent, A killed with SIGKILL inside a draft step. */
  async function runKilledOnA(owner: string): Promise<KilledRun> {
    const cookie = await signInAs(state, new Date(), owner);
    const upload = async (path: string, name: string, text: string) => {
      const form = new FormData();
      form.set('file', new File([text], name, { type: 'text/plain' }));
      const response = await fetch(`${a.url}${path}`, { method: 'POST', body: form, headers: { cookie, origin: a.url } });
      assert.equal(response.status, 201, await response.text());
    };
    const orgId = (await call(a, cookie, 'POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id as string;
    for (const document of RUN_LIBRARY) await upload(`/v1/orgs/${orgId}/documents`, document.name, document.text);
    const bidId = (await call(a, cookie, 'POST', '/v1/bids', { org_id: orgId, title: 'Footpath renewal, Harbour Street', due_date: '2099-06-30' })).body.bid_id as string;
    await upload(`/v1/bids/${bidId}/files`, 'RFQ-2026-41.txt', RUN_TENDER);
    await markBidPaid(state, bidId, new Date());
    const firstRequest = fake.requests.length;
    const firstMessage = inbox.messages.length;

    const started = await call(a, cookie, 'POST', `/v1/bids/${bidId}/runs`, {});
    assert.equal(started.status, 201);
    const { run_id: runId, job_id: jobId } = started.body as { run_id: string; job_id: string };
    const watching = followEventStream(`${a.url}/v1/bids/${bidId}/runs/${runId}/events`, { cookie });
    const pending = async (kind: string) => ((await call(a, cookie, 'GET', `/v1/bids/${bidId}/actions`)).body.actions as Json[]).find((action) => action.kind === kind && action.state === 'pending');
    const email = await eventually(() => pending('send_clarification'), 'the clarification action');
    assert.equal((await call(a, cookie, 'POST', `/v1/bids/${bidId}/actions/${email.action_id}/approve`)).status, 200);
    const model = await eventually(() => pending('use_model'), 'the language model action');
    assert.equal(inbox.messages.length - firstMessage, 1, 'the email went before the kill');

    // The run's second model call is held: A is killed inside that draft step.
    let releaseHeld: () => void = () => {};
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    fake.hold = async () => {
      if (fake.requests.length - firstRequest >= 2) await held;
    };
    assert.equal((await call(a, cookie, 'POST', `/v1/bids/${bidId}/actions/${model.action_id}/approve`)).status, 200);
    await eventually(() => fake.requests.length - firstRequest >= 2, 'the second model call');
    const inFlight = fake.requests[firstRequest + 1]!.body.messages.at(-1)!.content.split('\n')[1]!;
    const atKill = (await state.get<{ step: string; state: string; lease_owner: string }>('SELECT step, state, lease_owner FROM jobs WHERE job_id = ?', jobId))!;
    assert.deepEqual([atKill.state, atKill.step.startsWith('draft:')], ['running', true], JSON.stringify(atKill));
    // A worker's name is host:pid:random (api/bids/jobs/worker.ts): the job is A's, not B's.
    assert.equal(atKill.lease_owner.split(':').at(-2), String(a.child.pid), `the job is leased by A: ${atKill.lease_owner}`);
    a.child.kill('SIGKILL');
    await once(a.child, 'exit');
    assert.equal(await watching.ended, 'cut');
    fake.hold = null;
    releaseHeld();
    return { cookie, bidId, runId, jobId, stepAtKill: atKill.step, ownerAtKill: atKill.lease_owner, inFlight, watching, firstRequest, firstMessage };
  }

  /** The run finished on B: completed, each step once, each finding once, the email once, the cut stream resumed on B. */
  async function assertCompletedOnceOnB(killed: KilledRun): Promise<void> {
    const { cookie, bidId, runId, jobId } = killed;
    const run = await eventually(async () => {
      const current = (await call(b, cookie, 'GET', `/v1/bids/${bidId}/runs/${runId}`)).body;
      return ['completed', 'failed', 'stopped'].includes(current.state) ? current : null;
    }, 'the run to finish', 120_000);
    assert.equal(run.state, 'completed', JSON.stringify(run));

    // The stream cut by the kill, resumed on B from its Last-Event-ID: every event once.
    const eventsUrl = `${b.url}/v1/bids/${bidId}/runs/${runId}/events`;
    const resumed = await readEventStream(await fetch(eventsUrl, { headers: { cookie, 'last-event-id': killed.watching.events.at(-1)!.id! } }));
    const whole = await readEventStream(await fetch(eventsUrl, { headers: { cookie } }));
    const events = whole.events;
    assertResumedRunEvents(killed.watching.events, resumed.events, events, killed.stepAtKill);
    // Requirements drafted on A were not asked again on B; only the one in flight was asked twice.
    const asked = new Map<string, number>();
    for (const request of fake.requests.slice(killed.firstRequest)) {
      const requirement = request.body.messages.at(-1)!.content.split('\n')[1]!;
      asked.set(requirement, (asked.get(requirement) ?? 0) + 1);
    }
    assert.deepEqual([...asked].filter(([, count]) => count > 1), [[killed.inFlight, 2]]);

    const findings = (await call(b, cookie, 'GET', `/v1/bids/${bidId}/findings?since_seq=0`)).body.findings as Json[];
    const announced = events.filter((event) => event.event === 'finding').map((event) => event.data.finding_id);
    assert.ok(findings.length > 0);
    assert.deepEqual(findings.map((finding) => finding.finding_id), announced);
    assert.equal(new Set(announced).size, announced.length);
    assert.equal((await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM bid_findings WHERE run_id = ?', runId))!.n, findings.length);

    assert.equal(inbox.messages.length - killed.firstMessage, 1, 'the email was not sent again');
    const job = (await call(b, cookie, 'GET', `/v1/bids/${bidId}/jobs/${jobId}`)).body;
    // Every claim is an attempt, each told by run_started or run_resumed: those that parked on a person (the
    // approval may come before the run parks), the one killed, the one that finished; the kill used one of the cap's.
    const claims = (await state.all<{ kind: string }>("SELECT kind FROM bid_run_events WHERE run_id = ? AND kind IN ('run_started', 'run_resumed')", runId)).length;
    assert.deepEqual([job.state, job.attempts], ['succeeded', claims]);
    const counted = (await state.get<{ n: number }>('SELECT attempts - attempts_given_back AS n FROM jobs WHERE job_id = ?', jobId))!.n;
    assert.equal(Number(counted), 2, 'the kill used one attempt');
  }

  it('A killed with kill -9 mid-step: B\'s worker, running all along, takes the job over once A\'s lease expires, unasked, and completes it once', async () => {
    const killed = await runKilledOnA('owner@harbour-two-run.test');
    // No drain and no restart: B looks for claimable jobs every lease period (api/bids/jobs/worker.ts).
    await assertCompletedOnceOnB(killed);
  });

  it('A (started again) killed with kill -9 mid-step: POST /v1/jobs/drain on B takes the job over and completes it once', async () => {
    a = await startServer({ dataDir, env });
    const killed = await runKilledOnA('owner@harbour-two-drain.test');
    // A's lease runs out (unless B's own look has already taken the job over, and holds a lease of its own).
    await eventually(async () => {
      const lease = (await state.get<{ lease_owner: string | null; lease_expires_at: string | null }>('SELECT lease_owner, lease_expires_at FROM jobs WHERE job_id = ?', killed.jobId))!;
      return lease.lease_owner !== killed.ownerAtKill || Date.parse(lease.lease_expires_at!) < Date.now();
    }, 'A\'s lease to expire', 30_000);
    const drained = await call(b, killed.cookie, 'POST', '/v1/jobs/drain');
    assert.equal(drained.status, 200);
    // The drain takes it over, unless B's own look (every lease period) got there in the moment before: B runs it either way.
    assert.ok([...drained.body.taken_over, ...drained.body.running].includes(killed.jobId), JSON.stringify(drained.body));
    await assertCompletedOnceOnB(killed);
  });
});
