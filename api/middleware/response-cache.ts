import type { Context, MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';

export interface ResponseCacheOptions {
  /** The cache key for this request, or null to bypass the cache. Everything the reply depends on must be in it. */
  keyOf(c: Context): string | null;
  /** Most entries held (default 2,000). */
  maxEntries?: number;
  /** Most bytes of reply bodies held (default 32 MB). */
  maxBytes?: number;
}

/**
 * Replays the body of an earlier 200 JSON reply to a GET with the same key, skipping the work and the serialisation.
 * Search traffic repeats itself (default listings, popular words, paging back and forth), and a release never
 * changes once published, so a key made of release id, caller audience, query and clock minute is exact.
 *
 * @example
 * app.use('/v1/tenders', responseCache({ keyOf: (c) => `${c.get('release').id}|${new URL(c.req.url).search}` }));
 */
export function responseCache(options: ResponseCacheOptions): MiddlewareHandler {
  const cache = new LRUCache<string, string>({
    max: options.maxEntries ?? 2_000,
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    sizeCalculation: (body) => Math.max(1, body.length),
  });
  return async function responseCacheMiddleware(c, next) {
    if (c.req.method !== 'GET') return next();
    const key = options.keyOf(c);
    if (key === null) return next();
    const body = cache.get(key);
    if (body !== undefined) return c.body(body, 200, { 'content-type': 'application/json' });
    await next();
    if (c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('application/json')) {
      cache.set(key, await c.res.clone().text());
    }
  };
}

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
