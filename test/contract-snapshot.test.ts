// The documents that describe the wire (OpenAPI, the MCP tool list, /agents.md, /llms.txt and the agent cards)
// compared byte for byte against copies taken before the checker wing moved (issue 25): moving code must not
// change what clients read. CONTRACT_SNAPSHOT_WRITE=1 writes new copies and fails, so a run never passes
// against copies it has just written; review the diff of test/snapshots/contract/ before committing it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAgentApp, type AgentApp } from './helpers/agent-app.ts';
import { sourceRow, tenderRow } from './helpers/seed-release.ts';

const SNAPSHOTS = join(import.meta.dirname, 'snapshots', 'contract');
const NOW = new Date('2026-06-10T02:00:00.000Z');
const DOCUMENTS = [
  { path: '/openapi.json', file: 'openapi.json' },
  { path: '/agents.md', file: 'agents.md' },
  { path: '/llms.txt', file: 'llms.txt' },
  { path: '/v1/agent-card.json', file: 'agent-card.json' },
  { path: '/.well-known/agent.json', file: 'well-known-agent.json' },
];
const writing = process.env.CONTRACT_SNAPSHOT_WRITE === '1';

function compare(file: string, actual: string): void {
  const path = join(SNAPSHOTS, file);
  if (writing) {
    writeFileSync(path, actual);
    assert.fail(`wrote ${file}; rerun without CONTRACT_SNAPSHOT_WRITE to compare`);
  }
  assert.ok(existsSync(path), `no snapshot ${file}: write one with CONTRACT_SNAPSHOT_WRITE=1`);
  assert.equal(actual, readFileSync(path, 'utf8'), `${file} differs from its snapshot`);
}

describe('wire documents are unchanged by moving code', () => {
  let agent: AgentApp;

  before(async () => {
    agent = await startAgentApp({
      tenders: [tenderRow({ title: 'Road maintenance services', reference: 'R-1', closing_date: '2026-06-20' })],
      sources: [sourceRow()],
      now: NOW,
    });
  });
  after(async () => agent.close());

  for (const { path, file } of DOCUMENTS) {
    it(`${path} is byte-identical to its snapshot`, async () => {
      const reply = await fetch(new URL(path, agent.url));
      assert.equal(reply.status, 200);
      compare(file, await reply.text());
    });
  }

  it('the MCP tool list is identical to its snapshot', async () => {
    const client = new Client({ name: 'contract-snapshot', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', agent.url)));
    try {
      compare('mcp-tools.json', `${JSON.stringify((await client.listTools()).tools, null, 2)}\n`);
    } finally {
      await client.close();
    }
  });
});
