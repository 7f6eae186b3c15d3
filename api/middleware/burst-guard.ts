import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { subjectIdOf, type Subject } from '../usage/meter.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import { isMcpForward } from './key-scope.ts';
import { steps, type RequestStep } from './steps.ts';

export interface BurstGuardOptions {
  /** Requests a caller may make at once: the bucket's size (default 10, spec Limits). */
  capacity?: number;
  /** Requests the bucket regains per minute (default 30, spec Limits). */
  refillPerMinute?: number;
  /** Callers remembered at once (default 100,000); a forgotten caller starts again with a full bucket. */
  maxCallers?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * The burst guard (spec, Limits): a token bucket per caller (an account with all its keys and sessions,
 * a key of no account, or an anonymous IP), on every route. A full bucket allows `capacity` requests at
 * once; it refills at `refillPerMinute`. An empty one answers 429 with `Retry-After`, the seconds until the
 * next request is allowed. Requests the MCP server forwards in process pass: /mcp charges the caller's
 * bucket one request per tool call itself (api/mcp/server.ts), so a JSON-RPC batch costs what its REST calls would.
 * The buckets are this process's own, not the state store's (a write on every request): N instances behind a
 * balancer allow a caller up to N × capacity at once (README, Deployment notes: what to set for N instances).
 *
 * @example
 * app.use('*', caller({ state }));
 * app.use('*', burstGuard()); // 10 at once, then 30 a minute
 * app.use('*', burstGuard({ capacity: 1_000, refillPerMinute: 60_000 })); // a benchmark's client
 */
export function burstGuard(options: BurstGuardOptions = {}): MiddlewareHandler<CallerEnv> {
  return steps([burstStep(options)]);
}

/** The guard's buckets, shared by its step and by cached reads answered before routing (api/middleware/cached-reads.ts). */
export interface BurstBuckets {
  readonly refillPerMinute: number;
  /** Takes one request from the subject's bucket; when it is empty, takes nothing and says how long to wait. */
  take(subjectId: string): { waitSeconds: number } | undefined;
}

/** A token bucket per subject (`ip:…`, `account:…`, `key:…`, as `subjectIdOf` names them). */
export function createBurstBuckets(options: BurstGuardOptions = {}): BurstBuckets {
  const capacity = options.capacity ?? 10;
  const refillPerMinute = options.refillPerMinute ?? 30;
  const perMs = refillPerMinute / 60_000;
  const now = options.now ?? Date.now;
  const buckets = new LRUCache<string, Bucket>({
    max: options.maxCallers ?? 100_000,
    // Once an empty bucket has had time to refill, forgetting it changes nothing.
    ttl: Math.ceil(capacity / perMs),
    ttlAutopurge: false,
    // A bucket in use stays remembered: it is updated in place, so reading it must renew it.
    updateAgeOnGet: true,
  });
  return {
    refillPerMinute,
    take(subjectId) {
      const at = now();
      let bucket = buckets.get(subjectId);
      if (bucket === undefined) {
        bucket = { tokens: capacity, at };
        buckets.set(subjectId, bucket);
      }
      const tokens = Math.min(capacity, bucket.tokens + (at - bucket.at) * perMs);
      if (tokens < 1) return { waitSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
      bucket.tokens = tokens - 1;
      bucket.at = at;
      return undefined;
    },
  };
}

/** `burstGuard()` as a step, for the app's one access middleware (api/middleware/steps.ts says why). */
export function burstStep(options: BurstGuardOptions | BurstBuckets = {}): RequestStep<CallerEnv> {
  const buckets = 'take' in options ? options : createBurstBuckets(options);
  return function checkBurst(c) {
    // Every site page asks GET /v1/auth/session whether its reader is signed in: part of a page view, which the
    // guard does not count (the static site is served before it), so a reader paging quickly is never refused.
    if (isMcpForward(c) || (c.req.method === 'GET' && c.req.path === '/v1/auth/session')) return undefined;
    const { id, countedPer } = subjectIdOf(c.get('caller'));
    const refused = buckets.take(id);
    if (refused === undefined) return undefined;
    const { waitSeconds } = refused;
    c.header('Retry-After', String(waitSeconds));
    return c.json({ detail: burstRefusal(countedPer, waitSeconds, buckets.refillPerMinute) }, 429);
  };
}

/** The sentence a refused request is answered with, on REST and for a refused MCP tool call alike. */
export function burstRefusal(countedPer: Subject['countedPer'], waitSeconds: number, refillPerMinute: number): string {
  const who = countedPer === 'ip' ? 'this network address' : countedPer === 'account' ? 'your account' : 'this API key';
  return `Too many requests at once from ${who}: wait ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}, then keep to about ${refillPerMinute} a minute.`;
}

/**
 * The JSON-RPC error code of an MCP tool call the burst guard refused: in the range JSON-RPC leaves to servers.
 * Its `data` carries the HTTP status the REST call would get and the seconds to wait.
 */
export const BURST_REFUSED_CODE = -32029;
