import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import { orgsOf } from '../orgs/orgs.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { AccountSchema, SessionSchema } from '../schemas/account.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import type { StateDb } from '../../data/state/db.ts';
import { json } from '../schemas/openapi-content.ts';

export interface AccountRoutesOptions {
  state: StateDb;
}

const accountRoute = createRoute({
  method: 'get',
  path: '/v1/account',
  tags: ['Account'],
  summary: 'Who is signed in',
  description:
    'The signed-in account of this browser\'s session: its address, when the session ends and its organisations. ' +
    'The session cookie is HttpOnly, so this is how the site\'s own pages learn whether someone is signed in.',
  security: [{ session: [] }],
  responses: {
    200: { description: 'The signed-in account.', content: json(AccountSchema) },
    401: { description: 'No signed-in session (an API key is not a session).', content: json(ErrorSchema) },
  },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/v1/auth/session',
  tags: ['Account'],
  summary: 'Whether this browser is signed in',
  description:
    'Always 200: `signed_in` says whether the browser holds a live session, with its address and when it ends. ' +
    'The site\'s pages ask this rather than GET /v1/account, so a reader who is not signed in meets no refusal.',
  responses: {
    200: { description: 'Signed in or not.', content: json(SessionSchema) },
  },
});

/** GET /v1/account: the account of a signed-in session; GET /v1/auth/session: whether there is one. */
export function accountRoutes(options: AccountRoutesOptions): OpenAPIHono<CallerEnv> {
  const { state } = options;
  const app = new OpenAPIHono<CallerEnv>();

  app.openapi(sessionRoute, async (c) => {
    const caller = c.get('caller');
    if (caller.kind !== 'session') return c.json({ signed_in: false }, 200);
    const row = await state.get<{ email: string; expires_at: string }>(
      'SELECT a.email, s.expires_at FROM sessions s JOIN accounts a ON a.account_id = s.account_id WHERE s.session_hash = ?',
      caller.sessionHash,
    );
    return c.json(row ? { signed_in: true, email: row.email, session_expires_at: row.expires_at } : { signed_in: false }, 200);
  });

  app.openapi(accountRoute, async (c) => {
    const caller = c.get('caller');
    if (caller.kind !== 'session') {
      return c.json({ detail: 'Nobody is signed in on this browser. Sign in with POST /v1/auth/login and follow the emailed link.' }, 401);
    }
    const row = await state.get<{ email: string; created_at: string; expires_at: string }>(
      `SELECT a.email, a.created_at, s.expires_at
         FROM sessions s JOIN accounts a ON a.account_id = s.account_id
        WHERE s.session_hash = ?`,
      caller.sessionHash,
    );
    if (!row) throw new Error(`session of account ${caller.accountId} vanished between the caller step and the account route`);
    return c.json(
      { account_id: caller.accountId, email: row.email, created_at: row.created_at, session_expires_at: row.expires_at, orgs: await orgsOf(state, caller.accountId) },
      200,
    );
  });

  return app;
}
