import { invalidateRateHeaders, prepareRateHeaders } from './rate-headers.ts';
import type { Context, MiddlewareHandler } from 'hono';
import { StateUnavailableError } from '../../data/state/db.ts';
import { WEEK_TIME_ZONE, type Allowance, type Meter } from '../usage/meter.ts';
import { AT_CAP, SETTLEMENT, type AtCap, type Settlement, type SettlementEnv } from '../usage/metered-call.ts';
import type { CallerEnv } from '../accounts/caller.ts';

export interface MeteredOptions {
  meter: Meter;
  /**
   * Whether a finished call uses its unit. Default: a 2xx reply does; errors, refusals and failures do not.
   * A route whose successful replies do not all count reads the reply here (source-overlap counts only
   * `outcome: assessed`); clone it before reading the body.
   */
  countIf?: (response: Response) => boolean | Promise<boolean>;
  /** Where a unit that could not be settled is reported (the reply already stands; the unit frees itself within the hour). */
  log?: (error: unknown, c: Context) => void;
  /**
   * For a route that answers identical bytes from a stored result (free, spec: Content-hash cache): a caller at
   * its cap still reaches the route, which answers a stored result and asks `refusedAtCap(c)` before any work
   * (reading a URL, running an analysis); that answers the 429 the meter would have. Default false: 429 at once.
   */
  storedResultsFree?: boolean;
}

/**
 * The one way a checker route is metered (spec, Limits): one unit per call against the caller's weekly
 * allowance. The unit is reserved before the work runs and committed or released after it, so concurrent
 * calls never overspend. Used up: 429 with a sentence a person can act on and `Retry-After` (seconds to the
 * weekly reset); the work does not run (on a `storedResultsFree` route the caller still gets a stored result for
 * identical bytes, free, and the route refuses any work with the same 429). Meter unreachable: the `StateUnavailableError` reaches the error
 * handler, which answers 503 with `Retry-After`; the work does not run either. Sandbox calls are answered
 * by the sandbox middleware before this runs, so they are never counted.
 *
 * @example
 * const overlapRoute = createRoute({
 *   method: 'post',
 *   path: '/v1/overlap',
 *   middleware: [metered({ meter, countIf: async (res) => ((await res.clone().json()) as { outcome?: string }).outcome === 'assessed' })] as const,
 *   // request, responses …
 * });
 */
export function metered(options: MeteredOptions): MiddlewareHandler<CallerEnv> {
  const { meter } = options;
  const countIf = options.countIf ?? ((response: Response) => response.ok);
  const log = options.log ?? ((error: unknown, c: Context) => console.error(`${c.req.method} ${c.req.path}: usage unit not settled:`, error));
  return async function meteredMiddleware(c, next) {
    const outcome = await meter.reserve(c.get('caller'));
    if (!outcome.granted) {
      const now = meter.now();
      const atCap: AtCap = {
        detail: exhaustedDetail(outcome.allowance, now, meter.caps.identified),
        retryAfterSeconds: Math.max(1, Math.ceil((outcome.allowance.resetAt.getTime() - now.getTime()) / 1000)),
      };
      // Nothing is reserved, so nothing is settled: the route answers a stored result or this refusal.
      if (options.storedResultsFree === true) {
        (c as Context as Context<SettlementEnv>).set(AT_CAP, atCap);
        return next();
      }
      c.header('Retry-After', String(atCap.retryAfterSeconds));
      return c.json({ detail: atCap.detail }, 429);
    }
    // The reservation is part of this call's figures: refresh the prepared rate headers before the reply is built.
    await prepareRateHeaders(c, meter, c.get('caller'));
    let settled = false;
    const settlement: Settlement = {
      deferred: false,
      async settle(counts) {
        if (settled) return;
        settled = true;
        try {
          if (counts) await meter.commit(outcome.reservation);
          else {
            await meter.release(outcome.reservation);
            // The reply already says the unit was spent; the outer rate-header middleware corrects it.
            invalidateRateHeaders(c);
          }
        } catch (error) {
          if (!(error instanceof StateUnavailableError)) throw error;
          log(error, c);
        }
      },
    };
    (c as Context as Context<SettlementEnv>).set(SETTLEMENT, settlement);
    let counts = false;
    try {
      await next();
      counts = c.error === undefined && (await countIf(c.res));
    } finally {
      if (!settlement.deferred || c.error !== undefined) await settlement.settle(counts);
    }
  };
}

const resetFormat = new Intl.DateTimeFormat('en-AU', { timeZone: WEEK_TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long' });

/** What a person reads on a 429: whose allowance ran out, when it comes back, and what to do meanwhile. */
function exhaustedDetail(allowance: Allowance, now: Date, identifiedCap: number): string {
  const reset = `They come back on ${resetFormat.format(allowance.resetAt)} at 00:00 Sydney time, in ${untilReset(allowance.resetAt.getTime() - now.getTime())}.`;
  const sandbox = 'Sandbox calls (header Svc-Sandbox: true) stay free meanwhile.';
  switch (allowance.countedPer) {
    case 'ip':
      return `This network address has used its ${allowance.limit} free checks this week, shared by everyone on it. ${reset} Sign in and create an API key for ${identifiedCap} checks a week of your own. ${sandbox}`;
    case 'account':
      return `Your account has used its ${allowance.limit} checks this week, across all its keys. ${reset} ${sandbox}`;
    case 'key':
      return `This API key has used its ${allowance.limit} checks this week. ${reset} ${sandbox}`;
  }
}

function untilReset(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  const days = Math.floor(hours / 24);
  const extraHours = hours % 24;
  return `${days} days${extraHours === 0 ? '' : ` and ${extraHours} hour${extraHours === 1 ? '' : 's'}`}`;
}
