import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { SIGN_IN_LINK_TTL_MS, endSession, issueSignInToken, redeemSignInToken } from '../accounts/sign-in.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { SESSION_COOKIE } from '../middleware/caller.ts';
import { CallbackQuery, LoginBody, LoginSentSchema, SignedOutSchema } from '../schemas/account.ts';
import type { StateDb } from '../../data/state/db.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface AuthRoutesOptions {
  state: StateDb;
  mailer: Mailer;
  /** The service's public address: sign-in links point here. */
  publicUrl: string;
  now: () => Date;
  log?: (error: unknown, c: Context) => void;
}

// A mail server that refused a message is usually back within a minute.
const MAIL_RETRY_AFTER_SECONDS = 60;

const loginRoute = createRoute({
  method: 'post',
  path: '/v1/auth/login',
  tags: ['Account'],
  summary: 'Email a sign-in link',
  description:
    'Sends a link that signs in once within 15 minutes; following it creates the account on first use and lands on `next` (a path on this site) or `/`. The reply is the same ' +
    'whether or not the address has an account. An address gets at most 5 links an hour; further requests answer the same and send nothing.',
  request: { body: { required: true, content: json(LoginBody) } },
  responses: {
    202: { description: 'The link is on its way.', content: json(LoginSentSchema) },
    422: errorReply('The body is not `{email, next?}` with an email address and a path on this site.'),
    503: errorReply('The mail server refused the message; `Retry-After` says when to try again.'),
  },
});

const callbackRoute = createRoute({
  method: 'get',
  path: '/v1/auth/callback',
  tags: ['Account'],
  summary: 'Follow a sign-in link',
  description:
    'Spends the link\'s token, starts a 30-day session in the `svc_session` cookie (HttpOnly, SameSite=Lax, Secure over https) and redirects to ' +
    'the link\'s `next` path, or `/` without one.',
  request: { query: CallbackQuery },
  responses: {
    302: { description: 'Signed in: the cookie is set and the browser goes to `next`, or `/`.' },
    400: errorReply('The link is unknown, expired or already used (ask for a new one), or its `next` is not a path on this site.'),
  },
});

const logoutRoute = createRoute({
  method: 'post',
  path: '/v1/auth/logout',
  tags: ['Account'],
  summary: 'Sign out',
  description: 'Ends the session at once and clears the cookie. Signing out without a session also answers 200.',
  responses: {
    200: { description: 'Signed out.', content: json(SignedOutSchema) },
    403: errorReply('The request came from another site.'),
  },
});

/** POST /v1/auth/login, GET /v1/auth/callback and POST /v1/auth/logout: passwordless sign-in by emailed link. */
export function authRoutes(options: AuthRoutesOptions): OpenAPIHono<CallerEnv> {
  const { state, mailer, now } = options;
  const log = options.log ?? ((error: unknown, c: Context) => console.error(`${c.req.method} ${c.req.path}: sign-in mail not sent:`, error));
  const callbackUrl = `${options.publicUrl}/v1/auth/callback`;
  const publicIsHttps = options.publicUrl.startsWith('https:');
  // Behind a TLS-terminating proxy the request reaches us over http, but the browser spoke https.
  const overHttps = (c: Context) => publicIsHttps || new URL(c.req.url).protocol === 'https:';
  const app = new OpenAPIHono<CallerEnv>();

  app.openapi(loginRoute, async (c) => {
    const { email, next } = c.req.valid('json');
    const token = await issueSignInToken(state, email, now());
    if (token !== null) {
      // `next` travels in the link itself and is checked again when the link is followed.
      const link = `${callbackUrl}?${new URLSearchParams({ token, ...(next === undefined ? {} : { next }) })}`;
      try {
        await mailer.send({
          to: email,
          subject: 'Your sign-in link',
          text: `Open this link within 15 minutes to sign in:\n\n${link}\n\nIt works once. If you did not ask to sign in, ignore this message: nothing changes.\n`,
        });
      } catch (error) {
        log(error, c);
        c.header('Retry-After', String(MAIL_RETRY_AFTER_SECONDS));
        return c.json({ detail: `We could not send the sign-in email just now. Try again in a minute.` }, 503);
      }
    }
    return c.json({ sent_to: email, valid_for_seconds: SIGN_IN_LINK_TTL_MS / 1000 }, 202);
  });

  app.openapi(callbackRoute, async (c) => {
    const { token, next } = c.req.valid('query');
    const session = await redeemSignInToken(state, token, now());
    if (!session) {
      return c.json({ detail: 'This sign-in link is unknown, expired or already used. Ask for a new one with POST /v1/auth/login.' }, 400);
    }
    setCookie(c, SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: overHttps(c),
      expires: session.expiresAt,
    });
    return c.redirect(next ?? '/', 302);
  });

  app.openapi(logoutRoute, async (c) => {
    const caller = c.get('caller');
    if (caller.kind === 'session') await endSession(state, caller.sessionHash, now());
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: overHttps(c), httpOnly: true, sameSite: 'Lax' });
    return c.json({ signed_out: true as const }, 200);
  });

  return app;
}
