import type { Context, Env, MiddlewareHandler } from 'hono';

/**
 * One check of a request: it answers the request (returns a Response) or lets it go on (returns nothing), and may
 * set context variables for what follows. A step that reads the state store returns a promise; one that does not
 * returns at once and costs no await.
 */
// Steps are written for narrower envs (CallerEnv and its extensions) and run in one list, as Hono's own
// composition takes handlers of any env.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RequestStep<E extends Env = any> = (c: Context<E>) => Response | undefined | Promise<Response | undefined>;

/** Runs once the reply exists, whichever way it was made: a step's answer, the route's, or an error's. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ReplyStep<E extends Env = any> = (c: Context<E>) => void | Promise<void>;

/**
 * Runs checks in order inside one middleware: the first that answers ends the request with its
 * answer, otherwise the route runs. `after` sees every reply, including a step's answer and the reply to an
 * error a step threw (it runs before the error handler builds that reply, so what it prepares is in it). Checks every request passes through (caller identity, rate headers,
 * burst guard, key scope) are steps rather than middleware of their own because Hono runs each middleware as
 * an async frame of its own: under the Node adapter each cost 3–5 µs of CPU per request, which on a fast
 * cached read was a third of the request (measured with `npm run bench`'s search mix).
 *
 * @example
 * app.use('*', steps([callerStep({ state }), rate.early, burstStep()], { after: rate.fallback }));
 * // a refused key: 401 {detail} with rate headers and no route runs; otherwise c.get('caller') is set for the routes
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function steps(list: readonly RequestStep<any>[], options: { after?: ReplyStep<any> } = {}): MiddlewareHandler<any> {
  const after = options.after ?? (() => undefined);
  return async function stepsMiddleware(c, next) {
    try {
      for (const step of list) {
        let answer = step(c);
        if (answer instanceof Promise) answer = await answer;
        if (answer !== undefined) {
          c.res = answer;
          await after(c);
          return;
        }
      }
    } catch (error) {
      await after(c);
      throw error;
    }
    await next();
    await after(c);
  };
}
