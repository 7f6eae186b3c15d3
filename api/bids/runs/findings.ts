import type { StateDb } from '../../../data/state/db.ts';
import type { DerivedFinding, FindingKind } from './compliance.ts';
import { appendRunEvent } from './events.ts';

/**
 * Findings of a bid's runs. Each is stored with the seq of the `finding` event that announces it, in the
 * same transaction, so the stream and GET …/findings?since_seq=N never disagree: that event carries only
 * finding_id, requirement_id and kind, and the list gives the whole finding.
 */

export interface Finding {
  finding_id: string;
  run_id: string;
  /** Its place in the bid's event chain: the seq of its `finding` event. */
  seq: number;
  kind: FindingKind;
  requirement_id: string | null;
  title: string;
  detail: string;
  created_at: string;
}

/** Stores a run's findings with their events (inside the caller's transaction); ids come from the caller so a re-run stores the same ones. */
export async function storeFindings(state: StateDb, bidId: string, runId: string, findings: readonly (DerivedFinding & { finding_id: string })[], now: Date): Promise<void> {
  await state.transaction(async () => {
    for (const finding of findings) {
      const seq = await appendRunEvent(state, bidId, runId, 'finding', { finding_id: finding.finding_id, requirement_id: finding.requirement_id, kind: finding.kind }, now);
      await state.run(
        'INSERT INTO bid_findings (finding_id, bid_id, run_id, seq, kind, requirement_id, title, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        finding.finding_id, bidId, runId, seq, finding.kind, finding.requirement_id, finding.title, finding.detail, now.toISOString(),
      );
    }
  });
}

/** The bid's findings at or after `sinceSeq`, in chain order. */
export async function findingsSince(state: StateDb, bidId: string, sinceSeq: number, limit = 1000): Promise<Finding[]> {
  return await state.all<Finding>(
    'SELECT finding_id, run_id, seq, kind, requirement_id, title, detail, created_at FROM bid_findings WHERE bid_id = ? AND seq >= ? ORDER BY seq LIMIT ?',
    bidId,
    sinceSeq,
    limit,
  );
}

export async function findingCount(state: StateDb, runId: string): Promise<number> {
  return (await state.get<{ n: number }>('SELECT COUNT(*) AS n FROM bid_findings WHERE run_id = ?', runId))!.n;
}
