import { createRoute, z } from '@hono/zod-openapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import type { OpenApiDocument } from '../api/schemas/published.ts';
import { createSandbox } from '../api/middleware/sandbox.ts';
import { defineTool, mcpTools } from '../api/mcp/tools.ts';
import type { McpTool } from '../api/schemas/mcp-tool.ts';
import { DEFAULT_CAPS } from '../api/usage/meter.ts';
import { awardIndexReady, PUBLIC_URL, startAgentApp, type AgentApp } from './helpers/agent-app.ts';
import { sourceRow, tenderRow } from './helpers/seed-release.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');
const CARD_PATHS = ['/v1/agent-card.json', '/v1/agent.json', '/.well-known/agent-card.json', '/.well-known/agent.json'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

// A route and a tool that exist only in this test: the documents must list them without being told.
const extraTool = defineTool({
  name: 'count_widgets',
  title: 'Count widgets',
  description: 'Counts the widgets of one colour.',
  route: { method: 'GET', path: '/v1/test/widgets' },
  input: z.object({ colour: z.string().openapi({ description: 'The colour to count.' }) }),
  output: z.object({ count: z.number().int() }),
});
const tools: McpTool[] = [...mcpTools, extraTool];

interface Card {
  protocolVersion: string;
  name: string;
  description: string;
  url: string;
  version: string;
  documentationUrl: string;
  securitySchemes: Record<string, { type: string; scheme: string }>;
  security: Record<string, string[]>[];
  skills: { id: string; name: string; description: string; tags: string[] }[];
}

describe('discovery documents', () => {
  let agent: AgentApp;
  let document: OpenApiDocument;
  let operations: { method: string; path: string; summary: string }[];

  before(async () => {
    agent = await startAgentApp({
      tenders: [tenderRow({ title: 'Road maintenance services', reference: 'R-1', closing_date: '2026-06-20' })],
      sources: [sourceRow()],
      now: NOW,
      tools,
      extend: (app) => {
        app.openapi(
          createRoute({
            method: 'get',
            path: '/v1/test/widgets',
            tags: ['Widgets'],
            summary: 'Count the widgets of one colour',
            request: { query: z.object({ colour: z.string().openapi({ description: 'The colour to count.' }) }) },
            responses: { 200: { description: 'The count.', content: { 'application/json': { schema: z.object({ count: z.number().int() }) } } } },
          }),
          (c) => c.json({ count: c.req.valid('query').colour.length }, 200),
        );
      },
    });
    await awardIndexReady(agent);
    document = (await (await fetch(`${agent.url}/openapi.json`)).json()) as OpenApiDocument;
    operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path, summary: item[method]!.summary ?? '' })),
    );
  });

  after(async () => {
    await agent.close();
  });

  async function text(path: string): Promise<{ contentType: string; body: string }> {
    const response = await fetch(`${agent.url}${path}`);
    assert.equal(response.status, 200, path);
    return { contentType: response.headers.get('content-type') ?? '', body: await response.text() };
  }

  it('declares every discovery route and the MCP endpoints in /openapi.json, with their content types', () => {
    const contentTypes = (path: string) => Object.keys((document.paths![path]!.get!.responses as Record<string, { content: object }>)['200']!.content);
    assert.deepEqual(contentTypes('/agents.md'), ['text/markdown']);
    assert.deepEqual(contentTypes('/llms.txt'), ['text/plain']);
    for (const path of CARD_PATHS) assert.deepEqual(contentTypes(path), ['application/json'], path);
    assert.ok(document.paths!['/mcp']?.post);
    assert.ok(document.paths!['/mcp/c/{token}']?.post);
    assert.ok(operations.length > 15, 'the whole app is there, not only these routes');
  });

  it('/agents.md lists every route of /openapi.json with its summary, and every tool with its arguments', async () => {
    const { contentType, body } = await text('/agents.md');
    assert.match(contentType, /^text\/markdown/);
    assert.ok(body.startsWith(`# ${document.info.title}\n`));
    for (const { method, path, summary } of operations) {
      assert.ok(body.includes(`- \`${method} ${path}\`: ${summary}`), `${method} ${path} is missing`);
    }
    for (const tool of tools) {
      assert.ok(body.includes(`### \`${tool.name}\`: ${tool.title}`), `${tool.name} is missing`);
      assert.ok(body.includes(`Wraps \`${tool.route.method} ${tool.route.path}\`.`));
    }
    assert.ok(body.includes('- `limit` (integer, 1 to 100, default 20, optional): Page size.'));
    assert.ok(body.includes('- `key` (string, required)'));
    assert.ok(body.includes("- `colour` (string, required): The colour to count."));
    assert.ok(body.includes('Takes no arguments.'));
  });

  it('/agents.md explains keys, the anonymous and keyed caps, and the connector URL', async () => {
    const { body } = await text('/agents.md');
    assert.ok(body.includes('`Authorization: Bearer svc_…`'));
    assert.ok(body.includes(`${DEFAULT_CAPS.anonymous} calls a week per IP address`));
    assert.ok(body.includes(`${DEFAULT_CAPS.identified} a week per account`));
    assert.ok(body.includes(`\`${PUBLIC_URL}/mcp/c/<token>\``));
    assert.ok(body.includes('`POST /v1/mcp/connector`'));
    assert.ok(body.includes(`\`${PUBLIC_URL}/mcp\``));
    assert.ok(body.includes(`(${PUBLIC_URL}/openapi.json)`));
  });

  it('/llms.txt follows the llms.txt layout and lists every route and every tool', async () => {
    const { contentType, body } = await text('/llms.txt');
    assert.match(contentType, /^text\/plain/);
    const lines = body.split('\n');
    assert.equal(lines[0], `# ${document.info.title}`);
    assert.equal(lines[2], `> ${document.info.description}`);
    assert.ok(body.includes(`- [Guide for agents](${PUBLIC_URL}/agents.md)`));
    assert.ok(body.includes(`- [OpenAPI 3.1 contract](${PUBLIC_URL}/openapi.json)`));
    for (const { method, path, summary } of operations) {
      assert.match(body, new RegExp(`^- \\[${escape(`${method} ${path}`)}\\]\\([^)]+\\): ${escape(summary)}$`, 'm'), `${method} ${path} is missing`);
    }
    assert.ok(body.includes(`- [GET /v1/tenders](${PUBLIC_URL}/v1/tenders): `), 'a plain GET links to itself');
    assert.ok(body.includes(`- [GET /v1/tenders/{key}](${PUBLIC_URL}/openapi.json): `), 'a templated path links to the contract');
    for (const tool of tools) assert.ok(body.includes(`- [${tool.name}](${PUBLIC_URL}/agents.md): ${tool.description}`), `${tool.name} is missing`);
    assert.ok(body.includes('arguments colour.'));
  });

  it('every link in /agents.md and /llms.txt answers 2xx when followed as it stands, with no credentials', async () => {
    const links = new Set<string>();
    for (const path of ['/agents.md', '/llms.txt']) {
      for (const match of (await text(path)).body.matchAll(/\]\((https?:[^)\s]+)\)/g)) links.add(match[1]!);
    }
    assert.ok(links.size > 15, 'the route links are there');
    for (const link of links) {
      assert.ok(link.startsWith(PUBLIC_URL), link);
      const response = await fetch(`${agent.url}${link.slice(PUBLIC_URL.length)}`);
      await response.arrayBuffer();
      assert.ok(response.ok, `${link} answered ${response.status}`);
    }
    // Routes that need a parameter or credentials point at the contract instead, and /agents.md says what they need.
    const { body: llms } = await text('/llms.txt');
    assert.ok(llms.includes(`- [GET /v1/awards/buyers/lookup](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [GET /v1/keys](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [GET /v1/orgs](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [GET /v1/bids](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [PATCH /v1/bids/{bid}](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [POST /v1/bids/{bid}/plan/recompute](${PUBLIC_URL}/openapi.json): `));
    assert.ok(llms.includes(`- [GET /v1/partners](${PUBLIC_URL}/openapi.json): `));
    const { body: guide } = await text('/agents.md');
    assert.ok(guide.includes('- `GET /v1/awards/buyers/lookup`: Resolve a published buyer name to a buyer (requires `name`, `jurisdiction`)'));
    assert.ok(guide.includes('- `GET /v1/orgs`: Organisations of the signed-in account (needs a signed-in session)'));
  });

  it('the MCP endpoint and the sandbox forms the documents give work as written', async () => {
    const card = (await (await fetch(`${agent.url}/.well-known/agent-card.json`)).json()) as Card;
    const client = new Client({ name: 'discovery-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(card.url.slice(PUBLIC_URL.length), agent.url)));
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), tools.map((tool) => tool.name));
    } finally {
      await client.close();
    }

    const { body } = await text('/agents.md');
    const sandboxLine = body.split('\n').find((line) => line.includes('Svc-Sandbox: true'))!;
    assert.ok(sandboxLine.includes('`Svc-Sandbox: true` (or `?sandbox=true`, or `"sandbox": true` in a JSON body)'));
    const sandboxed = [...sandboxLine.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!).filter((name) => tools.some((tool) => tool.name === name));
    assert.deepEqual(sandboxed, ['adverse_media', 'check_pack', 'check_source_overlap', 'detect_ai_text', 'extract_document', 'identity_check', 'inspect_document', 'resolve_company', 'tenders_match', 'verify_references']);
    for (const name of sandboxed) {
      const { route } = tools.find((tool) => tool.name === name)!;
      const forms: [string, RequestInit][] = [
        [route.path, { headers: { 'Svc-Sandbox': 'true', 'Content-Type': 'application/json' }, body: '{}' }],
        [`${route.path}?sandbox=true`, { headers: { 'Content-Type': 'application/json' }, body: '{}' }],
        [route.path, { headers: { 'Content-Type': 'application/json' }, body: '{"sandbox": true}' }],
      ];
      for (const [path, init] of forms) {
        const response = await fetch(`${agent.url}${path}`, { ...init, method: route.method });
        assert.equal(response.status, 200, `${name}: ${path} ${String(init.body)}`);
        assert.equal(((await response.json()) as { sandbox?: boolean }).sandbox, true);
      }
    }
  });

  it('names the metered tools, the document checkers among them, and how checkers take documents and stream', async () => {
    for (const path of ['/agents.md', '/llms.txt']) {
      const { body } = await text(path);
      assert.ok(
        body.includes(
          'Metered calls, one unit each: `tenders_match` (`POST /v1/tenders/match`), `inspect_document` (`POST /v1/warrants`), ' +
            '`extract_document` (`POST /v1/extract`), `identity_check` (`POST /v1/identity-check`), `check_pack` (`POST /v1/check-pack`), ' +
            '`adverse_media` (`POST /v1/adverse-media`), `resolve_company` (`POST /v1/companies/resolve`), `verify_references` (`POST /v1/verify-references`), ' +
            '`check_source_overlap` (`POST /v1/check-source-overlap`), `detect_ai_text` (`POST /v1/detect-ai-text`).',
        ),
        path,
      );
      assert.match(body, /Only `outcome: assessed` is counted: an abstention \(`abstained_too_short`, `abstained_not_prose`\) or an outage \(`search_unavailable`/, path);
      assert.match(body, /Send a document as JSON `\{"bytes_b64": "…", "filename": "…"\}`/, path);
      assert.match(body, /`\?stream=1` answers Server-Sent Events: `received`, then `inspecting` \(warrants\) or `working` heartbeats/, path);
      assert.match(body, /`POST \/v1\/adverse-media` \(MCP `adverse_media`\) screens .*Lists of politically exposed persons are not screened\./, path);
    }
    const card = (await (await fetch(`${agent.url}/v1/agent-card.json`)).json()) as Card & { securitySchemes: Record<string, { description: string }> };
    assert.doesNotMatch(`${card.description} ${card.securitySchemes.bearer!.description}`, /document|checker/i);
  });

  it('serves one agent card, in the A2A shape, at all four addresses, with a skill per tool', async () => {
    const cards = await Promise.all(CARD_PATHS.map(async (path) => (await fetch(`${agent.url}${path}`)).json() as Promise<Card>));
    for (const card of cards.slice(1)) assert.deepEqual(card, cards[0]);
    const card = cards[0]!;
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.name, document.info.title);
    assert.equal(card.version, document.info.version);
    assert.equal(card.url, `${PUBLIC_URL}/mcp`);
    assert.equal(card.documentationUrl, `${PUBLIC_URL}/agents.md`);
    assert.deepEqual(card.securitySchemes.bearer && { type: card.securitySchemes.bearer.type, scheme: card.securitySchemes.bearer.scheme }, { type: 'http', scheme: 'bearer' });
    assert.deepEqual(card.security, [{ bearer: [] }, {}]);
    assert.deepEqual(card.skills.map((skill) => skill.id), tools.map((tool) => tool.name));
    const search = card.skills.find((skill) => skill.id === 'search_tenders')!;
    assert.equal(search.name, 'Search tenders and grants');
    assert.deepEqual(search.tags, ['tenders']);
    assert.deepEqual(card.skills.find((skill) => skill.id === 'count_widgets')!.tags, ['widgets']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('sandbox lines in the discovery documents', () => {
  it('name exactly the tools whose fixtures are registered', async () => {
    const store = { state: () => ({ ready: false as const, detail: 'no release' }), now: () => new Date() };
    const builtIn = await (await (await createApp({ store, burst: false })).request('/agents.md')).text();
    assert.match(builtIn, /On `adverse_media`, `check_pack`, `check_source_overlap`, `detect_ai_text`, `extract_document`, `identity_check`, `inspect_document`, `resolve_company`, `tenders_match`, `verify_references`, add `Svc-Sandbox: true`/);
    const sandbox = createSandbox();
    sandbox.register('extract', { summary: 'a fixed payslip extraction', reply: () => ({ mode: 'fields' }) });
    const some = await (await (await createApp({ store, burst: false, sandbox })).request('/agents.md')).text();
    assert.match(some, /On `adverse_media`, `check_pack`, `check_source_overlap`, `detect_ai_text`, `extract`, `extract_document`, `identity_check`, `inspect_document`, `resolve_company`, `tenders_match`, `verify_references`, add `Svc-Sandbox: true`/);
  });
});
