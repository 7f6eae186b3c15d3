// A checker is one folder (issue 25): a tiny checker written into a temporary folder, loaded by the registry
// from there, is answered on REST, listed and called as an MCP tool, and described in /openapi.json and the
// discovery documents, with no other file of the service touched.
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { analysesOf, checkers, loadCheckers } from '../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisPool } from '../api/checkers/_runner/pool.ts';
import { type StateDb } from '../data/state/db.ts';
import { openTestState } from './helpers/state.ts';

const repo = (path: string) => new URL(`../${path}`, import.meta.url).href;

/** The analysis, run in the pool's processes: how many bytes and lines the document has. */
const ANALYSE = `
export async function countLines(documents) {
  const text = new TextDecoder().decode(documents[0].bytes);
  return { bytes: documents[0].bytes.byteLength, lines: text.split('\\n').length, limitations: 'Counts lines; reads nothing else.' };
}
`;

/** The descriptor: a pool-lane checker over plain text, as a new checker's folder would declare it. */
const CHECKER = `
import { z } from '${import.meta.resolve('@hono/zod-openapi')}';
import packageJson from '${repo('package.json')}' with { type: 'json' };
import { answer } from '${repo('api/checkers/_runner/answer.ts')}';
import { cachedAnalysis } from '${repo('api/checkers/_runner/cached-analysis.ts')}';
import { defineChecker } from '${repo('api/checkers/define-checker.ts')}';
import { documentBytes, documentFilename, freshSwitch, streamSwitch, uploadedFile } from '${repo('api/schemas/checkers.ts')}';
import { sandboxField, strictQuery } from '${repo('api/schemas/common.ts')}';

const LineCount = z.object({ bytes: z.number(), lines: z.number(), limitations: z.string() }).openapi('LineCount');
const Body = z.strictObject({ bytes_b64: documentBytes.optional(), filename: documentFilename.optional(), sandbox: sandboxField }).openapi('LineCountRequest');

export default defineChecker({
  name: 'line-count',
  tool: 'count_lines',
  path: '/v1/count-lines',
  lane: { kind: 'pool', analysis: { moduleUrl: new URL('./analyse.ts', import.meta.url).href, exportName: 'countLines' } },
  intake: { subject: 'line counts', accepts: ['text'], maxDocuments: 1, url: 'unavailable' },
  route: {
    summary: 'Count the lines of a text document',
    description: 'Counts bytes and lines. One unit of the weekly allowance per call.',
    query: strictQuery({ stream: streamSwitch, fresh: freshSwitch }),
    body: { required: false, json: Body, form: z.object({ file: uploadedFile.optional() }) },
    reply: { schema: LineCount, description: 'The count.' },
  },
  mcp: { title: 'Count lines', description: 'Counts the lines of a text document sent as bytes_b64.', input: Body, output: LineCount, request: 'document' },
  sandbox: { summary: 'A three-line note.', reply: () => ({ bytes: 12, lines: 3, limitations: 'Sandbox reply.' }) },
  agentNote: 'count_lines counts lines.',
  handler: (deps) => async ({ c, query, documents }) => {
    const intake = await documents();
    return answer(c, deps, await cachedAnalysis(deps.cache, {
      checker: 'count_lines', documents: intake.documents, namesShown: false, options: {}, engineVersion: packageJson.version,
      fresh: query.fresh, stream: query.stream, now: deps.now(),
    }));
  },
});
`;

describe('a checker added as one folder', () => {
  let folder: string;
  let state: StateDb;
  let pool: AnalysisPool;
  let server: Server;
  let url: string;
  let client: Client;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'checkers-'));
    await mkdir(join(folder, 'line-count'));
    await writeFile(join(folder, 'line-count', 'analyse.ts'), ANALYSE);
    await writeFile(join(folder, 'line-count', 'checker.ts'), CHECKER);
    const added = await loadCheckers(folder);
    assert.deepEqual(added.map((checker) => checker.name), ['line-count']);
    const descriptors = [...checkers, ...added];
    state = await openTestState();
    // The pool's analyses are the registry's own, the new checker's among them.
    pool = createAnalysisPool({ analyses: analysesOf(descriptors), size: 1 });
    const app = await createApp({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: () => new Date('2026-06-10T02:00:00.000Z') },
      state,
      burst: false,
      checkers: { descriptors, pool },
    });
    server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new Client({ name: 'checker-one-folder', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url)));
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
    await pool.close();
    await state.close();
    await rm(folder, { recursive: true, force: true });
  });

  const post = (body: unknown) => fetch(new URL('/v1/count-lines', url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const bytesB64 = Buffer.from('one\ntwo\nthree').toString('base64');

  it('answers its POST on REST, through the pool, metered, and from the content cache the second time', async () => {
    const first = await post({ bytes_b64: bytesB64, filename: 'note.txt' });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { bytes: 13, lines: 3, limitations: 'Counts lines; reads nothing else.' });
    const again = await post({ bytes_b64: bytesB64 });
    assert.equal(again.headers.get('svc-cache'), 'hit');
    const wrongKind = await post({ bytes_b64: Buffer.from('%PDF-1.4\n').toString('base64') });
    assert.equal(wrongKind.status, 400);
    assert.match(((await wrongKind.json()) as { detail: string }).detail, /line counts accept plain text/);
    const sandboxed = await post({ sandbox: true });
    assert.equal(((await sandboxed.json()) as { lines: number; sandbox: boolean }).sandbox, true);
  });

  it('is an MCP tool that calls the route', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'count_lines'));
    const result = (await client.callTool({ name: 'count_lines', arguments: { bytes_b64: bytesB64 } })) as CallToolResult;
    assert.deepEqual(result.structuredContent, { bytes: 13, lines: 3, limitations: 'Counts lines; reads nothing else.' });
  });

  it('is an operation of /openapi.json and is named in /agents.md, /llms.txt and the agent card', async () => {
    const openapi = (await (await fetch(new URL('/openapi.json', url))).json()) as { paths: Record<string, { post?: { summary: string; tags: string[] } }> };
    assert.equal(openapi.paths['/v1/count-lines']?.post?.summary, 'Count the lines of a text document');
    assert.deepEqual(openapi.paths['/v1/count-lines']?.post?.tags, ['Document checkers']);
    const agents = await (await fetch(new URL('/agents.md', url))).text();
    assert.match(agents, /### `count_lines`: Count lines/);
    assert.match(agents, /- count_lines counts lines\./);
    assert.match(agents, /`POST \/v1\/count-lines`: Count the lines of a text document/);
    assert.match(await (await fetch(new URL('/llms.txt', url))).text(), /\[count_lines\]/);
    const card = (await (await fetch(new URL('/v1/agent-card.json', url))).json()) as { skills: { id: string }[] };
    assert.ok(card.skills.some((skill) => skill.id === 'count_lines'));
  });
});
