import type { MiddlewareHandler } from 'hono';
import type { CallerEnv } from '../accounts/caller.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface SameOriginOptions {
  /** The service's public address (`SVC_PUBLIC_URL`); only its origin matters. */
  publicUrl: string;
}

/**
 * Cross-site request forgery guard. A browser attaches the `svc_session` cookie to requests any site
 * makes, so a state-changing request authenticated by that cookie must come from the service's own
 * origin: its `Origin` header, or without one its `Referer`, must match; otherwise 403. SameSite=Lax
 * already stops most of these; this also covers same-site neighbours and older browsers. Requests with an
 * API key are not cookie-based and pass.
 *
 * @example
 * app.use('*', caller({ state }));
 * app.use('*', sameOrigin({ publicUrl: 'https://tenders.example.com' }));
 * // POST /v1/keys with the cookie and Origin: https://evil.example → 403
 */
export function sameOrigin(options: SameOriginOptions): MiddlewareHandler<CallerEnv> {
  const ownOrigin = new URL(options.publicUrl).origin;
  return async function sameOriginMiddleware(c, next) {
    if (c.get('caller').kind !== 'session' || !STATE_CHANGING.has(c.req.method)) return next();
    if (originOf(c.req.header('origin'), c.req.header('referer')) === ownOrigin) return next();
    return c.json(
      { detail: `A signed-in change must come from ${ownOrigin} itself; this request came from another site or did not say where from. Use an API key for calls from other sites and scripts.` },
      403,
    );
  };
}

/** The request's origin: `Origin` when sent ("null" from a sandboxed or privacy-stripped page counts as unknown), else Referer's. */
function originOf(origin: string | undefined, referer: string | undefined): string | null {
  if (origin !== undefined) return origin === 'null' ? null : origin;
  if (referer === undefined) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}
