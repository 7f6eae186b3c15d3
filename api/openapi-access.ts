import type { OpenAPIHono } from '@hono/zod-openapi';

/** The OpenAPI 3.1 document the app generates from its routes. */
type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type JsonObject = { [key: string]: unknown };

const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const integer = { type: 'integer' };
const RATE_HEADERS: Record<string, JsonObject> = {
  'RateLimit-Limit': { description: 'The caller\'s weekly allowance of metered calls.', schema: integer },
  'RateLimit-Remaining': { description: 'What is left of it after this call; absent while the usage store is unreachable.', schema: integer },
  'RateLimit-Reset': { description: 'Seconds until the allowance resets (Monday 00:00 Australia/Sydney).', schema: integer },
};
const RETRY_AFTER: JsonObject = { description: 'Seconds to wait before trying again.', schema: integer };
const ERROR_SCHEMA: JsonObject = {
  type: 'object',
  properties: { detail: { type: 'string', description: 'A sentence a person can act on.' } },
  required: ['detail'],
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateHeaderRefs = () => Object.fromEntries(Object.keys(RATE_HEADERS).map((name) => [name, headerRef(name)]));
const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * What every route of the API may answer whatever its own responses say, declared in the document: the access
 * steps run before every route (api/app.ts), so any request can meet a refused key (401) or the burst guard
 * or weekly cap (429), and every reply carries the rate headers (spec, Shared input conventions; Authentication
 * 3; Errors). Adds the headers to every response of every operation (and `Retry-After` to every 429), and the
 * 401 and 429 responses where a route does not declare its own. Changes the document it is given and returns it.
 *
 * @example
 * app.get('/openapi.json', (c) => c.json(declareAccessReplies(app.getOpenAPI31Document(config))));
 */
export function declareAccessReplies(document: OpenApiDocument): OpenApiDocument {
  const components = (document.components ??= {}) as JsonObject;
  components.headers = { ...(components.headers as JsonObject | undefined), ...RATE_HEADERS, 'Retry-After': RETRY_AFTER };
  const schemas = (components.schemas ??= {}) as JsonObject;
  schemas.Error ??= ERROR_SCHEMA;
  components.responses = {
    ...(components.responses as JsonObject | undefined),
    RefusedKey: {
      description: 'A presented API key is invalid, revoked or disabled (never answered with the anonymous allowance instead), or a connector key was used outside /mcp.',
      headers: rateHeaderRefs(),
      content: errorContent,
    },
    TooManyRequests: {
      description: 'Too many requests at once (the burst guard: `Retry-After` says when to retry), or the weekly allowance is used up (`RateLimit-Reset` says when it resets).',
      headers: { 'Retry-After': headerRef('Retry-After'), ...rateHeaderRefs() },
      content: errorContent,
    },
  };
  for (const item of Object.values(document.paths ?? {}) as JsonObject[]) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as JsonObject | undefined;
      if (!operation) continue;
      const responses = (operation.responses ??= {}) as Record<string, JsonObject>;
      for (const [status, response] of Object.entries(responses)) {
        if ('$ref' in response) continue;
        // Any 429 may be the burst guard's, which says when to retry in Retry-After.
        const retry = status === '429' ? { 'Retry-After': headerRef('Retry-After') } : {};
        response.headers = { ...retry, ...rateHeaderRefs(), ...(response.headers as JsonObject | undefined) };
      }
      responses['401'] ??= { $ref: '#/components/responses/RefusedKey' };
      responses['429'] ??= { $ref: '#/components/responses/TooManyRequests' };
    }
  }
  return document;
}
