import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';

/**
 * What the metered middleware (api/middleware/metered.ts) leaves on a call's context for the code that answers
 * it: the unit held for the call, to settle once the reply is known, or the refusal a caller at its cap gets.
 * Kept below the middleware so the checker machinery that answers a call reads it without importing upwards.
 */

/** A context variable rather than a WeakMap of contexts, as api/middleware/rate-headers.ts explains. */
export const SETTLEMENT = 'meteredSettlement';
export interface Settlement {
  deferred: boolean;
  settle(counts: boolean): Promise<void>;
}
export type SettlementEnv = { Variables: { [SETTLEMENT]: Settlement | undefined; [AT_CAP]: AtCap | undefined } };

/** Set on a call admitted at its cap (`storedResultsFree`): what the 429 says. */
export const AT_CAP = 'meteredAtCap';
export interface AtCap {
  detail: string;
  retryAfterSeconds: number;
}

/**
 * Undefined when this call may do work (its unit is held, or the route is not metered); for a caller at its cap on
 * a `storedResultsFree` route, the 429 `{detail}` with `Retry-After` that the work must be refused with.
 *
 * @example
 * if (stored !== undefined) return c.json(stored, 200); // free
 * const refused = refusedAtCap(c);
 * if (refused) return refused;
 */
export function refusedAtCap(c: Context): Response | undefined {
  const atCap = (c as Context<SettlementEnv>).get(AT_CAP);
  if (atCap === undefined) return undefined;
  c.header('Retry-After', String(atCap.retryAfterSeconds));
  return c.json({ detail: atCap.detail }, 429);
}

/** `refusedAtCap` as what to throw, for code that answers through the error handler (document intake). */
export function throwIfAtCap(c: Context): void {
  const atCap = (c as Context<SettlementEnv>).get(AT_CAP);
  if (atCap === undefined) return;
  c.header('Retry-After', String(atCap.retryAfterSeconds));
  throw new HTTPException(429, { message: atCap.detail });
}

/**
 * Hands the settling of this call's unit to the route, for a reply that is still being made when the
 * middleware chain returns: a `?stream=1` Server-Sent Events reply starts before its result is known. The
 * route calls the function once, when it knows whether the call counts; the first call wins. On a route
 * without the meter (a sandbox reply) it does nothing.
 *
 * @example
 * const settle = settleLater(c);
 * return streamSSE(c, async (stream) => { …; await settle(outcome.ok); });
 */
export function settleLater(c: Context): (counts: boolean) => Promise<void> {
  const settlement = (c as Context<SettlementEnv>).get(SETTLEMENT);
  if (settlement === undefined) return async () => {};
  settlement.deferred = true;
  return async (counts) => await settlement.settle(counts);
}
