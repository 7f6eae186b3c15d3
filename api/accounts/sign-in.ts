import { newId, newSecret, secretHash } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';

/**
 * Passwordless sign-in: an emailed single-use link makes a session. Link and session tokens are random
 * and stored only as hashes, so a copy of the state store opens no account.
 */

export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
/** A session lasts 30 days from sign-in, then the person follows a new link. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
/** Links sent to one address in an hour beyond this are silently not sent, so nobody can flood a mailbox through us. */
export const SIGN_IN_LINKS_PER_HOUR = 5;

/**
 * A fresh sign-in token for `email`, or null when the address has had its hourly share of links (the
 * caller answers the same either way). No account is looked up: the reply cannot reveal whether one exists.
 */
export async function issueSignInToken(state: StateDb, email: string, now: Date): Promise<string | null> {
  return await state.transaction(async () => {
    const hourAgo = new Date(now.getTime() - 60 * 60_000).toISOString();
    const recent = await state.get<{ count: number }>('SELECT count(*) AS count FROM login_tokens WHERE email = ? AND created_at > ?', email, hourAgo);
    if ((recent?.count ?? 0) >= SIGN_IN_LINKS_PER_HOUR) return null;
    // Spent and expired tokens have no further use.
    await state.run('DELETE FROM login_tokens WHERE expires_at <= ? AND created_at <= ?', now.toISOString(), hourAgo);
    const token = newSecret('login_');
    await state.run(
      'INSERT INTO login_tokens (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)',
      secretHash(token),
      email,
      now.toISOString(),
      new Date(now.getTime() + SIGN_IN_LINK_TTL_MS).toISOString(),
    );
    return token;
  });
}

export interface NewSession {
  /** The cookie value; only its hash is stored. */
  token: string;
  accountId: string;
  expiresAt: Date;
}

/**
 * Spends a sign-in token: the account is created on first sign-in, and a session begins. Null when the
 * token is unknown, expired or already used.
 */
export async function redeemSignInToken(state: StateDb, token: string, now: Date): Promise<NewSession | null> {
  return await state.transaction(async () => {
    const spent = await state.get<{ email: string }>(
      'UPDATE login_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email',
      now.toISOString(),
      secretHash(token),
      now.toISOString(),
    );
    if (!spent) return null;
    const accountId = await accountFor(state, spent.email, now);
    const session: NewSession = { token: newSecret('session_'), accountId, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) };
    await state.run(
      'INSERT INTO sessions (session_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      secretHash(session.token),
      accountId,
      now.toISOString(),
      session.expiresAt.toISOString(),
    );
    return session;
  });
}

/** The account of `email`, created when it has none. */
export async function accountFor(state: StateDb, email: string, now: Date): Promise<string> {
  return await state.transaction(async () => {
    await state.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING', newId('acct_'), email, now.toISOString());
    return (await state.get<{ account_id: string }>('SELECT account_id FROM accounts WHERE email = ?', email))!.account_id;
  });
}

/** Ends a session at once: the next request with its cookie is anonymous. */
export async function endSession(state: StateDb, sessionHash: string, now: Date): Promise<void> {
  await state.run('UPDATE sessions SET ended_at = ? WHERE session_hash = ? AND ended_at IS NULL', now.toISOString(), sessionHash);
}
