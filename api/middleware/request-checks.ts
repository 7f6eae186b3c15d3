import type { Hook } from '@hono/zod-openapi';
import type { Env, MiddlewareHandler } from 'hono';
import { invalidInputHook } from '../schemas/invalid-input.ts';

/**
 * A validation hook with the app's usual `{detail}` sentence but a fixed status. The spec gives these
 * routes their own: organisation inputs that fail their schema are 400 (an unknown profile field, an
 * unknown invite input), contact and feedback bodies 422, whatever the app's default hook answers.
 *
 * @example
 * const app = new OpenAPIHono<OrgEnv>({ defaultHook: invalidInputAnswers<OrgEnv>(400) });
 */
export function invalidInputAnswers<E extends Env>(status: 400 | 422): Hook<unknown, E, string, Promise<Response | undefined>> {
  const describe = invalidInputHook<E>();
  return async (result, c) => {
    const reply = await describe(result, c);
    return reply && c.json((await reply.json()) as { detail: string }, status);
  };
}

const MEDIA_TYPES = {
  json: { name: 'application/json', accepts: (essence: string) => /^application\/([a-z.-]+\+)?json$/.test(essence) },
  multipart: { name: 'multipart/form-data', accepts: (essence: string) => essence === 'multipart/form-data' },
};

/**
 * Answers 415 with a sentence naming the media type a route reads, when a body comes in another (or
 * without a Content-Type). Put it in a route's `middleware`, which runs before the route's validator,
 * whose own reply is a bare "Unsupported Media Type".
 *
 * @example
 * createRoute({ method: 'post', path: '/v1/contact', middleware: [bodyMediaType('json')] as const, ... });
 */
export function bodyMediaType(kind: keyof typeof MEDIA_TYPES): MiddlewareHandler {
  const { name, accepts } = MEDIA_TYPES[kind];
  return async function bodyMediaType(c, next) {
    const given = c.req.header('content-type');
    const hasBody = Number(c.req.header('content-length') ?? '0') > 0 || c.req.header('transfer-encoding') !== undefined;
    const essence = given?.split(';')[0]!.trim().toLowerCase();
    if (essence === undefined ? hasBody : !accepts(essence)) {
      return c.json({ detail: `This route reads the body as ${name}${essence ? `, not ${essence}` : ''}; send it with the header Content-Type: ${name}.` }, 415);
    }
    await next();
  };
}
