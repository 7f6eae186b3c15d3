import { mintKey, type KeyScope } from '../../api/accounts/keys.ts';
import { redeemSignInToken, issueSignInToken } from '../../api/accounts/sign-in.ts';
import { SESSION_COOKIE } from '../../api/middleware/caller.ts';
import { StateUnavailableError, type StateDb } from '../../data/state/db.ts';

/** The public URL the access tests give createApp; cookie writes must name it as their Origin. */
export const PUBLIC_URL = 'http://127.0.0.1:8787';

export interface SignedIn {
  accountId: string;
  /** Headers for a same-origin browser request: the session cookie and our Origin. */
  headers: Record<string, string>;
}

/** Signs `email` in the way the emailed link does, without the mail. */
export async function signIn(state: StateDb, email: string, now = new Date()): Promise<SignedIn> {
  const token = await issueSignInToken(state, email, now);
  if (token === null) throw new Error(`no sign-in token for ${email}: too many this hour`);
  const session = (await redeemSignInToken(state, token, now))!;
  return { accountId: session.accountId, headers: { cookie: `${SESSION_COOKIE}=${session.token}`, origin: PUBLIC_URL } };
}

/** A key for an account (or for nobody, as keys minted before accounts existed), and its Authorization header. */
export async function keyFor(state: StateDb, accountId: string | null, scope: KeyScope = 'api'): Promise<{ apiKey: string; keyId: string; headers: Record<string, string> }> {
  const outcome = await mintKey(state, { accountId, scope, now: new Date() });
  if (!outcome.minted) throw new Error('the account is at its key cap');
  return { apiKey: outcome.apiKey, keyId: outcome.key.key_id, headers: { authorization: `Bearer ${outcome.apiKey}` } };
}

/** A state store that can be taken down: every call then throws StateUnavailableError, as SQLITE_BUSY or a lost disk would. */
export function switchableState(real: StateDb): { state: StateDb; setDown(down: boolean): void } {
  let down = false;
  const check = () => {
    if (down) throw new StateUnavailableError('database is locked');
  };
  return {
    setDown: (value) => (down = value),
    state: {
      engine: real.engine,
      run: async (sql, ...params) => (check(), await real.run(sql, ...params)),
      get: async (sql, ...params) => (check(), await real.get(sql, ...params)),
      all: async (sql, ...params) => (check(), await real.all(sql, ...params)),
      transaction: async (work, options) => (check(), await real.transaction(work, options)),
      close: async () => await real.close(),
    },
  };
}
