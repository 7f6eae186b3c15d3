import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';

/**
 * Request-body building blocks shared by every route (spec, Shared input conventions and Errors): a body
 * that cannot be read at all (malformed JSON, malformed base64, an empty document) is 400; a body that
 * reads but does not match the route's schema is 422.
 */

/**
 * `params` of a zod issue that means "malformed input" (400) rather than "does not match the schema" (422).
 * Any schema may use it, e.g. `.refine(isWellFormedId, { message: 'is not a warrant id', params: malformedInputParams })`.
 */
export const malformedInputParams = { malformedInput: true } as const;

/** True for an issue raised with `malformedInputParams`. */
export function isMalformedInputIssue(issue: z.core.$ZodIssue): boolean {
  return issue.code === 'custom' && issue.params?.['malformedInput'] === true;
}

/**
 * The status a body that failed its schema answers: 400 when any issue is malformed input (base64, ids),
 * else 422. The validation hook of every OpenAPIHono uses it for the `json` and `form` targets.
 */
export function invalidBodyStatus(error: z.ZodError): 400 | 422 {
  return error.issues.some(isMalformedInputIssue) ? 400 : 422;
}

/** Why `text` is not base64, as a clause that completes "Invalid body field bytes_b64: …", or null when it is. */
export function base64Problem(text: string): string | null {
  const compact = text.replace(/[\t\n\r ]/g, '');
  if (compact.length === 0) return "is empty; send the document's bytes encoded as base64";
  const stray = /[^A-Za-z0-9+/_\-=\t\n\r ]/.exec(text);
  if (stray) {
    return `is not base64: character ${stray.index + 1} is ${JSON.stringify(stray[0])}; encode the file's bytes with standard base64 (A-Z, a-z, 0-9, + and /, padded with =)`;
  }
  if (/[+/]/.test(compact) && /[-_]/.test(compact)) return 'mixes the standard (+ /) and URL-safe (- _) base64 alphabets; encode the file with one of them';
  const padding = compact.indexOf('=');
  if (padding !== -1 && (!/^={1,2}$/.test(compact.slice(padding)) || compact.length % 4 !== 0)) {
    return 'is not base64: "=" may only pad the end, making the length a multiple of 4; encode the whole file again';
  }
  // Four characters carry three bytes; a single leftover character carries none, so the text was cut.
  if ((padding === -1 ? compact.length : padding) % 4 === 1) return 'is not base64: it ends one character short of a whole byte; check the whole file was encoded';
  return null;
}

/**
 * A document's bytes as base64 (`bytes_b64`): standard or URL-safe alphabet, padding optional, line breaks
 * ignored. Parses to the decoded bytes. Malformed or empty text fails with a malformed-input issue (400).
 *
 * @example
 * const WarrantBody = z.object({ bytes_b64: base64Bytes, filename: z.string().optional() });
 */
export const base64Bytes = z
  .string()
  .check((ctx) => {
    const problem = base64Problem(ctx.value);
    if (problem !== null) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value, params: malformedInputParams });
  })
  .transform((text): Uint8Array => Buffer.from(text.replace(/[\t\n\r ]/g, ''), 'base64'))
  .openapi({ type: 'string', format: 'byte', description: "The document's bytes, base64-encoded." });

/** The body switch of the sandbox (spec, Shared input conventions); routes add it to their JSON body schemas. */
export const sandboxField = z
  .boolean()
  .optional()
  .openapi({ description: '`true` answers the deterministic sandbox fixture of this tool, labelled `sandbox: true`; free and never metered.' });

/** `c.get('sandbox')`: true once the sandbox middleware (api/middleware/sandbox.ts) has seen a sandbox call, false for a real call. */
export interface SandboxEnv {
  Variables: { sandbox: boolean };
}

/** The query switch of the sandbox as every route's query schema takes it. */
const sandboxQuery = z.enum(['true', 'false'], { error: 'must be true or false' }).optional()
  .openapi({ description: 'The sandbox switch, accepted on every route like the `Svc-Sandbox` header. A read is free and never metered, so it changes nothing here.' });

/**
 * A route's query schema: an unknown parameter is refused with 400 naming the ones the route takes, and
 * `sandbox` is accepted on every route as the `Svc-Sandbox` header is (spec, Shared input conventions). A
 * read is free and never metered, so the switch changes nothing there; it is checked and dropped.
 *
 * @example
 * const BuyersQuery = strictQuery({ country: z.enum(['AU', 'NZ']).default('AU') });
 * // ?country=NZ&sandbox=true → { country: 'NZ' }; ?colour=red → 400 "Unknown query parameter colour: this route takes country."
 */
export function strictQuery<T extends z.ZodRawShape>(shape: T) {
  const takes = `this route takes ${Object.keys(shape).join(', ') || 'no parameters'}`;
  return z
    .strictObject({ ...shape, sandbox: sandboxQuery }, { error: (issue) => (issue.code === 'unrecognized_keys' ? takes : undefined) })
    .transform((query): z.output<z.ZodObject<T, z.core.$strict>> => {
      const { sandbox: _switch, ...rest } = query as Record<string, unknown>;
      return rest as z.output<z.ZodObject<T, z.core.$strict>>;
    });
}

/** What a request body holds as JSON. */
export type JsonBody = { kind: 'json'; value: unknown } | { kind: 'empty' } | { kind: 'malformed'; detail: string };

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** True when the request says its body is JSON (`application/json`, `application/*+json`). */
export function hasJsonBody(c: Context): boolean {
  return JSON_MEDIA_TYPE.test(c.req.header('content-type')?.split(';')[0]?.trim() ?? '');
}

const parsedBodies = new WeakMap<object, Promise<JsonBody>>();

/**
 * The request body parsed as JSON, once per request however many middleware ask (the sandbox switch, the
 * malformed-JSON check, the route). Reads the raw bytes, so later readers (the route's validator, the
 * idempotency fingerprint) get the same bytes from Hono's body cache.
 */
export function parseJsonBody(c: Context): Promise<JsonBody> {
  let parsed = parsedBodies.get(c.req);
  if (parsed === undefined) {
    parsed = c.req.arrayBuffer().then(decodeJson);
    parsedBodies.set(c.req, parsed);
  }
  return parsed;
}

function decodeJson(bytes: ArrayBuffer): JsonBody {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'malformed', detail: 'The request body is not UTF-8 text, so it cannot be JSON; send the JSON encoded as UTF-8.' };
  }
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch (error) {
    return { kind: 'malformed', detail: `The request body is not valid JSON (${(error as Error).message}); fix the syntax and send it again.` };
  }
}

/** True when the request says its body is a form (`multipart/form-data` or `application/x-www-form-urlencoded`). */
export function hasFormBody(c: Context): boolean {
  const mediaType = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'multipart/form-data' || mediaType === 'application/x-www-form-urlencoded';
}

const parsedForms = new WeakMap<object, Promise<string | null>>();

/**
 * Parses a form body once per request and says what is wrong with it, or null when it reads. The raw bytes are
 * read first and the parsed form is left in Hono's body cache, so later readers (the sandbox switch, the route's
 * validator, intake, the idempotency fingerprint) get the same form and bytes without parsing again. A form
 * that does not parse (no boundary, a boundary the body never holds, a part cut off) must stop here: Hono's
 * validator awaits a cached failed parse outside its own error handling, which would answer 500.
 */
export function formBodyProblem(c: Context): Promise<string | null> {
  let problem = parsedForms.get(c.req);
  if (problem === undefined) {
    problem = c.req.parseBody({ all: true }).then(
      () => null,
      (error: unknown) => {
        const cause = (error as { cause?: unknown } | null)?.cause;
        const why = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
        return `The request body could not be read as ${c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase()} (${why}); ` +
          'send the form as an HTTP client builds it, with the boundary its Content-Type header names.';
      },
    );
    parsedForms.set(c.req, problem);
  }
  return problem;
}

/**
 * Reads a JSON body for a route that validates by hand rather than through `createRoute`: throws an
 * `HTTPException` the error handler answers as `{detail}`: 400 when the body is not JSON, is empty, or holds
 * malformed input such as bad base64; 422 when it does not match `schema`.
 *
 * @example
 * app.post('/v1/feedback', async (c) => {
 *   const feedback = await readJsonBody(c, FeedbackBody);
 *   return c.json(saveFeedback(feedback), 201);
 * });
 */
export async function readJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  if (!hasJsonBody(c)) throw new HTTPException(400, { message: 'This route takes a JSON body; send it with Content-Type: application/json.' });
  const body = await parseJsonBody(c);
  if (body.kind === 'empty') throw new HTTPException(400, { message: 'The request body is empty; send a JSON object with Content-Type: application/json.' });
  if (body.kind === 'malformed') throw new HTTPException(400, { message: body.detail });
  const result = schema.safeParse(body.value);
  if (result.success) return result.data;
  const status = invalidBodyStatus(result.error);
  const issues = status === 400 ? result.error.issues.filter(isMalformedInputIssue) : result.error.issues;
  throw new HTTPException(status, { message: describeBodyIssues(issues) });
}

/** One sentence per offending field, naming it and what is allowed. */
function describeBodyIssues(issues: readonly z.core.$ZodIssue[]): string {
  const sentences = new Map<string, string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const name of issue.keys) sentences.set(name, `Unknown body field ${name}: remove it.`);
      continue;
    }
    const name = issue.path.map(String).join('.');
    if (sentences.has(name)) continue;
    sentences.set(name, name === '' ? `Invalid request body: ${issue.message}.` : `Invalid body field ${name}: ${issue.message}.`);
  }
  return [...sentences.values()].join(' ');
}

/** A query-string integer: digits only, so `1e2`, `0x10` and an empty value are refused rather than read as numbers. */
export function wholeNumber(description: string, min: number, max?: number) {
  const allowed = { error: max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}` };
  return z
    .string()
    .regex(/^\d{1,15}$/, allowed)
    .transform(Number)
    .pipe(z.number().min(min, allowed).max(max ?? Number.MAX_SAFE_INTEGER, allowed))
    .openapi({ type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }), description });
}
