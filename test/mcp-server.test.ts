import { createRoute, z } from '@hono/zod-openapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mintKey, revokeKey } from '../api/accounts/keys.ts';
import { DEFAULT_CAPS } from '../api/usage/meter.ts';
import type { OpenApiDocument } from '../api/schemas/published.ts';
import { defineTool, mcpTools } from '../api/mcp/tools.ts';
import { startAgentApp, type AgentApp } from './helpers/agent-app.ts';
import { sourceRow, tenderRow } from './helpers/seed-release.ts';

// Wednesday 10 June 2026, midday in Sydney.
const NOW = new Date('2026-06-10T02:00:00.000Z');

const road = tenderRow({
  title: 'Road maintenance services',
  summary: 'Resurfacing and pothole repairs on regional roads',
  reference: 'TfNSW-118',
  closing_date: '2026-06-20',
  url: 'https://buy.nsw.gov.au/notices/118',
});
const library = tenderRow({ title: 'Library fit-out', buyer: 'City of Sydney', reference: 'CoS-44', tier: 'council', closing_date: '2026-06-12' });
const bridge = tenderRow({ title: 'Bridge and road inspection panel', reference: 'TfNSW-90', closing_date: '2026-06-01' });
const sources = [sourceRow({ tender_count: 3 })];

type Structured = Record<string, unknown>;

const openClients: Client[] = [];

/** A connected MCP client, closed with the rest after the suite. */
async function connect(agent: AgentApp, path: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, agent.url), { requestInit: { headers } }));
  openClients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return first.text;
}

async function rest(agent: AgentApp, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Structured }> {
  const response = await fetch(new URL(path, agent.url), { headers });
  return { status: response.status, body: (await response.json()) as Structured };
}

/** A raw MCP POST of one JSON-RPC message, as a client without the SDK sends it. */
function rpc(agent: AgentApp, path: string, method: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(new URL(path, agent.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } : {} }),
  });
}

/** Every way of reaching an MCP endpoint: each JSON-RPC method a client starts with, and the HTTP methods it may try. */
function everyMethod(agent: AgentApp, path: string, headers: Record<string, string> = {}): Promise<[string, Response]>[] {
  return [
    ...['initialize', 'tools/list', 'ping'].map(async (method): Promise<[string, Response]> => [`POST ${method}`, await rpc(agent, path, method, headers)]),
    ...['GET', 'DELETE', 'PUT'].map(async (method): Promise<[string, Response]> => [method, await fetch(new URL(path, agent.url), { method, headers })]),
  ];
}

/** Rejects with the HTTP status the MCP client saw. */
function withStatus(status: number) {
  return (error: unknown) => (error as { code?: unknown }).code === status;
}

describe('MCP server over real HTTP', () => {
  let agent: AgentApp;

  before(async () => {
    agent = await startAgentApp({ tenders: [road, library, bridge], sources, now: NOW });
  });

  after(async () => {
    await Promise.all(openClients.splice(0).map((client) => client.close()));
    await agent.close();
  });

  it("lists every registered tool with its route's published argument and reply schemas", async () => {
    const client = await connect(agent, '/mcp');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), mcpTools.map((tool) => tool.name));

    const document = (await rest(agent, '/openapi.json')).body as unknown as OpenApiDocument;
    const search = tools.find((tool) => tool.name === 'search_tenders')!;
    const parameters = document.paths!['/v1/tenders']!.get!.parameters as { name: string }[];
    assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}), parameters.map((parameter) => parameter.name));
    // JSON types and descriptions as /openapi.json gives them, not the strings a URL carries.
    assert.deepEqual(search.inputSchema.properties!.limit, { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Page size.' });
    assert.equal(search.outputSchema?.type, 'object');
    assert.deepEqual(Object.keys(search.outputSchema!.properties!).sort(), ['coverage', 'results', 'sources', 'total']);
    assert.equal(JSON.stringify(search.outputSchema).includes('$ref'), false, 'schemas stand alone');
    assert.equal(search.annotations?.readOnlyHint, true);

    const getTender = tools.find((tool) => tool.name === 'get_tender')!;
    assert.deepEqual(getTender.inputSchema.required, ['key']);
    assert.equal(getTender.title, 'Read a tender');
    assert.match(getTender.description ?? '', /page_key/);
  });

  it('search_tenders answers exactly what GET /v1/tenders answers, taking JSON numbers and booleans', async () => {
    const client = await connect(agent, '/mcp');
    const result = await call(client, 'search_tenders', { q: 'road', limit: 5, include_closed: true });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const expected = await rest(agent, '/v1/tenders?q=road&limit=5&include_closed=true');
    assert.equal(expected.status, 200);
    assert.deepEqual(result.structuredContent, expected.body);
    assert.deepEqual(JSON.parse(textOf(result)), expected.body);
    assert.equal((expected.body.results as unknown[]).length, 2, 'the open and the closed road tender');

    const listing = await call(client, 'search_tenders');
    assert.deepEqual(listing.structuredContent, (await rest(agent, '/v1/tenders')).body);
  });

  it('get_tender answers exactly what GET /v1/tenders/{key} answers; an unknown key is a tool error with its detail', async () => {
    const client = await connect(agent, '/mcp');
    const key = String(road.tender_key);
    const result = await call(client, 'get_tender', { key });
    assert.deepEqual(result.structuredContent, (await rest(agent, `/v1/tenders/${key}`)).body);
    assert.equal((result.structuredContent as Structured).open, true);

    const missing = await call(client, 'get_tender', { key: '0'.repeat(32) });
    assert.equal(missing.isError, true);
    assert.equal(missing.structuredContent, undefined);
    assert.equal(textOf(missing), (await rest(agent, `/v1/tenders/${'0'.repeat(32)}`)).body.detail);
  });

  it('list_tender_sources and tender_strip answer what their routes answer', async () => {
    const client = await connect(agent, '/mcp');
    assert.deepEqual((await call(client, 'list_tender_sources')).structuredContent, (await rest(agent, '/v1/tenders/sources')).body);
    assert.deepEqual((await call(client, 'tender_strip')).structuredContent, (await rest(agent, '/v1/tenders/strip')).body);
  });

  it("refuses arguments the route's schema refuses, in its words, without calling the route", async () => {
    const client = await connect(agent, '/mcp');
    const forwardedBefore = agent.forwarded.length;
    const tooMany = await call(client, 'search_tenders', { limit: 0 });
    assert.equal(tooMany.isError, true);
    assert.equal(textOf(tooMany), 'Invalid argument limit: must be a whole number from 1 to 100.');
    const unknown = await call(client, 'search_tenders', { colour: 'red' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /^Unknown argument colour: this route takes q, jurisdiction/);
    const missingKey = await call(client, 'get_tender');
    assert.equal(missingKey.isError, true);
    assert.match(textOf(missingKey), /^Invalid argument key/);
    assert.equal(agent.forwarded.length, forwardedBefore);
  });

  it("forwards the caller's key, or none, and the client's address; links follow the key as on REST", async () => {
    const minted = await mintKey(agent.state, { accountId: null, scope: 'api', now: new Date() });
    assert.ok(minted.minted);
    const key = String(road.tender_key);

    const anonymous = await connect(agent, '/mcp');
    const anonymousReply = await call(anonymous, 'get_tender', { key });
    const anonymousCall = agent.forwarded.at(-1)!;
    assert.equal(anonymousCall.path, `/v1/tenders/${key}`);
    assert.equal(anonymousCall.headers.get('authorization'), null);
    assert.equal(anonymousCall.headers.get('x-forwarded-for'), '127.0.0.1');
    assert.equal((anonymousReply.structuredContent as Structured).url, undefined);

    const bearer = `Bearer ${minted.apiKey}`;
    const keyed = await connect(agent, '/mcp', { Authorization: bearer });
    const keyedReply = await call(keyed, 'get_tender', { key });
    assert.equal(agent.forwarded.at(-1)!.headers.get('authorization'), bearer);
    assert.equal((keyedReply.structuredContent as Structured).url, 'https://buy.nsw.gov.au/notices/118');
    assert.deepEqual(keyedReply.structuredContent, (await rest(agent, `/v1/tenders/${key}`, { Authorization: bearer })).body);

    // A key-only route tells an anonymous caller what it needs, as a tool error, without failing the connection.
    const portal = await call(anonymous, 'get_tender_portal', { key });
    assert.equal(portal.isError, true);
    assert.match(textOf(portal), /API key/);
    assert.equal((await call(keyed, 'get_tender_portal', { key })).structuredContent?.url, 'https://buy.nsw.gov.au/notices/118');
  });

  it('refuses an invalid key at /mcp with 401', async () => {
    await assert.rejects(connect(agent, '/mcp', { Authorization: 'Bearer svc_not_a_real_key' }), withStatus(401));
  });

  it('uses the connector URL token as the key, and refuses a revoked or malformed one with 401', async () => {
    const connector = await mintKey(agent.state, { accountId: null, scope: 'mcp', now: new Date() });
    assert.ok(connector.minted);
    const key = String(road.tender_key);

    const client = await connect(agent, `/mcp/c/${connector.apiKey}`);
    const reply = await call(client, 'get_tender', { key });
    assert.equal(agent.forwarded.at(-1)!.headers.get('authorization'), `Bearer ${connector.apiKey}`);
    assert.equal((reply.structuredContent as Structured).url, 'https://buy.nsw.gov.au/notices/118', 'identified by the token');
    // The connector's key opens MCP only, not the REST API itself.
    assert.equal((await rest(agent, `/v1/tenders/${key}`, { Authorization: `Bearer ${connector.apiKey}` })).status, 401);

    assert.ok(await revokeKey(agent.state, connector.key.key_id, { keyId: connector.key.key_id }, new Date()));
    await assert.rejects(connect(agent, `/mcp/c/${connector.apiKey}`), withStatus(401));
    await assert.rejects(connect(agent, '/mcp/c/not-a-key'), withStatus(401));
  });

  it('refuses an invalid, revoked or malformed connector token with 401 on every method, as /mcp refuses a bad key', async () => {
    const revoked = await mintKey(agent.state, { accountId: null, scope: 'mcp', now: new Date() });
    assert.ok(revoked.minted);
    assert.ok(await revokeKey(agent.state, revoked.key.key_id, { keyId: revoked.key.key_id }, new Date()));
    const refused = [
      everyMethod(agent, '/mcp', { Authorization: 'Bearer svc_not_a_real_key' }),
      everyMethod(agent, '/mcp/c/svc_not_a_real_key'),
      everyMethod(agent, `/mcp/c/${revoked.apiKey}`),
      everyMethod(agent, '/mcp/c/not-a-key'),
    ].flat();
    for (const [method, response] of await Promise.all(refused)) {
      assert.equal(response.status, 401, `${method} ${response.url}`);
      assert.match(((await response.json()) as { detail: string }).detail, /key|connector URL/, `${method} ${response.url}`);
      assert.ok(response.headers.get('ratelimit-limit'), 'rate headers on the refusal');
    }
  });

  it("answers a connector URL with its key's rate headers, as /mcp answers the same key sent as a header", async () => {
    const connector = await mintKey(agent.state, { accountId: null, scope: 'mcp', now: new Date() });
    assert.ok(connector.minted);
    const viaUrl = await rpc(agent, `/mcp/c/${connector.apiKey}`, 'tools/list');
    const viaHeader = await rpc(agent, '/mcp', 'tools/list', { Authorization: `Bearer ${connector.apiKey}` });
    assert.equal(viaUrl.status, 200);
    assert.equal(viaUrl.headers.get('ratelimit-limit'), String(DEFAULT_CAPS.identified));
    assert.equal(viaUrl.headers.get('ratelimit-remaining'), viaHeader.headers.get('ratelimit-remaining'));
  });

  it('answers GET and DELETE with 405 (stateless: no event stream, no session) and a body that is not JSON with a JSON-RPC parse error', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(new URL('/mcp', agent.url), { method, headers: { Accept: 'text/event-stream' } });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
    const malformed = await fetch(new URL('/mcp', agent.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":',
    });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: { code: number } }).error.code, -32700);
  });
});

describe('MCP tools added by registry entry alone', () => {
  let agent: AgentApp;
  const logged: unknown[] = [];

  const EchoBody = z.object({ words: z.array(z.string()).min(1), repeat: z.number().int().min(1).max(3) });
  const EchoReply = z.object({ echoed: z.array(z.string()) });
  const Drifted = z.object({ ok: z.boolean() });
  const echoTool = defineTool({
    name: 'echo_words',
    title: 'Echo words',
    description: 'Repeats words.',
    route: { method: 'POST', path: '/v1/test/echo' },
    input: EchoBody,
    output: EchoReply,
  });
  const driftTool = defineTool({
    name: 'drifted_reply',
    title: 'A route whose reply breaks its schema',
    description: 'Replies outside its declared schema.',
    route: { method: 'GET', path: '/v1/test/drift' },
    input: z.object({}),
    output: Drifted,
  });

  before(async () => {
    agent = await startAgentApp({
      tenders: [road],
      sources,
      now: NOW,
      tools: [...mcpTools, echoTool, driftTool],
      log: (error) => logged.push(error),
      extend: (app) => {
        app.openapi(
          createRoute({
            method: 'post',
            path: '/v1/test/echo',
            request: { body: { content: { 'application/json': { schema: EchoBody } }, required: true } },
            responses: { 200: { description: 'The words, repeated.', content: { 'application/json': { schema: EchoReply } } } },
          }),
          (c) => {
            const { words, repeat } = c.req.valid('json');
            return c.json({ echoed: Array.from({ length: repeat }, () => words).flat() }, 200);
          },
        );
        app.openapi(
          createRoute({
            method: 'get',
            path: '/v1/test/drift',
            responses: { 200: { description: 'Declares a boolean.', content: { 'application/json': { schema: Drifted } } } },
          }),
          (c) => c.json({ ok: 'yes' } as unknown as z.infer<typeof Drifted>, 200),
        );
      },
    });
  });

  after(async () => {
    await Promise.all(openClients.splice(0).map((client) => client.close()));
    await agent.close();
  });

  it('publishes a JSON body route with its body fields as arguments and sends them as JSON, numbers kept', async () => {
    const client = await connect(agent, '/mcp');
    const echo = (await client.listTools()).tools.find((tool) => tool.name === 'echo_words')!;
    assert.deepEqual(echo.inputSchema.required, ['words', 'repeat']);
    assert.equal(echo.annotations?.readOnlyHint, false);
    const result = await call(client, 'echo_words', { words: ['tender'], repeat: 2 });
    assert.deepEqual(result.structuredContent, { echoed: ['tender', 'tender'] });
    assert.equal(agent.forwarded.at(-1)!.headers.get('content-type'), 'application/json');
  });

  it('turns a reply that breaks the declared schema into a tool error, and logs it', async () => {
    const client = await connect(agent, '/mcp');
    const result = await call(client, 'drifted_reply');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /breaks its own schema/);
    assert.equal(logged.length, 1);
  });
});
