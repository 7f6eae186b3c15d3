import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mintKey } from '../api/accounts/keys.ts';
import { startAgentApp, type AgentApp } from './helpers/agent-app.ts';
import { sourceRow, tenderRow } from './helpers/seed-release.ts';

// Wednesday 10 June 2026, midday in Sydney.
const NOW = new Date('2026-06-10T02:00:00.000Z');

const civil = ['Road reseal program', 'Stormwater drainage upgrade', 'Bridge repairs', 'Kerb and gutter renewal', 'Culvert replacement'].map((title, at) =>
  tenderRow({ title, reference: `R-${at}`, trade: 'civil-works', closing_date: '2026-07-01' }),
);
const cloud = tenderRow({ title: 'Cloud hosting', reference: 'C-1', trade: 'it-services', closing_date: '2026-07-01' });

type Structured = Record<string, unknown>;

describe('MCP tool tenders_match', () => {
  let agent: AgentApp;
  const clients: Client[] = [];

  before(async () => {
    agent = await startAgentApp({ tenders: [...civil, cloud], sources: [sourceRow({ tender_count: 6 })], now: NOW });
  });

  after(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await agent.close();
  });

  async function connect(headers: Record<string, string> = {}, replies: Response[] = []): Promise<Client> {
    const client = new Client({ name: 'mcp-tender-match-test', version: '1.0.0' });
    const recording = async (input: string | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      replies.push(response);
      return response;
    };
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', agent.url), { requestInit: { headers }, fetch: recording }));
    clients.push(client);
    return client;
  }

  async function rest(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Structured }> {
    const response = await fetch(new URL('/v1/tenders/match', agent.url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Structured };
  }

  it('is listed with the route body as its arguments and is not read-only', async () => {
    const { tools } = await (await connect()).listTools();
    const tool = tools.find((entry) => entry.name === 'tenders_match');
    assert.ok(tool);
    assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), ['url', 'example', 'jurisdiction', 'closing_before', 'sandbox']);
    assert.equal(tool.annotations?.readOnlyHint, false);
    assert.match(tool.description ?? '', /not a probability of winning/);
  });

  it('answers exactly what POST /v1/tenders/match answers, anonymous and keyed', async () => {
    const anonymous = await connect();
    const result = (await anonymous.callTool({ name: 'tenders_match', arguments: { example: 'civil' } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const expected = await rest({ example: 'civil' });
    assert.equal(expected.status, 200);
    assert.deepEqual(result.structuredContent, expected.body);
    const reply = result.structuredContent as { results: unknown[]; withheld: number; matched: number };
    assert.equal(reply.results.length, 3);
    assert.equal(reply.matched, 5);
    assert.equal(reply.withheld, 2);

    const minted = await mintKey(agent.state, { accountId: null, scope: 'api', now: new Date() });
    assert.ok(minted.minted);
    const bearer = `Bearer ${minted.apiKey}`;
    const keyed = await connect({ Authorization: bearer });
    const keyedResult = (await keyed.callTool({ name: 'tenders_match', arguments: { example: 'civil' } })) as CallToolResult;
    const keyedReply = keyedResult.structuredContent as { results: unknown[]; withheld: number };
    assert.equal(keyedReply.results.length, 5);
    assert.equal(keyedReply.withheld, 0);
    assert.deepEqual(keyedResult.structuredContent, (await rest({ example: 'civil' }, { Authorization: bearer })).body);
  });

  it("reports in RateLimit-Remaining what is left after the call, anonymous and keyed, as GET /v1/usage does", async () => {
    const minted = await mintKey(agent.state, { accountId: null, scope: 'api', now: new Date() });
    assert.ok(minted.minted);
    const callers: Record<string, string>[] = [{}, { Authorization: `Bearer ${minted.apiKey}` }];
    for (const headers of callers) {
      const replies: Response[] = [];
      const client = await connect(headers, replies);
      const result = (await client.callTool({ name: 'tenders_match', arguments: { example: 'it' } })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const usage = (await (await fetch(new URL('/v1/usage', agent.url), { headers })).json()) as { current: { used: number; remaining: number } };
      assert.ok(usage.current.used > 0, 'the call was counted');
      assert.equal(replies.at(-1)!.headers.get('ratelimit-remaining'), String(usage.current.remaining));
    }
  });

  it("refuses an unknown example in the route's words, and a refused URL as a tool error carrying its detail", async () => {
    const client = await connect();
    const unknown = (await client.callTool({ name: 'tenders_match', arguments: { example: 'plumbing' } })) as CallToolResult;
    assert.equal(unknown.isError, true);
    const refused = (await client.callTool({ name: 'tenders_match', arguments: { url: 'http://169.254.169.254/' } })) as CallToolResult;
    assert.equal(refused.isError, true);
    const text = refused.content[0];
    assert.equal(text?.type, 'text');
    assert.equal(text.text, (await rest({ url: 'http://169.254.169.254/' })).body.detail);
  });
});
