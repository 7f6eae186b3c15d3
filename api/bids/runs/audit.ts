import { newId } from '../../../lib/tokens.ts';
import type { StateDb } from '../../../data/state/db.ts';

/** The audit of people's decisions and run commands on a bid (`bid_audit`): who did what to which record, when. */

export interface AuditEntry {
  bidId: string;
  accountId: string;
  /** e.g. `run.start`, `run.stop`, `action.approve`, `action.reject`. */
  what: string;
  subjectId: string;
  detail: Record<string, unknown>;
  now: Date;
}

export async function recordAudit(state: StateDb, entry: AuditEntry): Promise<void> {
  await state.run(
    'INSERT INTO bid_audit (audit_id, bid_id, account_id, what, subject_id, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    newId('aud_'), entry.bidId, entry.accountId, entry.what, entry.subjectId, JSON.stringify(entry.detail), entry.now.toISOString(),
  );
}

export interface AuditView {
  what: string;
  subject_id: string;
  by: string;
  at: string;
  detail: Record<string, unknown>;
}

/** The bid's audit, oldest first. */
export async function auditOf(state: StateDb, bidId: string): Promise<AuditView[]> {
  return (await state
    .all<{ what: string; subject_id: string; email: string; at: string; detail: string }>(
      'SELECT x.what, x.subject_id, a.email, x.at, x.detail FROM bid_audit x JOIN accounts a ON a.account_id = x.account_id WHERE x.bid_id = ? ORDER BY x.at, x.audit_id',
      bidId,
    ))
    .map((row) => ({ what: row.what, subject_id: row.subject_id, by: row.email, at: row.at, detail: JSON.parse(row.detail) as Record<string, unknown> }));
}
