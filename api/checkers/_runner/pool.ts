import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DocumentClassification } from '../document-types.ts';
import type { IntakeDocument } from '../../documents/types.ts';

/**
 * The bounded pool of analysis processes every checker and the bid area run untrusted documents in
 * (DESIGN §10). Each analysis runs in a child process of its own, under a time limit and a memory ceiling
 * that holds for native memory too: pdfjs inflates streams through zlib, sharp and the canvas decode pixels
 * outside the V8 heap, and a worker thread's `resourceLimits` cap only the heap (a 4 MB PDF took a thread-based
 * pool to 9 GB). The parent reads each busy child's resident memory from /proc every few milliseconds and kills
 * it past the ceiling; the child's V8 heap is capped as well, as a second stop. Processes are reused between
 * jobs (a checker's modules load once per process), run at a lower CPU priority than the server so its event
 * loop stays responsive, and are replaced when stopped, when a job left them large, and after an idle spell.
 * At most `size` jobs run at once and `queueLimit` wait; one more is refused at once with
 * `AnalysisPoolFullError`, which routes answer 503 with `Retry-After`.
 */

/** Where an analysis lives: a module and the name of the `Analysis` it exports (api/checkers/types.ts). */
export interface AnalysisLocation {
  moduleUrl: string;
  exportName: string;
}

export interface AnalysisPoolOptions {
  /** Named analyses, e.g. `warrants` → api/checkers/warrants/analyse.ts#analyseWarrant. */
  analyses: Readonly<Record<string, AnalysisLocation>>;
  /** Jobs run at once, one process each. Default: the machine's cores, at most 4. */
  size?: number;
  /** Jobs that may wait for a process; one more is refused. Default 32. */
  queueLimit?: number;
  /** How long one job may run before its process is stopped. Default 60 s. */
  timeoutMs?: number;
  /** The memory one job may add to its process (heap and native), in MB. Default 512. */
  memoryMb?: number;
  /** How long an idle process is kept before it is stopped. Default 5 minutes. */
  idleMs?: number;
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

/**
 * Why a job gave no result: stopped at the time limit, stopped for memory, threw, its process died, or the
 * guarded open refused a document (api/documents/guard.ts: a decompression bomb, a container that is not
 * what it claims); a refusal carries the status the route answers.
 */
export type AnalysisFailureKind = 'timeout' | 'memory' | 'threw' | 'crashed' | 'refused';

export type AnalysisOutcome<Result> =
  | { ok: true; result: Result; ms: number }
  | { ok: false; failure: Exclude<AnalysisFailureKind, 'refused'>; detail: string; ms: number }
  | { ok: false; failure: 'refused'; status: 400 | 422; detail: string; ms: number };

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
  /** Resident memory of each analysis process now, in bytes (for the server's memory reports). */
  residentBytes(): number[];
  /** Stops every process; jobs still running or waiting fail as `crashed`. */
  close(): Promise<void>;
}

/** A job as the child receives it (structured clone over the IPC channel). */
export interface WorkerJob {
  jobId: number;
  moduleUrl: string;
  exportName: string;
  documents: IntakeDocument[];
  options: unknown;
  now: string;
  firstPages: ReadonlyMap<string, DocumentClassification> | undefined;
}

/** What a child sends back. */
export type WorkerReport =
  | { type: 'started'; jobId: number }
  | { type: 'progress'; jobId: number; stage: string }
  | { type: 'first-page'; jobId: number; sha256: string; classification: DocumentClassification }
  | { type: 'result'; jobId: number; result: unknown }
  | { type: 'refused'; jobId: number; status: 400 | 422; message: string }
  | { type: 'threw'; jobId: number; message: string };

const WORKER_PATH = fileURLToPath(new URL('./worker.ts', import.meta.url));
// Before any job has finished, waiting work is assumed to take this long each (Retry-After's estimate).
const ASSUMED_JOB_MS = 5_000;
// How often a busy child's resident memory is read: fast enough that even zlib, which inflates about a
// gigabyte a second, passes the ceiling by tens of megabytes at most before it is stopped.
const WATCH_MS = 10;
// A process that a job left this much larger than it started is replaced rather than reused.
const RECYCLE_SHARE = 0.5;
// Jobs one process runs before it is replaced, so slow leaks in libraries never accumulate.
const JOBS_PER_PROCESS = 200;
// Analyses run a little below the server's priority (nice 10), so a flood of documents never starves requests.
const ANALYSIS_NICENESS = 10;
const PAGE_BYTES = 4096;
// How long a process may take to start and load an analysis's modules before the job counts as timed out.
const STARTUP_LIMIT_MS = 30_000;

type Settlement = { ok: true; result: unknown } | { ok: false; failure: Exclude<AnalysisFailureKind, 'refused'>; detail: string } | { ok: false; failure: 'refused'; status: 400 | 422; detail: string };

interface PendingJob {
  job: WorkerJob;
  onProgress: ((stage: string) => void) | undefined;
  onFirstPageClassified: ((sha256: string, classification: DocumentClassification) => void) | undefined;
  settle: (outcome: AnalysisOutcome<unknown>) => void;
}

interface Slot {
  child: ChildProcess;
  jobsRun: number;
  /** Resident bytes when the process was last idle: what a job is measured against. */
  idleResident: number;
  /** Whether the pool has stopped the process, and why (memory or time, so its exit reads as that; null for a replacement). */
  stopping: boolean;
  stoppedFor: Settlement | null;
  /** The last few kilobytes the process wrote to stderr: V8 says there when its heap ran out. */
  stderrTail: string;
  busy: { pending: PendingJob; startedAt: number; ceiling: number; timer: NodeJS.Timeout } | null;
  idleTimer: NodeJS.Timeout | null;
}

export function createAnalysisPool(options: AnalysisPoolOptions): AnalysisPool {
  return new ProcessPool(options);
}

/** The pool's limits, with their defaults filled in. */
interface PoolLimits {
  size: number;
  queueLimit: number;
  timeoutMs: number;
  memoryMb: number;
  idleMs: number;
  memoryBytes: number;
  memoryDetail: string;
  timedOut: Settlement;
}

function poolLimits(options: AnalysisPoolOptions): PoolLimits {
  const memoryMb = options.memoryMb ?? 512;
  const timeoutMs = options.timeoutMs ?? 60_000;
  return {
    size: options.size ?? Math.min(4, availableParallelism()),
    queueLimit: options.queueLimit ?? 32,
    timeoutMs,
    memoryMb,
    idleMs: options.idleMs ?? 300_000,
    memoryBytes: memoryMb * 1024 * 1024,
    memoryDetail: `The analysis needed more than the ${memoryMb} MB of memory a document may use, and was stopped.`,
    timedOut: { ok: false, failure: 'timeout', detail: `The analysis did not finish within ${Math.round(timeoutMs / 1000)} seconds, and was stopped.` },
  };
}

class ProcessPool implements AnalysisPool {
  readonly #analyses: AnalysisPoolOptions['analyses'];
  readonly #limits: PoolLimits;
  readonly #slots: Slot[] = [];
  readonly #queue: PendingJob[] = [];
  #nextJobId = 1;
  #meanJobMs = ASSUMED_JOB_MS;
  #closed = false;
  #watcher: NodeJS.Timeout | null = null;

  constructor(options: AnalysisPoolOptions) {
    this.#analyses = options.analyses;
    this.#limits = poolLimits(options);
  }

  run<Result>(request: AnalysisRequest): Promise<AnalysisOutcome<Result>> {
    if (this.#closed) throw new Error('The analysis pool is closed.');
    const location = this.#analyses[request.analysis];
    if (location === undefined) throw new Error(`No analysis is named ${request.analysis}; known: ${Object.keys(this.#analyses).join(', ')}.`);
    const running = this.#slots.filter((slot) => slot.busy !== null).length;
    const { size, queueLimit } = this.#limits;
    if (running >= size && this.#queue.length >= queueLimit) {
      throw new AnalysisPoolFullError(Math.max(1, Math.ceil((this.#meanJobMs * (this.#queue.length + running)) / size / 1000)));
    }
    const { promise, resolve } = Promise.withResolvers<AnalysisOutcome<unknown>>();
    this.#queue.push({
      job: { jobId: this.#nextJobId++, ...location, documents: request.documents, options: request.options, now: request.now, firstPages: request.firstPages },
      onProgress: request.onProgress,
      onFirstPageClassified: request.onFirstPageClassified,
      settle: resolve,
    });
    this.#dispatch();
    return promise as Promise<AnalysisOutcome<Result>>;
  }

  load(): { running: number; queued: number } {
    return { running: this.#slots.filter((slot) => slot.busy !== null).length, queued: this.#queue.length };
  }

  residentBytes(): number[] {
    return this.#slots.flatMap((slot) => residentBytes(slot.child) ?? []);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#watcher !== null) clearInterval(this.#watcher);
    for (const pending of this.#queue.splice(0)) pending.settle({ ok: false, failure: 'crashed', detail: 'The service is shutting down.', ms: 0 });
    await Promise.all(this.#slots.splice(0).map(async (slot) => {
      const busy = slot.busy;
      slot.busy = null;
      if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
      if (busy !== null) {
        clearTimeout(busy.timer);
        busy.pending.settle({ ok: false, failure: 'crashed', detail: 'The service is shutting down.', ms: performance.now() - busy.startedAt });
      }
      if (slot.child.exitCode !== null || slot.child.signalCode !== null) return;
      const exited = new Promise((resolve) => slot.child.once('exit', resolve));
      slot.child.kill('SIGKILL');
      await exited;
    }));
  }

  #startProcess(): Slot {
    const child = fork(WORKER_PATH, [], {
      execArgv: childExecArgv(this.#limits.memoryMb),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      // glibc keeps one heap arena per thread by default; two keep the resident size close to what is in use.
      env: { ...process.env, MALLOC_ARENA_MAX: '2' },
    });
    const slot: Slot = { child, jobsRun: 0, idleResident: 0, stopping: false, stoppedFor: null, stderrTail: '', busy: null, idleTimer: null };
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, ANALYSIS_NICENESS);
      } catch {
        // Not permitted on every system; the analysis then runs at the server's priority.
      }
    }
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      slot.stderrTail = (slot.stderrTail + chunk.toString('utf8')).slice(-4096);
    });
    child.on('message', (report: WorkerReport) => this.#onReport(slot, report));
    child.on('exit', (code, signal) => {
      this.#finish(slot, slot.stoppedFor ?? this.#exitSettlement(slot, code, signal), { replace: true });
    });
    child.on('error', () => {
      // A failed spawn or a broken channel; 'exit' follows and settles the job.
    });
    this.#idle(slot);
    return slot;
  }

  #onReport(slot: Slot, report: WorkerReport): void {
    const busy = slot.busy;
    if (busy === null || busy.pending.job.jobId !== report.jobId) return;
    // The analysis module is loaded: from here the job is measured against what the process holds now.
    if (report.type === 'started') {
      const { memoryBytes, timeoutMs, timedOut } = this.#limits;
      busy.ceiling = (residentBytes(slot.child) ?? busy.ceiling - memoryBytes) + memoryBytes;
      clearTimeout(busy.timer);
      busy.timer = setTimeout(() => this.#stop(slot, timedOut), timeoutMs);
      return;
    }
    if (report.type === 'progress') return busy.pending.onProgress?.(report.stage);
    if (report.type === 'first-page') return busy.pending.onFirstPageClassified?.(report.sha256, report.classification);
    if (report.type === 'result') return this.#finish(slot, { ok: true, result: report.result });
    if (report.type === 'refused') return this.#finish(slot, { ok: false, failure: 'refused', status: report.status, detail: report.message });
    this.#finish(slot, { ok: false, failure: 'threw', detail: `The analysis failed: ${report.message}` });
  }

  #exitSettlement(slot: Slot, code: number | null, signal: NodeJS.Signals | null): Settlement {
    if (/heap limit|heap out of memory|Allocation failed/i.test(slot.stderrTail)) return { ok: false, failure: 'memory', detail: this.#limits.memoryDetail };
    const how = signal !== null ? `was stopped by ${signal}` : `exited with code ${code}`;
    return { ok: false, failure: 'crashed', detail: `The analysis process ${how} before it finished.` };
  }

  /** Marks a process idle: it no longer keeps the server alive, and is stopped after `idleMs`. */
  #idle(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
    slot.idleTimer = setTimeout(() => this.#stop(slot, null), this.#limits.idleMs);
    slot.idleTimer.unref();
  }

  #stop(slot: Slot, reason: Settlement | null): void {
    if (slot.stopping) return;
    slot.stopping = true;
    slot.stoppedFor = reason;
    if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
    const at = this.#slots.indexOf(slot);
    if (at !== -1) this.#slots.splice(at, 1);
    slot.child.kill('SIGKILL');
  }

  #finish(slot: Slot, outcome: Settlement, how: { replace?: boolean } = {}): void {
    const busy = slot.busy;
    slot.busy = null;
    if (how.replace) {
      const at = this.#slots.indexOf(slot);
      if (at !== -1) this.#slots.splice(at, 1);
      if (slot.idleTimer !== null) clearTimeout(slot.idleTimer);
    } else {
      const resident = residentBytes(slot.child);
      if (slot.jobsRun >= JOBS_PER_PROCESS || (resident !== null && resident > slot.idleResident + this.#limits.memoryBytes * RECYCLE_SHARE)) this.#stop(slot, null);
      else this.#idle(slot);
    }
    if (busy !== null) {
      clearTimeout(busy.timer);
      const ms = performance.now() - busy.startedAt;
      this.#meanJobMs = this.#meanJobMs * 0.8 + ms * 0.2;
      busy.pending.settle({ ...outcome, ms });
    }
    this.#dispatch();
  }

  /** Reads every busy process's resident memory and stops any past its ceiling. */
  #watch(): void {
    let anyBusy = false;
    for (const slot of [...this.#slots]) {
      if (slot.busy === null) continue;
      anyBusy = true;
      const resident = residentBytes(slot.child);
      if (resident !== null && resident > slot.busy.ceiling) this.#stop(slot, { ok: false, failure: 'memory', detail: this.#limits.memoryDetail });
    }
    if (!anyBusy && this.#watcher !== null) {
      clearInterval(this.#watcher);
      this.#watcher = null;
    }
  }

  #dispatch(): void {
    while (!this.#closed && this.#queue.length > 0) {
      let slot = this.#slots.find((candidate) => candidate.busy === null);
      if (slot === undefined) {
        if (this.#slots.length >= this.#limits.size) return;
        slot = this.#startProcess();
        this.#slots.push(slot);
      }
      this.#begin(slot, this.#queue.shift()!);
    }
  }

  #begin(running: Slot, pending: PendingJob): void {
    const { timeoutMs, memoryBytes, timedOut } = this.#limits;
    if (running.idleTimer !== null) clearTimeout(running.idleTimer);
    running.idleResident = residentBytes(running.child) ?? 0;
    // The time limit starts once the process has loaded the analysis; starting a process and loading its
    // modules have a limit of their own, so a slow start on a loaded machine is not charged to the document.
    const timer = setTimeout(() => this.#stop(running, timedOut), Math.max(timeoutMs, STARTUP_LIMIT_MS));
    // Until the child says the analysis module is loaded, loading it may take what the modules need besides.
    const ceiling = Math.max(running.idleResident, STARTING_RESIDENT_BYTES) + MODULE_LOADING_BYTES + memoryBytes;
    running.busy = { pending, startedAt: performance.now(), ceiling, timer };
    running.jobsRun += 1;
    running.child.ref();
    running.child.channel?.ref();
    running.child.send(pending.job);
    this.#watcher ??= setInterval(() => this.#watch(), WATCH_MS);
  }
}

/** What a Node process needs resident before it has loaded anything of ours (the ceiling's floor). */
const STARTING_RESIDENT_BYTES = 64 * 1024 * 1024;
/** What loading an analysis's modules may add before the job proper starts (pdfjs, the canvas, sharp, tesseract's engine). */
const MODULE_LOADING_BYTES = 256 * 1024 * 1024;

/** A process's resident set in bytes, from /proc (Linux); null where it cannot be read. */
function residentBytes(child: ChildProcess): number | null {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return null;
  try {
    const pages = Number(readFileSync(`/proc/${child.pid}/statm`, 'latin1').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : null;
  } catch {
    return null;
  }
}

/**
 * The parent's `--import`/`--require` hooks (the Node version guard) and module flags, for the child to run
 * TypeScript modules as the server does, plus its V8 heap ceiling (the job's allowance above what the loaded
 * modules take). Other flags are left out: the test runner passes its own to the processes it starts.
 */
function childExecArgv(memoryMb: number): string[] {
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
  return [...kept, `--max-old-space-size=${memoryMb + 128}`, '--max-semi-space-size=16', '--stack-size=4000'];
}
