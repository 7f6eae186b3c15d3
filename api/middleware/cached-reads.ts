import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReleaseEnv, ReleaseStore } from '../release-store.ts';
import { subjectIdOf } from '../usage/meter.ts';
import type { BurstBuckets } from './burst-guard.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import { bearerKey, clientIpOf, isIdentified, keyCaller } from './caller.ts';
import type { StateDb } from '../../data/state/db.ts';
import { rateFiguresOf, type RateHeadersOptions } from './rate-headers.ts';
import { canonicalQuery, createReplyStore, responseCache, type ReplyStore } from './response-cache.ts';

/**
 * The key of a read route's reply: everything a cached read route's reply may depend on. The release (never
 * changes once published), whether the caller is identified (links, supplier names and evidence URLs are for
 * identified callers only), the clock's minute ("open", "closing within N days") and the path and query.
 * `url` is absolute (Hono's `c.req.url`) or a request target (`/v1/tenders?q=road`); both give the same key.
 */
export function readKey(releaseId: string, identified: boolean, at: Date, url: string): string {
  const minute = Math.floor(at.getTime() / 60_000);
  return `${releaseId}|${identified ? 'identified' : 'anonymous'}|${minute}|${pathOf(url)}?${canonicalQuery(url)}`;
}

function pathOf(url: string): string {
  const start = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  let end = url.length;
  for (const mark of ['?', '#']) {
    const at = url.indexOf(mark, start);
    if (at !== -1 && at < end) end = at;
  }
  return url.slice(start, end);
}

/**
 * The read routes' replies of one app, under one memory budget: one store per route would let the process
 * hold the sum of their limits, while one LRU keeps whatever is asked for most, whichever route it is. 8 MB
 * holds about 650 search pages of 12 KB: the repeats of a busy hour, at a fiftieth of the API's memory goal.
 *
 * @example
 * const cache = new ReadCache({ clock: store.now });
 * app.use('/v1/tenders', requireRelease({ store }), cache.middleware());
 */
export class ReadCache {
  readonly #replies: ReplyStore;
  readonly #clock: () => Date;

  constructor(options: { clock: () => Date; replies?: ReplyStore }) {
    this.#clock = options.clock;
    this.#replies = options.replies ?? createReplyStore();
  }

  /**
   * Keeps and replays a read route's 200 replies, keyed by `readKey`. Only for a route whose reply depends on
   * nothing else, mounted after `requireRelease` and the caller steps.
   */
  middleware(): MiddlewareHandler<ReleaseEnv & CallerEnv> {
    return responseCache({
      keyOf: (c) => {
        const typed = c as Context<ReleaseEnv & CallerEnv>;
        return readKey(typed.get('release').id, isIdentified(typed.get('caller')), this.#clock(), c.req.url);
      },
      store: this.#replies,
    });
  }

  /** The kept reply to a GET of `target` on the release `releaseId` for an anonymous or identified caller, if there is one. */
  keptReply(releaseId: string, identified: boolean, target: string): Uint8Array<ArrayBuffer> | undefined {
    return this.#replies.get(readKey(releaseId, identified, this.#clock(), target));
  }
}

export interface CachedReadsOptions {
  cache: ReadCache;
  /** The state store API keys are looked up in, exactly as `caller()` looks them up. */
  state: StateDb;
  /** The clock keys are marked used by. */
  now: () => Date;
  store: Pick<ReleaseStore, 'state'>;
  meter: RateHeadersOptions['meter'];
  /** The burst guard's buckets, or null when it is off. */
  burst: BurstBuckets | null;
  trustProxy: boolean;
}

/**
 * Answers a repeated read from the read cache before the request reaches Hono: what the access steps,
 * the release check and the route's cache middleware would do for it, without routing, a request context or a
 * Response object (together about half of a cached read's CPU, measured with `npm run bench`'s search mix). It
 * keeps every rule of the full path: the burst guard takes a request from the caller's bucket, the reply carries
 * the caller's rate headers, and it is the very bytes the route kept for this release, audience, minute and
 * query. An API key is looked up as the caller step looks it up (`keyCaller`), so a key answered here is one the
 * full path accepts for /v1 (scope `api`); under a 200-client keyed load, answering repeats here rather than
 * through routing halves what each keyed read allocates. Whatever is not a GET with a kept reply from an
 * anonymous caller or a valid API key returns false and goes the whole way: a refused or connector key (the
 * caller and scope steps answer 401 or 403), a cookie (sessions are the caller step's), an empty bucket (the
 * burst guard answers the 429), no release.
 *
 * @example
 * const answerCachedRead = cachedReads({ cache, store, meter, burst, trustProxy: false });
 * server.on('request', async (req, res) => (await answerCachedRead(req, res)) || honoListener(req, res));
 */
export function cachedReads(options: CachedReadsOptions): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<boolean> {
  return async function answerCachedRead(incoming, outgoing) {
    const target = incoming.url;
    // The raw target is looked up as it came. A target URL parsing would rewrite (dot segments, characters it
    // escapes) finds nothing: replies are kept under targets as Hono parsed them, and parsing a parsed URL
    // changes nothing, so a raw target matches a kept key only when it is already in its parsed form.
    if (incoming.method !== 'GET' || target === undefined || !target.startsWith('/v1/')) return false;
    if (incoming.headers.cookie !== undefined) return false;
    const release = options.store.state();
    if (!release.ready) return false;
    const ip = clientIpOf(incoming, options.trustProxy);
    const authorization = incoming.headers.authorization;
    let caller: Caller = { kind: 'anonymous', ip };
    if (authorization !== undefined) {
      const token = bearerKey(authorization);
      const resolved = token === null ? null : await keyCaller(options.state, token, ip, options.now());
      if (resolved === null || 'refusal' in resolved || resolved.scope !== 'api') return false;
      caller = resolved;
    }
    const body = options.cache.keptReply(release.release.id, isIdentified(caller), target);
    if (body === undefined) return false;
    // An empty bucket gives nothing up, so the burst guard on the full path refuses this request just the same.
    if (options.burst?.take(subjectIdOf(caller).id) !== undefined) return false;
    const figures = await rateFiguresOf(options.meter, caller);
    const headers: Record<string, string> = { 'RateLimit-Limit': figures.limit };
    if (figures.remaining !== undefined) headers['RateLimit-Remaining'] = figures.remaining;
    headers['RateLimit-Reset'] = figures.reset;
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(body.byteLength);
    outgoing.writeHead(200, headers);
    outgoing.end(body);
    return true;
  };
}
