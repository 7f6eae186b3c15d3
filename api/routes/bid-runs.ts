import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { StateDb } from '../../data/state/db.ts';
import { bidDoor, BID_SECURITY, requireBidAccount, type BidEnv } from '../bids/access.ts';
import { listBidFiles } from '../bids/files.ts';
import { JobSchema } from '../bids/jobs/schemas.ts';
import { jobRow, jobView } from '../bids/jobs/store.ts';
import type { JobWorker } from '../bids/jobs/worker.ts';
import { listRequirements } from '../bids/requirements/store.ts';
import { decideAction, listActions } from '../bids/runs/actions.ts';
import { FINAL_EVENT_KINDS, onRunEvent, runEventsAfter } from '../bids/runs/events.ts';
import { findingsSince } from '../bids/runs/findings.ts';
import { bidIsPaid } from '../bids/payments.ts';
import { liveRun, LIVE_RUN_STATES, runRow, runView, startRun, stopRun } from '../bids/runs/runs.ts';
import {
  ActionListSchema,
  ActionParams,
  DecisionSchema,
  DrainSchema,
  EventsQuery,
  FindingListSchema,
  FindingsQuery,
  JobParams,
  QuoteSchema,
  RunParams,
  RunSchema,
  StartRunBody,
} from '../bids/runs/schemas.ts';
import { BidParams } from '../bids/schemas.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import type { ChatModel } from '../providers/chat-model.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface BidRunRoutesOptions {
  state: StateDb;
  worker: JobWorker;
  /** The model drafts are worded by, named in the quote. */
  model: Pick<ChatModel, 'model'>;
  /** The flat fee (GET /v1/pricing), named in the quote; absent while bid preparation is not on sale. */
  bidPrice?: { amount: number; currency: string } | undefined;
  now?: () => Date;
  /** How long a reconnecting client waits (the stream's `retry:`), and how often a stream looks for events another instance wrote. */
  stream?: { retryMs?: number; pollMs?: number; signal?: AbortSignal };
}

const notSignedIn = errorReply('No signed-in session or API key.');
const bidNotVisible = errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.');
const viewerWrites = errorReply("The caller's role may not change bids (viewers read only).");
const tags = ['Bids'];
const RUN_STEPS = [
  'Read the bid\'s files (with approval, fetch the tender\'s documents first when there are none and the portal is supported).',
  'Extract the requirements from them.',
  'Find what the documents leave open (a returnable form not included, a lodging date after closing) and, with approval, email the buyer the questions.',
  'With approval, send each requirement and the organisation\'s matching passages to the language model; otherwise the drafts are the passages themselves.',
  'Draft each answer with citations: the model\'s [n] markers select the passages kept; an answer citing nothing is left undrafted with the reason.',
  'Mark requirements drafted, derive the gaps and back-schedule the plan.',
  'Check compliance: every mandatory requirement answered, page and word limits, returnable forms present, dates between today and closing.',
  'Leave a sign-off for a person and a recap in the thread.',
];

const jobRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/jobs/{job}',
  tags,
  security: BID_SECURITY,
  summary: 'A background job of the bid',
  description: 'State, step, progress, attempts and the last error. A job of another bid is 404, as a missing one.',
  request: { params: JobParams },
  responses: { 200: { description: 'The job.', content: json(JobSchema) }, 401: notSignedIn, 404: errorReply('No such bid visible to the caller, or the bid has no such job.') },
});

const quoteRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/runs/quote',
  tags,
  security: BID_SECURITY,
  summary: 'What a run of the bid does and costs',
  description: 'The steps, what it will read, the actions it may ask a person to approve, the price, and whether the bid is paid (a run needs the paid checkout).',
  request: { params: BidParams },
  responses: { 200: { description: 'The quote.', content: json(QuoteSchema) }, 401: notSignedIn, 404: bidNotVisible },
});

const startRunRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/runs',
  tags,
  security: BID_SECURITY,
  summary: 'Start a run that prepares the bid',
  description: 'Queued at once and run in the background by a worker; watch GET …/runs/{run}/events. One run at a time per bid. Body: an empty object, or none.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: BidParams, body: { required: false, content: json(StartRunBody) } },
  responses: {
    201: { description: 'The run: queued, or already taken up by a worker.', content: json(RunSchema) },
    400: errorReply('An unknown field.'),
    401: notSignedIn,
    402: errorReply('The bid is not paid for: pay with POST …/checkout first.'),
    403: viewerWrites,
    404: bidNotVisible,
    409: errorReply('The bid already has a run queued, running or waiting; `detail` names it.'),
    415: errorReply('The body is not JSON.'),
  },
});

const readRunRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/runs/{run}',
  tags,
  security: BID_SECURITY,
  summary: 'One run',
  request: { params: RunParams },
  responses: { 200: { description: 'The run.', content: json(RunSchema) }, 401: notSignedIn, 404: errorReply('No such bid visible to the caller, or the bid has no such run.') },
});

const stopRunRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/runs/{run}/stop',
  tags,
  security: BID_SECURITY,
  summary: 'Stop a run',
  description: 'A run waiting on a person or queued stops at once; a running one at its next step boundary (`stop_requested` until then). Its pending actions are cancelled.',
  request: { params: RunParams },
  responses: {
    200: { description: 'The run after the request.', content: json(RunSchema) },
    401: notSignedIn,
    403: viewerWrites,
    404: errorReply('No such bid visible to the caller, or the bid has no such run.'),
    409: errorReply('The run has already ended.'),
  },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/runs/{run}/events',
  tags,
  security: BID_SECURITY,
  summary: "A run's events, as Server-Sent Events",
  description:
    "Every event after `since_seq` (or after `Last-Event-ID` on a reconnect), then each new one as it is appended; the stream closes after the run's last event " +
    '(`run_completed`, `run_stopped` or `run_failed`). Each event\'s `id:` is its seq, so a reconnect misses nothing and repeats nothing; `retry:` says how long to wait. ' +
    'A `finding` event carries only finding_id, requirement_id and kind (GET …/findings has the rest). The kinds are listed in api/bids/README.md.',
  request: { params: RunParams, query: EventsQuery },
  responses: {
    200: { description: 'The event stream.', content: { 'text/event-stream': { schema: z.string().openapi({ description: "`id: <seq>`, `event: <kind>`, `data: <the event's JSON payload>`." }) } } },
    400: errorReply('since_seq is not a whole number.'),
    401: notSignedIn,
    404: errorReply('No such bid visible to the caller, or the bid has no such run.'),
  },
});

const findingsRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/findings',
  tags,
  security: BID_SECURITY,
  summary: "Findings of the bid's runs",
  description: 'At or after `since_seq` in the bid\'s chain, each with finding_id, run_id and created_at.',
  request: { params: BidParams, query: FindingsQuery },
  responses: { 200: { description: 'The findings.', content: json(FindingListSchema) }, 400: errorReply('since_seq is not a whole number.'), 401: notSignedIn, 404: bidNotVisible },
});

const actionsRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/actions',
  tags,
  security: BID_SECURITY,
  summary: 'Actions waiting for a person, and those decided',
  description: 'Each with its stored arguments; decided ones with who decided and when.',
  request: { params: BidParams },
  responses: { 200: { description: 'The actions.', content: json(ActionListSchema) }, 401: notSignedIn, 404: bidNotVisible },
});

const decideRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/actions/{action}/{decision}',
  tags,
  security: BID_SECURITY,
  summary: 'Approve or reject an action',
  description:
    '`{decision}` is `approve` or `reject`. An action no run waits on only changes state; a run\'s action, approved on a paid bid, is executed by the run with its stored arguments, ' +
    'once, and the run resumes (`hermes_run_id`); a rejected one resumes the run without it. Every decision is audited.',
  request: { params: ActionParams },
  responses: {
    200: { description: 'The action as decided, and the run resumed.', content: json(DecisionSchema) },
    400: errorReply('The decision is neither approve nor reject.'),
    401: notSignedIn,
    402: errorReply("Approving a run's action needs the bid paid for; the action stays pending."),
    403: viewerWrites,
    404: errorReply('No such bid visible to the caller, or the bid has no such action.'),
    409: errorReply('The action is already decided, or cancelled with its run.'),
  },
});

const drainRoute = createRoute({
  method: 'post',
  path: '/v1/jobs/drain',
  tags,
  security: BID_SECURITY,
  summary: 'Pick up background work a stopped instance left',
  description: 'Claims every job whose worker\'s lease has expired, and every queued job due, and runs them in this instance.',
  responses: { 200: { description: 'What was picked up.', content: json(DrainSchema) }, 401: notSignedIn },
});

/**
 * The routes of bid runs (spec, Bids): jobs, quote, start, read, stop and the event stream of runs,
 * findings, actions and their decisions, and POST /v1/jobs/drain. Every bid route opens its bid through the
 * bid door (`bidDoor`): viewers read, members and above write. Mount it after the caller middleware.
 *
 * @example
 * app.route('/', bidRunRoutes({ state, worker, model, bidPrice, now }));
 */
export function bidRunRoutes(options: BidRunRoutesOptions): OpenAPIHono<BidEnv> {
  const { state, worker } = options;
  const now = options.now ?? (() => new Date());
  const retryMs = options.stream?.retryMs ?? 3000;
  const pollMs = options.stream?.pollMs ?? 1000;
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  // Before the validators, so a caller without a session learns nothing about the inputs.
  app.use('/v1/bids/*', requireBidAccount);
  app.use('/v1/jobs/*', requireBidAccount);

  const door = bidDoor(app, state);
  const noRun = (bidId: string, runId: string) => ({ detail: `This bid has no run ${runId.slice(0, 80)}; GET /v1/bids/${bidId}/runs/quote says how to start one.` });

  door.read(jobRoute, async (c) => {
    const { bid: bidId, job: jobId } = c.req.valid('param');
    const job = await jobRow(state, jobId);
    if (!job || job.bid_id !== bidId) return c.json({ detail: `This bid has no job ${jobId.slice(0, 80)}.` }, 404);
    return c.json(jobView(job), 200);
  });

  door.read(quoteRoute, async (c) => c.json(await runQuote(state, options, c.var.bid.bid_id), 200));

  door.write(startRunRoute, async (c) => {
    const started = await startRun(state, worker, { bidId: c.var.bid.bid_id, accountId: c.get('accountId'), now: now() });
    if (!started.ok) return c.json({ detail: started.detail }, started.status);
    return c.json(await runView(state, started.run), 201);
  });

  door.read(readRunRoute, async (c) => {
    const { bid: bidId, run: runId } = c.req.valid('param');
    const run = await runRow(state, bidId, runId);
    if (!run) return c.json(noRun(bidId, runId), 404);
    return c.json(await runView(state, run), 200);
  });

  door.write(stopRunRoute, async (c) => {
    const { bid: bidId, run: runId } = c.req.valid('param');
    const run = await runRow(state, bidId, runId);
    if (!run) return c.json(noRun(bidId, runId), 404);
    const stopped = await stopRun(state, worker, { run, accountId: c.get('accountId'), now: now() });
    if (!stopped.ok) return c.json({ detail: stopped.detail }, stopped.status);
    return c.json(await runView(state, stopped.run), 200);
  });

  door.read(eventsRoute, async (c) => {
    const { bid: bidId, run: runId } = c.req.valid('param');
    if (!await runRow(state, bidId, runId)) return c.json(noRun(bidId, runId), 404);
    const lastEventId = c.req.header('last-event-id');
    const after = lastEventId !== undefined && /^\d{1,15}$/.test(lastEventId.trim()) ? Number(lastEventId.trim()) : c.req.valid('query').since_seq;
    return streamRunEvents(c, state, { bidId, runId, after, retryMs, pollMs, shutdown: options.stream?.signal });
  });

  door.read(findingsRoute, async (c) => {
    const since = c.req.valid('query').since_seq;
    const findings = await findingsSince(state, c.var.bid.bid_id, since);
    return c.json({ findings, next_since_seq: findings.length === 0 ? since : findings.at(-1)!.seq + 1 }, 200);
  });

  door.read(actionsRoute, async (c) => c.json({ actions: await listActions(state, c.var.bid.bid_id) }, 200));

  door.write(decideRoute, async (c) => {
    const { bid: bidId, action: actionId, decision } = c.req.valid('param');
    const decided = await decideAction(state, { bidId, actionId, decision, accountId: c.get('accountId'), now: now(), runAfter: worker.runAfterNow() });
    if (!decided.ok) return c.json({ detail: decided.detail }, decided.status);
    if (decided.jobToKick !== null) await worker.kick();
    return c.json({ action: decided.action, hermes_run_id: decided.runId }, 200);
  });

  app.openapi(drainRoute, async (c) => {
    const report = await worker.drain();
    return c.json({ ...report, running: worker.running() }, 200);
  });

  return app;
}

/** What a run of the bid does and costs, what it will read, and whether the bid is paid (GET …/runs/quote). */
async function runQuote(state: StateDb, options: BidRunRoutesOptions, bidId: string): Promise<z.infer<typeof QuoteSchema>> {
  const files = await listBidFiles(state, bidId);
  return {
    bid_id: bidId,
    paid: await bidIsPaid(state, bidId),
    price: options.bidPrice ?? null,
    checkout: `POST /v1/bids/${bidId}/checkout`,
    steps: RUN_STEPS,
    files: {
      readable: files.filter((file) => file.read_status === 'read').length,
      unreadable: files.filter((file) => file.read_status === 'failed').length,
      pages: files.reduce((sum, file) => sum + file.pages_read, 0),
    },
    requirements: (await listRequirements(state, bidId)).length,
    language_model: options.model.model,
    actions: [
      "fetch_pack: fetch the tender's documents from its portal, when the bid has none and its portal publishes them",
      'send_clarification: email the buyer the questions the documents leave open',
      ...(options.model.model !== null ? [`use_model: send the requirements and passages to ${options.model.model}`] : []),
      'sign_off: a person signs the response off as ready to lodge (no run waits on it)',
    ],
    live_run: (await liveRun(state, bidId))?.run_id ?? null,
  };
}

interface RunStream {
  bidId: string;
  runId: string;
  /** The seq the client has seen: the stream starts after it. */
  after: number;
  retryMs: number;
  pollMs: number;
  /** The server is stopping. */
  shutdown: AbortSignal | undefined;
}

/** The run's events after `after` as Server-Sent Events, then each new one, until the run's last event. */
function streamRunEvents(c: Context, state: StateDb, { bidId, runId, after, retryMs, pollMs, shutdown }: RunStream): Response {
  return streamSSE(c, async (stream) => {
    let wake: (() => void) | null = null;
    const unsubscribe = onRunEvent(runId, () => wake?.());
    stream.onAbort(() => wake?.());
    // The server is stopping: the client reconnects (Last-Event-ID) to the next instance.
    const onShutdown = () => {
      void stream.close();
      wake?.();
    };
    shutdown?.addEventListener('abort', onShutdown);
    try {
      await stream.write(`retry: ${retryMs}\n\n`);
      let last = after;
      while (!stream.aborted && !stream.closed && !shutdown?.aborted) {
        const events = await runEventsAfter(state, runId, last);
        for (const event of events) {
          await stream.writeSSE({ id: String(event.seq), event: event.kind, data: JSON.stringify(event.data) });
          last = event.seq;
          if (FINAL_EVENT_KINDS.has(event.kind)) return;
        }
        if (events.length > 0) continue;
        // A run that ended with its last event before `after`: nothing more will come.
        const run = await runRow(state, bidId, runId);
        if (!run || !LIVE_RUN_STATES.includes(run.state)) return;
        // Woken by an append in this process, or after pollMs for one another instance made.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      unsubscribe();
      shutdown?.removeEventListener('abort', onShutdown);
    }
  });
}
