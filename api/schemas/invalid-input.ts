import type { Hook } from '@hono/zod-openapi';
import type { Context, Env } from 'hono';
import type { ZodError } from 'zod';
import { invalidBodyStatus } from './common.ts';

const TARGET_NAMES: Record<string, string> = { query: 'query parameter', param: 'path parameter', header: 'header', cookie: 'cookie', json: 'body field', form: 'form field' };
/** Request bodies: a body that does not match its schema is 422 (malformed input inside it, such as bad base64, 400); anything else that fails validation is 400. */
const BODY_TARGETS = new Set(['json', 'form']);
const LONGEST_ECHO = 80;

/**
 * `defaultHook` of every OpenAPIHono: a query, path, header or cookie parameter that fails its zod schema
 * answers 400 naming it; a body that fails its schema answers 422 naming the field (spec, Errors). A pure
 * function of the validation result, so the routes of every layer (the checkers' own among them) share it;
 * api/middleware/errors.ts answers unknown paths and thrown errors.
 *
 * @example
 * const app = new OpenAPIHono({ defaultHook: invalidInputHook() });
 * // GET /v1/tenders?limit=0 → 400 {"detail":"Invalid query parameter limit=0: must be a whole number from 1 to 100."}
 * // POST /v1/auth/login {"email":"nobody"} → 422 {"detail":"Invalid body field email: must be an email address such as person@example.com."}
 */
export function invalidInputHook<E extends Env = Env>(): Hook<unknown, E, string, Response | undefined> {
  return (result, c) => {
    if (result.success) return undefined;
    return c.json({ detail: describeInvalidInput(result.target, result.error, c) }, BODY_TARGETS.has(result.target) ? invalidBodyStatus(result.error) : 400);
  };
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
