import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import type { CompanyResolution } from '../api/checkers/companies/result.ts';
import { createAbnLookup } from '../api/providers/abn-lookup.ts';
import { createProviderTransport } from '../api/providers/http.ts';
import { servicesFromEnv } from '../api/providers/index.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { createMeter } from '../api/usage/meter.ts';
import { type StateDb } from '../data/state/db.ts';
import { createSafeFetcher } from '../lib/safe-fetch.ts';
import { startAbnLookupFake, type AbnLookupFake } from './helpers/abn-lookup-fake.ts';
import { REGISTER_RELEASE_NOW, registerRelease, type RegisterRelease } from './helpers/register-release.ts';
import { openTestState } from './helpers/state.ts';

const unitsUsed = async (state: StateDb) => (await state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

describe('POST /v1/companies/resolve', () => {
  let release: RegisterRelease;
  let store: ReleaseStore;
  let fake: AbnLookupFake;
  before(async () => {
    release = await registerRelease();
    release.store.close();
    store = await ReleaseStore.open({ dataDir: release.dataDir, log: () => {} });
    fake = await startAbnLookupFake();
  });
  after(async () => {
    await store.close();
    await fake.close();
  });

  /** The app over the fixture release; ABN Lookup unset unless `live`, as a server without the variable is. */
  async function app(options: { live?: boolean; noRelease?: boolean } = {}) {
    const state = await openTestState();
    const services = servicesFromEnv(options.live ? { SVC_ABN_LOOKUP_GUID: fake.guid, SVC_ABN_LOOKUP_URL: fake.baseUrl } : {}, createSafeFetcher());
    const releaseStore = options.noRelease ? { state: () => ({ ready: false as const, detail: 'No release has been published yet; the nightly run publishes one.' }), now: () => REGISTER_RELEASE_NOW } : store;
    const meter = createMeter({ state, now: () => REGISTER_RELEASE_NOW });
    return { state, app: await createApp({ store: releaseStore, state, meter, now: () => REGISTER_RELEASE_NOW, burst: false, checkers: { services } }) };
  }
  const post = (target: Awaited<ReturnType<typeof app>>, body: unknown, headers: Record<string, string> = {}) =>
    target.app.request('/v1/companies/resolve', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('resolves an ABN with its ASIC standing and counts one unit', async () => {
    const target = await app();
    const response = await post(target, { query: '53 004 085 616' });
    assert.equal(response.status, 200);
    const result = (await response.json()) as CompanyResolution;
    assert.equal(result.status, 'resolved');
    assert.equal(result.selected?.asic?.status, 'REGD');
    assert.equal(result.selected?.asic?.age_days, 3);
    assert.deepEqual(result.coverage.map((entry) => [entry.source, entry.status]), [['abr', 'read'], ['asic', 'read'], ['abn_lookup', 'not_configured']]);
    assert.equal(await unitsUsed(target.state), 1);
    assert.equal(response.headers.get('RateLimit-Remaining'), '19');
  });

  it('a name is ambiguous and counted; a typo, an NZBN or an unread register is inconclusive and not counted', async () => {
    const target = await app();
    const named = (await (await post(target, { query: 'Harbourside Civil', jurisdiction: 'AU-NSW' })).json()) as CompanyResolution;
    assert.equal(named.status, 'ambiguous');
    assert.equal(named.selected, null);
    assert.equal(await unitsUsed(target.state), 1);
    const typo = (await (await post(target, { query: 'ABN 53 004 085 617' })).json()) as CompanyResolution;
    assert.equal(typo.status, 'inconclusive');
    assert.deepEqual(typo.identifier?.nearest_valid.includes('53 004 085 616'), true);
    const nz = (await (await post(target, { query: 'NZBN 9429046393920' })).json()) as CompanyResolution;
    assert.equal(nz.status, 'inconclusive');
    assert.equal(await unitsUsed(target.state), 1);

    const empty = await app({ noRelease: true });
    const unread = (await (await post(empty, { query: 'Harbourside Civil' })).json()) as CompanyResolution;
    assert.equal(unread.status, 'inconclusive');
    assert.match(unread.coverage[0]!.detail, /No release has been published yet/);
    assert.equal(await unitsUsed(empty.state), 0);
  });

  it('with ABN Lookup configured, the live status is used', async () => {
    const target = await app({ live: true });
    const result = (await (await post(target, { query: 'ABN 96 608 139 724' })).json()) as CompanyResolution;
    assert.equal(result.selected?.abn_status, 'cancelled');
    assert.equal(result.selected?.abn_status_source, 'abn_lookup');
    assert.equal(result.coverage.find((entry) => entry.source === 'abn_lookup')?.status, 'read');
  });

  it('bad requests answer {detail} and are not counted', async () => {
    const target = await app();
    const cases: [unknown, number, RegExp][] = [
      [{ query: '' }, 422, /query.*is empty/],
      [{ query: 'Pty Ltd' }, 422, /has no word that names a company/],
      [{ query: 'x'.repeat(201) }, 422, /longer than 200 characters/],
      [{ query: 'Harbourside', jurisdiction: 'UK' }, 422, /jurisdiction/],
      [{ query: 'Harbourside', colour: 'red' }, 422, /colour/],
      [{}, 422, /query/],
    ];
    for (const [body, status, detail] of cases) {
      const response = await post(target, body);
      assert.equal(response.status, status, JSON.stringify(body));
      assert.match(((await response.json()) as { detail: string }).detail, detail);
    }
    const form = await target.app.request('/v1/companies/resolve', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Harbourside' });
    assert.equal(form.status, 415);
    assert.equal(await unitsUsed(target.state), 0);
  });

  it('the sandbox answers its fixture, free', async () => {
    const target = await app();
    const response = await post(target, { query: 'anything' }, { 'Svc-Sandbox': 'true' });
    assert.equal(response.status, 200);
    const result = (await response.json()) as CompanyResolution & { sandbox: boolean };
    assert.equal(result.sandbox, true);
    assert.equal(result.status, 'resolved');
    assert.equal(result.selected?.names.legal, 'RIDGELINE CIVIL PTY LTD');
    assert.equal(await unitsUsed(target.state), 0);
  });

  it('is described in /openapi.json, /agents.md and /llms.txt', async () => {
    const target = await app();
    const openapi = (await (await target.app.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    assert.ok(openapi.paths['/v1/companies/resolve']);
    const agents = await (await target.app.request('/agents.md')).text();
    assert.match(agents, /### `resolve_company`: Resolve an Australian company by name, ABN or ACN/);
    assert.match(agents, /`resolve_company` \(`POST \/v1\/companies\/resolve`\)/);
    assert.match(agents, /Company resolution takes JSON `\{"query": "…"\}`/);
    const llms = await (await target.app.request('/llms.txt')).text();
    assert.match(llms, /\[resolve_company\]/);
  });

  describe('as the MCP tool resolve_company', () => {
    let target: Awaited<ReturnType<typeof app>>;
    let server: Server;
    let client: Client;
    before(async () => {
      target = await app();
      server = await new Promise<Server>((resolve) => {
        const listening = serve({ fetch: target.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
      });
      client = new Client({ name: 'companies-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
    });
    after(async () => {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    });

    it('answers what the route answers, and an invalid query is a tool error with its detail', async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((entry) => entry.name === 'resolve_company');
      assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}).sort(), ['jurisdiction', 'query', 'sandbox']);
      const result = (await client.callTool({ name: 'resolve_company', arguments: { query: 'ACN 004 085 616' } })) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const resolution = result.structuredContent as CompanyResolution;
      assert.equal(resolution.status, 'resolved');
      assert.equal(resolution.selected?.identifiers.abn, '53004085616');
      assert.equal(await unitsUsed(target.state), 1);
      const refused = (await client.callTool({ name: 'resolve_company', arguments: { query: 'Pty Ltd' } })) as CallToolResult;
      assert.equal(refused.isError, true);
      assert.match((refused.content[0] as { text: string }).text, /has no word that names a company/);
    });
  });
});
