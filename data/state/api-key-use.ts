import type { StateDb } from './db.ts';

/** An API key as the caller check reads it (api/middleware/caller.ts). */
export interface KeyInUse {
  key_id: string;
  account_id: string | null;
  scope: string;
  revoked_at: string | null;
  disabled_at: string | null;
  /** As stored before this use was marked. */
  last_used_at: string | null;
}

const KEY_COLUMNS = 'key_id, account_id, scope, revoked_at, disabled_at, last_used_at';
// A usable key's last use, written only when the one stored is older than `staleBefore`: at most once in that span
// per key however often it is used. A key refused (revoked, disabled) is not marked.
const MARK_USE = `UPDATE api_keys SET last_used_at = ?2
  WHERE key_hash = ?1 AND revoked_at IS NULL AND disabled_at IS NULL AND (last_used_at IS NULL OR last_used_at <= ?3)`;

/**
 * The key stored under `keyHash`, marking it used at `at` when its last mark is at or before `staleBefore`. On
 * PostgreSQL the look-up and the mark are one statement (a data-modifying `WITH`), one round trip for every keyed
 * request; SQLite, in process, has no data-modifying `WITH` and no round trip to save, so it reads, then marks.
 */
export async function findKeyMarkingUse(state: StateDb, keyHash: string, at: string, staleBefore: string): Promise<KeyInUse | undefined> {
  if (state.engine === 'postgres') {
    return await state.get<KeyInUse>(`WITH marked AS (${MARK_USE}) SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?1`, keyHash, at, staleBefore);
  }
  const key = await state.get<KeyInUse>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`, keyHash);
  if (key && !key.revoked_at && !key.disabled_at && (key.last_used_at === null || key.last_used_at <= staleBefore)) {
    await state.run(MARK_USE, keyHash, at, staleBefore);
  }
  return key;
}
