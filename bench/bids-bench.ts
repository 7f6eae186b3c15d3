import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService } from '../api/app.ts';
import { chatModelFromEnv } from '../api/providers/chat-model.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { createMailer } from '../lib/mailer.ts';
import { markBidPaid } from '../test/helpers/bid-payments.ts';
import { RUN_LIBRARY, RUN_TENDER, runModelReply } from '../test/helpers/bid-run.ts';
import { startFakeChatModel } from '../test/helpers/fake-chat-model.ts';
import { PUBLIC_URL, signInAs } from '../test/helpers/org-app.ts';
import { startSmtpInbox } from '../test/helpers/smtp-inbox.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface BidRunsFigures {
  runs: number;
  completed: number;
  states: Record<string, number>;
  wallMs: number;
  eventsDelivered: number;
  deliveryP50Ms: number;
  deliveryP99Ms: number;
  stepsCompleted: number;
  stateWrites: number;
  emailsSent: number;
  modelCalls: number;
}

const APPEND_EVENT = 'INSERT INTO bid_run_events';

/**
 * `runs` bid runs at once in the whole app over the fake language model and a real SMTP server on loopback
 * (the fakes test/bids-runs.test.ts uses), each watched by its own event stream from the start and its
 * actions approved as their events arrive. Delivery is timed from the moment an event's row is written (the StateDb
 * wrapped) to the moment its block is read from the connected stream; every state-store write is counted.
 */
export async function benchBidRuns(runs: number): Promise<BidRunsFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-bids-'));
  const opened = await openStateDb(dataDir);
  let stateWrites = 0;
  const appendedAt = new Map<string, number>();
  const state: StateDb = {
    ...opened,
    async run(sql, ...params) {
      stateWrites++;
      const result = await opened.run(sql, ...params);
      if (sql.startsWith(APPEND_EVENT)) appendedAt.set(`${String(params[0])}:${String(params[1])}`, performance.now());
      return result;
    },
  };
  const fake = await startFakeChatModel();
  fake.reply = runModelReply;
  const inbox = await startSmtpInbox();
  const service = await createService({
    store: { state: () => ({ ready: false, detail: 'No release in the bench.' }), now: () => new Date() },
    state,
    now: () => new Date(),
    publicUrl: PUBLIC_URL,
    burst: false,
    mailer: createMailer({ smtpUrl: inbox.smtpUrl, outboxDir: join(dataDir, 'outbox') }),
    documentsDir: join(dataDir, 'state', 'documents'),
    bidFilesDir: join(dataDir, 'state', 'bid-files'),
    chatModel: chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' }),
    bidPrice: { amount: 49_00, currency: 'AUD' },
  });
  try {
    const owner = await signInAs(state, new Date(), 'owner@harbour.test');
    const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
      const response = await service.app.request(path, {
        method,
        headers: { cookie: owner, origin: PUBLIC_URL, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const upload = async (path: string, name: string, text: string) => {
      const form = new FormData();
      form.set('file', new File([text], name, { type: 'text/plain' }));
      const response = await service.app.request(path, { method: 'POST', body: form, headers: { cookie: owner, origin: PUBLIC_URL } });
      if (response.status !== 201) throw new Error(`bench bids: upload ${path} answered ${response.status} ${await response.text()}`);
    };
    const orgId = (await call('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id as string;
    for (const document of RUN_LIBRARY) await upload(`/v1/orgs/${orgId}/documents`, document.name, document.text);
    const bidIds: string[] = [];
    for (let n = 0; n < runs; n++) {
      const bidId = (await call('POST', '/v1/bids', { org_id: orgId, title: `Footpath renewal ${n + 1}`, due_date: '2099-06-30' })).body.bid_id as string;
      await upload(`/v1/bids/${bidId}/files`, 'RFQ-2026-41.txt', RUN_TENDER);
      await markBidPaid(state, bidId, new Date());
      bidIds.push(bidId);
    }
    stateWrites = 0;
    const started = performance.now();
    const outcomes = await Promise.all(bidIds.map((bidId) => followRun(bidId, call, (path) => service.app.request(path, { headers: { cookie: owner } }))));
    const wallMs = performance.now() - started;
    const delays = outcomes
      .flatMap(({ bidId, arrivals, connectedAt }) => arrivals.map(({ seq, at }) => ({ appended: appendedAt.get(`${bidId}:${seq}`)!, at })).filter(({ appended }) => appended >= connectedAt))
      .map(({ appended, at }) => at - appended)
      .sort((a, b) => a - b);
    const states: Record<string, number> = {};
    for (const { state: final } of outcomes) states[final] = (states[final] ?? 0) + 1;
    const quantile = (q: number) => delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)] ?? Number.NaN;
    return {
      runs,
      completed: states['completed'] ?? 0,
      states,
      wallMs,
      eventsDelivered: delays.length,
      deliveryP50Ms: quantile(0.5),
      deliveryP99Ms: quantile(0.99),
      stepsCompleted: outcomes.reduce((sum, outcome) => sum + outcome.stepsCompleted, 0),
      stateWrites,
      emailsSent: inbox.messages.length,
      modelCalls: fake.requests.length,
    };
  } finally {
    await service.stopBackground();
    await service.analysisPool.close();
    await opened.close();
    await fake.close();
    await inbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface RunOutcome {
  bidId: string;
  state: string;
  stepsCompleted: number;
  arrivals: { seq: number; at: number }[];
  /** Events appended before this were waiting when the stream connected: their delay is not delivery's. */
  connectedAt: number;
}

/** Starts the bid's run, reads its event stream to the end while approving each action it raises, and returns what arrived when. */
async function followRun(
  bidId: string,
  call: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>,
  stream: (path: string) => Response | Promise<Response>,
): Promise<RunOutcome> {
  const begun = await call('POST', `/v1/bids/${bidId}/runs`, {});
  if (begun.status !== 201) throw new Error(`bench bids: POST runs answered ${begun.status} ${JSON.stringify(begun.body)}`);
  const runId = begun.body.run_id as string;
  const arrivals: { seq: number; at: number }[] = [];
  let stepsCompleted = 0;
  // Approves each action the run raises (emails, pack fetches, model use) as its event arrives, so that no
  // run parks; not awaited in the loop, so reading the stream is never held up by an approval.
  const approvals: Promise<{ status: number; body: Json }>[] = [];
  const response = await stream(`/v1/bids/${bidId}/runs/${runId}/events?since_seq=0`);
  const connectedAt = performance.now();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  // A run still streaming after ten minutes is stuck: the stream is cut and the run counts as not completed.
  const stuck = setTimeout(() => void reader.cancel(), 600_000);
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const at = performance.now();
    buffered += value;
    const blocks = buffered.split('\n\n');
    buffered = blocks.pop()!;
    for (const block of blocks) {
      const id = /^id: (\d+)$/m.exec(block);
      if (id === null) continue;
      arrivals.push({ seq: Number(id[1]), at });
      const kind = /^event: (\w+)$/m.exec(block)?.[1];
      if (kind === 'step_completed') stepsCompleted++;
      if (kind === 'action_raised') {
        const { action_id: actionId } = JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as { action_id: string };
        approvals.push(call('POST', `/v1/bids/${bidId}/actions/${actionId}/approve`));
      }
    }
  }
  clearTimeout(stuck);
  const refused = (await Promise.all(approvals)).filter((approval) => approval.status !== 200);
  if (refused.length > 0) throw new Error(`bench bids: an approval answered ${JSON.stringify(refused[0])}`);
  const run = (await call('GET', `/v1/bids/${bidId}/runs/${runId}`)).body;
  return { bidId, state: run.state as string, stepsCompleted, arrivals, connectedAt };
}
