import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { type StateDb } from '../data/state/db.ts';
import { createMeter } from '../api/usage/meter.ts';
import { secretHash } from '../lib/tokens.ts';
import { PUBLIC_URL, keyFor, signIn } from './helpers/access.ts';
import { openTestState } from './helpers/state.ts';

const NOW = new Date('2026-06-10T02:00:00.000Z');
const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release is loaded yet.' }), now: () => NOW };

async function setup() {
  const state = await openTestState();
  const meter = createMeter({ state, now: () => NOW });
  const app = await createApp({ store: NO_RELEASE, state, meter, publicUrl: PUBLIC_URL, burst: false, now: () => NOW });
  return { state, meter, app };
}

type App = Awaited<ReturnType<typeof setup>>['app'];
const post = (app: App, path: string, headers: Record<string, string>, body?: object) =>
  app.request(path, {
    method: 'POST',
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const detailOf = async (response: Response) => ((await response.json()) as { detail: string }).detail;

/** Every row of every table of the state store as text, blobs decoded, to look for a secret anywhere in it. */
async function everythingStored(state: StateDb): Promise<string> {
  const tables = (await state.all<{ name: string }>(
    state.engine === 'sqlite' ? "SELECT name FROM sqlite_master WHERE type = 'table'" : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
  )).map((row) => row.name);
  const dumps: string[] = [];
  for (const table of tables) {
    dumps.push(JSON.stringify(await state.all(`SELECT * FROM "${table}"`), (_, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value));
  }
  return dumps.join('\n');
}

interface KeyMetadata {
  key_id: string;
  name: string;
  prefix: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
  disabled: boolean;
}

describe('POST /v1/keys and GET /v1/keys', () => {
  it('creates a key for a signed-in account only, shows it once and keeps only its hash', async () => {
    const { app, state } = await setup();
    assert.equal((await post(app, '/v1/keys', {}, {})).status, 401);
    const person = await signIn(state, 'owner@example.com', NOW);
    const existing = await keyFor(state, person.accountId);
    const withKey = await post(app, '/v1/keys', existing.headers, {});
    assert.equal(withKey.status, 401, 'a key cannot mint keys');
    assert.match(await detailOf(withKey), /signed-in session/);

    const created = await post(app, '/v1/keys', person.headers, { name: 'CI pipeline' });
    assert.equal(created.status, 201);
    const body = (await created.json()) as KeyMetadata & { api_key: string };
    assert.match(body.api_key, /^svc_[A-Za-z0-9_-]{32}$/);
    assert.ok(body.api_key.startsWith(body.prefix));
    assert.deepEqual({ ...body, api_key: undefined, key_id: undefined, prefix: undefined }, {
      api_key: undefined, key_id: undefined, prefix: undefined, name: 'CI pipeline', scope: 'api', created_at: NOW.toISOString(), last_used_at: null, disabled: false,
    });
    const stored = await state.all<Record<string, unknown>>('SELECT * FROM api_keys');
    assert.ok(!JSON.stringify(stored).includes(body.api_key), 'the plaintext is not stored');
    assert.ok(stored.some((row) => row.key_hash === secretHash(body.api_key)));

    // The new key works, and the listing shows metadata only.
    assert.equal((await app.request('/v1/usage', { headers: { authorization: `Bearer ${body.api_key}` } })).status, 200);
    const listed = await app.request('/v1/keys', { headers: person.headers });
    assert.equal(listed.status, 200);
    const text = await listed.text();
    assert.ok(!text.includes(body.api_key) && !text.includes(secretHash(body.api_key)), 'never the key or its hash');
    const { keys } = JSON.parse(text) as { keys: KeyMetadata[] };
    assert.deepEqual(keys.map((key) => key.key_id).sort(), [existing.keyId, body.key_id].sort());
    assert.deepEqual(Object.keys(keys[0]!).sort(), ['created_at', 'disabled', 'key_id', 'last_used_at', 'name', 'prefix', 'scope']);
    assert.equal(keys.find((key) => key.key_id === body.key_id)!.last_used_at, NOW.toISOString());
    assert.equal((await app.request('/v1/keys')).status, 401, 'anonymous callers have no keys to list');
  });

  it('caps an account at 5 keys, connector keys included, exactly even when requests race', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'capped@example.com', NOW);
    const connector = await post(app, '/v1/mcp/connector', person.headers);
    assert.equal(connector.status, 201);
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => post(app, '/v1/keys', person.headers, {})))).map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 4);
    assert.equal(statuses.filter((s) => s === 409).length, 6);
    const refused = await post(app, '/v1/keys', person.headers, {});
    assert.equal(refused.status, 409);
    assert.match(await detailOf(refused), /already has 5 keys, connector keys included.*Revoke one with DELETE \/v1\/keys\/\{key_id\}/);
    assert.equal((await post(app, '/v1/mcp/connector', person.headers)).status, 409);

    const { key_id } = (await connector.json()) as { key_id: string };
    assert.equal((await app.request(`/v1/keys/${key_id}`, { method: 'DELETE', headers: person.headers })).status, 200);
    assert.equal((await post(app, '/v1/keys', person.headers, {})).status, 201, 'revoking frees a place');
  });

  it('answers 422 for a body that does not match the schema', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'schema@example.com', NOW);
    const response = await post(app, '/v1/keys', person.headers, { name: 'x', colour: 'red' });
    assert.equal(response.status, 422);
    assert.match(await detailOf(response), /colour/);
  });
});

describe('a retry of a key-minting call with the same Idempotency-Key', () => {
  for (const [path, secretField] of [['/v1/keys', 'api_key'], ['/v1/mcp/connector', 'url']] as const) {
    it(`${path}: mints nothing again, replays the reply without ${secretField}, and no table keeps the secret`, async () => {
      const { app, state } = await setup();
      const person = await signIn(state, `retry${secretField}@example.com`, NOW);
      const headers = { ...person.headers, 'idempotency-key': `mint-${secretField}` };
      const first = await post(app, path, headers, {});
      assert.equal(first.status, 201);
      const minted = (await first.json()) as Record<string, string>;
      const secret = /svc_[A-Za-z0-9_-]{32}/.exec(minted[secretField]!)![0];
      assert.ok(!(await everythingStored(state)).includes(secret), 'the plaintext is in no table, the idempotency store included');
      assert.equal(first.headers.get('cache-control'), 'no-store');

      const retry = await post(app, path, headers, {});
      assert.equal(retry.status, 201);
      assert.equal(retry.headers.get('idempotent-replayed'), 'true');
      const replayed = (await retry.json()) as Record<string, unknown>;
      assert.equal(secretField in replayed, false);
      assert.ok(!JSON.stringify(replayed).includes(secret));
      assert.equal(replayed.key_id, minted.key_id, 'the same key, named so it can be revoked');
      assert.deepEqual(replayed.withheld, [secretField]);
      assert.match(String(replayed.withheld_reason), /shown once.*never stored.*DELETE \/v1\/keys\/\{key_id\}/);
      const { keys } = (await (await app.request('/v1/keys', { headers: person.headers })).json()) as { keys: KeyMetadata[] };
      assert.deepEqual(keys.map((key) => key.key_id), [minted.key_id], 'the retry minted no second key');
    });
  }
});

describe('DELETE /v1/keys/{key_id}', () => {
  it('revokes for the owner only, and the very next request with the key is 401, never anonymous', async () => {
    const { app, state } = await setup();
    const owner = await signIn(state, 'owner@example.com', NOW);
    const stranger = await signIn(state, 'stranger@example.com', NOW);
    const key = await keyFor(state, owner.accountId);
    assert.equal((await app.request('/health', { headers: key.headers })).status, 200);

    const notYours = await app.request(`/v1/keys/${key.keyId}`, { method: 'DELETE', headers: stranger.headers });
    assert.equal(notYours.status, 404, "another account's key looks missing");
    assert.equal((await app.request(`/v1/keys/${key.keyId}`, { method: 'DELETE' })).status, 401);
    assert.equal((await app.request('/health', { headers: key.headers })).status, 200, 'still valid');

    const revoked = await app.request(`/v1/keys/${key.keyId}`, { method: 'DELETE', headers: owner.headers });
    assert.equal(revoked.status, 200);
    assert.deepEqual(await revoked.json(), { key_id: key.keyId, revoked_at: NOW.toISOString() });
    for (const path of ['/health', '/v1/tenders', '/v1/usage']) {
      const next = await app.request(path, { headers: key.headers });
      assert.equal(next.status, 401, path);
      assert.match(await detailOf(next), /revoked/);
    }
    assert.equal((await app.request(`/v1/keys/${key.keyId}`, { method: 'DELETE', headers: owner.headers })).status, 404, 'already revoked');
  });

  it('lets a key revoke itself, but not another key', async () => {
    const { app, state } = await setup();
    const loose = await keyFor(state, null);
    const other = await keyFor(state, null);
    assert.equal((await app.request(`/v1/keys/${other.keyId}`, { method: 'DELETE', headers: loose.headers })).status, 404);
    assert.equal((await app.request(`/v1/keys/${loose.keyId}`, { method: 'DELETE', headers: loose.headers })).status, 200);
    assert.equal((await app.request('/health', { headers: loose.headers })).status, 401);
    assert.equal((await app.request('/health', { headers: other.headers })).status, 200);
  });
});

describe('presented keys', () => {
  it('answer 401 when invalid, malformed or disabled, and never fall back to the anonymous allowance', async () => {
    const { app, state } = await setup();
    const disabled = await keyFor(state, null);
    await state.run('UPDATE api_keys SET disabled_at = ? WHERE key_id = ?', NOW.toISOString(), disabled.keyId);
    const cases: [string, RegExp][] = [
      ['Bearer svc_doesnotexist', /not valid/],
      ['Bearer not-a-key', /Bearer svc_/],
      ['Basic dXNlcjpwYXNz', /Bearer svc_/],
      [disabled.headers.authorization!, /disabled/],
    ];
    for (const [authorization, detail] of cases) {
      const response = await app.request('/v1/usage', { headers: { authorization } });
      assert.equal(response.status, 401, authorization);
      assert.match(await detailOf(response), detail);
    }
    assert.equal((await app.request('/v1/usage')).status, 200, 'without a header the call is anonymous');
  });
});

describe('POST /v1/account/keys/link', () => {
  it('attaches a key minted without an account after proof of possession, moving its week to the account', async () => {
    const { app, state, meter } = await setup();
    const person = await signIn(state, 'linker@example.com', NOW);
    const loose = await keyFor(state, null);
    for (let i = 0; i < 3; i++) {
      const outcome = await meter.reserve({ kind: 'key', ip: 'unknown', keyId: loose.keyId, accountId: null, scope: 'api' });
      assert.ok(outcome.granted);
      await meter.commit(outcome.reservation);
    }

    assert.equal((await post(app, '/v1/account/keys/link', loose.headers, { api_key: loose.apiKey })).status, 401, 'a session is needed');
    const linked = await post(app, '/v1/account/keys/link', person.headers, { api_key: loose.apiKey });
    assert.equal(linked.status, 200);
    assert.equal(((await linked.json()) as KeyMetadata).key_id, loose.keyId);
    const { keys } = (await (await app.request('/v1/keys', { headers: person.headers })).json()) as { keys: KeyMetadata[] };
    assert.deepEqual(keys.map((key) => key.key_id), [loose.keyId]);
    const usage = (await (await app.request('/v1/usage', { headers: loose.headers })).json()) as { counted_per: string; current: { used: number } };
    assert.equal(usage.counted_per, 'account');
    assert.equal(usage.current.used, 3, 'what the key used this week moved with it');

    assert.equal((await post(app, '/v1/account/keys/link', person.headers, { api_key: loose.apiKey })).status, 200, 'linking again changes nothing');
    const other = await signIn(state, 'other@example.com', NOW);
    assert.equal((await post(app, '/v1/account/keys/link', other.headers, { api_key: loose.apiKey })).status, 409);
    assert.equal((await post(app, '/v1/account/keys/link', person.headers, { api_key: 'svc_unknownkey' })).status, 404);
    assert.equal((await post(app, '/v1/account/keys/link', person.headers, { api_key: 'sk_live_1' })).status, 422);
    assert.equal((await post(app, '/v1/account/keys/link', person.headers, {})).status, 422);
  });

  it('counts a linked key toward the cap', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'full@example.com', NOW);
    for (let i = 0; i < 5; i++) await keyFor(state, person.accountId);
    const loose = await keyFor(state, null);
    const refused = await post(app, '/v1/account/keys/link', person.headers, { api_key: loose.apiKey });
    assert.equal(refused.status, 409);
    assert.match(await detailOf(refused), /already has 5 keys/);
  });
});

describe('POST /v1/mcp/connector', () => {
  it('mints a connector URL whose key works only at /mcp or in-process forwards from the MCP server', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'chat@example.com', NOW);
    assert.equal((await post(app, '/v1/mcp/connector', {})).status, 401);
    const response = await post(app, '/v1/mcp/connector', person.headers);
    assert.equal(response.status, 201);
    const { url, key_id } = (await response.json()) as { url: string; key_id: string };
    const match = new RegExp(`^${PUBLIC_URL}/mcp/c/(svc_[A-Za-z0-9_-]{32})$`).exec(url);
    assert.ok(match, url);
    const headers = { authorization: `Bearer ${match[1]}` };

    const { keys } = (await (await app.request('/v1/keys', { headers: person.headers })).json()) as { keys: KeyMetadata[] };
    assert.deepEqual(keys.map((key) => [key.key_id, key.scope, key.name]), [[key_id, 'mcp', 'MCP connector']]);

    for (const path of ['/v1/usage', '/v1/tenders', '/v1/keys']) {
      const refused = await app.request(path, { headers });
      assert.equal(refused.status, 401, path);
      assert.match(await detailOf(refused), /works only at \/mcp/);
    }
    assert.notEqual((await app.request('/mcp', { headers })).status, 401, 'admitted at /mcp');
    assert.equal((await app.request('/v1/usage', { headers }, { mcpForward: true })).status, 200);
  });
});

describe('cookie-authenticated writes', () => {
  it('must come from our own origin (Origin, else Referer); key-authenticated writes need no such check', async () => {
    const { app, state } = await setup();
    const person = await signIn(state, 'csrf@example.com', NOW);
    const cookie = { cookie: person.headers.cookie! };
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      {},
      { referer: 'https://evil.example/page' },
      { origin: 'http://127.0.0.1:9999' },
    ];
    for (const extra of foreign) {
      const response = await post(app, '/v1/keys', { ...cookie, ...extra }, {});
      assert.equal(response.status, 403, JSON.stringify(extra));
      assert.match(await detailOf(response), /must come from http:\/\/127\.0\.0\.1:8787 itself/);
    }
    assert.equal((await post(app, '/v1/keys', { ...cookie, referer: `${PUBLIC_URL}/account/keys` }, {})).status, 201);
    assert.equal((await post(app, '/v1/keys', { ...cookie, origin: PUBLIC_URL }, {})).status, 201);
    assert.equal((await app.request('/v1/keys', { headers: { ...cookie, origin: 'https://evil.example' } })).status, 200, 'reads are not changes');

    const key = await keyFor(state, person.accountId);
    assert.equal((await app.request(`/v1/keys/${key.keyId}`, { method: 'DELETE', headers: key.headers })).status, 200);
  });
});

describe('/openapi.json', () => {
  it('documents every access route and both ways to identify', async () => {
    const { app } = await setup();
    const document = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } };
    for (const path of ['/v1/auth/login', '/v1/auth/callback', '/v1/auth/logout', '/v1/keys', '/v1/keys/{key_id}', '/v1/account', '/v1/account/keys/link', '/v1/mcp/connector', '/v1/usage', '/v1/pricing']) {
      assert.ok(path in document.paths, `${path} is documented`);
    }
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['bearer', 'session']);
  });

  it('declares the 401 and 429 replies and the rate headers on every route', async () => {
    const { app } = await setup();
    type Reply = { $ref?: string; headers?: Record<string, { $ref: string }> };
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, Reply> }>>;
      components: { headers: Record<string, { schema: object }>; responses: Record<string, Reply> };
    };
    const rateHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
    const resolved = (reply: Reply) => (reply.$ref ? document.components.responses[reply.$ref.replace('#/components/responses/', '')]! : reply);
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations++;
        const where = `${method.toUpperCase()} ${path}`;
        assert.ok(operation.responses['401'], `${where} declares 401`);
        assert.ok(operation.responses['429'], `${where} declares 429`);
        for (const [status, reply] of Object.entries(operation.responses)) {
          const headers = resolved(reply).headers ?? {};
          for (const header of rateHeaders) assert.equal(headers[header]?.$ref, `#/components/headers/${header}`, `${where} ${status} carries ${header}`);
        }
        assert.ok(resolved(operation.responses['429']!).headers?.['Retry-After'], `${where} 429 carries Retry-After`);
      }
    }
    assert.ok(operations > 40, `every route (${operations})`);
    for (const header of [...rateHeaders, 'Retry-After']) assert.deepEqual(document.components.headers[header]!.schema, { type: 'integer' });
    const keys = document.paths['/v1/keys']!;
    assert.match(JSON.stringify(keys.get!.responses['401']), /key is not valid/, "a route's own 401 is kept");
  });
});
