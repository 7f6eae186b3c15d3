import type { StateDb } from '../../../data/state/db.ts';
import { newId } from '../../../lib/tokens.ts';
import type { WarrantBundle } from './bundle.ts';

/**
 * Stored warrants (spec, Warrant; States: "identical SHA-256 and no fresh=1 → stored bundle reused"): one per
 * distinct file, its id derived from the file's SHA-256 so the same bytes always name the same warrant.
 * A bundle the engine could not finish (a time or memory limit) is kept for its permalink but not reused.
 */

export const WARRANT_ID_PATTERN = /^warrant_[0-9a-f]{16}$/;

export function warrantIdOf(sha256: string): string {
  return `warrant_${sha256.slice(0, 16)}`;
}

export interface WarrantFeedback {
  feedback_id: string;
  warrant_id: string;
  verdict: 'up' | 'down';
  note: string | null;
  recorded_at: string;
}

export interface WarrantStore {
  /** The stored bundle a new upload of these bytes may reuse: made by `engineVersion`, and finished. */
  reusable(sha256: string, engineVersion: string): Promise<WarrantBundle | undefined>;
  byId(warrantId: string): Promise<WarrantBundle | undefined>;
  /** Stores the bundle, replacing an earlier one of the same file (`fresh=1`). */
  save(bundle: WarrantBundle, reusable: boolean): Promise<void>;
  /** Records a person's verdict on a stored warrant; null when there is no such warrant. */
  addFeedback(warrantId: string, feedback: { verdict: 'up' | 'down'; note: string | null }, now: Date): Promise<WarrantFeedback | null>;
}

export function createWarrantStore(state: StateDb): WarrantStore {
  const parse = (row: { bundle: string } | undefined) => (row === undefined ? undefined : (JSON.parse(row.bundle) as WarrantBundle));
  return {
    async reusable(sha256, engineVersion) {
      const bundle = parse(await state.get<{ bundle: string }>('SELECT bundle FROM warrants WHERE sha256 = ? AND reusable = 1', sha256));
      return bundle?.engine_version === engineVersion ? bundle : undefined;
    },
    byId: async (warrantId) => parse(await state.get<{ bundle: string }>('SELECT bundle FROM warrants WHERE warrant_id = ?', warrantId)),
    async save(bundle, reusable) {
      await state.run(
        `INSERT INTO warrants (warrant_id, sha256, bundle, reusable, inspected_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (warrant_id) DO UPDATE SET sha256 = excluded.sha256, bundle = excluded.bundle, reusable = excluded.reusable, inspected_at = excluded.inspected_at`,
        bundle.warrant_id,
        bundle.sha256,
        JSON.stringify(bundle),
        reusable ? 1 : 0,
        bundle.inspected_at,
      );
    },
    async addFeedback(warrantId, feedback, now) {
      const recorded: WarrantFeedback = { feedback_id: newId('wfb_'), warrant_id: warrantId, verdict: feedback.verdict, note: feedback.note, recorded_at: now.toISOString() };
      const { changes } = await state.run(
        `INSERT INTO warrant_feedback (feedback_id, warrant_id, verdict, note, created_at)
         SELECT ?, warrant_id, ?, ?, ? FROM warrants WHERE warrant_id = ?`,
        recorded.feedback_id,
        recorded.verdict,
        recorded.note,
        recorded.recorded_at,
        warrantId,
      );
      return changes === 0 ? null : recorded;
    },
  };
}
