import type { StateDb } from '../../../data/state/db.ts';
import { sha256Hex } from '../../../lib/hash.ts';
import { newId } from '../../../lib/tokens.ts';

/**
 * Fact-check results by id (spec, Fact-check result: `fc_` + 16 lowercase hex from the content hash), for
 * GET /v1/fact-checks/{check_id}; and the feedback POST /v1/feedback records. The same documents checked
 * with the same `deep` switch name the same check; checking again replaces the stored result, since links
 * and registries change while the bytes do not.
 */

export const CHECK_ID_PATTERN = /^fc_[0-9a-f]{16}$/;

export function checkIdOf(documentHashes: readonly string[], deep: boolean): string {
  return `fc_${sha256Hex(JSON.stringify({ documents: documentHashes, deep })).slice(0, 16)}`;
}

export interface FactCheckStore {
  byId(checkId: string): Promise<unknown>;
  save(checkId: string, result: unknown, checkedAt: Date): Promise<void>;
}

export function createFactCheckStore(state: StateDb): FactCheckStore {
  return {
    async byId(checkId) {
      const row = await state.get<{ result: string }>('SELECT result FROM fact_checks WHERE check_id = ?', checkId);
      return row === undefined ? undefined : (JSON.parse(row.result) as unknown);
    },
    async save(checkId, result, checkedAt) {
      await state.run(
        `INSERT INTO fact_checks (check_id, result, checked_at) VALUES (?, ?, ?)
         ON CONFLICT (check_id) DO UPDATE SET result = excluded.result, checked_at = excluded.checked_at`,
        checkId,
        JSON.stringify(result),
        checkedAt.toISOString(),
      );
    },
  };
}

export const FEEDBACK_TOOLS = ['detect_ai_text', 'verify_references'] as const;

export interface CheckerFeedback {
  tool: (typeof FEEDBACK_TOOLS)[number];
  verdict: 'up' | 'down';
  ref: string | null;
  note: string | null;
}

/** Records feedback; returns its id. Throws when the store cannot be written (the route answers anyway). */
export async function recordFeedback(state: StateDb, feedback: CheckerFeedback, now: Date): Promise<string> {
  const feedbackId = newId('fb_');
  await state.run(
    'INSERT INTO checker_feedback (feedback_id, tool, verdict, ref, note, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    feedbackId,
    feedback.tool,
    feedback.verdict,
    feedback.ref,
    feedback.note,
    now.toISOString(),
  );
  return feedbackId;
}
