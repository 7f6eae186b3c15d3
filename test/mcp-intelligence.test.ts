import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OpenApiDocument } from '../api/schemas/published.ts';
import { mcpTools } from '../api/mcp/tools.ts';
import { buyerKey } from '../lib/keys.ts';
import { keyFor } from './helpers/access.ts';
import { awardIndexReady, startAgentApp, type AgentApp } from './helpers/agent-app.ts';
import { NOW, NSW_ROADS, scenario } from './helpers/intel-scenario.ts';

type Structured = Record<string, unknown>;

/** One intelligence tool call and the REST request that must answer the same, written out by hand. */
interface ReadCase {
  tool: string;
  args: Record<string, unknown>;
  rest: string;
  /** The reply differs between anonymous and identified callers (names, links or incumbents withheld). */
  gated: boolean;
}

const roadTender = String(scenario.tenders[0]!.tender_key);
const nswRoads = buyerKey('AU-NSW', NSW_ROADS);

const cases: ReadCase[] = [
  { tool: 'get_tender_context', args: { key: roadTender }, rest: `/v1/tenders/${roadTender}/context`, gated: true },
  { tool: 'search_awards', args: { q: 'bridge', limit: 5 }, rest: '/v1/awards?q=bridge&limit=5', gated: true },
  { tool: 'search_awards', args: {}, rest: '/v1/awards', gated: true },
  { tool: 'list_buyers', args: { country: 'AU', order: 'value' }, rest: '/v1/awards/buyers?country=AU&order=value', gated: false },
  { tool: 'count_new_buyers', args: { since: '2025-01-01' }, rest: '/v1/awards/buyers/new?since=2025-01-01', gated: false },
  { tool: 'lookup_buyer', args: { name: NSW_ROADS, jurisdiction: 'AU-NSW' }, rest: `/v1/awards/buyers/lookup?name=${encodeURIComponent(NSW_ROADS)}&jurisdiction=AU-NSW`, gated: true },
  { tool: 'get_buyer', args: { buyer_key: nswRoads }, rest: `/v1/awards/buyers/${nswRoads}`, gated: true },
  { tool: 'get_supplier', args: { identifier: '90075448494' }, rest: '/v1/awards/suppliers/90075448494', gated: true },
  { tool: 'list_signals', args: { jurisdiction: 'AU', limit: 50 }, rest: '/v1/signals?jurisdiction=AU&limit=50', gated: true },
  { tool: 'list_planned_procurements', args: { quarter: '2026Q4' }, rest: '/v1/intelligence/planned?quarter=2026Q4', gated: true },
  { tool: 'get_plan_context', args: { plan_id: 'APP-TRAVEL' }, rest: '/v1/intelligence/planned/APP-TRAVEL/context', gated: true },
  { tool: 'intelligence_summary', args: {}, rest: '/v1/intelligence/summary', gated: false },
  { tool: 'jurisdiction_intelligence', args: { jurisdiction: 'nsw' }, rest: '/v1/intelligence/nsw', gated: true },
  { tool: 'list_trades', args: {}, rest: '/v1/intelligence/trades', gated: false },
  { tool: 'get_trade_intelligence', args: { trade: 'civil-works', state: 'nsw' }, rest: '/v1/intelligence/trades/civil-works/nsw', gated: true },
  { tool: 'grants_summary', args: {}, rest: '/v1/grants/summary', gated: false },
];

describe('MCP intelligence tools', () => {
  let agent: AgentApp;
  let keyed: Record<string, string>;
  const clients: Client[] = [];

  before(async () => {
    const { tenders, sources, ...intelligence } = scenario;
    agent = await startAgentApp({ tenders, sources, now: NOW, intelligence });
    keyed = (await keyFor(agent.state, null)).headers;
    await awardIndexReady(agent);
  });

  after(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await agent.close();
  });

  async function connect(path: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'mcp-intelligence-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(path, agent.url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  async function rest(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Structured }> {
    const response = await fetch(new URL(path, agent.url), { headers });
    return { status: response.status, body: (await response.json()) as Structured };
  }

  it('has a tool for every intelligence read: every awards, signals and intelligence route, and tender context', async () => {
    const document = (await rest('/openapi.json')).body as unknown as OpenApiDocument;
    const reads = Object.entries(document.paths ?? {})
      .filter(([path, item]) => item.get && (item.get.tags?.some((tag) => tag === 'Contract awards' || tag === 'Signals and intelligence') || path === '/v1/tenders/{key}/context'))
      .map(([path]) => path);
    assert.equal(reads.length, 15);
    const wrapped = new Set(mcpTools.filter((tool) => tool.route.method === 'GET').map((tool) => tool.route.path));
    assert.deepEqual(reads.filter((path) => !wrapped.has(path)), []);

    const listed = (await (await connect('/mcp')).listTools()).tools;
    for (const { tool } of cases) {
      const entry = listed.find((candidate) => candidate.name === tool);
      assert.ok(entry, `${tool} is listed`);
      assert.equal(entry.annotations?.readOnlyHint, true, tool);
      assert.equal(entry.outputSchema?.type, 'object', tool);
    }
  });

  it('answers each read exactly as its REST route answers an anonymous caller, withholding the same fields', async () => {
    const client = await connect('/mcp');
    for (const { tool, args, rest: path, gated } of cases) {
      const result = await call(client, tool, args);
      assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result.content)}`);
      const expected = await rest(path);
      assert.equal(expected.status, 200, path);
      assert.deepEqual(result.structuredContent, expected.body, tool);
      if (gated) assert.notDeepEqual(expected.body, (await rest(path, keyed)).body, `${path} shows an identified caller more`);
    }
    // Reads are never metered, and the discovery documents do not call them so.
    assert.equal(((await rest('/v1/usage')).body.current as { used: number }).used, 0);
    assert.deepEqual(mcpTools.filter((tool) => cases.some((entry) => entry.tool === tool.name) && tool.metered), []);
  });

  it('answers each read exactly as its REST route answers the same key, and a connector key sees what a key sees', async () => {
    const client = await connect('/mcp', keyed);
    for (const { tool, args, rest: path } of cases) {
      const result = await call(client, tool, args);
      assert.deepEqual(result.structuredContent, (await rest(path, keyed)).body, tool);
    }
    const supplier = cases.find((entry) => entry.tool === 'get_supplier')!;
    const connector = await connect(`/mcp/c/${(await keyFor(agent.state, null, 'mcp')).apiKey}`);
    const reply = (await call(connector, supplier.tool, supplier.args)).structuredContent as { withheld: string[] };
    assert.deepEqual(reply, (await rest(supplier.rest, keyed)).body);
    assert.deepEqual(reply.withheld, []);
  });

  it("gives a route's refusal as a tool error carrying its detail", async () => {
    const client = await connect('/mcp');
    const missing = await call(client, 'get_supplier', { identifier: 'AU-ABN:99999999999' });
    assert.equal(missing.isError, true);
    const text = missing.content[0];
    assert.equal(text?.type, 'text');
    assert.equal(text.text, (await rest('/v1/awards/suppliers/AU-ABN:99999999999')).body.detail);
    const badQuarter = await call(client, 'list_planned_procurements', { quarter: '2026-4' });
    assert.equal(badQuarter.isError, true);
    const unknownTrade = await call(client, 'get_trade_intelligence', { trade: 'juggling', state: 'nsw' });
    assert.equal(unknownTrade.isError, true);
  });
});
