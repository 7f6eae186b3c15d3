import { newId } from '../../../lib/tokens.ts';
import { refusedByUniqueIndex, StateUnavailableError, type StateDb } from '../../../data/state/db.ts';
import type { JobWorker } from '../jobs/worker.ts';
import { recordAudit } from './audit.ts';
import { appendRunEvent } from './events.ts';
import { findingCount } from './findings.ts';
import { bidIsPaid } from '../payments.ts';

/**
 * Runs: a bid prepared by a background job of kind `bid_run` (api/bids/runs/run-job.ts). One live run per
 * bid (queued, running or waiting on a person), held by a unique index; a run needs the bid paid.
 */

export const RUN_JOB_KIND = 'bid_run';
export const RUN_STATES = ['queued', 'running', 'waiting', 'completed', 'stopped', 'failed'] as const;
export type RunState = (typeof RUN_STATES)[number];
export const LIVE_RUN_STATES: readonly RunState[] = ['queued', 'running', 'waiting'];
/** Attempts of a run's job that may fail: a crash or a failing step each use one; waiting on a person does not. */
export const RUN_MAX_ATTEMPTS = 5;

export interface RunRow {
  run_id: string;
  bid_id: string;
  job_id: string;
  state: RunState;
  started_by: string;
  created_at: string;
  finished_at: string | null;
}

export interface RunView {
  run_id: string;
  bid_id: string;
  job_id: string;
  state: RunState;
  /** The step last started, e.g. `draft:req_…`. */
  step: string | null;
  progress: { done: number; total: number | null };
  attempts: number;
  /** A stop was asked for; a running run ends at its next step boundary. */
  stop_requested: boolean;
  error: string | null;
  started_by: string;
  findings: number;
  /** Actions the run waits on. */
  pending_actions: string[];
  /** The last event's seq: GET …/events?since_seq= this resumes after it. */
  last_seq: number;
  created_at: string;
  finished_at: string | null;
}

export async function runRow(state: StateDb, bidId: string, runId: string): Promise<RunRow | null> {
  return await state.get<RunRow>('SELECT * FROM bid_runs WHERE run_id = ? AND bid_id = ?', runId, bidId) ?? null;
}

export async function runOfJob(state: StateDb, jobId: string): Promise<RunRow | null> {
  return await state.get<RunRow>('SELECT * FROM bid_runs WHERE job_id = ?', jobId) ?? null;
}

export async function liveRun(state: StateDb, bidId: string): Promise<RunRow | null> {
  return await state.get<RunRow>("SELECT * FROM bid_runs WHERE bid_id = ? AND state IN ('queued', 'running', 'waiting')", bidId) ?? null;
}

/** The bid's latest run: by start time, then by its first event's place in the bid's chain (two started in one millisecond). */
export async function lastRun(state: StateDb, bidId: string): Promise<RunRow | null> {
  return (
    await state.get<RunRow>(
      `SELECT r.* FROM bid_runs r WHERE r.bid_id = ?
        ORDER BY r.created_at DESC, (SELECT MIN(e.seq) FROM bid_run_events e WHERE e.bid_id = r.bid_id AND e.run_id = r.run_id) DESC LIMIT 1`,
      bidId,
    ) ?? null
  );
}

export async function runView(state: StateDb, run: RunRow): Promise<RunView> {
  const job = (await state.get<{ step: string | null; progress_done: number; progress_total: number | null; attempts: number; stop_requested: number; error: string | null }>(
    'SELECT step, progress_done, progress_total, attempts, stop_requested, error FROM jobs WHERE job_id = ?',
    run.job_id,
  ))!;
  const starter = (await state.get<{ email: string }>('SELECT email FROM accounts WHERE account_id = ?', run.started_by))!;
  return {
    run_id: run.run_id,
    bid_id: run.bid_id,
    job_id: run.job_id,
    state: run.state,
    step: job.step,
    progress: { done: job.progress_done, total: job.progress_total },
    attempts: job.attempts,
    stop_requested: job.stop_requested === 1 && LIVE_RUN_STATES.includes(run.state),
    error: run.state === 'failed' ? job.error : null,
    started_by: starter.email,
    findings: await findingCount(state, run.run_id),
    pending_actions: (await state.all<{ action_id: string }>("SELECT action_id FROM bid_actions WHERE run_id = ? AND state = 'pending' ORDER BY created_at", run.run_id)).map((row) => row.action_id),
    last_seq: (await state.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM bid_run_events WHERE run_id = ?', run.run_id))!.seq ?? 0,
    created_at: run.created_at,
    finished_at: run.finished_at,
  };
}

export type StartResult = { ok: true; run: RunRow } | { ok: false; status: 402 | 409; detail: string };

/** Starts a run: the job queued, the run row, its first event and the audit in one transaction; kicks the worker after. */
export async function startRun(state: StateDb, worker: JobWorker, input: { bidId: string; accountId: string; now: Date }): Promise<StartResult> {
  const { bidId, accountId, now } = input;
  let result: StartResult;
  try {
    result = await state.transaction(async (): Promise<StartResult> => {
      if (!await bidIsPaid(state, bidId)) {
        return {
          ok: false,
          status: 402,
          detail: `Preparing a bid is the paid part of the service, and this bid is not paid for: GET /v1/bids/${bidId}/runs/quote says what a run does and costs; pay with POST /v1/bids/${bidId}/checkout, then start the run.`,
        };
      }
      const live = await liveRun(state, bidId);
      if (live) return { ok: false, status: 409, detail: liveRunDetail(bidId, live) };
      const runId = newId('run_');
      const jobId = await worker.enqueue({ kind: RUN_JOB_KIND, bidId, input: { run_id: runId }, maxAttempts: RUN_MAX_ATTEMPTS, now });
      await state.run("INSERT INTO bid_runs (run_id, bid_id, job_id, state, started_by, created_at) VALUES (?, ?, ?, 'queued', ?, ?)", runId, bidId, jobId, accountId, now.toISOString());
      await appendRunEvent(state, bidId, runId, 'run_queued', { job_id: jobId }, now);
      await recordAudit(state, { bidId, accountId, what: 'run.start', subjectId: runId, detail: { job_id: jobId }, now });
      return { ok: true, run: (await runRow(state, bidId, runId))! };
    });
  } catch (error) {
    // Another instance started one between our check and our insert: the unique index refused the second.
    if (error instanceof StateUnavailableError || !refusedByUniqueIndex(error, 'bid_runs_one_live', 'bid_runs.bid_id')) throw error;
    const live = await liveRun(state, bidId);
    return { ok: false, status: 409, detail: live ? liveRunDetail(bidId, live) : 'Another run of this bid was started at the same moment.' };
  }
  if (result.ok) await worker.kick();
  return result;
}

function liveRunDetail(bidId: string, live: RunRow): string {
  return `This bid already has a run (${live.run_id}, ${live.state}); one runs at a time. Watch it at GET /v1/bids/${bidId}/runs/${live.run_id}/events, or stop it with POST /v1/bids/${bidId}/runs/${live.run_id}/stop.`;
}

export type StopResult = { ok: true; run: RunRow } | { ok: false; status: 409; detail: string };

/** Asks the run to stop: at once when no worker holds it, else at its next step boundary. Audited. */
export async function stopRun(state: StateDb, worker: JobWorker, input: { run: RunRow; accountId: string; now: Date }): Promise<StopResult> {
  const { run, accountId, now } = input;
  if (!LIVE_RUN_STATES.includes(run.state)) return { ok: false, status: 409, detail: `This run has already ${run.state === 'completed' ? 'completed' : `ended ${run.state}`}${run.finished_at ? ` at ${run.finished_at}` : ''}; there is nothing to stop.` };
  await state.transaction(async () => {
    await recordAudit(state, { bidId: run.bid_id, accountId, what: 'run.stop', subjectId: run.run_id, detail: { state: run.state }, now });
    await worker.requestStop(run.job_id);
  });
  return { ok: true, run: (await runRow(state, run.bid_id, run.run_id))! };
}
