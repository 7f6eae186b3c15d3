import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DocumentClassification } from '../checkers/document-types.ts';
import type { IntakeDocument } from './types.ts';

/**
 * The bounded pool of analysis threads every checker runs its work in (DESIGN §10): each analysis runs in a
 * worker thread with a time limit and V8 heap limits, so a file that makes the engine hang or exhaust its
 * memory costs that thread, never the server. Threads are reused between jobs (a checker's modules load
 * once per thread) and replaced when one is stopped. At most `size` jobs run at once and `queueLimit` wait;
 * one more is refused at once with `AnalysisPoolFullError`, which routes answer 503 with `Retry-After`.
 */

/** Where an analysis lives: a module and the name of the `Analysis` it exports (api/checkers/types.ts). */
export interface AnalysisLocation {
  moduleUrl: string;
  exportName: string;
}

export interface AnalysisPoolOptions {
  /** Named analyses, e.g. `warrants` → api/checkers/warrants/analyse.ts#analyseWarrant. */
  analyses: Readonly<Record<string, AnalysisLocation>>;
  /** Jobs run at once, one thread each. Default: the machine's cores, at most 4. */
  size?: number;
  /** Jobs that may wait for a thread; one more is refused. Default 32. */
  queueLimit?: number;
  /** How long one job may run before its thread is stopped. Default 60 s. */
  timeoutMs?: number;
  /** The V8 old-generation heap of each thread, in MB. Default 512. */
  memoryMb?: number;
}

/** What a job asks for: the analysis by name, its inputs, and where its progress stages go. */
export interface AnalysisRequest {
  analysis: string;
  documents: IntakeDocument[];
  options: unknown;
  /** The instant the call arrived (AnalysisContext.now). */
  now: string;
  onProgress?: (stage: string) => void;
  /** Page-1 classifications of these documents made before, by SHA-256 (AnalysisContext.firstPages). */
  firstPages?: ReadonlyMap<string, DocumentClassification>;
  /** Where each page-1 classification the analysis makes goes (AnalysisContext.firstPageClassified). */
  onFirstPageClassified?: (sha256: string, classification: DocumentClassification) => void;
}

/** Why a job gave no result: stopped at the time limit, stopped for memory, threw, or its thread died. */
export type AnalysisFailureKind = 'timeout' | 'memory' | 'threw' | 'crashed';

export type AnalysisOutcome<Result> =
  | { ok: true; result: Result; ms: number }
  | { ok: false; failure: AnalysisFailureKind; detail: string; ms: number };

export class AnalysisPoolFullError extends Error {
  /** Seconds to suggest in `Retry-After`: about how long the work ahead takes to drain. */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(`Every document analysis slot is busy and the queue is full; try again in ${retryAfterSeconds} seconds.`);
    this.name = 'AnalysisPoolFullError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface AnalysisPool {
  /**
   * Queues a job and resolves with its outcome (a failure is an outcome, never a rejection). Throws
   * `AnalysisPoolFullError` synchronously when the queue is full, so a route can answer 503 before it
   * starts a stream.
   */
  run<Result>(request: AnalysisRequest): Promise<AnalysisOutcome<Result>>;
  /** Jobs running and waiting now. */
  load(): { running: number; queued: number };
  /** Stops every thread; jobs still running or waiting fail as `crashed`. */
  close(): Promise<void>;
}

/** A job as the worker receives it (structured clone). */
export interface WorkerJob {
  jobId: number;
  moduleUrl: string;
  exportName: string;
  documents: IntakeDocument[];
  options: unknown;
  now: string;
  firstPages: ReadonlyMap<string, DocumentClassification> | undefined;
}

/** What a worker posts back. */
export type WorkerReport =
  | { type: 'progress'; jobId: number; stage: string }
  | { type: 'first-page'; jobId: number; sha256: string; classification: DocumentClassification }
  | { type: 'result'; jobId: number; result: unknown }
  | { type: 'threw'; jobId: number; message: string };

const WORKER_URL = new URL('./worker.ts', import.meta.url);
// Before any job has finished, waiting work is assumed to take this long each (Retry-After's estimate).
const ASSUMED_JOB_MS = 5_000;

interface PendingJob {
  job: WorkerJob;
  onProgress: ((stage: string) => void) | undefined;
  onFirstPageClassified: ((sha256: string, classification: DocumentClassification) => void) | undefined;
  settle: (outcome: AnalysisOutcome<unknown>) => void;
}

interface Slot {
  worker: Worker;
  busy: { pending: PendingJob; startedAt: number; timer: NodeJS.Timeout } | null;
}

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  const size = options.size ?? Math.min(4, availableParallelism());
  const queueLimit = options.queueLimit ?? 32;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const memoryMb = options.memoryMb ?? 512;
  const slots: Slot[] = [];
  const queue: PendingJob[] = [];
  let nextJobId = 1;
  let meanJobMs = ASSUMED_JOB_MS;
  let closed = false;

  function startWorker(): Slot {
    const worker = new Worker(WORKER_URL, {
      // The thread runs TypeScript modules as the main thread does, with its --import hooks.
      execArgv: workerExecArgv(),
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.round(memoryMb / 16))), stackSizeMb: 4 },
    });
    // An idle thread never keeps the process alive; a busy one does (see `dispatch`).
    worker.unref();
    const slot: Slot = { worker, busy: null };
    worker.on('message', (report: WorkerReport) => {
      const busy = slot.busy;
      if (busy === null || busy.pending.job.jobId !== report.jobId) return;
      if (report.type === 'progress') return busy.pending.onProgress?.(report.stage);
      if (report.type === 'first-page') return busy.pending.onFirstPageClassified?.(report.sha256, report.classification);
      finish(slot, report.type === 'result' ? { ok: true, result: report.result } : { ok: false, failure: 'threw', detail: `The analysis failed: ${report.message}` });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(slot, {
        ok: false,
        failure: memory ? 'memory' : 'crashed',
        detail: memory
          ? `The analysis needed more than the ${memoryMb} MB of memory a document may use, and was stopped.`
          : `The analysis thread failed: ${error.message}`,
      }, { replace: true });
    });
    worker.on('exit', () => {
      finish(slot, { ok: false, failure: 'crashed', detail: 'The analysis thread stopped before it finished.' }, { replace: true });
    });
    return slot;
  }

  function finish(slot: Slot, outcome: { ok: true; result: unknown } | { ok: false; failure: AnalysisFailureKind; detail: string }, how: { replace?: boolean } = {}): void {
    const busy = slot.busy;
    slot.busy = null;
    if (how.replace) {
      const at = slots.indexOf(slot);
      if (at !== -1) slots.splice(at, 1);
      void slot.worker.terminate();
    } else {
      slot.worker.unref();
    }
    if (busy !== null) {
      clearTimeout(busy.timer);
      const ms = performance.now() - busy.startedAt;
      meanJobMs = meanJobMs * 0.8 + ms * 0.2;
      busy.pending.settle({ ...outcome, ms });
    }
    dispatch();
  }

  function dispatch(): void {
    while (!closed && queue.length > 0) {
      let slot = slots.find((candidate) => candidate.busy === null);
      if (slot === undefined) {
        if (slots.length >= size) return;
        slot = startWorker();
        slots.push(slot);
      }
      const pending = queue.shift()!;
      const running = slot;
      const timer = setTimeout(() => {
        finish(running, { ok: false, failure: 'timeout', detail: `The analysis did not finish within ${Math.round(timeoutMs / 1000)} seconds, and was stopped.` }, { replace: true });
      }, timeoutMs);
      running.busy = { pending, startedAt: performance.now(), timer };
      running.worker.ref();
      running.worker.postMessage(pending.job);
    }
  }

  return {
    run<Result>(request: AnalysisRequest): Promise<AnalysisOutcome<Result>> {
      if (closed) throw new Error('The analysis pool is closed.');
      const location = options.analyses[request.analysis];
      if (location === undefined) throw new Error(`No analysis is named ${request.analysis}; known: ${Object.keys(options.analyses).join(', ')}.`);
      const running = slots.filter((slot) => slot.busy !== null).length;
      if (running >= size && queue.length >= queueLimit) {
        throw new AnalysisPoolFullError(Math.max(1, Math.ceil((meanJobMs * (queue.length + running)) / size / 1000)));
      }
      const { promise, resolve } = Promise.withResolvers<AnalysisOutcome<unknown>>();
      queue.push({
        job: { jobId: nextJobId++, ...location, documents: request.documents, options: request.options, now: request.now, firstPages: request.firstPages },
        onProgress: request.onProgress,
        onFirstPageClassified: request.onFirstPageClassified,
        settle: resolve,
      });
      dispatch();
      return promise as Promise<AnalysisOutcome<Result>>;
    },
    load: () => ({ running: slots.filter((slot) => slot.busy !== null).length, queued: queue.length }),
    async close() {
      closed = true;
      for (const pending of queue.splice(0)) pending.settle({ ok: false, failure: 'crashed', detail: 'The service is shutting down.', ms: 0 });
      await Promise.all(slots.splice(0).map(async (slot) => {
        const busy = slot.busy;
        slot.busy = null;
        if (busy !== null) {
          clearTimeout(busy.timer);
          busy.pending.settle({ ok: false, failure: 'crashed', detail: 'The service is shutting down.', ms: performance.now() - busy.startedAt });
        }
        await slot.worker.terminate();
      }));
    },
  };
}

/**
 * The parent's `--import`/`--require` hooks (the Node version guard) and module flags, for the thread to run
 * TypeScript modules as the main thread does. Other flags are left out: a worker refuses process-wide ones
 * (heap, TLS, snapshot flags), which the test runner passes to the processes it starts.
 */
function workerExecArgv(): string[] {
  const kept: string[] = [];
  const argv = process.execArgv;
  for (let at = 0; at < argv.length; at++) {
    const flag = argv[at]!;
    if (flag === '--import' || flag === '--require' || flag === '--conditions' || flag === '-C') {
      const value = argv[at + 1];
      if (value !== undefined) kept.push(flag, value);
      at++;
    } else if (/^--(import|require|conditions)=/.test(flag) || flag.startsWith('--experimental-') || flag.startsWith('--no-experimental-')) {
      kept.push(flag);
    }
  }
  return kept;
}
