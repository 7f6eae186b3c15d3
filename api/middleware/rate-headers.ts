import type { Context, MiddlewareHandler } from 'hono';
import { StateUnavailableError } from '../state/db.ts';
import type { Meter } from '../usage/meter.ts';
import type { Caller, CallerEnv } from './caller.ts';

export interface RateHeadersOptions {
  meter: Pick<Meter, 'allowance' | 'subjectOf' | 'week' | 'now'>;
  /**
   * The client's address, for replies the caller middleware refused before naming a caller (a bad key):
   * they carry the figures of that address's anonymous allowance, all that is known about the caller.
   */
  clientIp: (c: Context) => string;
}

/**
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every response, errors included
 * (spec, Shared input conventions): the caller's weekly checker allowance, what is left of it after this
 * call, and the seconds until it resets. Mount it first, so it wraps every other middleware and the
 * error handlers. While the state store is unreachable the remainder is unknown and left out; the limit
 * and reset still come from configuration and the clock.
 *
 * @example
 * app.use('*', rateHeaders({ meter, clientIp: (c) => defaultClientIp(c, false) }));
 * app.use('*', caller({ state }));
 * // every reply: RateLimit-Limit: 20, RateLimit-Remaining: 17, RateLimit-Reset: 302400
 */
export function rateHeaders(options: RateHeadersOptions): MiddlewareHandler<CallerEnv> {
  const { meter } = options;
  return async function rateHeadersMiddleware(c, next) {
    await next();
    const caller: Caller = (c.var.caller as Caller | undefined) ?? { kind: 'anonymous', ip: options.clientIp(c) };
    const headers = c.res.headers;
    const secondsToReset = (resetAt: Date) => String(Math.max(0, Math.ceil((resetAt.getTime() - meter.now().getTime()) / 1000)));
    try {
      const allowance = meter.allowance(caller);
      headers.set('RateLimit-Limit', String(allowance.limit));
      headers.set('RateLimit-Remaining', String(allowance.remaining));
      headers.set('RateLimit-Reset', secondsToReset(allowance.resetAt));
    } catch (error) {
      if (!(error instanceof StateUnavailableError)) throw error;
      headers.set('RateLimit-Limit', String(meter.subjectOf(caller).limit));
      headers.set('RateLimit-Reset', secondsToReset(meter.week().resetAt));
    }
  };
}
