import { getRequestListener } from '@hono/node-server';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createService } from '../api/app.ts';
import { bidIsPaid } from '../api/bids/payments.ts';
import { chatModelFromEnv } from '../api/providers/chat-model.ts';
import { stripeCheckout } from '../api/providers/stripe.ts';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { createMailer } from '../lib/mailer.ts';
import { RUN_LIBRARY, RUN_TENDER, runModelReply } from '../test/helpers/bid-run.ts';
import { startFakeChatModel } from '../test/helpers/fake-chat-model.ts';
import { startFakeStripe } from '../test/helpers/fake-stripe.ts';
import { PUBLIC_URL, signInAs } from '../test/helpers/org-app.ts';
import { startSmtpInbox } from '../test/helpers/smtp-inbox.ts';
import type { ReadersReply, ReadersStart, RunOutcome } from './bids-stream-readers.ts';

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
// Placeholders only the fake of Stripe accepts (as in `npm run fake-payments`).
const STRIPE_SECRET_KEY = 'sk_test_bench_bid_runs';
const STRIPE_WEBHOOK_SECRET = 'whsec_bench_bid_runs';
const READERS = join(import.meta.dirname, 'bids-stream-readers.ts');
const wallNow = () => performance.timeOrigin + performance.now();

/**
 * `runs` bid runs at once in the whole app, served over HTTP on loopback, over the fake language model, a real
 * SMTP server on loopback (the fakes test/bids-runs.test.ts uses) and the fake of Stripe the checkout tests use.
 * Each bid is bought as a person buys it: `POST /v1/bids/{bid}/checkout`, the hosted page's "Pay" at the fake, and
 * the signed `checkout.session.completed` it delivers to the webhook. The runs' clients (bench/bids-stream-readers.ts)
 * run in a child process, so their parsing does not share the server's event loop: each run is watched by its own
 * event stream from the start and its actions approved as their events arrive. Delivery is timed from the moment an
 * event's row is written (the StateDb wrapped) to the moment its block is read in the child, both on the wall clock
 * in milliseconds; every state-store write while the runs go is counted.
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
      if (sql.startsWith(APPEND_EVENT)) appendedAt.set(`${String(params[0])}:${String(params[1])}`, wallNow());
      return result;
    },
  };
  const fake = await startFakeChatModel();
  fake.reply = runModelReply;
  const inbox = await startSmtpInbox();
  const stripe = await startFakeStripe({ secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET });
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
    payments: stripeCheckout({ secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, apiBase: new URL(stripe.origin) }),
    notice: () => {},
  });
  const server = createServer(getRequestListener(service.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stripe.deliverTo(`${baseUrl}${PAYMENT_WEBHOOK_PATH}`);
  let readers: ChildProcess | null = null;
  try {
    const owner = await signInAs(state, new Date(), 'owner@harbour.test');
    const bidIds = await paidBids(runs, baseUrl, owner, state, stripe);
    readers = fork(READERS, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const replies = readersReplies(readers);
    if ((await replies.next()).kind !== 'ready') throw new Error('bench bids: the stream readers did not start');
    stateWrites = 0;
    const started = wallNow();
    readers.send({ kind: 'start', baseUrl, cookie: owner, origin: PUBLIC_URL, bidIds } satisfies ReadersStart);
    const reply = await replies.next();
    const wallMs = wallNow() - started;
    const status = await replies.exited;
    if (reply.kind === 'done' && status !== 0) throw new Error(`bench bids: the stream readers exited with ${status}`);
    if (reply.kind !== 'done') throw new Error(`bench bids: the stream readers failed: ${reply.kind === 'failed' ? reply.detail : reply.kind}`);
    return figures(runs, reply.outcomes, appendedAt, { wallMs, stateWrites, emailsSent: inbox.messages.length, modelCalls: fake.requests.length });
  } finally {
    if (readers !== null && readers.exitCode === null && readers.signalCode === null) readers.kill();
    await service.stopBackground();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.analysisPool.close();
    await opened.close();
    await fake.close();
    await inbox.close();
    await stripe.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `count` bids with the run's library and tender file, each bought through checkout at the fake of Stripe: its
 * session paid on the hosted page and the signed webhook delivered to the server, then checked paid.
 */
async function paidBids(count: number, baseUrl: string, cookie: string, state: StateDb, stripe: Awaited<ReturnType<typeof startFakeStripe>>): Promise<string[]> {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, origin: PUBLIC_URL, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const upload = async (path: string, name: string, text: string) => {
    const form = new FormData();
    form.set('file', new File([text], name, { type: 'text/plain' }));
    const response = await fetch(`${baseUrl}${path}`, { method: 'POST', body: form, headers: { cookie, origin: PUBLIC_URL } });
    if (response.status !== 201) throw new Error(`bench bids: upload ${path} answered ${response.status} ${await response.text()}`);
  };
  const orgId = (await call('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' })).body.org_id as string;
  for (const document of RUN_LIBRARY) await upload(`/v1/orgs/${orgId}/documents`, document.name, document.text);
  const bidIds: string[] = [];
  for (let n = 0; n < count; n++) {
    const bidId = (await call('POST', '/v1/bids', { org_id: orgId, title: `Footpath renewal ${n + 1}`, due_date: '2099-06-30' })).body.bid_id as string;
    await upload(`/v1/bids/${bidId}/files`, 'RFQ-2026-41.txt', RUN_TENDER);
    const checkout = await call('POST', `/v1/bids/${bidId}/checkout`);
    if (checkout.status !== 201) throw new Error(`bench bids: checkout answered ${checkout.status} ${JSON.stringify(checkout.body)}`);
    const event = await stripe.pay((checkout.body.url as string).split('/').at(-1)!);
    const delivered = stripe.events.find((made) => made.event.id === event.id)!.deliveredStatus;
    if (delivered !== 200 || !(await bidIsPaid(state, bidId))) throw new Error(`bench bids: the webhook answered ${delivered} and the bid is ${(await bidIsPaid(state, bidId)) ? 'paid' : 'not paid'}`);
    bidIds.push(bidId);
  }
  return bidIds;
}

/** The child's replies in order (a `failed` one should it exit first), and its exit status. */
function readersReplies(child: ChildProcess): { next(): Promise<ReadersReply>; exited: Promise<number | string> } {
  const queued: ReadersReply[] = [];
  const waiting: ((reply: ReadersReply) => void)[] = [];
  child.on('message', (message: ReadersReply) => {
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else queued.push(message);
  });
  const exited = once(child, 'exit').then(([code, signal]: unknown[]) => (code === null ? String(signal) : Number(code)));
  return {
    next: async () => queued.shift() ?? (await Promise.race([new Promise<ReadersReply>((resolve) => waiting.push(resolve)), exited.then((status): ReadersReply => ({ kind: 'failed', detail: `it exited (${status}) without answering` }))])),
    exited,
  };
}

function figures(
  runs: number,
  outcomes: RunOutcome[],
  appendedAt: Map<string, number>,
  counts: { wallMs: number; stateWrites: number; emailsSent: number; modelCalls: number },
): BidRunsFigures {
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
    eventsDelivered: delays.length,
    deliveryP50Ms: quantile(0.5),
    deliveryP99Ms: quantile(0.99),
    stepsCompleted: outcomes.reduce((sum, outcome) => sum + outcome.stepsCompleted, 0),
    ...counts,
  };
}
