import type { Context } from 'hono';
import { refusedAtCap } from '../../usage/metered-call.ts';
import type { Services } from '../../providers/index.ts';
import type { IntakeDocument } from '../../documents/types.ts';
import type { DocumentClassification } from '../document-types.ts';
import type { ReadTextOptions, ReadTextResult } from '../read-text.ts';
import type { CacheKey, ContentCache } from './content-cache.ts';
import { AnalysisPoolFullError, type AnalysisOutcome, type AnalysisPool } from './pool.ts';
import { receivedEvent, streamJob, streamStored } from './sse-job.ts';

/**
 * How every checker that reads a document answers once its documents and options are read (DESIGN §10),
 * one function whatever its lane: from a stored reply, or by running its work in the pool; as one JSON
 * reply, or with `?stream=1` as Server-Sent Events (spec, Events): `received`, then `inspecting` (warrants)
 * or `working` heartbeats, then `result` (the reply body) or `error` (`{detail}`).
 *
 * - `pool` lane: the analysis runs in a pool process on the untrusted bytes, and `settle` makes the reply of
 *   its outcome (and stores it where the checker keeps results).
 * - `judge` lane: the documents are read to text in a pool process (`read_text`, under the pool's caps), then
 *   `judge` runs in the main thread with the outside clients (`services`) and says whether its reply counts.
 *
 * Counting (spec, Limits): a stored reply, an engine failure and a judge's uncounted reply do not use the
 * caller's weekly unit. The JSON reply says so in a header the route's meter reads (`countsAgainstAllowance`
 * for the pool lane's `Svc-Engine`, `judgedReplyCounts` for the judge lane's `Svc-Counted`); a stream settles
 * its unit itself. A full pool is 503 with `Retry-After`.
 */

/** Set on a reply answered from a stored result. */
export const CACHE_HEADER = 'Svc-Cache';
/** Set on a reply made although the engine failed (a warrant with `risk_band: error` after a time or memory limit). */
export const ENGINE_HEADER = 'Svc-Engine';
/** `yes` or `no` on every judged reply: whether it used the caller's weekly unit. */
export const COUNTED_HEADER = 'Svc-Counted';
/** The pool's name of the judge lane's reading step (api/checkers/registry.ts). */
export const READ_TEXT_ANALYSIS = 'read_text';

/** The meter's rule for the pool lane: a 2xx counts unless it came from a stored result or the engine failed. */
export function countsAgainstAllowance(response: Response): boolean {
  return response.ok && response.headers.get(CACHE_HEADER) !== 'hit' && response.headers.get(ENGINE_HEADER) !== 'failed';
}

/** The meter's rule for the judge lane: a 2xx counts unless the judge said it does not. */
export function judgedReplyCounts(response: Response): boolean {
  return response.ok && response.headers.get(COUNTED_HEADER) !== 'no';
}

/**
 * The sentence a failed analysis is answered with: the guarded open's refusal already says what was not read
 * and why ("The PDF was not read: …"); any other failure is introduced as what could not be done.
 */
export function failureSentence(detail: string, verb: 'read' | 'analysed'): string {
  return /^The (PDF|document|image) (was not read|is a ZIP)/.test(detail) ? detail : `The document could not be ${verb}: ${detail}`;
}

export interface AnswerDeps {
  pool: AnalysisPool;
  /** The outside clients a judge is handed. */
  services: Services;
  /** Milliseconds between heartbeats when no progress stage arrives (default 5 s). */
  heartbeatMs?: number;
}

/** What a pool lane's `settle` makes of an analysis outcome: a reply (counted or not), or a failure answered `{detail}`. */
export type Settled<Reply> = { reply: Reply; engineFailed: boolean } | { status: 400 | 422; detail: string };

/** What a judge makes of the text: a reply (counted or not), or a failure answered `{detail}`. */
export type Judged<Reply> = { reply: Reply; counts: boolean } | { status: 400 | 422 | 502 | 503; detail: string };

export interface JudgeContext {
  /** The instant the call arrived: the judge reads no clock of its own. */
  now: Date;
  /** A stage name for `?stream=1` heartbeats, e.g. `checking links`. */
  progress: (stage: string) => void;
}

export interface PoolLane<Reply> {
  kind: 'pool';
  /** The pool's name of the analysis. */
  analysis: string;
  options: unknown;
  heartbeat: 'inspecting' | 'working';
  /** Page-1 classifications of these documents made before, by SHA-256, for the analysis to use instead of reading again. */
  firstPages?: ReadonlyMap<string, DocumentClassification>;
  /** Told each page-1 classification the analysis makes, as it makes it. */
  onFirstPageClassified?: (sha256: string, classification: DocumentClassification) => void;
  /**
   * The same analysis already running for an identical request (same checker, bytes and options): this request
   * waits for it instead of running its own, and is answered as a stored result is (free, `Svc-Cache: hit`). Asked
   * at the moment this request would start its own, not when the plan is made, since the plan's lookups wait on the
   * state store and identical requests would all miss each other across those waits.
   */
  inFlight?: () => Promise<AnalysisOutcome<unknown>> | undefined;
  /** Told of the analysis this request starts, so identical requests arriving meanwhile can join it. */
  onStarted?: (outcome: Promise<AnalysisOutcome<unknown>>) => void;
  /** Turns the outcome into the reply and stores it where the checker keeps results. */
  settle(outcome: AnalysisOutcome<unknown>): Promise<Settled<Reply>> | Settled<Reply>;
}

export interface JudgeLane<Reply> {
  kind: 'judge';
  /** How `read_text` reads the documents. */
  read: ReadTextOptions;
  judge(text: ReadTextResult, services: Services, context: JudgeContext): Promise<Judged<Reply>>;
  /**
   * For a judge that asks no outside service (its reply is a pure function of the text and its engine): the
   * content cache and this call's key. A new reply is stored (the caller looks the stored one up).
   */
  keep?: { cache: ContentCache; key: CacheKey };
}

export interface AnswerPlan<Reply> {
  documents: IntakeDocument[];
  now: Date;
  stream: boolean;
  /** The stored reply for these bytes and options, unless the caller asked `fresh=1`: answered at once, free. */
  stored: Reply | undefined;
  lane: PoolLane<Reply> | JudgeLane<Reply>;
}

export async function answer<Reply extends object>(c: Context, deps: AnswerDeps, plan: AnswerPlan<Reply>): Promise<Response> {
  if (plan.stored !== undefined) return answerStored(c, plan, plan.stored);
  const { lane } = plan;
  const stages = stageTracker();
  let outcome: Promise<AnalysisOutcome<unknown>>;
  // Looked up here, with no await between the look and the start below: of identical requests arriving together,
  // the first starts the analysis and every later one joins it.
  const joined = lane.kind === 'pool' ? lane.inFlight?.() : undefined;
  if (joined !== undefined) {
    outcome = joined;
    c.header(CACHE_HEADER, 'hit');
  } else {
    // A caller at its weekly cap gets stored results and joined analyses, which are free, but no work of its own.
    const refused = refusedAtCap(c);
    if (refused !== undefined) return refused;
    try {
      outcome = start(deps.pool, plan, stages.progress);
    } catch (error) {
      if (!(error instanceof AnalysisPoolFullError)) throw error;
      c.header('Retry-After', String(error.retryAfterSeconds));
      return c.json({ detail: error.message }, 503);
    }
    if (lane.kind === 'pool') lane.onStarted?.(outcome);
  }
  const settle = async () => await settleOutcome(deps, plan, outcome, stages.progress);

  if (!plan.stream) {
    const settled = await settle();
    if ('detail' in settled) return c.json({ detail: settled.detail }, settled.status);
    if (lane.kind === 'judge') c.header(COUNTED_HEADER, settled.counts ? 'yes' : 'no');
    else if (!settled.counts) c.header(ENGINE_HEADER, 'failed');
    return c.json(settled.reply, 200);
  }
  return streamJob(c, {
    received: receivedEvent(plan.documents, false),
    heartbeat: lane.kind === 'pool' ? lane.heartbeat : 'working',
    heartbeatMs: deps.heartbeatMs ?? 5_000,
    stage: stages.stage,
    onStage: stages.onStage,
    async settle() {
      const settled = await settle();
      return 'detail' in settled ? { detail: settled.detail } : settled;
    },
    failureDetail: `The server failed to finish this ${lane.kind === 'pool' ? 'analysis' : 'check'}; the failure is logged. Try again shortly.`,
  });
}

/** The lane's work in the pool: the analysis, or the reading step (none for a judge with nothing to read, such as a name to screen). */
function start<Reply>(pool: AnalysisPool, plan: AnswerPlan<Reply>, progress: (stage: string) => void): Promise<AnalysisOutcome<unknown>> {
  const { lane } = plan;
  const now = plan.now.toISOString();
  if (lane.kind === 'judge') {
    if (plan.documents.length === 0) return Promise.resolve({ ok: true, result: { documents: [] }, ms: 0 });
    return pool.run({ analysis: READ_TEXT_ANALYSIS, documents: plan.documents, options: lane.read, now, onProgress: progress });
  }
  return pool.run({
    analysis: lane.analysis,
    documents: plan.documents,
    options: lane.options,
    now,
    onProgress: progress,
    ...(lane.firstPages === undefined ? {} : { firstPages: lane.firstPages }),
    ...(lane.onFirstPageClassified === undefined ? {} : { onFirstPageClassified: lane.onFirstPageClassified }),
  });
}

type Answered<Reply> = { reply: Reply; counts: boolean } | { status: 400 | 422 | 502 | 503; detail: string };

/** What the work came to, as the reply (and whether it counts) or a `{detail}` failure. */
async function settleOutcome<Reply>(deps: AnswerDeps, plan: AnswerPlan<Reply>, pending: Promise<AnalysisOutcome<unknown>>, progress: (stage: string) => void): Promise<Answered<Reply>> {
  const { lane } = plan;
  const outcome = await pending;
  if (lane.kind === 'pool') {
    const settled = await lane.settle(outcome);
    return 'detail' in settled ? settled : { reply: settled.reply, counts: !settled.engineFailed };
  }
  if (!outcome.ok) return { status: outcome.failure === 'refused' ? outcome.status : 422, detail: `${failureSentence(outcome.detail, 'read')} Nothing was counted against your allowance.` };
  const judged = await lane.judge(outcome.result as ReadTextResult, deps.services, { now: plan.now, progress });
  if (lane.keep !== undefined && 'reply' in judged) await lane.keep.cache.put(lane.keep.key, judged.reply, plan.now);
  return judged;
}

/** A stored reply, as JSON or as a stream (`received` then `result`); never counted. */
function answerStored<Reply extends object>(c: Context, plan: AnswerPlan<Reply>, stored: Reply): Response {
  c.header(CACHE_HEADER, 'hit');
  if (plan.lane.kind === 'judge') c.header(COUNTED_HEADER, 'no');
  if (!plan.stream) return c.json(stored, 200);
  return streamStored(c, receivedEvent(plan.documents, true), stored);
}

/** The stage the work is at, for heartbeats, and where a new stage is told while a stream is open. */
function stageTracker() {
  let lastStage = 'queued';
  let emitStage: (() => void) | null = null;
  return {
    progress(stage: string) {
      lastStage = stage;
      emitStage?.();
    },
    stage: () => lastStage,
    onStage(emit: (() => void) | null) {
      emitStage = emit;
    },
  };
}
