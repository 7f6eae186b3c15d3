import type { MiddlewareHandler } from 'hono';
import { whileHeld, type ReleaseEnv, type ReleaseStore } from '../release-store.ts';

export interface RequireReleaseOptions {
  store: Pick<ReleaseStore, 'state'>;
  /** Seconds a client is told to wait (`Retry-After`) while no release is loaded. */
  retryAfterSeconds?: number;
}

/**
 * Data routes answer 503 `{detail}` until a release is loaded (spec, Errors: honour `Retry-After`).
 * Otherwise the release is fixed for the whole request: a swap mid-request cannot mix two releases.
 *
 * @example
 * const tenders = new OpenAPIHono<ReleaseEnv>();
 * tenders.use('/v1/tenders/*', requireRelease({ store }));
 * tenders.get('/v1/tenders/strip', (c) => c.json(c.get('release').tenders.strip(store.now())));
 */
export function requireRelease(options: RequireReleaseOptions): MiddlewareHandler<ReleaseEnv> {
  const retryAfter = String(options.retryAfterSeconds ?? 30);
  return async function requireReleaseHandler(c, next) {
    const state = options.store.state();
    if (!state.ready) {
      c.header('Retry-After', retryAfter);
      return c.json({ detail: `${state.detail} Try again later.` }, 503);
    }
    c.set('release', state.release);
    await whileHeld(options.store, state.release, next);
  };
}
