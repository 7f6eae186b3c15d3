import type { Context } from 'hono';
import type { ReadTextOptions, ReadTextResult } from '../checkers/read-text.ts';
import { refusedAtCap } from '../usage/metered-call.ts';
import type { Services } from '../providers/index.ts';
import { CACHE_HEADER, failureSentence } from './answer.ts';
import type { CacheKey, ContentCache } from './content-cache.ts';
import { AnalysisPoolFullError, type AnalysisPool } from './pool.ts';
import type { IntakeDocument } from './types.ts';
import { receivedEvent, streamJob, streamStored } from './sse-job.ts';

/**
 * How a checker that judges a document against the outside world answers (DESIGN §10): the documents are
 * read to text in a pool thread (`read_text`, under the pool's time and memory caps, since the bytes are
 * untrusted), then the plan's `judge` runs in the main thread with the outside clients (`services`). As one
 * JSON reply, or with `?stream=1` as Server-Sent Events (spec, Events): `received`, `working` heartbeats, then
 * `result` or `error`.
 *
 * Counting (spec, Limits): the judge says whether its reply uses the caller's unit (an abstention or an
 * outage does not). The JSON reply carries that in `Svc-Counted`, which the route's meter reads with
 * `judgedReplyCounts`; a stream settles its unit itself. A pool that is full is 503 with `Retry-After` and a
 * reading that fails (time or memory limit, unreadable bytes) is 422 `{detail}`; neither counts.
 */

/** `yes` or `no` on every judged reply: whether it used the caller's weekly unit. */
export const COUNTED_HEADER = 'Svc-Counted';

/** The meter's rule for judged replies: a 2xx counts unless the judge said it does not. */
export function judgedReplyCounts(response: Response): boolean {
  return response.ok && response.headers.get(COUNTED_HEADER) !== 'no';
}

/** What the judge makes of the text: a reply (counted or not), or a failure answered `{detail}`. */
export type Judged<Reply> = { reply: Reply; counts: boolean } | { status: 400 | 422 | 502 | 503; detail: string };

export interface JudgeContext {
  /** The instant the call arrived: the judge reads no clock of its own. */
  now: Date;
  /** A stage name for `?stream=1` heartbeats, e.g. `checking links`. */
  progress: (stage: string) => void;
}

export interface JudgePlan<Reply> {
  documents: IntakeDocument[];
  read: ReadTextOptions;
  now: Date;
  stream: boolean;
  judge(text: ReadTextResult, services: Services, context: JudgeContext): Promise<Judged<Reply>>;
  /**
   * For a judge that asks no outside service (its reply is a pure function of the text and its engine): the
   * content cache and this call's key. A stored reply answers at once, free (`Svc-Cache: hit`, not counted),
   * unless `fresh`; a new reply is stored. Judges that ask the outside world leave this out: the world changes.
   */
  stored?: { cache: ContentCache; key: CacheKey; fresh: boolean };
}

export interface AnswerWithServicesDeps {
  pool: AnalysisPool;
  services: Services;
  /** Milliseconds between `working` heartbeats when no stage arrives (default 5 s). */
  heartbeatMs?: number;
}

/** The pool's name of the reading step (api/checkers/registry.ts). */
export const READ_TEXT_ANALYSIS = 'read_text';

export async function answerWithServices<Reply extends object>(c: Context, deps: AnswerWithServicesDeps, plan: JudgePlan<Reply>): Promise<Response> {
  const heartbeatMs = deps.heartbeatMs ?? 5_000;
  let lastStage = 'queued';
  let emitStage: (() => void) | null = null;
  const progress = (stage: string) => {
    lastStage = stage;
    emitStage?.();
  };

  const stored = plan.stored === undefined || plan.stored.fresh ? undefined : (plan.stored.cache.get(plan.stored.key) as Reply | undefined);
  if (stored !== undefined) return answerStored(c, plan, stored);
  // A caller at its weekly cap gets stored replies, which are free, but no check of its own.
  const refused = refusedAtCap(c);
  if (refused !== undefined) return refused;

  let reading: ReturnType<typeof deps.pool.run<ReadTextResult>>;
  try {
    // A plan with nothing to read (adverse media screening a name) goes straight to its judge, taking no thread.
    reading = plan.documents.length === 0
      ? Promise.resolve({ ok: true, result: { documents: [] }, ms: 0 })
      : deps.pool.run<ReadTextResult>({ analysis: READ_TEXT_ANALYSIS, documents: plan.documents, options: plan.read, now: plan.now.toISOString(), onProgress: progress });
  } catch (error) {
    if (!(error instanceof AnalysisPoolFullError)) throw error;
    c.header('Retry-After', String(error.retryAfterSeconds));
    return c.json({ detail: error.message }, 503);
  }

  const judged = async (): Promise<Judged<Reply>> => {
    const outcome = await reading;
    if (!outcome.ok) return { status: outcome.failure === 'refused' ? outcome.status : 422, detail: `${failureSentence(outcome.detail, 'read')} Nothing was counted against your allowance.` };
    const result = await plan.judge(outcome.result, deps.services, { now: plan.now, progress });
    if (plan.stored !== undefined && 'reply' in result) plan.stored.cache.put(plan.stored.key, result.reply, plan.now);
    return result;
  };

  if (!plan.stream) {
    const result = await judged();
    if ('detail' in result) return c.json({ detail: result.detail }, result.status);
    c.header(COUNTED_HEADER, result.counts ? 'yes' : 'no');
    return c.json(result.reply, 200);
  }

  return streamJob(c, {
    received: receivedEvent(plan.documents, false),
    heartbeat: 'working',
    heartbeatMs,
    stage: () => lastStage,
    onStage: (emit) => {
      emitStage = emit;
    },
    async settle() {
      const result = await judged();
      return 'detail' in result ? { detail: result.detail } : result;
    },
    failureDetail: 'The server failed to finish this check; the failure is logged. Try again shortly.',
  });
}

/** A stored reply, as JSON or as a stream (`received` then `result`); never counted. */
function answerStored<Reply extends object>(c: Context, plan: JudgePlan<Reply>, stored: Reply): Response {
  c.header(CACHE_HEADER, 'hit');
  c.header(COUNTED_HEADER, 'no');
  if (!plan.stream) return c.json(stored, 200);
  return streamStored(c, receivedEvent(plan.documents, true), stored);
}
