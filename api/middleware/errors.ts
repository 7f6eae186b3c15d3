import type { Context, Env, ErrorHandler, NotFoundHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { StateUnavailableError } from '../../data/state/db.ts';

export interface ErrorRepliesOptions {
  /** Where unexpected exceptions are reported; the caller only learns that something failed. */
  log?: (error: unknown, c: Context) => void;
  /** Where one-line notices go: a client that hung up before its request arrived in full (default stdout). */
  notice?: (line: string) => void;
  /** Seconds a client is told to wait (`Retry-After`) while the state store is unreachable (default 30). */
  stateRetryAfterSeconds?: number;
}

export interface ErrorReplies<E extends Env> {
  /** `app.notFound`: unknown paths (and methods a path does not take) answer 404. */
  notFound: NotFoundHandler<E>;
  /**
   * `app.onError`: HTTP exceptions keep their status; an unreachable state store answers 503 with
   * `Retry-After` (the work did not run); a client that hung up mid-request is one notice line (nobody is
   * left to read the reply); anything else answers 500 and is logged.
   */
  onError: ErrorHandler<E>;
}

/**
 * Every error the API gives is `{ detail }`, a sentence a person can act on (spec, Errors). This factory
 * returns the Hono hooks for unknown paths and thrown errors; request validation is `invalidInputHook`
 * (api/schemas/invalid-input.ts), which routes below the middleware use too.
 *
 * @example
 * const errors = errorReplies({ log: (error) => console.error(error) });
 * const app = new OpenAPIHono({ defaultHook: invalidInputHook() });
 * app.notFound(errors.notFound);
 * app.onError(errors.onError);
 * // GET /nowhere → 404 {"detail":"Nothing is served at GET /nowhere; GET /openapi.json lists every route."}
 */
export function errorReplies<E extends Env = Env>(options: ErrorRepliesOptions = {}): ErrorReplies<E> {
  const log = options.log ?? ((error: unknown, c: Context) => console.error(`${c.req.method} ${loggablePath(c.req.path)} failed:`, error));
  const notice = options.notice ?? ((line: string) => console.log(line));
  const stateRetryAfter = options.stateRetryAfterSeconds ?? 30;
  return {
    notFound: (c) => c.json({ detail: `Nothing is served at ${c.req.method} ${c.req.path}; GET /openapi.json lists every route.` }, 404),
    onError: (error, c) => {
      if (error instanceof HTTPException) {
        const status = error.status as ContentfulStatusCode;
        return c.json({ detail: error.message || `The request failed with status ${status}.` }, status);
      }
      if (error instanceof StateUnavailableError) {
        log(error, c);
        c.header('Retry-After', String(stateRetryAfter));
        return c.json({ detail: `Our account and usage store is unreachable just now, so this call was not run. Try again in ${stateRetryAfter} seconds.` }, 503);
      }
      if (clientHungUp(error, c)) {
        notice(`${c.req.method} ${loggablePath(c.req.path)}: the client closed the connection before its request arrived in full; nothing was answered.`);
        return c.json({ detail: 'The request was cut off before it arrived in full. Send it again.' }, 400);
      }
      log(error, c);
      return c.json({ detail: 'The server failed to answer this request; the failure is logged. Try again shortly.' }, 500);
    },
  };
}

/** The error a request body read throws when its client closed the connection mid-body (Node's `aborted`, ECONNRESET). */
function clientHungUp(error: unknown, c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.readableAborted === true && (error as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET';
}

/** Path segments that are secrets: the connector key, invitation and watch stop-link tokens. */
const SECRET_SEGMENT = /(\/mcp\/c|\/invites|\/watch\/stop)\/[^/]+/g;

/**
 * The request path as a log line may show it: secret segments replaced by `…`. The route pattern cannot serve,
 * since a failure inside middleware reports the middleware's pattern (`/*`), not the route's.
 */
export function loggablePath(path: string): string {
  return path.replace(SECRET_SEGMENT, '$1/…');
}
