import { invalidBodyStatus } from '../schemas/common.ts';
import type { Hook } from '@hono/zod-openapi';
import type { Context, Env, ErrorHandler, NotFoundHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';
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
  /**
   * `defaultHook` of every OpenAPIHono: a query, path, header or cookie parameter that fails its zod schema
   * answers 400 naming it; a body that fails its schema answers 422 naming the field (spec, Errors).
   */
  validationHook: Hook<unknown, E, string, Response | undefined>;
  /** `app.notFound`: unknown paths (and methods a path does not take) answer 404. */
  notFound: NotFoundHandler<E>;
  /**
   * `app.onError`: HTTP exceptions keep their status; an unreachable state store answers 503 with
   * `Retry-After` (the work did not run); a client that hung up mid-request is one notice line (nobody is
   * left to read the reply); anything else answers 500 and is logged.
   */
  onError: ErrorHandler<E>;
}

const TARGET_NAMES: Record<string, string> = { query: 'query parameter', param: 'path parameter', header: 'header', cookie: 'cookie', json: 'body field', form: 'form field' };
/** Request bodies: a body that does not match its schema is 422 (malformed input inside it, such as bad base64, 400); anything else that fails validation is 400. */
const BODY_TARGETS = new Set(['json', 'form']);
const LONGEST_ECHO = 80;

/**
 * Every error the API gives is `{ detail }`, a sentence a person can act on (spec, Errors). This factory
 * returns the three Hono hooks that make it so: request validation, unknown paths and thrown errors.
 *
 * @example
 * const errors = errorReplies({ log: (error) => console.error(error) });
 * const app = new OpenAPIHono({ defaultHook: errors.validationHook });
 * app.notFound(errors.notFound);
 * app.onError(errors.onError);
 * // GET /v1/tenders?limit=0 → 400 {"detail":"Invalid query parameter limit=0: must be a whole number from 1 to 100."}
 * // POST /v1/auth/login {"email":"nobody"} → 422 {"detail":"Invalid body field email: must be an email address such as person@example.com."}
 */
export function errorReplies<E extends Env = Env>(options: ErrorRepliesOptions = {}): ErrorReplies<E> {
  const log = options.log ?? ((error: unknown, c: Context) => console.error(`${c.req.method} ${loggablePath(c.req.path)} failed:`, error));
  const notice = options.notice ?? ((line: string) => console.log(line));
  const stateRetryAfter = options.stateRetryAfterSeconds ?? 30;
  return {
    validationHook: (result, c) => {
      if (result.success) return undefined;
      return c.json({ detail: describeInvalidInput(result.target, result.error, c) }, BODY_TARGETS.has(result.target) ? invalidBodyStatus(result.error) : 400);
    },
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

/** One sentence per offending parameter: its name, the value given and what is allowed. */
function describeInvalidInput(target: string, error: ZodError, c: Context): string {
  const where = TARGET_NAMES[target] ?? target;
  const sentences = new Map<string, string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const name of issue.keys) sentences.set(name, `Unknown ${where} ${name}: ${issue.message}.`);
      continue;
    }
    const name = issue.path.map(String).join('.');
    if (sentences.has(name)) continue;
    const given = target === 'query' ? c.req.queries(name) ?? [] : target === 'param' ? [c.req.param(name) ?? ''] : [];
    if (given.length > 1) sentences.set(name, `The ${where} ${name} is given ${given.length} times; give it once.`);
    else if (given.length === 1) sentences.set(name, `Invalid ${where} ${name}=${echo(given[0]!)}: ${issue.message}.`);
    else sentences.set(name, `Invalid ${where} ${name}: ${issue.message}.`);
  }
  return [...sentences.values()].join(' ');
}

function echo(value: string): string {
  return value.length > LONGEST_ECHO ? `${value.slice(0, LONGEST_ECHO)}…` : value;
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
