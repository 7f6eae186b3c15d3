import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { adverseMediaResult } from '../api/checkers/adverse-media/result.ts';
import { createProviderTransport } from '../api/providers/http.ts';
import { servicesFromEnv } from '../api/providers/index.ts';
import { createGdeltNews } from '../api/providers/news.ts';
import { createSafeFetcher } from '../lib/safe-fetch.ts';
import { checkerApp, type CheckerApp } from './helpers/checker-app.ts';
import { startFakeGdelt, type FakeGdelt } from './helpers/fake-gdelt.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

describe('MCP tool adverse_media', () => {
  let gdelt: FakeGdelt;
  let checker: CheckerApp;
  let server: Server;
  let client: Client;

  before(async () => {
    gdelt = await startFakeGdelt({
      articles: { 'John Smith': [{ url: 'https://news.example/charged', title: 'Ridgeline Civil boss John Smith charged over invoice fraud', seendate: '20261002T041500Z', domain: 'news.example' }] },
    });
    const transport = createProviderTransport({ userAgent: 'test', minIntervalMs: 0, timeoutMs: 2_000 });
    checker = await checkerApp({
      services: {
        ...servicesFromEnv({}, createSafeFetcher()),
        pages: { read: async () => ({ ok: false, reason: 'unreachable', detail: 'no pages in this test' }) },
        news: createGdeltNews({ transport, baseUrl: gdelt.url, intervalMs: 0 }),
      },
    });
    server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: checker.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    client = new Client({ name: 'mcp-adverse-media-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
    await checker.close();
    await gdelt.close();
  });

  it('is listed with the subject fields and the document fields as arguments', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'adverse_media');
    assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}).sort(), ['aliases', 'bytes_b64', 'country', 'dob', 'employer', 'filename', 'name', 'role', 'sandbox', 'url']);
  });

  it('answers the route\'s reply as structured content and counts one unit; a request with neither name nor document is a tool error with its detail', async () => {
    const result = (await client.callTool({ name: 'adverse_media', arguments: { name: 'John Smith', employer: 'Ridgeline Civil' } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const body = adverseMediaResult.parse(result.structuredContent);
    assert.deepEqual(body.adverse_media.hits.map((hit) => [hit.category, hit.match]), [['fraud', 'name_and_details']]);
    assert.equal(await unitsUsed(checker), 1);
    const refused = (await client.callTool({ name: 'adverse_media', arguments: { role: 'director' } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.match((refused.content[0] as { text: string }).text, /^Give the subject's `name`, or an identity document/);
  });
});
