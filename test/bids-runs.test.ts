import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../api/app.ts';
import { markBidPaid, withdrawBidPayment } from './helpers/bid-payments.ts';
import { chatModelFromEnv, unconfiguredChatModel, type ChatModel } from '../api/providers/chat-model.ts';
import { recordBidFile } from '../api/bids/files.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { createMailer } from '../lib/mailer.ts';
import { eventually, readEventStream, RUN_LIBRARY, RUN_TENDER, runModelReply, type SseEvent } from './helpers/bid-run.ts';
import { startFakeChatModel, type FakeChatModel } from './helpers/fake-chat-model.ts';
import { PUBLIC_URL, sessionCalls, signInAs, testClock } from './helpers/org-app.ts';
import { decodedMessage, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation } from './helpers/state.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Bid runs in the whole app (issue 27 §1-3): quote, start, the one-live-run rule and payment, the actions a run
 * waits on and their decisions (each row of the spec's States table for bid actions), the email sent once
 * through a real SMTP server on loopback, drafts that keep only the passages the model cites, compliance
 * findings, the event stream with its resume, stop at a step boundary, and the chat showing what runs.
 */
describe('bid runs, their events, findings and actions', () => {
  const clock = testClock('2026-06-10T02:00:00.000Z');
  let dataDir: string;
  let state: StateDb;
  let service: Service;
  let fake: FakeChatModel;
  let inbox: SmtpInbox;
  let owner: string, viewer: string, outsider: string;
  let orgId: string, bidId: string, otherBidId: string;
  // The model the app drafts with: the local fake, behind a gate a test may close to hold a draft mid-step.
  let gate: Promise<void> = Promise.resolve();
  let atGate = 0;
  let drafting: ChatModel;
  // Sends that fail before the mail server is reached again, as a mail server refusing for a while.
  let mailFailures = 0;

  const request = async (method: string, path: string, cookie: string, body?: unknown) => {
    const response = await service.app.request(path, {
      method,
      headers: { cookie, origin: PUBLIC_URL, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const get = (path: string, cookie = owner) => request('GET', path, cookie);
  const post = (path: string, cookie = owner, body?: unknown) => request('POST', path, cookie, body);
  const runOf = async (runId: string) => (await get(`/v1/bids/${bidId}/runs/${runId}`)).body;
  const untilState = (runId: string, ...states: string[]) => eventually(async () => {
    const run = await runOf(runId);
    return states.includes(run.state) ? run : null;
  }, `run ${runId} to be ${states.join(' or ')}`);
  const events = async (runId: string, headers: Record<string, string> = {}, query = '') =>
    readEventStream(await service.app.request(`/v1/bids/${bidId}/runs/${runId}/events${query}`, { headers: { cookie: owner, ...headers } }));
  const eventsSoFar = async (runId: string) => (await state.all<{ kind: string; data: string }>('SELECT kind, data FROM bid_run_events WHERE run_id = ? ORDER BY seq', runId)).map((row) => ({ kind: row.kind, data: JSON.parse(row.data) as Json }));
  const pendingAction = async (kind: string) => (await get(`/v1/bids/${bidId}/actions`)).body.actions.find((action: Json) => action.kind === kind && action.state === 'pending');

  before(async () => {
    dataDir = await tempDir('bids-runs-');
    state = await openStateDb(await testStateLocation(dataDir));
    fake = await startFakeChatModel();
    fake.reply = runModelReply;
    inbox = await startSmtpInbox();
    const smtp = createMailer({ smtpUrl: inbox.smtpUrl, outboxDir: join(dataDir, 'outbox') });
    const real = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    drafting = {
      model: real.model,
      complete: async (messages) => {
        atGate++;
        await gate;
        atGate--;
        return real.complete(messages);
      },
    };
    service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: clock.now },
      state,
      now: clock.now,
      publicUrl: PUBLIC_URL,
      burst: false,
      mailer: {
        description: 'the test inbox',
        send: async (message) => {
          if (mailFailures > 0) {
            mailFailures--;
            throw new Error('421 4.3.2 the mail server is not accepting messages now');
          }
          await smtp.send(message);
        },
      },
      jobs: { retryBaseMs: 20 },
      documentsDir: join(dataDir, 'state', 'documents'),
      bidFilesDir: join(dataDir, 'state', 'bid-files'),
      chatModel: drafting,
      bidPrice: { amount: 49_00, currency: 'AUD' },
      runEventStream: { retryMs: 1500, pollMs: 200 },
    });
    owner = await signInAs(state, clock.now(), 'owner@harbour.test');
    viewer = await signInAs(state, clock.now(), 'viewer@harbour.test');
    outsider = await signInAs(state, clock.now(), 'outsider@elsewhere.test');
    orgId = (await post('/v1/orgs', owner, { company_name: 'Harbour Civil Pty Ltd' })).body.org_id;
    await state.run("INSERT INTO memberships (org_id, account_id, role, joined_at) SELECT ?, account_id, 'viewer', ? FROM accounts WHERE email = 'viewer@harbour.test'", orgId, clock.now().toISOString());
    const upload = async (path: string, name: string, text: string) => {
      const form = new FormData();
      form.set('file', new File([text], name, { type: 'text/plain' }));
      const response = await service.app.request(path, { method: 'POST', body: form, headers: { cookie: owner, origin: PUBLIC_URL } });
      assert.equal(response.status, 201, await response.clone().text());
    };
    for (const document of RUN_LIBRARY) await upload(`/v1/orgs/${orgId}/documents`, document.name, document.text);
    bidId = (await post('/v1/bids', owner, { org_id: orgId, title: 'Footpath renewal, Harbour Street', due_date: '2026-07-20' })).body.bid_id;
    otherBidId = (await post('/v1/bids', owner, { org_id: orgId, title: 'Another bid' })).body.bid_id;
    await upload(`/v1/bids/${bidId}/files`, 'RFQ-2026-41.txt', RUN_TENDER);
  });

  after(async () => {
    await service.stopBackground();
    await service.analysisPool.close();
    await state.close();
    await fake.close();
    await inbox.close();
  });

  it('the quote says what a run does and that it needs the paid checkout; an unpaid bid is refused a run with 402', async () => {
    const quote = await get(`/v1/bids/${bidId}/runs/quote`, viewer);
    assert.equal(quote.status, 200);
    assert.deepEqual([quote.body.paid, quote.body.price, quote.body.checkout, quote.body.language_model, quote.body.live_run], [false, { amount: 4900, currency: 'AUD' }, `POST /v1/bids/${bidId}/checkout`, 'drafting-model', null]);
    assert.deepEqual([quote.body.files.readable, quote.body.requirements], [1, 5]);
    assert.ok(quote.body.actions.some((action: string) => action.startsWith('use_model')));
    const refused = await post(`/v1/bids/${bidId}/runs`);
    assert.equal(refused.status, 402);
    assert.match(refused.body.detail, /not paid for.*POST \/v1\/bids\/bid_\w+\/checkout/);
    assert.equal((await post(`/v1/bids/${bidId}/runs`, viewer)).status, 403);
    assert.equal((await post(`/v1/bids/${bidId}/runs`, outsider)).status, 404);
    assert.equal((await service.app.request(`/v1/bids/${bidId}/runs/quote`)).status, 401);
    assert.equal((await post(`/v1/bids/${bidId}/runs`, owner, { mode: 'fast' })).status, 400, 'an unknown field');
  });

  let runId: string;
  let jobId: string;

  it('a paid bid starts a run (201, queued); a second while it is live is 409', async () => {
    await markBidPaid(state, bidId, clock.now());
    const started = await post(`/v1/bids/${bidId}/runs`, owner, {});
    assert.equal(started.status, 201);
    assert.ok(['queued', 'running'].includes(started.body.state), started.body.state);
    ({ run_id: runId, job_id: jobId } = started.body);
    assert.equal((await state.get<{ kind: string }>('SELECT kind FROM bid_run_events WHERE run_id = ? ORDER BY seq LIMIT 1', runId))!.kind, 'run_queued');
    const again = await post(`/v1/bids/${bidId}/runs`);
    assert.equal(again.status, 409);
    assert.match(again.body.detail, new RegExp(`already has a run \\(${runId}`));
  });

  it('the run waits on a person before emailing the buyer: the action holds exactly what approval sends, and the chat says so', async () => {
    const waiting = await untilState(runId, 'waiting');
    const action = await pendingAction('send_clarification');
    assert.deepEqual(waiting.pending_actions, [action.action_id]);
    assert.equal(action.run_id, runId);
    assert.deepEqual([action.arguments.to, action.arguments.reply_to, action.arguments.subject], ['tenders@harbourcouncil.example', 'owner@harbour.test', 'Clarification request: Footpath renewal, Harbour Street']);
    assert.match(action.arguments.text, /1\. The documents list "Schedule 1 - Form of Quotation" as a returnable schedule/);
    assert.match(action.arguments.text, /2\. The documents list "Schedule 2 - Pricing Schedule"/);
    const chat = (await get(`/v1/bids/${bidId}/chat`, viewer)).body;
    assert.deepEqual(chat.jobs.map((job: Json) => [job.job_id, job.state, job.kind]), [[jobId, 'waiting', 'bid_run']]);
    assert.match(chat.running, new RegExp(`^The run ${runId} waits for a person to decide an action \\(${action.action_id}\\)`));
    assert.equal(inbox.messages.length, 0, 'nothing is sent before approval');
    // It ran up to the action: one attempt made, which parking keeps.
    const job = (await get(`/v1/bids/${bidId}/jobs/${jobId}`, viewer)).body;
    assert.deepEqual([job.state, job.step, job.attempts, waiting.attempts], ['waiting', 'raise:send_clarification', 1, 1]);
  });

  it('approval of a run action on an unpaid bid is 402 and changes nothing: the action stays pending, the run waits', async () => {
    await withdrawBidPayment(state, bidId, clock.now());
    const action = await pendingAction('send_clarification');
    const before = await runOf(runId);
    const refused = await post(`/v1/bids/${bidId}/actions/${action.action_id}/approve`);
    assert.equal(refused.status, 402);
    assert.match(refused.body.detail, /The action stays pending/);
    assert.equal((await pendingAction('send_clarification')).action_id, action.action_id);
    assert.deepEqual(await runOf(runId), before, 'no event, no state change');
    assert.equal((await state.get<{ n: number }>("SELECT COUNT(*) AS n FROM bid_audit WHERE what LIKE 'action.%'"))!.n, 0);
    await markBidPaid(state, bidId, clock.now());
  });

  it('approval on a paid bid executes the stored arguments once (one email, with its Message-ID) and resumes the run', async () => {
    const action = await pendingAction('send_clarification');
    assert.equal((await post(`/v1/bids/${bidId}/actions/${action.action_id}/approve`, viewer)).status, 403);
    assert.equal((await post(`/v1/bids/${bidId}/actions/${action.action_id}/maybe`)).status, 400);
    assert.equal((await post(`/v1/bids/${bidId}/actions/act_0000000000000000/approve`)).status, 404);
    const approved = await post(`/v1/bids/${bidId}/actions/${action.action_id}/approve`);
    assert.equal(approved.status, 200);
    assert.deepEqual([approved.body.hermes_run_id, approved.body.action.state, approved.body.action.decided_by], [runId, 'approved', 'owner@harbour.test']);
    const again = await post(`/v1/bids/${bidId}/actions/${action.action_id}/approve`);
    assert.equal(again.status, 409);
    // It goes on to ask about the language model.
    await eventually(() => pendingAction('use_model'), 'the use_model action');
    assert.equal(inbox.messages.length, 1);
    const mail = decodedMessage(inbox.messages[0]!);
    assert.match(mail, new RegExp(`Message-ID: <${action.action_id}@tender-intel\\.invalid>`, 'i'));
    assert.match(mail, /Reply-To: owner@harbour\.test/i);
    assert.match(mail, /To: tenders@harbourcouncil\.example/i);
    assert.match(mail, /Harbour Civil Pty Ltd is preparing a response to "Footpath renewal, Harbour Street"/);
    const decided = (await get(`/v1/bids/${bidId}/actions`)).body.actions.find((row: Json) => row.action_id === action.action_id);
    assert.deepEqual(decided.outcome, { sent_to: 'tenders@harbourcouncil.example', message_id: `<${action.action_id}@tender-intel.invalid>` });
  });

  it('once the model is approved, each draft keeps only the passages its [n] markers cite; an answer citing nothing stays undrafted with the reason and its gap open', async () => {
    const action = await pendingAction('use_model');
    assert.deepEqual(action.arguments, { model: 'drafting-model', requirements: 5 });
    assert.equal(fake.requests.length, 0, 'nothing went to the model before approval');
    assert.equal((await post(`/v1/bids/${bidId}/actions/${action.action_id}/approve`)).status, 200);
    const done = await untilState(runId, 'completed', 'failed');
    assert.equal(done.state, 'completed', JSON.stringify(done));
    const requirements = (await get(`/v1/bids/${bidId}/requirements`)).body.requirements as Json[];
    const drafts = (await get(`/v1/bids/${bidId}/drafts`)).body.drafts as Json[];
    const by = (start: string) => {
      const requirement = requirements.find((row) => row.text.startsWith(start))!;
      return { requirement, draft: drafts.find((row) => row.requirement_id === requirement.requirement_id) };
    };
    const insurance = by('The Respondent must hold public liability');
    assert.deepEqual([insurance.draft?.origin, insurance.requirement.state], ['model', 'drafted']);
    assert.deepEqual(insurance.draft!.citations.map((citation: Json) => [citation.n, citation.document]), [[1, 'Insurance summary.txt']]);
    const iso = by('The Respondent must be certified to ISO 9001');
    assert.deepEqual([iso.draft?.origin, iso.draft?.citations, iso.requirement.state], ['model', [], 'open']);
    assert.match(iso.draft!.note, /answered without citing any of the \d passages? it was given, so its reply is not used/);
    const gaps = (await get(`/v1/bids/${bidId}/gaps`)).body.gaps as Json[];
    assert.equal(gaps.find((gap) => gap.gap_key === `evidence:${iso.requirement.requirement_id}`)?.status, 'open');
    assert.equal(gaps.find((gap) => gap.gap_key === `evidence:${insurance.requirement.requirement_id}`)?.status ?? 'none', 'none');
    // One model call per requirement that had passages, none asked twice.
    const asked = fake.requests.map((call) => call.body.messages.at(-1)!.content.split('\n')[1]);
    assert.equal(new Set(asked).size, asked.length);
    assert.ok(asked.includes(insurance.requirement.text) && asked.includes(iso.requirement.text));
  });

  it('the event stream gives every event once with id = seq and retry set, closes after the run ends, and resumes after Last-Event-ID or since_seq', async () => {
    const { retry, events: all } = await events(runId);
    assert.equal(retry, 1500);
    const seqs = all.map((event) => Number(event.id));
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b));
    assert.equal(new Set(seqs).size, seqs.length);
    const kinds = all.map((event) => event.event);
    assert.equal(kinds[0], 'run_queued');
    assert.equal(kinds.at(-1), 'run_completed');
    for (const kind of ['run_started', 'step_started', 'step_completed', 'action_raised', 'run_waiting', 'action_decided', 'run_resumed', 'finding', 'message']) assert.ok(kinds.includes(kind), kind);
    // Each step completed once.
    const completed = all.filter((event) => event.event === 'step_completed').map((event) => event.data.step as string);
    assert.equal(new Set(completed).size, completed.length);
    assert.ok(completed.includes('execute:send_clarification') && completed.includes('compliance'));
    for (const finding of all.filter((event) => event.event === 'finding')) assert.deepEqual(Object.keys(finding.data).sort(), ['finding_id', 'kind', 'requirement_id']);
    const middle = seqs[Math.floor(seqs.length / 2)]!;
    const tail = (list: SseEvent[]) => list.map((event) => event.id);
    assert.deepEqual(tail((await events(runId, { 'last-event-id': String(middle) })).events), tail(all.filter((event) => Number(event.id) > middle)));
    assert.deepEqual(tail((await events(runId, {}, `?since_seq=${middle}`)).events), tail(all.filter((event) => Number(event.id) > middle)));
    assert.deepEqual((await events(runId, {}, `?since_seq=${seqs.at(-1)}`)).events, [], 'after the last event of an ended run: nothing, and the stream ends');
    assert.equal((await service.app.request(`/v1/bids/${bidId}/runs/${runId}/events?since_seq=-1`, { headers: { cookie: owner } })).status, 400);
  });

  it('findings: the full rows at or after since_seq, each with finding_id, run_id and created_at, matching the finding events', async () => {
    const { events: all } = await events(runId);
    const announced = all.filter((event) => event.event === 'finding');
    const { findings, next_since_seq: next } = (await get(`/v1/bids/${bidId}/findings?since_seq=0`, viewer)).body;
    assert.deepEqual(findings.map((finding: Json) => [finding.finding_id, finding.seq]), announced.map((event) => [event.data.finding_id, Number(event.id)]));
    for (const finding of findings) assert.deepEqual([finding.run_id, typeof finding.created_at], [runId, 'string']);
    const kinds = findings.map((finding: Json) => finding.kind).sort();
    assert.deepEqual(kinds.filter((kind: string) => kind === 'returnable_missing').length, 2);
    assert.ok(kinds.includes('mandatory_unanswered'));
    const second = findings[1].seq;
    assert.deepEqual((await get(`/v1/bids/${bidId}/findings?since_seq=${second}`)).body.findings.map((finding: Json) => finding.seq), findings.slice(1).map((finding: Json) => finding.seq));
    assert.deepEqual((await get(`/v1/bids/${bidId}/findings?since_seq=${next}`)).body.findings, []);
  });

  it('the job: its status, step, attempts and no error; the job of another bid is 404', async () => {
    const job = await get(`/v1/bids/${bidId}/jobs/${jobId}`, viewer);
    assert.equal(job.status, 200);
    assert.deepEqual([job.body.state, job.body.kind, job.body.step, job.body.error], ['succeeded', 'bid_run', 'message:recap', null]);
    // An attempt is a claim, each told by run_started or run_resumed: up to the email, up to the model (unless
    // approved before the run parked on it), to the end.
    const claims = (await eventsSoFar(runId)).filter((event) => event.kind === 'run_started' || event.kind === 'run_resumed').length;
    assert.ok(claims >= 2 && claims <= 3, String(claims));
    assert.equal(job.body.attempts, claims);
    assert.equal(job.body.progress.done, job.body.progress.total);
    const elsewhere = await get(`/v1/bids/${otherBidId}/jobs/${jobId}`);
    assert.equal(elsewhere.status, 404);
    assert.equal((await get(`/v1/bids/${bidId}/jobs/${jobId}`, outsider)).status, 404);
  });

  it('an action no run waits on (the sign-off) flips state only, audited, and resumes nothing', async () => {
    const signOff = await pendingAction('sign_off');
    assert.deepEqual([signOff.run_id, signOff.raised_in_run], [null, runId]);
    const jobs = (await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n;
    const approved = await post(`/v1/bids/${bidId}/actions/${signOff.action_id}/approve`);
    assert.equal(approved.status, 200);
    assert.deepEqual([approved.body.action.state, approved.body.hermes_run_id, approved.body.action.outcome], ['approved', null, null]);
    assert.equal((await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM jobs'))!.n, jobs);
    const audit = (await state.all<{ what: string; subject_id: string }>('SELECT what, subject_id FROM bid_audit WHERE bid_id = ? ORDER BY at, audit_id', bidId)).map((row) => `${row.what} ${row.subject_id}`);
    assert.ok(audit.includes(`action.approve ${signOff.action_id}`));
    assert.ok(audit.includes(`run.start ${runId}`));
    const chat = (await get(`/v1/bids/${bidId}/chat`)).body;
    assert.deepEqual(chat.jobs, []);
    assert.match(chat.running, new RegExp(`^Nothing is running for this bid\\. The last run, ${runId}, completed at .* with \\d+ findings?\\.`));
    const thread = (await get(`/v1/bids/${bidId}/thread`)).body.messages as Json[];
    assert.ok(thread.filter((message) => message.run_id === runId).length >= 3);
    assert.match(thread.at(-1)!.text, /^Run finished: 5 requirements, \d drafted with evidence/);
  });

  it('stopping a run that waits on a person ends it at once, cancelling its action; deciding that action afterwards is 409', async () => {
    const second = (await post(`/v1/bids/${bidId}/runs`)).body.run_id as string;
    await untilState(second, 'waiting');
    const action = await pendingAction('send_clarification');
    assert.equal((await post(`/v1/bids/${bidId}/runs/${second}/stop`, viewer)).status, 403);
    const stopped = await post(`/v1/bids/${bidId}/runs/${second}/stop`);
    assert.deepEqual([stopped.status, stopped.body.state], [200, 'stopped']);
    const { events: list } = await events(second);
    assert.equal(list.at(-1)!.event, 'run_stopped');
    assert.equal((await post(`/v1/bids/${bidId}/actions/${action.action_id}/reject`)).status, 409);
    assert.equal((await post(`/v1/bids/${bidId}/runs/${second}/stop`)).status, 409, 'already ended');
  });

  it('a rejection is audited and resumes the run without the effect; a running run stops at its next step boundary', async () => {
    const third = (await post(`/v1/bids/${bidId}/runs`)).body.run_id as string;
    await untilState(third, 'waiting');
    const sent = inbox.messages.length;
    const clarification = await pendingAction('send_clarification');
    const rejected = await post(`/v1/bids/${bidId}/actions/${clarification.action_id}/reject`);
    assert.deepEqual([rejected.status, rejected.body.action.state, rejected.body.hermes_run_id], [200, 'rejected', third]);
    assert.ok(await state.get('SELECT 1 AS audited FROM bid_audit WHERE what = ? AND subject_id = ?', 'action.reject', clarification.action_id));
    const model = await eventually(() => pendingAction('use_model'), 'the use_model action');
    assert.equal(inbox.messages.length, sent, 'a rejected email is not sent');
    // Hold the model so the run is inside its first draft when the stop comes.
    let open: () => void = () => {};
    gate = new Promise((resolve) => (open = resolve));
    const asked = fake.requests.length;
    await post(`/v1/bids/${bidId}/actions/${model.action_id}/approve`);
    await eventually(() => atGate === 1, 'a draft held at the model');
    const inside = await runOf(third);
    assert.match(inside.step, /^draft:/);
    const stopping = await post(`/v1/bids/${bidId}/runs/${third}/stop`);
    assert.deepEqual([stopping.body.state, stopping.body.stop_requested], ['running', true]);
    open();
    gate = Promise.resolve();
    const ended = await untilState(third, 'stopped');
    assert.equal(ended.step, inside.step, 'no step began after the one in progress');
    const { events: list } = await events(third);
    const started = list.filter((event) => event.event === 'step_started').map((event) => event.data.step);
    assert.equal(started.at(-1), inside.step, 'the step in progress was the last to begin');
    assert.equal(list.filter((event) => event.event === 'step_completed' && event.data.step === inside.step).length, 1, 'the step in progress finished and was recorded');
    assert.ok(fake.requests.length <= asked + 1);
  });

  it("rejecting the language model leaves it unasked: the drafts are the organisation's passages, saying a person declined", async () => {
    const fourth = (await post(`/v1/bids/${bidId}/runs`)).body.run_id as string;
    await untilState(fourth, 'waiting');
    await post(`/v1/bids/${bidId}/actions/${(await pendingAction('send_clarification')).action_id}/reject`);
    const model = await eventually(() => pendingAction('use_model'), 'the use_model action');
    const asked = fake.requests.length;
    await post(`/v1/bids/${bidId}/actions/${model.action_id}/reject`);
    assert.equal((await untilState(fourth, 'completed', 'failed')).state, 'completed');
    assert.equal(fake.requests.length, asked);
    const drafts = (await get(`/v1/bids/${bidId}/drafts`)).body.drafts as Json[];
    const declined = drafts.filter((draft) => draft.note.startsWith('A person declined to send this bid to the language model for this run'));
    assert.ok(declined.length >= 2, JSON.stringify(drafts.map((draft) => draft.note)));
    assert.ok(declined.every((draft) => draft.origin === 'assembled' && draft.citations.length > 0));
  });

  it('a failing step is retried after a back-off and the run goes on; one that keeps failing ends the run failed with its last error', async () => {
    const fifth = (await post(`/v1/bids/${bidId}/runs`)).body.run_id as string;
    await untilState(fifth, 'waiting');
    const sent = inbox.messages.length;
    mailFailures = 2;
    await post(`/v1/bids/${bidId}/actions/${(await pendingAction('send_clarification')).action_id}/approve`);
    await eventually(() => pendingAction('use_model'), 'the use_model action');
    assert.equal(inbox.messages.length, sent + 1, 'sent once, on the third attempt');
    const retries = (await eventsSoFar(fifth)).filter((event) => event.kind === 'step_retrying');
    assert.deepEqual(retries.map((event) => [event.data.step, event.data.attempt]), [['execute:send_clarification', 2], ['execute:send_clarification', 3]], 'the attempt that waited on the approval was the first');
    assert.match(String(retries[0]!.data.error), /421 4\.3\.2 the mail server is not accepting messages now/);
    await post(`/v1/bids/${bidId}/actions/${(await pendingAction('use_model')).action_id}/reject`);
    assert.equal((await untilState(fifth, 'completed', 'failed')).state, 'completed');

    const sixth = (await post(`/v1/bids/${bidId}/runs`)).body.run_id as string;
    await untilState(sixth, 'waiting');
    mailFailures = 100;
    await post(`/v1/bids/${bidId}/actions/${(await pendingAction('send_clarification')).action_id}/approve`);
    const failed = await untilState(sixth, 'failed');
    mailFailures = 0;
    // Six attempts: the one that waited on the approval, given back, and the five that failed, the cap.
    assert.deepEqual([failed.attempts, failed.error], [6, '421 4.3.2 the mail server is not accepting messages now']);
    const job = (await get(`/v1/bids/${bidId}/jobs/${failed.job_id}`)).body;
    assert.deepEqual([job.state, job.attempts, job.max_attempts, job.error], ['failed', 6, 5, failed.error]);
    const { events: list } = await events(sixth);
    assert.equal(list.at(-1)!.event, 'run_failed');
    assert.match((await get(`/v1/bids/${bidId}/chat`)).body.running, new RegExp(`The last run, ${sixth}, ended failed at `));
  });

  it('every run route is in /openapi.json behind a session or an API key', async () => {
    const document = (await (await service.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    for (const [path, method] of [
      ['/v1/bids/{bid}/jobs/{job}', 'get'], ['/v1/bids/{bid}/runs/quote', 'get'], ['/v1/bids/{bid}/runs', 'post'], ['/v1/bids/{bid}/runs/{run}', 'get'],
      ['/v1/bids/{bid}/runs/{run}/stop', 'post'], ['/v1/bids/{bid}/runs/{run}/events', 'get'], ['/v1/bids/{bid}/findings', 'get'], ['/v1/bids/{bid}/actions', 'get'],
      ['/v1/bids/{bid}/actions/{action}/{decision}', 'post'], ['/v1/jobs/drain', 'post'],
    ] as const) {
      assert.deepEqual(document.paths[path]?.[method]?.security, [{ session: [] }, { bearer: [] }], `${method.toUpperCase()} ${path}`);
    }
    assert.equal((await service.app.request('/v1/jobs/drain', { method: 'POST', headers: { origin: PUBLIC_URL } })).status, 401);
    const drained = await post('/v1/jobs/drain');
    assert.deepEqual([drained.status, drained.body.taken_over], [200, []]);
  });
});

describe('a run that fetches the tender pack first', () => {
  it('raises fetch_pack for a bid without files, fetches with exactly the stored arguments once after approval, then reads what came; a rejection leaves the run without files', async () => {
    const clock = testClock('2026-06-10T02:00:00.000Z');
    const dataDir = await tempDir('bids-runs-pack-');
    const state = await openStateDb(await testStateLocation(dataDir));
    const fetched: Record<string, unknown>[] = [];
    const service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: clock.now },
      state,
      now: clock.now,
      publicUrl: PUBLIC_URL,
      burst: false,
      mailer: createMailer({ outboxDir: join(dataDir, 'outbox') }),
      documentsDir: join(dataDir, 'state', 'documents'),
      bidFilesDir: join(dataDir, 'state', 'bid-files'),
      chatModel: unconfiguredChatModel,
      packFetcher: {
        offer: (bid) => ({ url: `https://portal.example/tenders/${bid.bid_id}/documents` }),
        async queue(bid, args, accountId) {
          fetched.push(args);
          await recordBidFile(state, {
            bidId: bid.bid_id, accountId, filename: 'RFQ-2026-41.txt', kind: 'text', contentType: 'text/plain', sizeBytes: RUN_TENDER.length, sha256: 'a'.repeat(64),
            reading: { status: 'read', pageCount: 1, pages: [{ n: 1, text: RUN_TENDER, source: 'text_layer' }], detail: null }, now: clock.now(),
          });
          return { fetch_id: `fetch_${bid.bid_id}` };
        },
        outcome: async (bid, fetchId) => (fetchId === `fetch_${bid.bid_id}` ? { state: 'succeeded', detail: 'Fetched.', files_added: 1 } : null),
      },
    });
    try {
      const cookie = await signInAs(state, clock.now(), 'owner@harbour.test');
      const call = sessionCalls((path, init) => service.app.request(path, init), cookie, () => PUBLIC_URL);
      const orgId = (await call('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id;
      const runOn = async (decision: 'approve' | 'reject') => {
        const bidId = (await call('POST', '/v1/bids', { org_id: orgId, title: 'Footpath renewal', due_date: '2026-07-20' })).body.bid_id as string;
        await markBidPaid(state, bidId, clock.now());
        assert.ok((await call('GET', `/v1/bids/${bidId}/runs/quote`)).body.actions.some((action: string) => action.startsWith('fetch_pack')));
        const runId = (await call('POST', `/v1/bids/${bidId}/runs`)).body.run_id as string;
        const action = await eventually(async () => ((await call('GET', `/v1/bids/${bidId}/actions`)).body.actions as Json[]).find((row) => row.kind === 'fetch_pack' && row.state === 'pending'), 'the fetch_pack action');
        assert.deepEqual(action.arguments, { url: `https://portal.example/tenders/${bidId}/documents` });
        assert.equal((await call('POST', `/v1/bids/${bidId}/actions/${action.action_id}/${decision}`)).status, 200);
        return { bidId, runId, actionId: action.action_id as string };
      };

      const approved = await runOn('approve');
      const question = await eventually(async () => ((await call('GET', `/v1/bids/${approved.bidId}/actions`)).body.actions as Json[]).find((row) => row.kind === 'send_clarification' && row.state === 'pending'), 'the clarification action');
      assert.deepEqual(fetched, [{ url: `https://portal.example/tenders/${approved.bidId}/documents` }]);
      await call('POST', `/v1/bids/${approved.bidId}/actions/${question.action_id}/reject`);
      const done = await eventually(async () => {
        const run = (await call('GET', `/v1/bids/${approved.bidId}/runs/${approved.runId}`)).body;
        return run.state === 'completed' ? run : null;
      }, 'the run to complete');
      assert.equal(done.findings > 0, true);
      const fetchAction = ((await call('GET', `/v1/bids/${approved.bidId}/actions`)).body.actions as Json[]).find((row) => row.action_id === approved.actionId)!;
      assert.deepEqual(fetchAction.outcome, { fetch_id: `fetch_${approved.bidId}` });
      assert.equal((await call('GET', `/v1/bids/${approved.bidId}/requirements`)).body.requirements.length, 5);

      const rejected = await runOn('reject');
      await eventually(async () => (await call('GET', `/v1/bids/${rejected.bidId}/runs/${rejected.runId}`)).body.state === 'completed', 'the run without files');
      assert.equal(fetched.length, 1, 'a rejected fetch is not made');
      const thread = (await call('GET', `/v1/bids/${rejected.bidId}/thread`)).body.messages as Json[];
      assert.ok(thread.some((message) => message.text.startsWith('No file of this bid could be read')));
    } finally {
      await service.stopBackground();
      await service.analysisPool.close();
      await state.close();
    }
  });
});

describe("a run's today", () => {
  it("is the served release's day, as the chat's recap counts it; a free title's due date is the team's, not a closing", async () => {
    // Fixture mode: the release is served on its capture day while the system clock runs on.
    const release = testClock('2026-06-10T02:00:00.000Z');
    const system = testClock('2026-12-03T02:00:00.000Z');
    const dataDir = await tempDir('bids-runs-today-');
    const state = await openStateDb(await testStateLocation(dataDir));
    const service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: release.now },
      state,
      now: system.now,
      publicUrl: PUBLIC_URL,
      burst: false,
      mailer: createMailer({ outboxDir: join(dataDir, 'outbox') }),
      documentsDir: join(dataDir, 'state', 'documents'),
      bidFilesDir: join(dataDir, 'state', 'bid-files'),
      chatModel: unconfiguredChatModel,
    });
    try {
      const cookie = await signInAs(state, system.now(), 'owner@harbour.test');
      const call = sessionCalls((path, init) => service.app.request(path, init), cookie, () => PUBLIC_URL);
      const orgId = (await call('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id;
      const datesFound = async (dueDate: string) => {
        const bidId = (await call('POST', '/v1/bids', { org_id: orgId, title: 'Footpath renewal', due_date: dueDate })).body.bid_id as string;
        const form = new FormData();
        form.set('file', new File(['REQUEST FOR QUOTATION\n\n1 CONDITIONS\n1.1 The Respondent must hold public liability insurance of at least $20 million.\n'], 'RFQ.txt', { type: 'text/plain' }));
        assert.equal((await service.app.request(`/v1/bids/${bidId}/files`, { method: 'POST', body: form, headers: { cookie, origin: PUBLIC_URL } })).status, 201);
        await markBidPaid(state, bidId, system.now());
        const runId = (await call('POST', `/v1/bids/${bidId}/runs`)).body.run_id as string;
        await eventually(async () => (await call('GET', `/v1/bids/${bidId}/runs/${runId}`)).body.state === 'completed', 'the run to complete');
        const findings = (await call('GET', `/v1/bids/${bidId}/findings?since_seq=0`)).body.findings as Json[];
        return findings.filter((finding) => finding.kind === 'date_outside_window').map((finding) => `${finding.title}: ${finding.detail}`);
      };
      assert.deepEqual(await datesFound('2026-07-20'), [], 'due after the release day: nothing has passed, and no tender "closed"');
      const passed = await datesFound('2026-06-01');
      assert.deepEqual(passed.map((found) => found.split(':')[0]), ["The team's due date 2026-06-01 has passed", '6 plan tasks were due before today']);
      assert.match(passed[0]!, /today is 2026-06-10\.$/);
      assert.match(passed[1]!, /between today \(2026-06-10\) and closing/);
    } finally {
      await service.stopBackground();
      await service.analysisPool.close();
      await state.close();
    }
  });
});
