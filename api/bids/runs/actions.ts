import { newId } from '../../../lib/tokens.ts';
import type { StateDb } from '../../../data/state/db.ts';
import { requeueWaitingJob } from '../jobs/store.ts';
import { recordAudit } from './audit.ts';
import { appendRunEvent } from './events.ts';
import { bidIsPaid } from '../payments.ts';

/**
 * Actions: what a run needs a person to decide before it goes on (fetching the tender pack, emailing the
 * buyer a question, sending the bid's text to the configured language model), stored with exactly the
 * arguments approval executes, and the sign-off a finished run leaves, which no run waits on.
 *
 * Decisions (POST …/actions/{action}/{decision}, `approve` or `reject`), each audited:
 * - an action no run waits on: its state flips, nothing else;
 * - a run's action on a paid bid: approved, the run resumes and executes the stored arguments once (as a
 *   recorded step of its job: api/bids/runs/run-job.ts);
 * - a run's action on an unpaid bid: 402 and nothing changes; rejection needs no payment and resumes the run
 *   without the effect.
 */

export const ACTION_KINDS = ['fetch_pack', 'send_clarification', 'use_model', 'sign_off'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];
export const ACTION_STATES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type ActionState = (typeof ACTION_STATES)[number];
/** The decision path tokens. */
export const DECISIONS = ['approve', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];

export interface ActionRow {
  action_id: string;
  bid_id: string;
  run_id: string | null;
  raised_in_run: string | null;
  kind: ActionKind;
  title: string;
  arguments: string;
  state: ActionState;
  decided_by: string | null;
  decided_at: string | null;
  outcome: string | null;
  created_at: string;
}

export interface ActionView {
  action_id: string;
  bid_id: string;
  kind: ActionKind;
  title: string;
  /** Exactly what approval executes. */
  arguments: Record<string, unknown>;
  state: ActionState;
  /** The run waiting on the decision; null when none waits. */
  run_id: string | null;
  /** The run that raised it. */
  raised_in_run: string | null;
  decided_by: string | null;
  decided_at: string | null;
  /** What executing it came to, once done. */
  outcome: Record<string, unknown> | null;
  created_at: string;
}

const SELECT_ACTION = `SELECT x.*, a.email AS decided_by_email FROM bid_actions x LEFT JOIN accounts a ON a.account_id = x.decided_by`;

const view = (row: ActionRow & { decided_by_email: string | null }): ActionView => ({
  action_id: row.action_id,
  bid_id: row.bid_id,
  kind: row.kind,
  title: row.title,
  arguments: JSON.parse(row.arguments) as Record<string, unknown>,
  state: row.state,
  run_id: row.run_id,
  raised_in_run: row.raised_in_run,
  decided_by: row.decided_by_email,
  decided_at: row.decided_at,
  outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as Record<string, unknown>),
  created_at: row.created_at,
});

export async function actionRow(state: StateDb, actionId: string): Promise<ActionRow | null> {
  return await state.get<ActionRow>('SELECT * FROM bid_actions WHERE action_id = ?', actionId) ?? null;
}

/** Pending actions first, then decided ones, newest first within each. */
export async function listActions(state: StateDb, bidId: string): Promise<ActionView[]> {
  return (await state
    .all<ActionRow & { decided_by_email: string | null }>(`${SELECT_ACTION} WHERE x.bid_id = ? ORDER BY x.state <> 'pending', x.created_at DESC, x.action_id`, bidId))
    .map(view);
}

export async function readAction(state: StateDb, bidId: string, actionId: string): Promise<ActionView | null> {
  const row = await state.get<ActionRow & { decided_by_email: string | null }>(`${SELECT_ACTION} WHERE x.bid_id = ? AND x.action_id = ?`, bidId, actionId);
  return row ? view(row) : null;
}

export interface NewAction {
  actionId: string;
  bidId: string;
  /** The run that waits on it, or null. */
  runId: string | null;
  raisedInRun: string;
  kind: ActionKind;
  title: string;
  arguments: Record<string, unknown>;
  now: Date;
}

/** Stores a pending action and tells the run's event log (inside the caller's transaction). */
export async function insertAction(state: StateDb, action: NewAction): Promise<void> {
  await state.run(
    `INSERT INTO bid_actions (action_id, bid_id, run_id, raised_in_run, kind, title, arguments, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
    action.actionId, action.bidId, action.runId, action.raisedInRun, action.kind, action.title, JSON.stringify(action.arguments), action.now.toISOString(),
  );
  await appendRunEvent(state, action.bidId, action.raisedInRun, 'action_raised', { action_id: action.actionId, kind: action.kind, waits: action.runId !== null }, action.now);
}

/** Records what executing an approved action came to. */
export async function recordActionOutcome(state: StateDb, actionId: string, outcome: Record<string, unknown>): Promise<void> {
  await state.run('UPDATE bid_actions SET outcome = ? WHERE action_id = ?', JSON.stringify(outcome), actionId);
}

/** Pending actions a run waits on, ended with it (stopped, failed or finished): no decision can resume it. */
export async function cancelRunActions(state: StateDb, runId: string, now: Date): Promise<void> {
  await state.run("UPDATE bid_actions SET state = 'cancelled', decided_at = ? WHERE run_id = ? AND state = 'pending'", now.toISOString(), runId);
}

export type DecisionResult =
  | { ok: true; action: ActionView; runId: string | null; jobToKick: string | null }
  | { ok: false; status: 402 | 404 | 409; detail: string };

/**
 * Records a person's decision. The payment check, the state flip, the audit row, the run's event and the
 * run's job back in the queue are one transaction; the caller kicks the worker once it commits.
 */
export async function decideAction(state: StateDb, input: { bidId: string; actionId: string; decision: Decision; accountId: string; now: Date; runAfter: string }): Promise<DecisionResult> {
  const { bidId, actionId, decision, accountId, now } = input;
  return await state.transaction(async (): Promise<DecisionResult> => {
    const action = await state.get<ActionRow>('SELECT * FROM bid_actions WHERE action_id = ? AND bid_id = ?', actionId, bidId);
    if (!action) return { ok: false, status: 404, detail: `This bid has no action ${actionId.slice(0, 80)}; GET /v1/bids/${bidId}/actions lists them.` };
    if (action.state !== 'pending') {
      const when = action.decided_at ? ` at ${action.decided_at}` : '';
      return { ok: false, status: 409, detail: `This action is already ${action.state}${when}; only a pending action can be decided.` };
    }
    if (decision === 'approve' && action.run_id !== null && !await bidIsPaid(state, bidId)) {
      return {
        ok: false,
        status: 402,
        detail: `This action belongs to a run, and approving it spends the bid's paid preparation, which this bid does not have: pay with POST /v1/bids/${bidId}/checkout, then approve again. The action stays pending.`,
      };
    }
    const at = now.toISOString();
    await state.run('UPDATE bid_actions SET state = ?, decided_by = ?, decided_at = ? WHERE action_id = ?', decision === 'approve' ? 'approved' : 'rejected', accountId, at, actionId);
    await recordAudit(state, { bidId, accountId, what: `action.${decision}`, subjectId: actionId, detail: { kind: action.kind, run_id: action.run_id, arguments: JSON.parse(action.arguments) as unknown }, now });
    let jobToKick: string | null = null;
    if (action.run_id !== null) {
      await appendRunEvent(state, bidId, action.run_id, 'action_decided', { action_id: actionId, decision }, now);
      const jobId = (await state.get<{ job_id: string }>('SELECT job_id FROM bid_runs WHERE run_id = ?', action.run_id))!.job_id;
      // A job still running reaches its wait after this commits and finds the decision there.
      if (await requeueWaitingJob(state, jobId, input.runAfter, now)) jobToKick = jobId;
    }
    return { ok: true, action: (await readAction(state, bidId, actionId))!, runId: action.run_id, jobToKick };
  });
}

export function newActionId(): string {
  return newId('act_');
}
