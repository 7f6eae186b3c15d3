import { EventEmitter } from 'node:events';
import type { StateDb } from '../../../data/state/db.ts';

/**
 * The append-only event log of a bid's runs. `seq` rises by one per bid across its runs, so one number
 * places an event, and the finding it announces, in the bid's chain; a run's events are read in seq order.
 * Appending takes the next number inside the caller's transaction (immediate on SQLite, so two appends never
 * take the same number; the primary key refuses it on any engine). Kinds are listed in api/bids/README.md.
 */

export const RUN_EVENT_KINDS = [
  'run_queued',
  'run_started',
  'run_resumed',
  'step_started',
  'step_completed',
  'step_retrying',
  'action_raised',
  'action_decided',
  'run_waiting',
  'finding',
  'message',
  'run_completed',
  'run_stopped',
  'run_failed',
] as const;
export type RunEventKind = (typeof RUN_EVENT_KINDS)[number];

/** The events after which a run's stream closes. */
export const FINAL_EVENT_KINDS: ReadonlySet<RunEventKind> = new Set(['run_completed', 'run_stopped', 'run_failed']);

export interface RunEvent {
  seq: number;
  run_id: string;
  kind: RunEventKind;
  data: Record<string, unknown>;
  created_at: string;
}

/** Told after an append commits, so open streams read the new events at once rather than at their next poll. */
const appended = new EventEmitter();
appended.setMaxListeners(0);

/** Appends an event inside the caller's transaction and returns its seq; streams are woken once it commits. */
export async function appendRunEvent(state: StateDb, bidId: string, runId: string, kind: RunEventKind, data: Record<string, unknown>, now: Date): Promise<number> {
  return await state.transaction(async () => {
    const seq = ((await state.get<{ last: number | null }>('SELECT MAX(seq) AS last FROM bid_run_events WHERE bid_id = ?', bidId))?.last ?? 0) + 1;
    await state.run('INSERT INTO bid_run_events (bid_id, seq, run_id, kind, data, created_at) VALUES (?, ?, ?, ?, ?, ?)', bidId, seq, runId, kind, JSON.stringify(data), now.toISOString());
    // After this transaction (or the caller's enclosing one) has committed: the event loop runs it later.
    queueMicrotask(() => appended.emit(runId));
    return seq;
  });
}

/** The run's events after `afterSeq`, in order. */
export async function runEventsAfter(state: StateDb, runId: string, afterSeq: number, limit = 500): Promise<RunEvent[]> {
  return (await state
    .all<{ seq: number; run_id: string; kind: RunEventKind; data: string; created_at: string }>(
      'SELECT seq, run_id, kind, data, created_at FROM bid_run_events WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?',
      runId,
      afterSeq,
      limit,
    ))
    .map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
}

/** Calls `listener` after each append to the run's log; returns the unsubscribe. */
export function onRunEvent(runId: string, listener: () => void): () => void {
  appended.on(runId, listener);
  return () => appended.off(runId, listener);
}
