import { newId, newSecret, secretHash } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/**
 * API keys (spec, Authentication 4 and 5): shown once, stored as a hash, at most five active per account
 * (connector keys included), revoked at once. A key minted before accounts existed has no account until
 * someone who holds it links it.
 */

export const KEYS_PER_ACCOUNT = 5;
/** Characters of a key kept in the clear to recognise it by: `svc_` and eight of the secret's 32. */
const VISIBLE_PREFIX_LENGTH = 12;

export type KeyScope = 'api' | 'mcp';

export interface KeyMetadata {
  key_id: string;
  name: string;
  prefix: string;
  scope: KeyScope;
  created_at: string;
  last_used_at: string | null;
  disabled: boolean;
}

interface KeyRow {
  key_id: string;
  account_id: string | null;
  name: string | null;
  prefix: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  disabled_at: string | null;
}

const METADATA_COLUMNS = 'key_id, account_id, name, prefix, scope, created_at, last_used_at, revoked_at, disabled_at';

function metadataOf(row: KeyRow): KeyMetadata {
  return {
    key_id: row.key_id,
    name: row.name ?? (row.scope === 'mcp' ? 'MCP connector' : 'API key'),
    prefix: row.prefix,
    scope: row.scope === 'mcp' ? 'mcp' : 'api',
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    disabled: row.disabled_at !== null,
  };
}

/** Keys an account holds that are not revoked: what the cap counts. Disabled keys count until their owner revokes them. */
async function activeKeyCount(state: StateDb, accountId: string): Promise<number> {
  return (await state.get<{ count: number }>('SELECT count(*) AS count FROM api_keys WHERE account_id = ? AND revoked_at IS NULL', accountId))?.count ?? 0;
}

export type MintOutcome = { minted: true; apiKey: string; key: KeyMetadata } | { minted: false; reason: 'cap' };

/** A new key for an account (or, with `accountId: null`, for nobody yet); refused when the account is at the cap. */
export async function mintKey(state: StateDb, options: { accountId: string | null; name?: string | undefined; scope: KeyScope; now: Date }): Promise<MintOutcome> {
  return await state.transaction(async (): Promise<MintOutcome> => {
    if (options.accountId !== null && await activeKeyCount(state, options.accountId) >= KEYS_PER_ACCOUNT) return { minted: false, reason: 'cap' };
    const apiKey = newSecret('svc_');
    const row: KeyRow = {
      key_id: newId('key_'),
      account_id: options.accountId,
      name: options.name ?? null,
      prefix: apiKey.slice(0, VISIBLE_PREFIX_LENGTH),
      scope: options.scope,
      created_at: options.now.toISOString(),
      last_used_at: null,
      revoked_at: null,
      disabled_at: null,
    };
    await state.run(
      'INSERT INTO api_keys (key_id, key_hash, account_id, name, scope, prefix, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      row.key_id,
      secretHash(apiKey),
      row.account_id,
      row.name,
      row.scope,
      row.prefix,
      row.created_at,
    );
    return { minted: true, apiKey, key: metadataOf(row) };
  });
}

/** Who is asking about keys: a signed-in account, or one key on its own behalf. */
export type KeyOwner = { accountId: string } | { keyId: string };

/** The keys an owner may see, oldest first: an account's unrevoked keys, or the one key itself. */
export async function listKeys(state: StateDb, owner: KeyOwner): Promise<KeyMetadata[]> {
  const rows =
    'accountId' in owner
      ? await state.all<KeyRow>(`SELECT ${METADATA_COLUMNS} FROM api_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at, key_id`, owner.accountId)
      : await state.all<KeyRow>(`SELECT ${METADATA_COLUMNS} FROM api_keys WHERE key_id = ? AND revoked_at IS NULL`, owner.keyId);
  return rows.map(metadataOf);
}

/**
 * Revokes a key its owner names: the account it belongs to, or the key itself. Returns when it was
 * revoked, or null when the owner has no such unrevoked key (another account's key looks exactly missing).
 */
export async function revokeKey(state: StateDb, keyId: string, owner: KeyOwner, now: Date): Promise<string | null> {
  const revokedAt = now.toISOString();
  if ('keyId' in owner && owner.keyId !== keyId) return null;
  const { changes } =
    'accountId' in owner
      ? await state.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND account_id = ? AND revoked_at IS NULL', revokedAt, keyId, owner.accountId)
      : await state.run('UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL', revokedAt, keyId);
  return changes === 1 ? revokedAt : null;
}

export type LinkOutcome =
  | { linked: true; key: KeyMetadata; alreadyLinked: boolean }
  | { linked: false; reason: 'unknown' | 'other-account' | 'cap' };

/**
 * Attaches a key minted without an account to `accountId`. Presenting the key in full is the proof of
 * possession. `onLinked` runs inside the same transaction (the meter moves the key's week to the account).
 */
export async function linkKey(state: StateDb, apiKey: string, accountId: string, onLinked: (keyId: string) => Promise<void>): Promise<LinkOutcome> {
  return await state.transaction(async (): Promise<LinkOutcome> => {
    const row = await state.get<KeyRow>(`SELECT ${METADATA_COLUMNS} FROM api_keys WHERE key_hash = ?`, secretHash(apiKey));
    if (!row || row.revoked_at !== null || row.disabled_at !== null) return { linked: false, reason: 'unknown' };
    if (row.account_id === accountId) return { linked: true, key: metadataOf(row), alreadyLinked: true };
    if (row.account_id !== null) return { linked: false, reason: 'other-account' };
    if (await activeKeyCount(state, accountId) >= KEYS_PER_ACCOUNT) return { linked: false, reason: 'cap' };
    await state.run('UPDATE api_keys SET account_id = ? WHERE key_id = ?', accountId, row.key_id);
    await onLinked(row.key_id);
    return { linked: true, key: metadataOf(row), alreadyLinked: false };
  });
}
