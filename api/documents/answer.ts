import type { Context } from 'hono';
import type { DocumentClassification } from '../checkers/document-types.ts';
import type { FirstPageStore } from '../checkers/first-page-cache.ts';
import { refusedAtCap } from '../usage/metered-call.ts';
import { cacheKey, type ContentCache } from './content-cache.ts';
import { AnalysisPoolFullError, type AnalysisOutcome, type AnalysisPool } from './pool.ts';
import type { IntakeDocument } from './types.ts';
import { receivedEvent, streamJob, streamStored } from './sse-job.ts';

/**
 * How every checker route answers once its documents and options are read: from the stored result, or by
 * running the analysis in the pool; as one JSON reply, or with `?stream=1` as Server-Sent Events
 * (spec, Events): `received`, then `inspecting` (warrants) or `working` heartbeats, then `result` (the reply
 * body) or `error` (`{detail}`). A stored reply and an engine failure do not use the caller's weekly unit
 * (spec, Limits): the JSON reply says so in a header the route's meter reads (`countsAgainstAllowance`).
 */

/** Set on a reply answered from the content-hash cache. */
export const CACHE_HEADER = 'Svc-Cache';
/** Set on a reply made although the engine failed (a warrant with `risk_band: error` after a time or memory limit). */
export const ENGINE_HEADER = 'Svc-Engine';

/** The meter's rule for checker replies: a 2xx counts unless it came from the cache or the engine failed. */
export function countsAgainstAllowance(response: Response): boolean {
  return response.ok && response.headers.get(CACHE_HEADER) !== 'hit' && response.headers.get(ENGINE_HEADER) !== 'failed';
}

/**
 * The sentence a failed analysis is answered with: the guarded open's refusal already says what was not read
 * and why ("The PDF was not read: …"); any other failure is introduced as what could not be done.
 */
export function failureSentence(detail: string, verb: 'read' | 'analysed'): string {
  return /^The (PDF|document|image) (was not read|is a ZIP)/.test(detail) ? detail : `The document could not be ${verb}: ${detail}`;
}

export interface AnswerServices {
  pool: AnalysisPool;
  /** Milliseconds between `working`/`inspecting` heartbeats when no progress stage arrives (default 5 s). */
  heartbeatMs?: number;
}

/** What the route makes of an analysis outcome: a reply (counted or not), or a failure answered `{detail}`. */
export type Settled<Reply> = { reply: Reply; engineFailed: boolean } | { status: 400 | 422; detail: string };

export interface AnswerPlan<Reply> {
  /** The pool's name of the analysis. */
  analysis: string;
  documents: IntakeDocument[];
  options: unknown;
  now: Date;
  stream: boolean;
  heartbeat: 'inspecting' | 'working';
  /** The stored reply for these bytes and options, unless the caller asked `fresh=1`. */
  stored: Reply | undefined;
  /** Page-1 classifications of these documents made before, by SHA-256, for the analysis to use instead of reading again. */
  firstPages?: ReadonlyMap<string, DocumentClassification>;
  /** Told each page-1 classification the analysis makes, as it makes it. */
  onFirstPageClassified?: (sha256: string, classification: DocumentClassification) => void;
  /**
   * The same analysis already running for an identical request (same checker, bytes and options): this request
   * waits for it instead of running its own, and is answered as a stored result is (free, `Svc-Cache: hit`).
   */
  joined?: Promise<AnalysisOutcome<unknown>>;
  /** Told of the analysis this request starts, so identical requests arriving meanwhile can join it. */
  onStarted?: (outcome: Promise<AnalysisOutcome<unknown>>) => void;
  /** Turns the outcome into the reply and stores it where the route keeps results. */
  settle(outcome: AnalysisOutcome<unknown>): Settled<Reply>;
}

export async function answerAnalysis<Reply extends object>(c: Context, services: AnswerServices, plan: AnswerPlan<Reply>): Promise<Response> {
  const heartbeatMs = services.heartbeatMs ?? 5_000;
  let lastStage = 'queued';
  let emitStage: ((stage: string) => void) | null = null;
  let pending: Promise<AnalysisOutcome<unknown>> | null = null;
  if (plan.stored === undefined && plan.joined !== undefined) {
    pending = plan.joined;
    c.header(CACHE_HEADER, 'hit');
  } else if (plan.stored === undefined) {
    // A caller at its weekly cap gets stored results and joined analyses, which are free, but no analysis of its own.
    const refused = refusedAtCap(c);
    if (refused !== undefined) return refused;
    try {
      pending = services.pool.run({
        analysis: plan.analysis,
        documents: plan.documents,
        options: plan.options,
        now: plan.now.toISOString(),
        onProgress: (stage) => {
          lastStage = stage;
          emitStage?.(stage);
        },
        ...(plan.firstPages === undefined ? {} : { firstPages: plan.firstPages }),
        ...(plan.onFirstPageClassified === undefined ? {} : { onFirstPageClassified: plan.onFirstPageClassified }),
      });
    } catch (error) {
      if (!(error instanceof AnalysisPoolFullError)) throw error;
      c.header('Retry-After', String(error.retryAfterSeconds));
      return c.json({ detail: error.message }, 503);
    }
    plan.onStarted?.(pending);
  }

  if (!plan.stream) {
    if (pending === null) {
      c.header(CACHE_HEADER, 'hit');
      return c.json(plan.stored as Reply, 200);
    }
    const settled = plan.settle(await pending);
    if ('detail' in settled) return c.json({ detail: settled.detail }, settled.status);
    if (settled.engineFailed) c.header(ENGINE_HEADER, 'failed');
    return c.json(settled.reply, 200);
  }

  if (pending === null) {
    c.header(CACHE_HEADER, 'hit');
    return streamStored(c, receivedEvent(plan.documents, true), plan.stored);
  }
  const running = pending;
  return streamJob(c, {
    received: receivedEvent(plan.documents, false),
    heartbeat: plan.heartbeat,
    heartbeatMs,
    stage: () => lastStage,
    onStage: (emit) => {
      emitStage = emit;
    },
    async settle() {
      const settled = plan.settle(await running);
      return 'detail' in settled ? { detail: settled.detail } : { reply: settled.reply, counts: !settled.engineFailed };
    },
    failureDetail: 'The server failed to finish this analysis; the failure is logged. Try again shortly.',
  });
}

export interface CachedAnswerPlan {
  /** The checker's name: its analysis in the pool and its results in the cache. */
  checker: string;
  documents: IntakeDocument[];
  /** Whether the reply shows file names (then they are part of the cache key). */
  namesShown: boolean;
  options: unknown;
  engineVersion: string;
  fresh: boolean;
  stream: boolean;
  now: Date;
  /**
   * For checkers that classify by page 1 (identity, pack): each document's stored page-1 classification is
   * handed to the analysis (none with `fresh`), and each classification it makes is kept.
   */
  firstPages?: FirstPageStore;
}

/**
 * `answerAnalysis` for the checkers whose results live in the content-hash cache (extract, identity, pack):
 * a stored result answers unless `fresh`; a result is stored; an engine failure is 422 `{detail}` (an
 * `error` event when streamed), is not stored and does not count. Page-1 classifications (`firstPages`) are
 * kept per document whatever the outcome. For those checkers a result in which no document could be read (each
 * says why) is an engine failure too: answered as it stands, marked `Svc-Engine: failed`, not stored, not counted.
 */
/**
 * Analyses running now for the content-cached checkers, by cache key: an identical request arriving meanwhile
 * waits for the running one (two hundred clients sending one invoice at once make one analysis, not a full queue).
 */
const inFlightByCache = new WeakMap<ContentCache, Map<string, Promise<AnalysisOutcome<unknown>>>>();

export function answerCached(c: Context, services: AnswerServices & { cache: ContentCache }, plan: CachedAnswerPlan): Promise<Response> {
  const key = cacheKey({
    checker: plan.checker,
    documents: plan.documents.map((document) => (plan.namesShown ? { sha256: document.sha256, filename: document.filename } : { sha256: document.sha256 })),
    options: plan.options,
    engineVersion: plan.engineVersion,
  });
  const stored = plan.fresh ? undefined : (services.cache.get(key) as object | undefined);
  const inFlight = inFlightByCache.get(services.cache) ?? new Map<string, Promise<AnalysisOutcome<unknown>>>();
  inFlightByCache.set(services.cache, inFlight);
  const inFlightKey = JSON.stringify(key);
  const joined = plan.fresh || stored !== undefined ? undefined : inFlight.get(inFlightKey);
  const firstPages = plan.firstPages;
  // Page-1 classifications handed to the job, and those it makes, kept when it settles (on the request's path, so a
  // store failure is the request's).
  const knownClassifications = firstPages === undefined || stored !== undefined ? undefined : plan.fresh ? new Map<string, DocumentClassification>() : firstPages.known(plan.documents.map((document) => document.sha256));
  const newClassifications = new Map<string, DocumentClassification>();
  return answerAnalysis<object>(c, services, {
    analysis: plan.checker,
    documents: plan.documents,
    options: plan.options,
    now: plan.now,
    stream: plan.stream,
    heartbeat: 'working',
    stored,
    ...(joined === undefined ? {} : { joined }),
    onStarted: (outcome) => {
      inFlight.set(inFlightKey, outcome);
      void outcome.finally(() => inFlight.delete(inFlightKey));
    },
    ...(knownClassifications === undefined
      ? {}
      : {
          firstPages: knownClassifications,
          onFirstPageClassified: (sha256: string, classification: DocumentClassification) => newClassifications.set(sha256, classification),
        }),
    settle(outcome) {
      // Kept even when the job then failed: a classification made before a time limit is as good as any.
      for (const [sha256, classification] of newClassifications) firstPages?.keep(sha256, classification, plan.now);
      if (!outcome.ok) return { status: outcome.failure === 'refused' ? outcome.status : 422, detail: `${failureSentence(outcome.detail, 'analysed')} Nothing was counted against your allowance.` };
      // A checker that classifies by page 1 is told every page 1 it read: one told of none read no document at all
      // (each says why it could not be read), an engine failure, neither stored nor counted.
      const readNone = knownClassifications !== undefined && plan.documents.every((document) => !knownClassifications.has(document.sha256) && !newClassifications.has(document.sha256));
      if (readNone) return { reply: outcome.result as object, engineFailed: true };
      services.cache.put(key, outcome.result, plan.now);
      return { reply: outcome.result as object, engineFailed: false };
    },
  });
}
