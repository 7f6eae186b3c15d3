import { hostname } from 'node:os';
import type { StateDb } from '../../../data/state/db.ts';
import { newId } from '../../../lib/tokens.ts';
import { insertJob, type JobRow, type NewJob } from './store.ts';

/**
 * Background jobs that survive a stopped instance, run by workers inside the API process.
 *
 * - A worker claims a job by lease: in one immediate transaction (SQLite's `BEGIN IMMEDIATE`; on PostgreSQL
 *   the same select would take `FOR UPDATE SKIP LOCKED`) it picks queued jobs whose `run_after` has come and
 *   running jobs whose lease has expired, and writes its own id and a new expiry. It renews the lease while the
 *   job works (every third of the lease). A job whose worker died is taken over when its lease expires: by the
 *   next worker start, by the wake-up each worker sets for the earliest expiry it sees, by the look each
 *   started worker takes every lease period (another instance's jobs, leased or queued after this worker last
 *   looked, have no wake-up here), and by POST /v1/jobs/drain.
 * - Every write a worker makes is fenced by its lease (`WHERE lease_owner = me`): a worker that lost its
 *   lease (stalled past the expiry, taken over) stops at the next step without writing.
 * - A job is a sequence of named steps (`ctx.step`). A step's completion, its result and the step's own
 *   writes (`commit`) are one transaction, before the next step begins; a re-run skips completed steps and
 *   reads their results back. So a side effect done as a step (an email, a model call, a fetch) is done once
 *   unless the process dies inside that very step, when the step runs again (told `again`, so an email can
 *   reuse its Message-ID).
 * - Each claim is an attempt (`attempts` counts them all); a failed attempt is retried after an exponential
 *   back-off, and the job ends `failed` with its last error when its attempts are used up (a crash counts), or
 *   at once on a `FinalJobError`. An attempt that ends waiting on a person, or is handed back at a graceful
 *   shutdown, is given back (`attempts_given_back`): it does not count against `max_attempts`.
 *
 * Why not pg-boss or graphile-worker: both are PostgreSQL-only (they rely on its `SKIP LOCKED`, advisory locks
 * and LISTEN/NOTIFY), and the state store is SQLite until a later issue brings PostgreSQL; DBOS's Node SDK
 * likewise needs PostgreSQL. Their guarantees are kept here: pg-boss's `expireInSeconds` (the lease) and
 * `retryLimit`/`retryBackoff` (attempts), DBOS's resume after the last completed step. This module is the one
 * place those rules live, in SQL both engines speak.
 */

/** A job's move to another state, told to its handler inside the transaction that makes it. */
export type JobChange =
  | { to: 'running'; attempt: number; takeover: boolean }
  | { to: 'waiting' }
  | { to: 'queued'; reason: 'retry'; error: string; runAfter: string; attempt: number }
  | { to: 'queued'; reason: 'released' }
  | { to: 'succeeded'; result: unknown }
  | { to: 'failed'; error: string }
  | { to: 'stopped' };

export interface StepChange {
  key: string;
  phase: 'started' | 'completed';
  /** Started: the step began before and did not complete (the process stopped inside it). */
  again: boolean;
  attempt: number;
}

export interface JobHandler {
  run(ctx: JobContext): Promise<unknown>;
  /** Inside the transaction that moves the job: keep what mirrors the job's state in step with it. */
  changed?(job: JobRow, change: JobChange): Promise<void>;
  /** Inside the transaction that starts or completes a step. */
  stepped?(job: JobRow, change: StepChange): Promise<void>;
}

export interface JobContext {
  readonly job: JobRow;
  readonly attempt: number;
  /**
   * Runs `work` unless the step `key` completed before, whose stored result is returned instead. The result
   * (JSON), the step's completion and `commit`'s writes are one transaction. Each call is a step boundary:
   * a stop request, a lost lease or a shutdown ends the attempt here.
   */
  step<T>(key: string, work: (again: boolean) => Promise<T> | T, commit?: (result: T) => Promise<void> | void): Promise<T>;
  /** The stored result of a completed step, or undefined. */
  recorded<T>(key: string): Promise<T | undefined>;
  /**
   * Ends this attempt with the job waiting unless `ready()` holds; `ready` is asked inside the transaction
   * that would park the job, so a decision recorded meanwhile is never missed.
   */
  waitUnless(ready: () => Promise<boolean> | boolean): Promise<void>;
  /** How many steps the job will have in all, once known. */
  setTotal(total: number): Promise<void>;
}

export interface JobWorkerOptions {
  state: StateDb;
  handlers: Readonly<Record<string, JobHandler>>;
  /** How long a claim lasts unless renewed (default 30 s, `SVC_JOB_LEASE_SECONDS`). */
  leaseMs?: number;
  /** Jobs run at once by this worker (default 2). */
  concurrency?: number;
  /** How often a started worker looks for claimable jobs it has no wake-up for (default: the lease). */
  lookEveryMs?: number;
  /** Back-off after the first failed attempt, doubled after each (default 5 s, at most 5 minutes). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** The clock leases and back-off are measured on (default the system's); records use `now`. */
  clock?: () => number;
  now?: () => Date;
  /** Where a job's failure and the worker's own trouble are reported. */
  log?: (line: string) => void;
}

export interface ClaimReport {
  /** Jobs whose worker's lease had expired, now run here. */
  taken_over: string[];
  /** Queued jobs now started. */
  started: string[];
  /** Jobs that had used their attempts up and were ended failed instead. */
  failed: string[];
}

/** How soon a claim the store refused (busy, locked) is tried again. */
const CLAIM_RETRY_MS = 2_000;

/** A failure another attempt cannot mend (the portal refuses by robots.txt, sends the wrong thing): the job ends failed at once. */
export class FinalJobError extends Error {}

/** The attempts that count against `max_attempts`: claims that failed, crashed or are running, not those given back. */
function countedAttempts(job: JobRow): number {
  return job.attempts - job.attempts_given_back;
}

class Parked extends Error {}
class Ended extends Error {}
class LeaseLost extends Error {}

interface Active {
  lost: boolean;
  renew: NodeJS.Timeout;
}

export class JobWorker {
  /** This worker's name in `lease_owner`: host, process and a random part. */
  readonly owner = `${hostname()}:${process.pid}:${newId('')}`;
  readonly #state: StateDb;
  readonly #handlers: Readonly<Record<string, JobHandler>>;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #lookEveryMs: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #clock: () => number;
  readonly #now: () => Date;
  readonly #log: (line: string) => void;
  readonly #active = new Map<string, Active>();
  #wake: NodeJS.Timeout | null = null;
  #look: NodeJS.Timeout | null = null;
  #closing = false;
  #idle: (() => void)[] = [];

  constructor(options: JobWorkerOptions) {
    this.#state = options.state;
    this.#handlers = options.handlers;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#concurrency = options.concurrency ?? 2;
    this.#lookEveryMs = options.lookEveryMs ?? this.#leaseMs;
    this.#retryBaseMs = options.retryBaseMs ?? 5_000;
    this.#retryMaxMs = options.retryMaxMs ?? 300_000;
    this.#clock = options.clock ?? Date.now;
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? ((line) => console.error(line));
  }

  /** The worker clock's instant now, as ISO: when a job enqueued now may be claimed. */
  runAfterNow(): string {
    return new Date(this.#clock()).toISOString();
  }

  /** Inserts a queued job (inside the caller's transaction); `kick` once that commits. */
  async enqueue(job: Omit<NewJob, 'runAfter'>): Promise<string> {
    return await insertJob(this.#state, { ...job, runAfter: this.runAfterNow() });
  }

  /**
   * At start: takes over jobs whose lease expired and starts queued ones (tried again shortly when the store
   * refuses); from then on looks again every `lookEveryMs`. A wake-up is set only for what this worker has seen,
   * so without the look a job of an instance killed after this one last claimed would wait for a drain or a restart.
   */
  async start(): Promise<ClaimReport> {
    if (this.#look === null && !this.#closing) {
      this.#look = setInterval(async () => await this.#lookAgain(), this.#lookEveryMs);
      this.#look.unref();
    }
    return await this.#tryClaim() ?? { taken_over: [], started: [], failed: [] };
  }

  /**
   * A job was queued or requeued: claim what there is room for. Never throws: a request whose own change
   * committed is not to fail because the store refused the claim; the claim is tried again shortly.
   */
  async kick(): Promise<void> {
    await this.#tryClaim();
  }

  /** POST /v1/jobs/drain: every claimable job now, expired leases included, whatever is already running. */
  async drain(): Promise<ClaimReport> {
    return await this.#claimAndRun(Number.POSITIVE_INFINITY);
  }

  /** Jobs this worker is running now. */
  running(): string[] {
    return [...this.#active.keys()];
  }

  /** Resolves once this worker runs nothing (for tests and shutdown). */
  idle(): Promise<void> {
    if (this.#active.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * Asks a job to stop: a queued or waiting one ends stopped now; a running one at its next step boundary.
   * Returns the job's state after the request, or null for an unknown job.
   */
  async requestStop(jobId: string): Promise<JobRow['state'] | null> {
    return await this.#state.transaction(async () => {
      const job = await this.#state.get<JobRow>('SELECT * FROM jobs WHERE job_id = ?', jobId);
      if (!job) return null;
      if (job.state === 'queued' || job.state === 'waiting') {
        await this.#settle(job, { to: 'stopped' }, null);
        return 'stopped';
      }
      if (job.state === 'running') await this.#state.run('UPDATE jobs SET stop_requested = 1, updated_at = ? WHERE job_id = ?', this.#now().toISOString(), jobId);
      return job.state;
    });
  }

  /**
   * Stops claiming; running jobs hand their lease back at their next step boundary (queued again, the
   * attempt given back). Waits at most `timeoutMs`; a job still inside a step then is taken over once its lease expires.
   */
  async close(timeoutMs = 10_000): Promise<void> {
    this.#closing = true;
    if (this.#wake) clearTimeout(this.#wake);
    if (this.#look) clearInterval(this.#look);
    if (this.#active.size === 0) return;
    await Promise.race([this.idle(), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  /** The periodic look: a failure is told and left to the next look, not retried sooner. */
  async #lookAgain(): Promise<void> {
    if (this.#closing || this.#active.size >= this.#concurrency) return;
    try {
      await this.#claimAndRun(this.#concurrency);
    } catch (error) {
      this.#log(`job worker: could not look for claimable jobs, looking again in ${Math.round(this.#lookEveryMs / 1000)} s: ${String(error)}`);
    }
  }

  async #tryClaim(): Promise<ClaimReport | null> {
    try {
      return await this.#claimAndRun(this.#concurrency);
    } catch (error) {
      this.#log(`job worker: could not claim jobs, trying again shortly: ${String(error)}`);
      if (!this.#closing) {
        if (this.#wake) clearTimeout(this.#wake);
        this.#wake = setTimeout(async () => {
          this.#wake = null;
          await this.#tryClaim();
        }, CLAIM_RETRY_MS);
        this.#wake.unref();
      }
      return null;
    }
  }

  async #claimAndRun(limit: number): Promise<ClaimReport> {
    const report: ClaimReport = { taken_over: [], started: [], failed: [] };
    if (this.#closing) return report;
    const claimed: JobRow[] = [];
    await this.#state.transaction(async () => {
      const at = this.runAfterNow();
      const room = limit - this.#active.size;
      if (room <= 0) return;
      const candidates = await this.#state.all<JobRow>(
        `SELECT * FROM jobs
          WHERE (state = 'queued' AND run_after <= ?) OR (state = 'running' AND lease_expires_at <= ?)
          ORDER BY run_after, created_at, job_id`,
        at,
        at,
      );
      for (const job of candidates) {
        if (claimed.length >= room) break;
        const takeover = job.state === 'running';
        if (takeover && countedAttempts(job) >= job.max_attempts) {
          const error = `${job.error ? `${job.error} ` : ''}The worker running its last attempt (${countedAttempts(job)} of ${job.max_attempts}) stopped before it finished.`.trim();
          await this.#settle(job, { to: 'failed', error }, null);
          report.failed.push(job.job_id);
          continue;
        }
        const handler = this.#handlers[job.kind];
        if (!handler) continue;
        const lease = new Date(this.#clock() + this.#leaseMs).toISOString();
        await this.#state.run(
          `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_expires_at = ?, updated_at = ? WHERE job_id = ?`,
          this.owner, lease, this.#now().toISOString(), job.job_id,
        );
        const row = { ...job, state: 'running' as const, attempts: job.attempts + 1, lease_owner: this.owner, lease_expires_at: lease };
        await handler.changed?.(row, { to: 'running', attempt: row.attempts, takeover });
        claimed.push(row);
        (takeover ? report.taken_over : report.started).push(job.job_id);
      }
    });
    for (const job of claimed) void this.#execute(job);
    await this.#scheduleWake();
    return report;
  }

  /**
   * A timer for the next moment a job of a kind this worker runs becomes claimable: a back-off ending, another
   * worker's lease expiring. Jobs claimable already but left for want of room are claimed when a running job ends.
   */
  async #scheduleWake(): Promise<void> {
    if (this.#wake) clearTimeout(this.#wake);
    this.#wake = null;
    if (this.#closing) return;
    const kinds = Object.keys(this.#handlers);
    if (kinds.length === 0) return;
    const at = this.runAfterNow();
    const known = kinds.map(() => '?').join(', ');
    const next = (await this.#state.get<{ at: string | null }>(
      `SELECT MIN(at) AS at FROM (
         SELECT MIN(run_after) AS at FROM jobs WHERE state = 'queued' AND run_after > ? AND kind IN (${known})
         UNION ALL SELECT MIN(lease_expires_at) AS at FROM jobs WHERE state = 'running' AND lease_expires_at > ? AND lease_owner <> ? AND kind IN (${known})
       ) AS upcoming`,
      at, ...kinds, at, this.owner, ...kinds,
    ))?.at;
    if (!next) return;
    const delay = Math.max(0, Date.parse(next) - this.#clock()) + 5;
    this.#wake = setTimeout(async () => {
      this.#wake = null;
      await this.#tryClaim();
    }, delay);
    this.#wake.unref();
  }

  async #execute(claimed: JobRow): Promise<void> {
    const handler = this.#handlers[claimed.kind]!;
    const active: Active = {
      lost: false,
      renew: setInterval(async () => await this.#renew(claimed.job_id, active), Math.max(50, Math.floor(this.#leaseMs / 3))),
    };
    active.renew.unref();
    this.#active.set(claimed.job_id, active);
    try {
      const result = await handler.run(this.#context(claimed, handler, active));
      await this.#fenced(claimed.job_id, active, async (job) => await this.#settle(job, { to: 'succeeded', result }, result));
    } catch (error) {
      if (!(error instanceof Parked || error instanceof Ended || error instanceof LeaseLost)) await this.#failed(claimed, active, error);
    } finally {
      clearInterval(active.renew);
      this.#active.delete(claimed.job_id);
      if (this.#active.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
      if (!this.#closing) await this.#tryClaim();
    }
  }

  async #renew(jobId: string, active: Active): Promise<void> {
    try {
      const renewed = await this.#state.run(
        "UPDATE jobs SET lease_expires_at = ? WHERE job_id = ? AND lease_owner = ? AND state = 'running'",
        new Date(this.#clock() + this.#leaseMs).toISOString(), jobId, this.owner,
      );
      if (renewed.changes === 0) active.lost = true;
    } catch (error) {
      // The store refused for now (busy); the lease lasts three renewals, so the next one may still make it.
      this.#log(`job worker: could not renew the lease of ${jobId}: ${String(error)}`);
    }
  }

  async #failed(claimed: JobRow, active: Active, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    try {
      await this.#fenced(claimed.job_id, active, async (job) => {
        const counted = countedAttempts(job);
        if (error instanceof FinalJobError || counted >= job.max_attempts) {
          if (!(error instanceof FinalJobError)) this.#log(`job ${job.job_id} (${job.kind}) failed after ${counted} counted attempts: ${message}`);
          await this.#settle(job, { to: 'failed', error: message }, null);
          return;
        }
        const runAfter = new Date(this.#clock() + Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** (counted - 1))).toISOString();
        await this.#state.run(
          "UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, run_after = ?, error = ?, updated_at = ? WHERE job_id = ?",
          runAfter, message, this.#now().toISOString(), job.job_id,
        );
        await this.#handlers[job.kind]!.changed?.(job, { to: 'queued', reason: 'retry', error: message, runAfter, attempt: job.attempts });
      });
    } catch (fenceError) {
      if (!(fenceError instanceof LeaseLost)) this.#log(`job ${claimed.job_id}: could not record its failure (${message}): ${String(fenceError)}`);
    }
  }

  /** Moves a job to a final state (or stopped), clearing its lease, and tells its handler. */
  async #settle(job: JobRow, change: JobChange & { to: 'succeeded' | 'failed' | 'stopped' }, result: unknown): Promise<void> {
    const at = this.#now().toISOString();
    await this.#state.run(
      `UPDATE jobs SET state = ?, lease_owner = NULL, lease_expires_at = NULL, result = ?, error = COALESCE(?, error), updated_at = ?, finished_at = ? WHERE job_id = ?`,
      change.to, result === null || result === undefined ? null : JSON.stringify(result), change.to === 'failed' ? change.error : null, at, at, job.job_id,
    );
    await this.#handlers[job.kind]?.changed?.(job, change);
  }

  /** Runs `write` in a transaction only while this worker still holds the job's lease. */
  async #fenced<T>(jobId: string, active: Active, write: (job: JobRow) => T): Promise<T> {
    return await this.#state.transaction(async () => {
      const job = await this.#state.get<JobRow>('SELECT * FROM jobs WHERE job_id = ?', jobId);
      if (active.lost || !job || job.state !== 'running' || job.lease_owner !== this.owner) {
        active.lost = true;
        throw new LeaseLost(`the lease of ${jobId} passed to another worker`);
      }
      return write(job);
    });
  }

  /** A step boundary: ends the attempt on a lost lease, a stop request or a shutdown (thrown once the change has committed). */
  async #boundary(jobId: string, active: Active): Promise<void> {
    const ended = await this.#fenced(jobId, active, async (job) => {
      if (job.stop_requested === 1) {
        await this.#settle(job, { to: 'stopped' }, null);
        return 'stopped';
      }
      if (this.#closing) {
        await this.#state.run(
          "UPDATE jobs SET state = 'queued', attempts_given_back = attempts_given_back + 1, lease_owner = NULL, lease_expires_at = NULL, run_after = ?, updated_at = ? WHERE job_id = ?",
          this.runAfterNow(), this.#now().toISOString(), jobId,
        );
        await this.#handlers[job.kind]!.changed?.(job, { to: 'queued', reason: 'released' });
        return 'released';
      }
      return null;
    });
    if (ended !== null) throw new Ended(ended);
  }

  #context(claimed: JobRow, handler: JobHandler, active: Active): JobContext {
    const state = this.#state;
    const jobId = claimed.job_id;
    const recorded = async <T>(key: string): Promise<T | undefined> => {
      const row = await state.get<{ result: string | null }>('SELECT result FROM job_steps WHERE job_id = ? AND step_key = ? AND completed_at IS NOT NULL', jobId, key);
      return row ? (JSON.parse(row.result ?? 'null') as T) : undefined;
    };
    return {
      job: claimed,
      attempt: claimed.attempts,
      recorded,
      step: async <T>(key: string, work: (again: boolean) => Promise<T> | T, commit?: (result: T) => Promise<void> | void): Promise<T> => {
        await this.#boundary(jobId, active);
        const done = await recorded<T>(key);
        if (done !== undefined) return done;
        const again = await this.#fenced(jobId, active, async (job) => {
          const at = this.#now().toISOString();
          const begun = await state.get<{ attempt: number }>('SELECT attempt FROM job_steps WHERE job_id = ? AND step_key = ?', jobId, key) !== undefined;
          await state.run(
            `INSERT INTO job_steps (job_id, step_key, attempt, started_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (job_id, step_key) DO UPDATE SET attempt = excluded.attempt, started_at = excluded.started_at`,
            jobId, key, job.attempts, at,
          );
          await state.run('UPDATE jobs SET step = ?, updated_at = ? WHERE job_id = ?', key, at, jobId);
          await handler.stepped?.(job, { key, phase: 'started', again: begun, attempt: job.attempts });
          return begun;
        });
        const result = await work(again);
        // Stored as JSON and handed back as read from it: a resumed run sees exactly what a first run saw.
        const stored = JSON.stringify(result ?? null);
        await this.#fenced(jobId, active, async (job) => {
          const at = this.#now().toISOString();
          await state.run('UPDATE job_steps SET completed_at = ?, result = ? WHERE job_id = ? AND step_key = ?', at, stored, jobId, key);
          await state.run('UPDATE jobs SET progress_done = progress_done + 1, updated_at = ? WHERE job_id = ?', at, jobId);
          await commit?.(result);
          await handler.stepped?.(job, { key, phase: 'completed', again: false, attempt: job.attempts });
        });
        return JSON.parse(stored) as T;
      },
      waitUnless: async (ready) => {
        await this.#boundary(jobId, active);
        const parked = await this.#fenced(jobId, active, async (job) => {
          if (await ready()) return false;
          await state.run(
            "UPDATE jobs SET state = 'waiting', attempts_given_back = attempts_given_back + 1, lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE job_id = ?",
            this.#now().toISOString(), jobId,
          );
          await handler.changed?.(job, { to: 'waiting' });
          return true;
        });
        if (parked) throw new Parked('waiting');
      },
      setTotal: async (total) => {
        await this.#fenced(jobId, active, async () => await state.run('UPDATE jobs SET progress_total = ? WHERE job_id = ?', total, jobId));
      },
    };
  }
}
