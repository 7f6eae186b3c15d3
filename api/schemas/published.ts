import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from './mcp-tool.ts';

/** The app's generated OpenAPI 3.1 document, as `app.getOpenAPI31Document(…)` returns it. */
export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;

/** Reads the document: `() => app.getOpenAPI31Document(config)`, or the served `/openapi.json` itself. */
export type ReadOpenApiDocument = () => OpenApiDocument | Promise<OpenApiDocument>;

type JsonObject = { [key: string]: unknown };

/**
 * What `build` makes of the document, built on first use (by then every route is registered) and kept;
 * a failed read is tried again on the next use rather than kept.
 */
export function fromDocumentOnce<T>(read: ReadOpenApiDocument, build: (document: OpenApiDocument) => T): () => Promise<T> {
  let built: Promise<T> | undefined;
  return () =>
    (built ??= Promise.resolve()
      .then(read)
      .then(build)
      .catch((error: unknown) => {
        built = undefined;
        throw error;
      }));
}

/** A tool as MCP clients and the discovery documents see it, with the route it wraps. */
export interface PublishedTool {
  tool: McpTool;
  /** The MCP `tools/list` entry. */
  listing: Tool;
  /** The route's OpenAPI tags, lower-cased. */
  tags: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of the document. */
export interface DocumentRoute {
  /** Upper case, as people write it: `GET`. */
  method: string;
  path: string;
  summary?: string;
  description?: string;
  tags: string[];
  /** Query parameters the route refuses to answer without. */
  requiredQuery: string[];
  /**
   * The security schemes that admit a caller (`bearer`, `session`), in document order; empty when a caller
   * without credentials may call it (no requirement, or one that asks for none: `{}`).
   */
  credentials: string[];
}

/** Every operation in the document, in document order. */
export function documentRoutes(document: OpenApiDocument): DocumentRoute[] {
  const routes: DocumentRoute[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []) as { name: string; in: string; required?: boolean }[];
      // An empty list, or no list here or at the top, asks for no credentials; so does an empty requirement among others.
      const security = operation.security ?? document.security ?? [];
      const anonymous = security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
      routes.push({
        method: method.toUpperCase(),
        path,
        ...(operation.summary ? { summary: operation.summary } : {}),
        ...(operation.description ? { description: operation.description } : {}),
        tags: operation.tags ?? [],
        requiredQuery: parameters.filter((parameter) => parameter.in === 'query' && parameter.required).map((parameter) => parameter.name),
        credentials: anonymous ? [] : [...new Set(security.flatMap((requirement) => Object.keys(requirement)))],
      });
    }
  }
  return routes;
}

/**
 * The published form of each tool, taken from its route's entry in the OpenAPI document rather than
 * converted from the zod schemas: the document carries each parameter's description and its JSON type
 * (`limit` is an integer there, while the query schema reads the string a URL carries), which is what an
 * agent needs to call the tool well.
 *
 * @throws when a tool names a route the document does not hold, or a route without a JSON object reply.
 */
export function publishTools(tools: readonly McpTool[], document: OpenApiDocument): PublishedTool[] {
  const names = new Set<string>();
  return tools.map((tool) => {
    if (names.has(tool.name)) throw new Error(`Two MCP tools are named ${tool.name}`);
    names.add(tool.name);
    const where = `MCP tool ${tool.name} wraps ${tool.route.method} ${tool.route.path}`;
    const operation = document.paths?.[tool.route.path]?.[lowerMethod(tool.route.method)] as JsonObject | undefined;
    if (!operation) throw new Error(`${where}, which /openapi.json does not list`);
    const resolved = inlineRefs(operation, document, []) as JsonObject;
    const outputSchema = successSchema(resolved);
    if (outputSchema?.type !== 'object') throw new Error(`${where}, whose success reply is not a JSON object`);
    return {
      tool,
      listing: {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: inputSchemaOf(resolved),
        outputSchema: outputSchema as Tool['outputSchema'] & object,
        // Tools read and write this service's own records only; of the methods, only DELETE removes anything.
        annotations: { readOnlyHint: tool.route.method === 'GET', destructiveHint: tool.route.method === 'DELETE', openWorldHint: false },
      },
      tags: ((operation.tags as string[] | undefined) ?? []).map((tag) => tag.toLowerCase()),
    };
  });
}

function lowerMethod(method: McpTool['route']['method']): Lowercase<McpTool['route']['method']> {
  return method.toLowerCase() as Lowercase<McpTool['route']['method']>;
}

/** Path and query parameters as properties, merged with the properties of a JSON body. */
function inputSchemaOf(operation: JsonObject): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const parameter of (operation.parameters as JsonObject[] | undefined) ?? []) {
    // Headers and cookies are the transport's business, not arguments.
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    // A tool call answers one JSON result; the checkers' Server-Sent Events switch is not for MCP clients.
    if (parameter.in === 'query' && parameter.name === 'stream') continue;
    const name = String(parameter.name);
    const schema = (parameter.schema as JsonObject | undefined) ?? {};
    properties[name] = parameter.description ? { ...schema, description: parameter.description } : schema;
    if (parameter.required) required.push(name);
  }
  const body = ((operation.requestBody as JsonObject | undefined)?.content as Record<string, JsonObject> | undefined)?.['application/json']?.schema as JsonObject | undefined;
  if (body) {
    Object.assign(properties, body.properties);
    required.push(...((body.required as string[] | undefined) ?? []));
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The JSON schema of the first 2xx reply. */
function successSchema(operation: JsonObject): JsonObject | undefined {
  const responses = (operation.responses as Record<string, JsonObject> | undefined) ?? {};
  const status = Object.keys(responses).sort().find((code) => /^2\d\d$/.test(code));
  if (status === undefined) return undefined;
  return ((responses[status]!.content as Record<string, JsonObject> | undefined)?.['application/json']?.schema as JsonObject | undefined);
}

/** A copy with every local `$ref` replaced by what it points at, so each tool schema stands alone. */
function inlineRefs(value: unknown, document: OpenApiDocument, trail: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineRefs(item, document, trail));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as JsonObject).$ref;
  if (typeof ref === 'string') {
    if (trail.includes(ref)) throw new Error(`The OpenAPI schema ${ref} refers to itself; MCP tool schemas must be finite`);
    const { $ref: _, ...siblings } = value as JsonObject;
    const target = inlineRefs(resolvePointer(document, ref), document, [...trail, ref]) as JsonObject;
    return { ...target, ...(inlineRefs(siblings, document, trail) as JsonObject) };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineRefs(item, document, trail)]));
}

function resolvePointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references can be inlined, not ${ref}`);
  let node: unknown = document;
  for (const segment of ref.slice(2).split('/')) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    node = typeof node === 'object' && node !== null ? (node as JsonObject)[key] : undefined;
  }
  if (node === undefined) throw new Error(`The OpenAPI reference ${ref} points at nothing`);
  return node;
}
