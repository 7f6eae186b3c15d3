import type { Context, MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';

export interface ResponseCacheOptions {
  /**
   * The cache key for this request, or null to bypass the cache. Everything the reply depends on must be in it,
   * the path included when mounts share a store: keys are the store's, not the mount's.
   */
  keyOf(c: Context): string | null;
  /** Where replies are kept. */
  store: ReplyStore;
}

/**
 * Reply bodies by key, as the bytes sent: a hit is written out as it is, with no encoding, and the bodies sit
 * outside the JS heap, so the collector never copies or scans them.
 */
export type ReplyStore = LRUCache<string, Uint8Array<ArrayBuffer>>;

/** A bounded store of reply bodies: `maxBytes` counts the bytes of the bodies. */
export function createReplyStore(options: { maxEntries?: number; maxBytes?: number } = {}): ReplyStore {
  return new LRUCache<string, Uint8Array<ArrayBuffer>>({
    max: options.maxEntries ?? 4_000,
    maxSize: options.maxBytes ?? 8 * 1024 * 1024,
    sizeCalculation: (body) => Math.max(1, body.byteLength),
  });
}

/** Keys each mount remembers having been asked for once (about 200 KB each). */
const ASKED_ONCE_KEYS = 2_000;

/** A reply being computed, and how many other requests for its key wait for it. */
interface Run {
  waiters: number;
  /** The body, once the run ends with a 200 JSON reply; undefined when it ends otherwise. */
  body: Promise<Uint8Array<ArrayBuffer> | undefined>;
}

/**
 * Replays the body of an earlier 200 JSON reply to a GET with the same key, skipping the work and the
 * serialisation; a reply is kept once its key has been asked for twice.
 * Search traffic repeats itself (default listings, popular words, paging back and forth), and a release never
 * changes once published, so a key made of release id, caller audience, query and clock minute is exact.
 * The read routes mount it through `ReadCache` (cached-reads.ts), which fixes their key.
 *
 * At most one request per key runs the route at a time: others asking meanwhile wait for its reply. Without
 * that, 200 clients asking for the same intelligence page each ran its DuckDB queries at once, and the memory
 * those queries held (hundreds of megabytes) stayed with the process after the load.
 *
 * @example
 * app.use('/v1/tenders', responseCache({ keyOf: (c) => `${c.get('release').id}|${canonicalQuery(c.req.url)}`, store }));
 */
export function responseCache(options: ResponseCacheOptions): MiddlewareHandler {
  const cache = options.store;
  // A reply is kept from the second time its key is asked for. Most distinct queries are asked once (deep
  // pages, one-off filters); keeping each of them cost a copy of the body that only pushed a repeated reply out,
  // and at thousands of such requests a second those copies held tens of megabytes until the collector ran.
  const askedOnce = new LRUCache<string, true>({ max: ASKED_ONCE_KEYS });
  // Entries leave when their run ends, so this holds no more than the requests in progress.
  const running = new Map<string, Run>();
  return async function responseCacheMiddleware(c, next) {
    if (c.req.method !== 'GET') return next();
    const key = options.keyOf(c);
    if (key === null) return next();
    const kept = cache.get(key);
    if (kept !== undefined) return c.body(kept, 200, { 'content-type': 'application/json' });
    const run = running.get(key);
    if (run !== undefined) {
      run.waiters++;
      const shared = await run.body;
      // An error is this request's own to meet: it runs the route itself.
      return shared === undefined ? next() : c.body(shared, 200, { 'content-type': 'application/json' });
    }
    const askedBefore = askedOnce.has(key);
    if (!askedBefore) askedOnce.set(key, true);
    const { promise, resolve } = Promise.withResolvers<Uint8Array<ArrayBuffer> | undefined>();
    const mine: Run = { waiters: 0, body: promise };
    running.set(key, mine);
    let body: Uint8Array<ArrayBuffer> | undefined;
    try {
      await next();
      // Asked for a second time now or while it ran: kept, and handed to those waiting.
      if ((askedBefore || mine.waiters > 0) && c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('application/json')) {
        body = new Uint8Array(await c.res.clone().arrayBuffer());
        cache.set(key, body);
      }
    } finally {
      running.delete(key);
      resolve(body);
    }
  };
}

/** Canonical forms of query strings seen lately (cleared when full): the same few queries arrive again and again. */
const canonicalForms = new Map<string, string>();
const CANONICAL_FORMS_KEPT = 4_096;

/**
 * The query string with its parameters in a fixed order, so `?a=1&b=2` and `?b=2&a=1` share an entry. Works on
 * the raw string (no URL parse: this runs on every cached read): parameters are ordered by name, and repeated
 * names keep their order, which can carry meaning. Two spellings of one value (`a+b`, `a%20b`) stay distinct
 * entries: a cache miss, never a wrong reply.
 */
export function canonicalQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const hash = url.indexOf('#', start);
  const query = url.slice(start + 1, hash === -1 ? undefined : hash);
  if (!query.includes('&')) return query;
  let canonical = canonicalForms.get(query);
  if (canonical === undefined) {
    canonical = sortedByName(query);
    if (canonicalForms.size >= CANONICAL_FORMS_KEPT) canonicalForms.clear();
    canonicalForms.set(query, canonical);
  }
  return canonical;
}

function sortedByName(query: string): string {
  const nameOf = (part: string) => {
    const equals = part.indexOf('=');
    return equals === -1 ? part : part.slice(0, equals);
  };
  // Array sort is stable, so parameters of one name keep their order.
  return query.split('&').filter((part) => part !== '').sort((x, y) => {
    const a = nameOf(x);
    const b = nameOf(y);
    return a < b ? -1 : a > b ? 1 : 0;
  }).join('&');
}
