import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { formBodyProblem, hasFormBody, hasJsonBody, parseJsonBody } from '../schemas/common.ts';

/** Documents up to 25 MB (spec, Limits), counted in binary megabytes. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

export interface BodyLimitOptions {
  /** Largest request body accepted, in bytes (default `MAX_BODY_BYTES`, 25 MB). */
  maxBytes?: number;
  /**
   * Paths whose bodies may be larger, by exact path: the document checkers, whose 25 MB documents arrive as
   * base64 (a third larger) or several to a request.
   */
  largerFor?: Readonly<Record<string, number>>;
}

/**
 * Answers 413 `{detail}` to a request body over the limit before anything reads it: a declared
 * `Content-Length` over the limit is refused at once, without reading a byte; a chunked body is counted as
 * it streams in and refused the moment it passes the limit. Mount it first, so no later middleware
 * (idempotency fingerprint, sandbox switch, JSON check) buffers an oversized body.
 *
 * @example
 * app.use('*', bodyLimit());
 * // POST /v1/extract with a 30 MB body → 413 {"detail":"The request body is larger than 25 MB (26214400 bytes); …"}
 */
export function bodyLimit(options: BodyLimitOptions = {}): MiddlewareHandler {
  const limiter = (maxBytes: number) => {
    const tooLarge = (c: Context) =>
      c.json({ detail: `The request body is larger than ${describeSize(maxBytes)} (${maxBytes} bytes); send a smaller document, or split it into several.` }, 413);
    return { maxBytes, tooLarge, countStreamedBody: honoBodyLimit({ maxSize: maxBytes, onError: tooLarge }) };
  };
  const standard = limiter(options.maxBytes ?? MAX_BODY_BYTES);
  const larger = new Map(Object.entries(options.largerFor ?? {}).map(([path, maxBytes]) => [path, limiter(maxBytes)]));
  return async function bodyLimit(c, next) {
    // Reads carry no body; skipping them also avoids building the full Request object Hono's limit inspects.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const { maxBytes, tooLarge, countStreamedBody } = larger.get(c.req.path) ?? standard;
    // Hono's limit trusts Content-Length only without Transfer-Encoding; a declared size over the limit is refused either way.
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > maxBytes) return tooLarge(c);
    return countStreamedBody(c, next);
  };
}

/**
 * A route's own, tighter or worded, size limit, as Hono's `bodyLimit` with `maxSize` and `onError`, that also
 * holds once an earlier middleware has read the body (the form check, the idempotency fingerprint): the
 * stream is then gone, already counted by the app-wide `bodyLimit`, and the declared size is all left to judge.
 *
 * @example
 * createRoute({ …, middleware: [routeBodyLimit({ maxSize: 25 * 1024 * 1024, onError: (c) => c.json({ detail: 'Too large.' }, 413) })] })
 */
export function routeBodyLimit(options: { maxSize: number; onError: (c: Context) => Response | Promise<Response> }): MiddlewareHandler {
  const countStreamedBody = honoBodyLimit(options);
  return async function routeBodyLimit(c, next) {
    if (!c.req.raw.bodyUsed) return countStreamedBody(c, next);
    if (Number(c.req.header('content-length') ?? '0') > options.maxSize) return options.onError(c);
    return next();
  };
}

/**
 * Answers 400 `{detail}` naming the problem when a body declared as JSON is not JSON (a syntax error with
 * its position, or text that is not UTF-8), so no route or middleware sees a half-read body. An empty body
 * passes: routes without a body ignore it and routes with one answer their own 400. The parsed value is
 * kept for the rest of the request (see `parseJsonBody`).
 *
 * `exceptPrefixes` leaves paths that answer malformed bodies in their own protocol alone (MCP's JSON-RPC
 * parse error).
 *
 * @example
 * app.use('*', bodyLimit(), wellFormedJson({ exceptPrefixes: ['/mcp'] }));
 * // POST /v1/feedback with {"verdict": } → 400 {"detail":"The request body is not valid JSON (Unexpected token '}' … at position 12 …); fix the syntax and send it again."}
 */
export function wellFormedJson(options: { exceptPrefixes?: string[] } = {}): MiddlewareHandler {
  const exempt = options.exceptPrefixes ?? [];
  return async function wellFormedJson(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !hasJsonBody(c)) return next();
    if (exempt.some((prefix) => c.req.path === prefix || c.req.path.startsWith(`${prefix}/`))) return next();
    const body = await parseJsonBody(c);
    if (body.kind === 'malformed') return c.json({ detail: body.detail }, 400);
    return next();
  };
}

/**
 * Answers 400 `{detail}` when a body declared as a form (`multipart/form-data`, `application/x-www-form-urlencoded`)
 * does not parse: no boundary, a boundary the body never holds, a part cut off. Every route that reads forms
 * (the checkers, bid files, library documents) then sees only forms that read; the parsed form is kept for the
 * rest of the request (see `formBodyProblem`).
 *
 * @example
 * app.use('*', bodyLimit(), wellFormedJson(), wellFormedForm());
 * // POST /v1/warrants, Content-Type: multipart/form-data, body "x" → 400 {"detail":"The request body could not be read as multipart/form-data (missing boundary in content-type header); …"}
 */
export function wellFormedForm(): MiddlewareHandler {
  return async function wellFormedForm(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || !hasFormBody(c)) return next();
    const problem = await formBodyProblem(c);
    if (problem !== null) return c.json({ detail: problem }, 400);
    return next();
  };
}

function describeSize(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  if (megabytes >= 1) return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
