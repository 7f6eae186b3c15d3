import type { Context } from 'hono';
import type { ServerResponse } from 'node:http';
import { StateUnavailableError } from '../../data/state/db.ts';
import type { Meter } from '../usage/meter.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import type { ReplyStep, RequestStep } from './steps.ts';

export interface RateHeadersOptions {
  meter: Pick<Meter, 'allowance' | 'subjectOf' | 'week' | 'now'>;
  /**
   * The client's address, for replies the caller middleware refused before naming a caller (a bad key):
   * they carry the figures of that address's anonymous allowance, all that is known about the caller.
   */
  clientIp: (c: Context) => string;
}

/**
 * Marks a context whose rate headers are already in its prepared headers, so the finished reply needs no change.
 * A context variable rather than a WeakSet of contexts: every request would otherwise add a weak entry the
 * collector has to process.
 */
const PREPARED = 'rateHeadersPrepared';
type PreparedEnv = { Variables: { [PREPARED]: boolean } };
const markPrepared = (c: Context, prepared: boolean) => (c as Context<PreparedEnv>).set(PREPARED, prepared);
const isPrepared = (c: Context) => (c as Context<PreparedEnv>).get(PREPARED) === true;

/**
 * Puts the caller's rate headers into the context's prepared headers (`c.header`), before the reply is
 * built, so they travel with whatever reply the route makes. Called once the caller is known, and again by
 * the meter after it reserves a unit so `RateLimit-Remaining` counts this call.
 */
export async function prepareRateHeaders(c: Context, meter: RateHeadersOptions['meter'], caller: Caller): Promise<void> {
  setReplyHeaders(c, await rateFiguresOf(meter, caller));
  markPrepared(c, true);
}

/**
 * Served by the Node adapter, the headers go on Node's own response (`setHeader`), which `writeHead` merges
 * in: the reply keeps its plain header object and the adapter's fast path, where a `Headers` object would
 * cost every reply a conversion (measured: about a third of search throughput). In process (tests, MCP
 * forwards) they go through Hono.
 */
function setReplyHeaders(c: Context, figures: RateFigures): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  const set: (name: string, value: string) => unknown = outgoing && !outgoing.headersSent
    ? (name, value) => outgoing.setHeader(name, value)
    : c.finalized ? (name, value) => c.res.headers.set(name, value) : (name, value) => c.header(name, value);
  set('RateLimit-Limit', figures.limit);
  if (figures.remaining !== undefined) set('RateLimit-Remaining', figures.remaining);
  set('RateLimit-Reset', figures.reset);
}

/** Marks a context whose prepared figures went stale after its reply was built (a unit released after the work). */
export function invalidateRateHeaders(c: Context): void {
  markPrepared(c, false);
}

/** The three header values; `remaining` is unknown while the state store is unreachable. */
export interface RateFigures {
  limit: string;
  remaining: string | undefined;
  reset: string;
}

/** The caller's rate header values now: also written by cached reads answered before routing (cached-reads.ts). */
export async function rateFiguresOf(meter: RateHeadersOptions['meter'], caller: Caller): Promise<RateFigures> {
  const secondsToReset = (resetAt: Date) => String(Math.max(0, Math.ceil((resetAt.getTime() - meter.now().getTime()) / 1000)));
  try {
    const allowance = await meter.allowance(caller);
    return { limit: String(allowance.limit), remaining: String(allowance.remaining), reset: secondsToReset(allowance.resetAt) };
  } catch (error) {
    if (!(error instanceof StateUnavailableError)) throw error;
    return { limit: String(meter.subjectOf(caller).limit), remaining: undefined, reset: secondsToReset(meter.week().resetAt) };
  }
}

/**
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` on every response, errors included
 * (spec, Shared input conventions): the caller's weekly checker allowance, what is left of it after this
 * call, and the seconds until it resets. While the state store is unreachable the remainder is unknown
 * and left out; the limit and reset still come from configuration and the clock.
 *
 * Two parts, both run by the app's one access middleware (api/middleware/steps.ts): `early`, a step right after
 * the caller's, sets the headers before the route builds its reply (headers set on a finished reply would cost
 * every request a full Response object on the Node server), except on POSTs, where a metered route's reservation
 * sets them; `fallback`, its `after` hook, adds them to the replies made before the caller was known (a refused
 * key, an unreachable state store), to POSTs no reservation prepared, and to replies whose figures changed after
 * the reply was built.
 *
 * @example
 * const rate = rateHeaders({ meter, clientIp: (c) => defaultClientIp(c, false) });
 * app.use('*', steps([callerStep({ state }), rate.early], { after: rate.fallback }));
 * // every reply: RateLimit-Limit: 20, RateLimit-Remaining: 17, RateLimit-Reset: 302400
 */
export function rateHeaders(options: RateHeadersOptions): { early: RequestStep<CallerEnv>; fallback: ReplyStep<CallerEnv> } {
  const { meter } = options;
  return {
    early: async function rateHeadersEarly(c) {
      // Metered routes are POSTs, and a reservation prepares the headers from the figures it writes: read here too,
      // they would cost every metered call a statement for nothing. Any other POST gets them in `fallback`, which on
      // the Node server still sets them on the response before it is written.
      if (c.req.method === 'POST') return undefined;
      await prepareRateHeaders(c, meter, c.get('caller'));
      return undefined;
    },
    fallback: async function rateHeadersFallback(c) {
      if (isPrepared(c)) return;
      const caller: Caller = (c.var.caller as Caller | undefined) ?? { kind: 'anonymous', ip: options.clientIp(c) };
      setReplyHeaders(c, await rateFiguresOf(meter, caller));
    },
  };
}
