import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { IncomingMessage } from 'node:http';
import { secretHash } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';
import { findKeyMarkingUse } from '../../data/state/api-key-use.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import { steps, type RequestStep } from './steps.ts';

export const SESSION_COOKIE = 'svc_session';
const LAST_USED_PRECISION_MS = 60_000;

/** True for a key or a signed-in session: what links, supplier names and evidence URLs need (spec, Authentication 7). */
export function isIdentified(caller: Caller): boolean {
  return caller.kind !== 'anonymous';
}

export interface CallerOptions {
  state: StateDb;
  now?: () => Date;
  /**
   * The client's address. Default: the socket's peer, or with `trustProxy` the first X-Forwarded-For hop
   * (only behind a proxy you run: anyone can send that header).
   */
  clientIp?: (c: Context) => string;
  trustProxy?: boolean;
}

/**
 * Resolves the caller: `Authorization: Bearer svc_…` (an invalid, revoked or disabled key is 401 and never
 * falls back to anonymous), else the `svc_session` cookie (an expired or ended session is simply anonymous:
 * cookies outlive sessions), else anonymous by client IP.
 *
 * @example
 * app.use('*', caller({ state }));
 * app.get('/whoami', (c) => c.json({ kind: c.get('caller').kind }));
 */
export function caller(options: CallerOptions): MiddlewareHandler<CallerEnv> {
  return steps([callerStep(options)]);
}

/** `caller()` as a step, for the app's one access middleware (api/middleware/steps.ts says why). */
export function callerStep(options: CallerOptions): RequestStep<CallerEnv> {
  const now = options.now ?? (() => new Date());
  const clientIp = options.clientIp ?? ((c: Context) => defaultClientIp(c, options.trustProxy ?? false));
  return async function resolveCaller(c) {
    const ip = clientIp(c);
    const authorization = c.req.header('authorization');
    if (authorization !== undefined) {
      const token = bearerKey(authorization);
      if (token === null) {
        return c.json({ detail: 'The Authorization header must be "Bearer svc_…" with an API key; omit it to call anonymously.' }, 401);
      }
      const resolved = await keyCaller(options.state, token, ip, now());
      if ('refusal' in resolved) return c.json({ detail: resolved.refusal }, 401);
      c.set('caller', resolved);
      return undefined;
    }
    const token = getCookie(c, SESSION_COOKIE);
    if (token) {
      const sessionHash = secretHash(token);
      const session = await options.state.get<{ account_id: string }>(
        'SELECT account_id FROM sessions WHERE session_hash = ? AND ended_at IS NULL AND expires_at > ?',
        sessionHash,
        now().toISOString(),
      );
      if (session) {
        c.set('caller', { kind: 'session', ip, accountId: session.account_id, sessionHash });
        return undefined;
      }
    }
    c.set('caller', { kind: 'anonymous', ip });
    return undefined;
  };
}

/**
 * The caller an API key stands for, or why the key is refused (401). Marks the key used, to the minute.
 * Shared by `caller()` and the lane that answers kept reads before routing (cached-reads.ts), so both
 * accept exactly the same keys.
 */
export async function keyCaller(state: StateDb, token: string, ip: string, at: Date): Promise<Extract<Caller, { kind: 'key' }> | { refusal: string }> {
  const key = await findKeyMarkingUse(state, secretHash(token), at.toISOString(), new Date(at.getTime() - LAST_USED_PRECISION_MS).toISOString());
  if (!key) return { refusal: 'This API key is not valid. Check it was copied whole, or create a new one.' };
  if (key.revoked_at) return { refusal: 'This API key was revoked. Create a new one with POST /v1/keys.' };
  if (key.disabled_at) return { refusal: 'This API key is disabled. Contact us to restore it, or create a new one.' };
  return { kind: 'key', ip, keyId: key.key_id, accountId: key.account_id, scope: key.scope === 'mcp' ? 'mcp' : 'api' };
}

/** The bearer token of an Authorization header (`Bearer svc_…`), or null when the header is not one. */
export function bearerKey(authorization: string): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  return match && match[1]!.startsWith('svc_') ? match[1]! : null;
}

/** The client's address as `caller()` reads it by default; exported so middleware running before it agrees. */
export function defaultClientIp(c: Context, trustProxy: boolean): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  // In-process requests (app.request in tests) have no socket.
  if (!incoming) return (trustProxy && firstForwardedHop(c.req.header('x-forwarded-for'))) || 'unknown';
  return clientIpOf(incoming, trustProxy);
}

/** `defaultClientIp` for a request Node is serving, before any Hono context exists (cached-reads.ts). */
export function clientIpOf(incoming: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = incoming.headers['x-forwarded-for'];
    const forwarded = firstForwardedHop(Array.isArray(header) ? header.join(',') : header);
    if (forwarded) return forwarded;
  }
  return incoming.socket?.remoteAddress ?? 'unknown';
}

function firstForwardedHop(header: string | undefined): string | undefined {
  return header?.split(',')[0]?.trim() || undefined;
}
