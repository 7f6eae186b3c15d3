import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { OverlapResult } from '../api/checkers/overlap/result.ts';
import { servicesFromEnv } from '../api/providers/index.ts';
import { checkerApp, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeWeb, type FakeWeb } from './helpers/fake-web.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

const COPIED = 'Operators reported that chlorine dosing equipment at several small plants is past the end of its design life and that spare parts are no longer manufactured anywhere in Australia';
const TEXT =
  'Our shire runs two small water treatment plants and a long network of rural roads, and this note explains the state of both to the council. ' +
  `${COPIED}. Our own plants are among them, and we have budgeted for new dosing pumps in the coming financial year. ` +
  'The roads program is unchanged: the western routes are resheeted each summer, and the bridge on the river road is inspected twice a year by an engineer.';

/** The MCP tool answers what the route answers, and the meter counts an assessed check only. */
describe('MCP tool check_source_overlap', () => {
  let web: FakeWeb;
  before(async () => {
    web = await startFakeWeb([{ host: 'water.example', path: '/plan', title: 'Regional water plan', text: `Water security in inland towns depends on ageing weirs.\n\n${COPIED}.` }]);
  });
  after(() => web.close());

  async function connect(env: Record<string, string>): Promise<{ checker: CheckerApp; client: Client; close: () => Promise<void> }> {
    const checker = await checkerApp({ real: ['read_text'], services: servicesFromEnv(env, web.fetcher, { minIntervalMs: 0 }) });
    const server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: checker.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    const client = new Client({ name: 'mcp-overlap-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    return {
      checker, client,
      close: async () => {
        await client.close();
        await new Promise((resolve) => server.close(resolve));
        await checker.close();
      },
    };
  }

  it('is listed with the route\'s body as its arguments', async () => {
    const { client, close } = await connect({});
    try {
      const tool = (await client.listTools()).tools.find((entry) => entry.name === 'check_source_overlap');
      assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}).sort(), ['bytes_b64', 'filename', 'sandbox', 'text', 'url']);
    } finally {
      await close();
    }
  });

  it('finds the copied passage through the fake provider and counts one unit; unconfigured, it says so and counts none', async () => {
    const configured = await connect({ SVC_BRAVE_SEARCH_KEY: web.apiKey, SVC_BRAVE_SEARCH_URL: web.searchUrl, SVC_BRAVE_SEARCH_INTERVAL_MS: '0' });
    try {
      const result = (await configured.client.callTool({ name: 'check_source_overlap', arguments: { text: TEXT } })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const body = result.structuredContent as OverlapResult;
      assert.equal(body.outcome, 'assessed');
      assert.deepEqual(body.matches.map((match) => [match.source_url, match.matched_quote]), [[web.urlOf({ host: 'water.example', path: '/plan' }), COPIED]]);
      assert.equal(await unitsUsed(configured.checker), 1);
    } finally {
      await configured.close();
    }
    const unconfigured = await connect({});
    try {
      const result = (await unconfigured.client.callTool({ name: 'check_source_overlap', arguments: { text: TEXT } })) as CallToolResult;
      assert.equal((result.structuredContent as OverlapResult).outcome, 'search_unavailable');
      assert.equal(await unitsUsed(unconfigured.checker), 0);
    } finally {
      await unconfigured.close();
    }
  });
});
