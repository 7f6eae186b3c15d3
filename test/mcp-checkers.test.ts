import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { base64, checkerApp, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

describe('MCP tools of the document checkers', () => {
  let checker: CheckerApp;
  let server: Server;
  let url: string;
  let client: Client;

  before(async () => {
    checker = await checkerApp();
    server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: checker.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new Client({ name: 'mcp-checkers-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
    await checker.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('lists each checker with its body and `fresh` as arguments, never `stream`', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of ['inspect_document', 'check_warrant_cache', 'get_warrant', 'warrant_feedback', 'extract_document', 'extract_capabilities', 'identity_check', 'check_pack']) assert.ok(byName.has(name), name);
    assert.deepEqual(Object.keys(byName.get('inspect_document')!.inputSchema.properties ?? {}).sort(), ['bytes_b64', 'filename', 'fresh', 'sandbox', 'url']);
    assert.ok(Object.keys(byName.get('identity_check')!.inputSchema.properties ?? {}).includes('documents'));
    assert.equal(byName.get('inspect_document')!.annotations?.readOnlyHint, false);
  });

  it('inspect_document sends bytes_b64 as JSON, answers the stored warrant, and counts one unit; fresh travels as the query', async () => {
    const bytes = tinyPdf('mcp');
    const result = await call('inspect_document', { bytes_b64: base64(bytes), filename: 'mcp.pdf' });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const bundle = result.structuredContent as { warrant_id: string; filename: string; sha256: string };
    assert.equal(bundle.filename, 'mcp.pdf');
    assert.deepEqual(bundle, await (await fetch(`${url}/v1/warrants/${bundle.warrant_id}`)).json());
    assert.equal(await unitsUsed(checker), 1);
    const cached = await call('check_warrant_cache', { sha256: bundle.sha256 });
    assert.deepEqual(cached.structuredContent, { cached: true, warrant_id: bundle.warrant_id, permalink: `https://checks.example/v1/warrants/${bundle.warrant_id}` });
    await call('inspect_document', { bytes_b64: base64(bytes), filename: 'mcp.pdf' });
    assert.equal(await unitsUsed(checker), 1, 'the stored warrant was free');
    const fresh = await call('inspect_document', { bytes_b64: base64(bytes), filename: 'again.pdf', fresh: true });
    assert.equal((fresh.structuredContent as { filename: string }).filename, 'again.pdf');
    assert.equal(await unitsUsed(checker), 2);
    const rated = await call('warrant_feedback', { warrant_id: bundle.warrant_id, verdict: 'up' });
    assert.equal((rated.structuredContent as { verdict: string }).verdict, 'up');
  });

  it('identity_check, check_pack and extract_document answer their routes\' replies; a refused document is a tool error with its detail', async () => {
    const documents = [{ bytes_b64: base64(tinyPdf('id')), filename: 'id.pdf' }];
    const identity = await call('identity_check', { documents, scheme: 'austrac_safe_harbour' });
    assert.equal((identity.structuredContent as { scheme: { id: string } }).scheme.id, 'austrac_safe_harbour');
    const pack = await call('check_pack', { documents, requirements: ['payslip'] });
    assert.notEqual(pack.isError, true, JSON.stringify(pack));
    const extract = await call('extract_document', { bytes_b64: base64(tinyPdf('x')), template: 'payslip' });
    assert.notEqual(extract.isError, true, JSON.stringify(extract));
    const capabilities = await call('extract_capabilities', {});
    assert.ok(Array.isArray((capabilities.structuredContent as { options: unknown[] }).options));
    const refused = await call('inspect_document', { bytes_b64: base64(new TextEncoder().encode('plain words')), filename: 'a.pdf' });
    assert.equal(refused.isError, true);
    assert.equal((refused.content[0] as { text: string }).text, 'The document (a.pdf): received plain text; warrants accept PDF, PNG, JPEG, WebP, BMP or TIFF. The type is judged from the content, not the file name.');
  });
});
