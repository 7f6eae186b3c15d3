import type { Context, MiddlewareHandler, Next } from 'hono';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs `chain` only for requests that can change something (POST, PUT, PATCH, DELETE); reads go straight
 * on. Same-origin checks, body limits, JSON checks and idempotency never apply to a read, and each
 * middleware hop costs every request a few microseconds, which at search rates is a large share.
 *
 * @example
 * app.use('*', writesOnly([sameOrigin({ publicUrl }), bodyLimit(), idempotency({ state })]));
 */
// The chain mixes middleware typed for narrower envs (CallerEnv and its extensions); Hono's own composition
// takes handlers of any env the same way.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMiddleware = MiddlewareHandler<any>;

export function writesOnly(chain: AnyMiddleware[]): AnyMiddleware {
  return async function writesOnlyMiddleware(c: Context, next: Next) {
    if (READ_METHODS.has(c.req.method)) return next();
    const run = async (index: number): Promise<void> => {
      if (index === chain.length) return next();
      const result = await chain[index]!(c, () => run(index + 1));
      // A middleware that answers (a 403, 413, 422 or a replay) returns its Response: make it the reply.
      if (result instanceof Response) c.res = result;
    };
    await run(0);
  };
}
