import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { documentRoutes, fromDocumentOnce, publishTools, type DocumentRoute, type OpenApiDocument, type PublishedTool, type ReadOpenApiDocument } from '../schemas/published.ts';
import type { McpTool } from '../schemas/mcp-tool.ts';
import { BURST_REFUSED_CODE } from '../middleware/burst-guard.ts';
import { WEEK_RULE, type WeeklyCaps } from '../usage/meter.ts';
import { CHECKER_TAG } from '../checkers/define-checker.ts';
import { WARRANT_PATH } from '../checkers/warrants/paths.ts';

export interface DiscoveryRoutesOptions {
  /** The app's OpenAPI document; read once, on the first request, when every route is registered. */
  openApiDocument: ReadOpenApiDocument;
  /** The MCP tool registry. */
  tools: readonly McpTool[];
  /** The weekly allowances of metered calls in force. */
  caps: WeeklyCaps;
  /** The tools that answer sandbox calls with a fixture (the sandbox registry's list). */
  sandboxFixtures: () => { tool: string; summary: string }[];
  /** Where clients reach the service (`SVC_PUBLIC_URL`); every link in the documents starts with it. */
  publicUrl: string;
  /** What the checkers that differ from the rest say about themselves (their descriptors' `agentNote`), in order. */
  checkerNotes: readonly string[];
}

const SkillSchema = z.object({
  id: z.string().openapi({ description: 'The MCP tool name.' }),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  inputModes: z.array(z.string()),
  outputModes: z.array(z.string()),
});

const AgentCardSchema = z
  .object({
    protocolVersion: z.string().openapi({ description: 'The A2A agent-card format version this card follows.' }),
    name: z.string(),
    description: z.string(),
    url: z.url().openapi({ description: 'The MCP endpoint (Streamable HTTP).' }),
    version: z.string().openapi({ description: 'The interface version, as in /openapi.json.' }),
    documentationUrl: z.url(),
    capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean(), stateTransitionHistory: z.boolean() }),
    securitySchemes: z.record(z.string(), z.object({ type: z.literal('http'), scheme: z.literal('bearer'), description: z.string() })),
    security: z.array(z.record(z.string(), z.array(z.string()))).openapi({ description: 'The bearer key, or `{}`: anonymous calls are allowed.' }),
    defaultInputModes: z.array(z.string()),
    defaultOutputModes: z.array(z.string()),
    skills: z.array(SkillSchema).openapi({ description: 'One skill per MCP tool.' }),
  })
  .openapi('AgentCard');
type AgentCard = z.infer<typeof AgentCardSchema>;

const textRoute = (path: string, contentType: 'text/markdown' | 'text/plain', summary: string) =>
  createRoute({
    method: 'get',
    path,
    tags: ['Discovery'],
    summary,
    responses: { 200: { description: summary, content: { [contentType]: { schema: z.string() } } } },
  });

const agentsRoute = textRoute('/agents.md', 'text/markdown', 'Guide for agent builders: authentication, limits, every MCP tool and every REST route');
const llmsRoute = textRoute('/llms.txt', 'text/plain', 'Index of the service for language models (llms.txt)');
const CARD_PATHS = ['/v1/agent-card.json', '/v1/agent.json', '/.well-known/agent-card.json', '/.well-known/agent.json'];

/** The documents, rendered once from the OpenAPI document and the tool registry. */
interface Documents {
  agentsMd: string;
  llmsTxt: string;
  card: AgentCard;
}

/**
 * GET /agents.md, /llms.txt and the agent card (at /v1/agent-card.json, /v1/agent.json,
 * /.well-known/agent-card.json and /.well-known/agent.json). All are generated from the app's OpenAPI
 * document and the MCP tool registry, so a route or tool added to the app appears in them without edits here.
 *
 * @example
 * app.route('/', discoveryRoutes({
 *   openApiDocument: () => app.getOpenAPI31Document(openApiConfig), // the config /openapi.json is served with
 *   tools: mcpTools,
 *   caps: meter.caps,
 *   publicUrl,
 *   sandboxFixtures: () => sandbox.fixtures(),
 *   checkerNotes: [], // each checker's `agentNote`, as api/app.ts passes them
 * }));
 */
export function discoveryRoutes(options: DiscoveryRoutesOptions): OpenAPIHono {
  const render = fromDocumentOnce(options.openApiDocument, (document) => renderDocuments(document, options));

  const app = new OpenAPIHono();
  app.openapi(agentsRoute, async (c) => c.body((await render()).agentsMd, 200, { 'Content-Type': 'text/markdown; charset=utf-8' }));
  app.openapi(llmsRoute, async (c) => c.body((await render()).llmsTxt, 200, { 'Content-Type': 'text/plain; charset=utf-8' }));
  for (const path of CARD_PATHS) {
    const route = createRoute({
      method: 'get',
      path,
      tags: ['Discovery'],
      summary: 'Agent card (A2A shape): the service, its MCP endpoint, authentication and one skill per tool',
      responses: { 200: { description: 'The agent card.', content: { 'application/json': { schema: AgentCardSchema } } } },
    });
    app.openapi(route, async (c) => c.json((await render()).card, 200));
  }
  return app;
}

function renderDocuments(document: OpenApiDocument, options: DiscoveryRoutesOptions): Documents {
  const base = options.publicUrl.replace(/\/+$/, '');
  const service: Service = {
    title: document.info.title,
    description: document.info.description ?? document.info.title,
    version: document.info.version,
    base,
    caps: options.caps,
    sandboxTools: options.sandboxFixtures().map((fixture) => fixture.tool),
    routes: documentRoutes(document),
    tools: publishTools(options.tools, document),
    checkerNotes: options.checkerNotes,
  };
  return { agentsMd: agentsMarkdown(service), llmsTxt: llmsText(service), card: agentCard(service) };
}

interface Service {
  title: string;
  description: string;
  version: string;
  base: string;
  caps: WeeklyCaps;
  sandboxTools: string[];
  routes: DocumentRoute[];
  tools: PublishedTool[];
  checkerNotes: readonly string[];
}

function agentsMarkdown(service: Service): string {
  const { base } = service;
  const lines = [
    `# ${service.title}`,
    '',
    service.description,
    '',
    `- Base URL: ${base}`,
    `- Interface version: ${service.version}`,
    `- Contract: [${base}/openapi.json](${base}/openapi.json), OpenAPI 3.1, every route with its request and reply schemas`,
    `- MCP server: \`${base}/mcp\` (Streamable HTTP)`,
    '',
    '## Authentication and limits',
    '',
    ...authenticationLines(service).map((line) => `- ${line}`),
    '',
    ...(hasCheckers(service) ? ['## Document checkers', '', ...checkerLines(service).map((line) => `- ${line}`), ''] : []),
    '## MCP tools',
    '',
    `Connect an MCP client to \`${base}/mcp\` with the same \`Authorization\` header as REST calls, or none. Each tool wraps one REST ` +
      "route and answers exactly what the route answers: structured content checked against the route's reply schema, plus " +
      "its JSON as text. A route's error becomes a tool error carrying its `detail`.",
    '',
  ];
  for (const { tool, listing } of service.tools) {
    lines.push(`### \`${tool.name}\`: ${tool.title}`, '', tool.description, '', `Wraps \`${tool.route.method} ${tool.route.path}\`.`, '');
    const args = argumentLines(listing.inputSchema);
    lines.push(...(args.length > 0 ? ['Arguments:', '', ...args] : ['Takes no arguments.']), '');
  }
  lines.push('## REST routes', '', `Every route with its schemas is in [/openapi.json](${base}/openapi.json).`, '');
  for (const [tag, routes] of groupByTag(service.routes)) {
    lines.push(`### ${tag}`, '', ...routes.map((route) => `- \`${route.method} ${route.path}\`: ${route.summary ?? route.description ?? 'no summary given'}${requirementsOf(route)}`), '');
  }
  return lines.join('\n');
}

function llmsText(service: Service): string {
  const { base } = service;
  return [
    `# ${service.title}`,
    '',
    `> ${service.description}`,
    '',
    `Interface version ${service.version}. ${authenticationLines(service).slice(0, 2).join(' ')} ` +
      `The MCP server is at ${base}/mcp (Streamable HTTP).`,
    '',
    ...(hasCheckers(service) ? [`Document checkers: ${checkerLines(service).join(' ')}`, ''] : []),
    '## Docs',
    '',
    `- [Guide for agents](${base}/agents.md): authentication, limits, every MCP tool with its arguments and every REST route`,
    `- [OpenAPI 3.1 contract](${base}/openapi.json): every route with its request and reply schemas`,
    `- [Agent card](${base}/.well-known/agent-card.json): the service, its MCP endpoint and one skill per tool, in the A2A shape`,
    '',
    '## MCP tools',
    '',
    ...service.tools.map(({ tool, listing }) => {
      const names = Object.keys(listing.inputSchema.properties ?? {});
      const args = names.length > 0 ? `arguments ${names.join(', ')}` : 'no arguments';
      return `- [${tool.name}](${base}/agents.md): ${tool.description} Wraps ${tool.route.method} ${tool.route.path}; ${args}.`;
    }),
    '',
    '## REST routes',
    '',
    ...service.routes.map((route) => {
      const href = followable(route) ? `${base}${route.path}` : `${base}/openapi.json`;
      return `- [${route.method} ${route.path}](${href}): ${route.summary ?? route.description ?? 'no summary given'}`;
    }),
    '',
  ].join('\n');
}

function agentCard(service: Service): AgentCard {
  const { base } = service;
  return {
    protocolVersion: '0.3.0',
    name: service.title,
    description: service.description,
    url: `${base}/mcp`,
    version: service.version,
    documentationUrl: `${base}/agents.md`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          `An API key beginning svc_, sent as Authorization: Bearer. Optional: anonymous calls are allowed, and metered calls are limited to ` +
          `${service.caps.anonymous} a week per IP without a key and ${service.caps.identified} a week per account with one. ` +
          `Connector URLs (${base}/mcp/c/<token>) carry an MCP-only key in the path.`,
      },
    },
    security: [{ bearer: [] }, {}],
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    skills: service.tools.map(({ tool, tags }) => ({
      id: tool.name,
      name: tool.title,
      description: tool.description,
      tags,
      inputModes: ['application/json'],
      outputModes: ['application/json'],
    })),
  };
}

/** A link is followed with GET and no credentials, so only a route that answers such a request as it stands links to itself. */
function followable(route: DocumentRoute): boolean {
  return route.method === 'GET' && !route.path.includes('{') && route.requiredQuery.length === 0 && route.credentials.length === 0;
}

/** The security schemes the app registers, as a person names them. */
const CREDENTIAL_NAMES: Record<string, string> = { bearer: 'an API key', session: 'a signed-in session' };

/** What a route needs beyond its path, for the route list of /agents.md. */
function requirementsOf(route: DocumentRoute): string {
  const needs = [
    ...(route.requiredQuery.length > 0 ? [`requires ${route.requiredQuery.map((name) => `\`${name}\``).join(', ')}`] : []),
    ...(route.credentials.length > 0 ? [`needs ${route.credentials.map((scheme) => CREDENTIAL_NAMES[scheme] ?? `\`${scheme}\` credentials`).join(' or ')}`] : []),
  ];
  return needs.length > 0 ? ` (${needs.join('; ')})` : '';
}

/** The access model in sentences, shared by /agents.md and /llms.txt so the two never disagree. */
function authenticationLines(service: Service): string[] {
  const { base, caps, sandboxTools } = service;
  const metered = service.tools.filter(({ tool }) => tool.metered).map(({ tool }) => `\`${tool.name}\` (\`${tool.route.method} ${tool.route.path}\`)`);
  return [
    'Send an API key as `Authorization: Bearer svc_…` on REST calls and MCP connections, or nothing to call anonymously.',
    metered.length > 0
      ? `Reads, tender browsing and the sandbox are open to everyone and never counted. Metered calls, one unit each: ${metered.join(', ')}. ` +
        `They allow ${caps.anonymous} calls a week per IP address for anonymous callers (shared by everyone behind it) and ${caps.identified} a week ` +
        `per account for a key or signed-in session, across all its keys and tools. ${WEEK_RULE}`
      : 'Reads, tender browsing and the sandbox are open to everyone, and no call is metered.',
    'A key that is invalid, revoked or disabled is answered 401; it never falls back to anonymous access. A signed-in account creates keys with `POST /v1/keys`.',
    'Links to original portals and other sites, supplier names and evidence URLs are returned only to a key or signed-in session.',
    `Chat apps that take only a URL: a signed-in account mints a connector URL with \`POST /v1/mcp/connector\`, of the form \`${base}/mcp/c/<token>\`. ` +
      'Its token is a key that works only for MCP; keep the URL secret.',
    sandboxTools.length
      ? `On ${sandboxTools.map((tool) => `\`${tool}\``).join(', ')}, add \`Svc-Sandbox: true\` (or \`?sandbox=true\`, or \`"sandbox": true\` in a JSON body) for a deterministic fixture reply, free and never counted.`
      : 'No tool offers sandbox replies yet; tools that do will be listed here.',
    'Every response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`: the weekly allowance of metered calls, what is left ' +
      'after this call and the seconds until the week resets. Every error is JSON `{"detail": "…"}`, a sentence to act on; ' +
      'on 429 and 503 wait the `Retry-After` seconds before retrying.',
    'The burst guard (about 10 requests at once, refilling about 30 a minute) counts each MCP tool call as one request, as its REST call: ' +
      `in a JSON-RPC batch the calls beyond it are each answered with a JSON-RPC error (code ${BURST_REFUSED_CODE}, the seconds to wait in \`data.retry_after_seconds\`).`,
  ];
}

function hasCheckers(service: Service): boolean {
  return service.routes.some((route) => route.tags.includes(CHECKER_TAG));
}

/**
 * How every document checker takes documents and answers (spec, Shared input conventions), then what the
 * checkers that differ say of themselves; shared by both documents.
 */
function checkerLines(service: Service): string[] {
  return [
    'Send a document as JSON `{"bytes_b64": "…", "filename": "…"}` (the MCP tools take the same), or as a multipart upload in `file` ' +
      '(`files`, one part each, for the identity and pack checks); checkers other than warrants also read `{"url": "…"}` from public hosts ' +
      '(warrants answer 501). Each document is at most 25 MB (413), and its type is judged from its content, never its name.',
    'Identical bytes with identical options answer from the stored result, free and at once (header `Svc-Cache: hit`); `fresh=1` checks ' +
      `again. Before uploading a file for a warrant, \`GET ${WARRANT_PATH}/check?sha256=…\` says whether one is stored.`,
    '`?stream=1` answers Server-Sent Events: `received`, then `inspecting` (warrants) or `working` heartbeats, then `result` (the reply) ' +
      'or `error` (`{detail}`). Streamed calls are never replayed by `Idempotency-Key`.',
    'Every checker reports coverage for a person to act on, never a verdict, and every reply carries `limitations` saying what it did ' +
      'not check. A call whose analysis could not finish is not counted; while every analysis slot is busy the answer is 503 with `Retry-After`.',
    ...service.checkerNotes,
  ];
}

/** One line per argument: name, JSON type with its bounds, whether required, and what it means. */
function argumentLines(schema: PublishedTool['listing']['inputSchema']): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const facts = [typeOf(property as Record<string, unknown>), required.has(name) ? 'required' : 'optional'];
    const description = (property as { description?: unknown }).description;
    return `- \`${name}\` (${facts.join(', ')})${typeof description === 'string' ? `: ${description}` : ''}`;
  });
}

function typeOf(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${schema.enum.map((value) => `\`${String(value)}\``).join(', ')}`);
  else parts.push(String(schema.format ?? schema.type ?? 'any'));
  const { minimum, maximum } = schema;
  if (typeof minimum === 'number' && typeof maximum === 'number') parts.push(`${minimum} to ${maximum}`);
  else if (typeof minimum === 'number') parts.push(`at least ${minimum}`);
  else if (typeof maximum === 'number') parts.push(`at most ${maximum}`);
  if (schema.default !== undefined) parts.push(`default ${String(schema.default)}`);
  return parts.join(', ');
}

function groupByTag(routes: DocumentRoute[]): Map<string, DocumentRoute[]> {
  const groups = new Map<string, DocumentRoute[]>();
  for (const route of routes) {
    const tag = route.tags[0] ?? 'Other';
    groups.set(tag, [...(groups.get(tag) ?? []), route]);
  }
  return groups;
}
