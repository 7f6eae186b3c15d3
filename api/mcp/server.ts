import { getConnInfo } from '@hono/node-server/conninfo';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
// The low-level Server, not McpServer: McpServer publishes schemas converted from zod, and the route schemas
// describe URL strings without their descriptions; the published schemas here come from /openapi.json.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodError } from 'zod';
import { BURST_REFUSED_CODE, burstRefusal, type BurstBuckets } from '../middleware/burst-guard.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import { subjectIdOf } from '../usage/meter.ts';
import { ErrorSchema } from '../schemas/tender.ts';
import packageJson from '../../package.json' with { type: 'json' };
import type { McpTool } from '../schemas/mcp-tool.ts';
import { fromDocumentOnce, publishTools, type OpenApiDocument, type PublishedTool, type ReadOpenApiDocument } from '../schemas/published.ts';
import { routeArguments } from './tools.ts';

/** Runs a request through the whole app in process: `(path, init) => app.request(path, init, { mcpForward: true })`. */
export type Forward = (path: string, init: RequestInit) => Response | Promise<Response>;

export interface McpRoutesOptions {
  forward: Forward;
  tools: readonly McpTool[];
  /** The app's OpenAPI document; read once, on the first MCP request, when every route is registered. */
  openApiDocument: ReadOpenApiDocument;
  /** Where a route reply that breaks its own output schema is reported. */
  log?: (error: unknown) => void;
  /**
   * The burst guard's buckets (null when the guard is off). The POST to /mcp took one request from the caller's
   * bucket; each tool call after the first in the same POST takes one more, as its REST call would, since
   * forwarded calls pass the guard.
   */
  burst?: BurstBuckets | null;
}

/**
 * Thrown by a tool call's handler; the SDK answers it as a JSON-RPC error from its `code`, `message` and `data`.
 * Not an McpError, whose message gains an "MCP error -32029:" prefix: this one is the REST sentence, unchanged.
 */
class BurstRefusedError extends Error {
  readonly code = BURST_REFUSED_CODE;
  readonly data: { status: 429; retry_after_seconds: number };
  constructor(detail: string, waitSeconds: number) {
    super(detail);
    this.data = { status: 429, retry_after_seconds: waitSeconds };
  }
}

/** What every tool call in one MCP request carries to the routes. */
interface CallerHeaders {
  authorization: string | undefined;
  clientIp: string;
  sandbox: string | undefined;
}

// Connector keys are `svc_` plus base64url; anything else cannot be a key and must not reach a header.
const CONNECTOR_TOKEN = /^svc_[A-Za-z0-9_-]{1,200}$/;
const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/**
 * Presents a connector URL's token as the request's `Authorization: Bearer` header. Mounted before the caller
 * is resolved, it makes `/mcp/c/{token}` check its token exactly as `/mcp` checks a key: an invalid, revoked or
 * disabled one answers 401 on every method, and the reply's rate headers are the key's. A token that cannot be
 * a key is left for `mcpRoutes` to refuse.
 *
 * @example
 * app.use('/mcp/c/:token', connectorKeyAsAuthorization());
 * app.use('*', caller({ state }));
 * app.route('/', mcpRoutes({ forward, tools, openApiDocument }));
 * // POST /mcp/c/svc_revoked… {"method":"initialize",…} → 401 {"detail":"This API key was revoked. …"}
 */
export function connectorKeyAsAuthorization(): MiddlewareHandler {
  return async function connectorKeyAsAuthorization(c, next) {
    const token = c.req.param('token');
    if (token !== undefined && CONNECTOR_TOKEN.test(token)) c.req.raw.headers.set('authorization', `Bearer ${token}`);
    await next();
  };
}

const JsonRpcMessage = z
  .looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]).optional(), method: z.string().optional() })
  .openapi('JsonRpcMessage', { description: 'A JSON-RPC 2.0 message, or an array of them (MCP Streamable HTTP).' });

function mcpRoute(path: string, summary: string, description: string, params?: z.ZodObject) {
  return createRoute({
    method: 'post',
    path,
    tags: ['MCP'],
    summary,
    description,
    request: {
      ...(params ? { params } : {}),
      body: { content: { 'application/json': { schema: z.union([JsonRpcMessage, z.array(JsonRpcMessage)]) } } },
    },
    responses: {
      200: { description: 'The JSON-RPC reply.', content: { 'application/json': { schema: JsonRpcMessage } } },
      202: { description: 'Notifications only: accepted, nothing to reply.' },
      401: { description: 'The key is not valid, revoked or disabled.', content: { 'application/json': { schema: ErrorSchema } } },
    },
  });
}

const mcpEndpoint = mcpRoute(
  '/mcp',
  'MCP server (Streamable HTTP)',
  'Every read route as an MCP tool. Send the same `Authorization: Bearer svc_…` header as on REST calls, or none to call ' +
    'anonymously. Stateless: each POST is answered on its own, with JSON; there is no event stream to open and no session.',
);

const connectorEndpoint = mcpRoute(
  '/mcp/c/{token}',
  'MCP server for chat connectors that take only a URL',
  'The same server as /mcp, for clients that cannot send headers: the token in the path is an MCP-scoped key, used as ' +
    'the Authorization header. Mint one with POST /v1/mcp/connector.',
  z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' }, description: 'The connector key (`svc_…`).' }) }),
);

/**
 * MCP over Streamable HTTP at `/mcp` and `/mcp/c/{token}` (whose token `connectorKeyAsAuthorization`, mounted
 * before the caller middleware, has made the Authorization header). Each tool call is forwarded in process to
 * the REST route the tool wraps, with the caller's Authorization header (or none), so identity, metering,
 * validation and reply shape are the route's own. A 2xx reply becomes structured content checked against
 * the tool's output schema, plus its JSON text; any other reply becomes a tool error carrying the route's
 * `detail`, except 401, which refuses the whole MCP request with 401 so the client sees its key fail. The
 * MCP reply carries the rate headers of the last route reply, so `RateLimit-Remaining` counts the calls made.
 * Each tool call costs one request of the burst guard, as its REST call does; a call beyond the caller's bucket
 * gets a JSON-RPC error (`BURST_REFUSED_CODE`, the wait in its `data`) and the reply `Retry-After`.
 *
 * Stateless: each POST gets a fresh server and transport, so any instance can answer any request.
 *
 * @example
 * app.use('/mcp/c/:token', connectorKeyAsAuthorization()); // before the caller middleware
 * app.route('/', mcpRoutes({
 *   forward: (path, init) => app.request(path, init, { mcpForward: true }),
 *   tools: mcpTools,
 *   openApiDocument: () => app.getOpenAPI31Document(openApiConfig), // the config /openapi.json is served with
 * }));
 */
export function mcpRoutes(options: McpRoutesOptions): OpenAPIHono<CallerEnv> {
  const log = options.log ?? ((error: unknown) => console.error('MCP tool reply failed its output schema:', error));
  const surface = fromDocumentOnce(options.openApiDocument, (document) => publish(options.tools, document));
  // Shared by every request's Server: without it each builds an Ajv instance with every format of its own, half
  // of what the MCP layer costs a POST (tools/list in process: 0.4 ms of CPU, 0.2 ms with this one).
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  async function serve(c: Context<CallerEnv>): Promise<Response> {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.ParseError, message: 'The body must be a JSON-RPC message in JSON.' } }, 400);
    }
    const caller: CallerHeaders = { authorization: c.req.header('authorization'), clientIp: clientIp(c), sandbox: c.req.header('svc-sandbox') };
    const chargeToolCall = burstCharge(c, options.burst ?? null);
    let refusal: string | undefined;
    // The request's own rate headers were set before any tool ran; the last route reply's figures replace them.
    let rateHeaders: Record<string, string> | undefined;
    const { serverInfo, tools } = await surface();
    const server = new Server(serverInfo, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.values()].map((entry) => entry.listing) }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const entry = tools.get(request.params.name);
      if (!entry) throw new McpError(ErrorCode.InvalidParams, `No tool is named ${request.params.name}; tools/list names every tool.`);
      chargeToolCall();
      const outcome = await callTool(entry.tool, request.params.arguments ?? {}, caller, options.forward, log);
      refusal ??= outcome.keyRefused;
      rateHeaders = outcome.rateHeaders ?? rateHeaders;
      return outcome.result;
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(c.req.raw, { parsedBody: body });
      if (refusal !== undefined) return c.json({ detail: refusal }, 401, { ...rateHeaders, 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      for (const [name, value] of Object.entries(rateHeaders ?? {})) c.header(name, value);
      const waitSeconds = chargeToolCall.longestWaitSeconds();
      if (waitSeconds !== undefined) c.header('Retry-After', String(waitSeconds));
      // Through the context, so headers prepared for the reply (rate headers) reach it.
      return c.newResponse(response.body, response);
    } finally {
      await server.close();
    }
  }

  const app = new OpenAPIHono<CallerEnv>();
  // Declared in /openapi.json for readers, but not validated by it: the MCP transport answers malformed
  // messages itself, in JSON-RPC.
  app.openAPIRegistry.registerPath(mcpEndpoint);
  app.openAPIRegistry.registerPath(connectorEndpoint);
  // Every method: a URL that cannot hold a key is refused before anything else is said about it.
  app.use('/mcp/c/:token', async (c, next) => {
    if (!CONNECTOR_TOKEN.test(c.req.param('token'))) return c.json({ detail: 'This connector URL is not valid. Mint a new one with POST /v1/mcp/connector.' }, 401);
    await next();
  });
  app.post('/mcp', serve);
  app.post('/mcp/c/:token', serve);
  app.on(['GET', 'DELETE'], ['/mcp', '/mcp/c/:token'], (c) =>
    c.json({ detail: 'This MCP server is stateless: POST each JSON-RPC message; there is no event stream to open and no session to end.' }, 405, { Allow: 'POST' }),
  );
  return app;
}

/**
 * Charges the tool calls of one POST to the caller's burst bucket: the first is paid by the POST itself (the guard
 * admitted it), each later one takes a request, and a call the bucket cannot pay for throws a JSON-RPC error of its
 * own, so a batch larger than the bucket runs the calls it can pay for and refuses the rest one by one.
 */
function burstCharge(c: Context<CallerEnv>, buckets: BurstBuckets | null): (() => void) & { longestWaitSeconds(): number | undefined } {
  let paidByPost = true;
  let longestWait: number | undefined;
  const charge = () => {
    if (buckets === null) return;
    if (paidByPost) {
      paidByPost = false;
      return;
    }
    const { id, countedPer } = subjectIdOf(c.get('caller'));
    const refused = buckets.take(id);
    if (refused === undefined) return;
    longestWait = Math.max(longestWait ?? 0, refused.waitSeconds);
    throw new BurstRefusedError(burstRefusal(countedPer, refused.waitSeconds, buckets.refillPerMinute), refused.waitSeconds);
  };
  return Object.assign(charge, { longestWaitSeconds: () => longestWait });
}

interface Published {
  serverInfo: Implementation;
  tools: Map<string, PublishedTool>;
}

function publish(tools: readonly McpTool[], document: OpenApiDocument): Published {
  return {
    serverInfo: { name: packageJson.name, title: document.info.title, version: document.info.version },
    tools: new Map(publishTools(tools, document).map((entry) => [entry.tool.name, entry])),
  };
}

const INSTRUCTIONS =
  'Australian and New Zealand government tenders and grants, contract awards, buyers, suppliers and forward-looking signals, ' +
  'refreshed nightly from about twenty sources. Search with search_tenders, then read one with get_tender using its page_key ' +
  '(get_tender_context adds its buyer and similar work). Search replies carry coverage: an empty result means no match among ' +
  'the sources searched, never that no such tender exists. Links to original portals, supplier names and incumbents appear ' +
  'only for callers with an API key.';

interface ToolOutcome {
  result: CallToolResult;
  /** Set when the route refused the caller's key: the detail to answer the whole MCP request with, as a 401. */
  keyRefused?: string;
  /** The route reply's rate headers, when the route was called: the caller's allowance after the call. */
  rateHeaders?: Record<string, string>;
}

async function callTool(
  tool: McpTool,
  rawArguments: Record<string, unknown>,
  caller: CallerHeaders,
  forward: Forward,
  log: (error: unknown) => void,
): Promise<ToolOutcome> {
  const args = routeArguments(tool.route, rawArguments);
  const checked = tool.input.safeParse(args);
  if (!checked.success) return { result: toolError(describeArguments(checked.error)) };

  const request = tool.toRequest(args);
  const headers = new Headers(request.init.headers);
  headers.set('accept', 'application/json');
  headers.set('x-forwarded-for', caller.clientIp);
  if (caller.authorization !== undefined) headers.set('authorization', caller.authorization);
  if (caller.sandbox !== undefined) headers.set('svc-sandbox', caller.sandbox);
  const response = await forward(request.path, { ...request.init, headers });
  const body: unknown = await response.json().catch(() => undefined);
  const rateHeaders = rateHeadersOf(response);

  if (!response.ok) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    const retryAfter = response.headers.get('retry-after');
    const text = `${typeof detail === 'string' ? detail : `The route answered ${response.status}.`}${retryAfter ? ` Retry after ${retryAfter} seconds.` : ''}`;
    // A presented key that fails refuses the connection; an anonymous caller at a key-only route just needs a key.
    const keyRefused = response.status === 401 && caller.authorization !== undefined;
    return { result: toolError(text), rateHeaders, ...(keyRefused ? { keyRefused: text } : {}) };
  }
  const reply = tool.output.safeParse(body);
  if (!reply.success) {
    log(new Error(`${tool.name}: ${tool.route.method} ${request.path} replied outside its schema: ${reply.error.message}`));
    return { result: toolError('The service answered with a reply that breaks its own schema; the failure is logged. Try again later.'), rateHeaders };
  }
  // The route's reply itself, not the parsed copy: the tool answers exactly what the route answers.
  return { result: { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as Record<string, unknown> }, rateHeaders };
}

function rateHeadersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RATE_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return headers;
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** One sentence per offending argument, as the routes word their own 400s. */
function describeArguments(error: ZodError): string {
  const sentences = new Map<string, string>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const name of issue.keys) sentences.set(name, `Unknown argument ${name}: ${issue.message}.`);
      continue;
    }
    const name = issue.path.map(String).join('.');
    if (!sentences.has(name)) sentences.set(name, name ? `Invalid argument ${name}: ${issue.message}.` : `Invalid arguments: ${issue.message}.`);
  }
  return [...sentences.values()].join(' ');
}

/**
 * The client's address, passed to each tool call as `X-Forwarded-For` so an anonymous call counts against
 * the right IP: as the caller middleware resolved it (a trusted proxy's header included), else the socket's peer.
 */
function clientIp(c: Context<CallerEnv>): string {
  const resolved: Caller | undefined = c.get('caller');
  if (resolved) return resolved.ip;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // In-process requests have no socket.
    return 'unknown';
  }
}
