import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FactCheckResult } from '../api/checkers/references/result.ts';
import { checkerApp, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeProviders, type FakeProviders } from './helpers/fake-providers.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

describe('MCP tools of the reference checker', () => {
  let fake: FakeProviders;
  let checker: CheckerApp;
  let server: Server;
  let client: Client;

  before(async () => {
    fake = await startFakeProviders({
      pages: { 'www.abs.example/household-spending': { status: 200, body: '<title>Household spending</title><p>Household spending rose 4.2% in the June quarter.</p>' } },
      works: { '10.5555/12345678': { DOI: '10.5555/12345678', title: ['Toward a Unified Theory of High-Energy Metaphysics'], issued: { 'date-parts': [[2008]] } } },
    });
    checker = await checkerApp({ services: fake.services() });
    server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: checker.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    client = new Client({ name: 'mcp-references-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
    await checker.close();
    await fake.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('verify_references takes text and deep, answers the fact-check, counts one unit; get_fact_check reads it back; checker_feedback rates it', async () => {
    const text = 'Household spending rose 4.2% in the June quarter (https://www.abs.example/household-spending). See doi:10.5555/12345678 for theory.';
    const checked = await call('verify_references', { text, deep: true });
    assert.notEqual(checked.isError, true, JSON.stringify(checked));
    const result = checked.structuredContent as FactCheckResult;
    assert.equal(result.deep, true);
    assert.deepEqual(result.references.map((reference) => reference.status), ['live', 'registered']);
    assert.deepEqual(result.claims.map((claim) => claim.verdict), ['supports']);
    assert.equal(await unitsUsed(checker), 1);

    const stored = await call('get_fact_check', { check_id: result.check_id });
    assert.deepEqual(stored.structuredContent, result);
    const rated = await call('checker_feedback', { tool: 'verify_references', verdict: 'up', ref: result.check_id });
    assert.deepEqual((rated.structuredContent as { recorded: boolean }).recorded, true);
    const refused = await call('checker_feedback', { tool: 'verify_references', verdict: 'sideways' });
    assert.equal(refused.isError, true);
    assert.equal(await unitsUsed(checker), 1, 'reading and rating are free');
  });
});
