import { newId } from '../../../lib/tokens.ts';
import type { StateDb } from '../../../data/state/db.ts';

/**
 * The job table (data/state/migrations/013_bid_runs.sql) as rows and as the API serves them. The worker
 * (worker.ts) claims and moves jobs; everything else only enqueues, reads, and flips a waiting job back to
 * queued once its person has decided.
 */

export const JOB_STATES = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'stopped'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINAL_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'stopped'];

export interface JobRow {
  job_id: string;
  kind: string;
  bid_id: string | null;
  input: string;
  state: JobState;
  /** Every claim of the job by a worker. */
  attempts: number;
  /** Claims that ended waiting on a person or handed back at a shutdown: they do not count against `max_attempts`. */
  attempts_given_back: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  run_after: string;
  step: string | null;
  progress_done: number;
  progress_total: number | null;
  stop_requested: number;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A job as GET /v1/bids/{bid}/jobs/{job} serves it. */
export interface JobView {
  job_id: string;
  bid_id: string | null;
  kind: string;
  state: JobState;
  step: string | null;
  progress: { done: number; total: number | null };
  attempts: number;
  max_attempts: number;
  /** The last attempt's error (a job that failed keeps it), else null. */
  error: string | null;
  /** When the lease of a running job ends unless its worker renews it; null otherwise. */
  lease_expires_at: string | null;
  /** A queued job is not taken before this (back-off after a failed attempt). */
  run_after: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export function jobView(row: JobRow): JobView {
  return {
    job_id: row.job_id,
    bid_id: row.bid_id,
    kind: row.kind,
    state: row.state,
    step: row.step,
    progress: { done: row.progress_done, total: row.progress_total },
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    error: row.error,
    lease_expires_at: row.state === 'running' ? row.lease_expires_at : null,
    run_after: row.state === 'queued' ? row.run_after : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    finished_at: row.finished_at,
  };
}

export async function jobRow(state: StateDb, jobId: string): Promise<JobRow | null> {
  return await state.get<JobRow>('SELECT * FROM jobs WHERE job_id = ?', jobId) ?? null;
}

export interface NewJob {
  kind: string;
  bidId: string | null;
  input: unknown;
  maxAttempts: number;
  /** The record time (the app's clock). */
  now: Date;
  /** The worker clock's instant (ISO) from which it may be claimed. */
  runAfter: string;
}

/** Inserts a queued job and returns its id; call inside the transaction that creates what it works on. */
export async function insertJob(state: StateDb, job: NewJob): Promise<string> {
  const jobId = newId('job_');
  const at = job.now.toISOString();
  await state.run(
    `INSERT INTO jobs (job_id, kind, bid_id, input, state, attempts, max_attempts, run_after, progress_done, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, 0, ?, ?)`,
    jobId, job.kind, job.bidId, JSON.stringify(job.input), job.maxAttempts, job.runAfter, at, at,
  );
  return jobId;
}

/** Jobs of a bid not yet final, oldest first: what GET …/chat shows as running. */
export async function liveJobsOf(state: StateDb, bidId: string): Promise<JobRow[]> {
  return await state.all<JobRow>("SELECT * FROM jobs WHERE bid_id = ? AND state IN ('queued', 'running', 'waiting') ORDER BY created_at, job_id", bidId);
}

/**
 * A waiting job back to queued, claimable from `runAfter` (the worker clock): its person decided. Call in
 * the transaction that records the decision, then `kick` the worker. Returns whether the job was waiting.
 */
export async function requeueWaitingJob(state: StateDb, jobId: string, runAfter: string, now: Date): Promise<boolean> {
  return (await state.run("UPDATE jobs SET state = 'queued', run_after = ?, updated_at = ? WHERE job_id = ? AND state = 'waiting'", runAfter, now.toISOString(), jobId)).changes === 1;
}
