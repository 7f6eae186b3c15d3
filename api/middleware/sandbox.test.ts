import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono, type MiddlewareHandler } from 'hono';
import type { CallerEnv } from '../accounts/caller.ts';
import { caller } from './caller.ts';
import type { SandboxEnv } from '../schemas/common.ts';
import { createSandbox, isSandboxRequest } from './sandbox.ts';
import { openTestState } from '../../test/helpers/state.ts';

type Env = { Variables: CallerEnv['Variables'] & SandboxEnv['Variables'] };

async function sandboxedApp() {
  const calls = { meter: 0, handler: 0 };
  const seen: { outer?: boolean; inner?: boolean } = {};
  const sandbox = createSandbox();
  sandbox.register('extract', {
    summary: 'A two-page invoice with its number and total extracted.',
    reply: (request) => ({ fields: { invoice_number: 'INV-0042', total: '1,250.00' }, filename: (request.body as { filename?: string } | undefined)?.filename ?? 'invoice.pdf' }),
  });
  sandbox.register('warrants', { summary: 'A stored warrant of a clean PDF.', reply: () => ({ warrant_id: 'wrt_sandbox' }), status: 201 });
  const meter: MiddlewareHandler<Env> = async (c, next) => {
    calls.meter++;
    seen.inner = c.get('sandbox');
    await next();
  };
  const app = new Hono<Env>();
  app.use('*', caller({ state: await openTestState(), clientIp: () => '198.51.100.7' }));
  app.use('*', async (c, next) => {
    await next();
    seen.outer = c.get('sandbox');
  });
  for (const tool of ['extract', 'warrants', 'screen']) {
    app.post(`/v1/${tool}`, sandbox.middleware(tool), meter, (c) => {
      calls.handler++;
      return c.json({ real: true });
    });
  }
  return { app, sandbox, calls, seen };
}

test('each of the three switches answers the fixture labelled sandbox: true, without metering or running the tool', async () => {
  const { app, calls, seen } = await sandboxedApp();
  const switches: [string, RequestInit][] = [
    ['/v1/extract', { method: 'POST', body: JSON.stringify({ sandbox: true, filename: 'quote.pdf' }), headers: { 'content-type': 'application/json' } }],
    ['/v1/extract?sandbox=true', { method: 'POST' }],
    ['/v1/extract', { method: 'POST', headers: { 'Svc-Sandbox': 'true' } }],
    ['/v1/extract', { method: 'POST', body: new URLSearchParams({ sandbox: 'true' }) }],
  ];
  for (const [path, init] of switches) {
    const reply = await app.request(path, init);
    assert.equal(reply.status, 200, path);
    assert.equal(reply.headers.get('svc-sandbox'), 'true');
    const body = await reply.json();
    assert.equal(body.sandbox, true);
    assert.equal(body.fields.invoice_number, 'INV-0042');
    assert.equal(seen.outer, true, 'middleware around the sandbox sees the flag');
  }
  assert.deepEqual(calls, { meter: 0, handler: 0 });
  const created = await app.request('/v1/warrants', { method: 'POST', headers: { 'svc-sandbox': 'TRUE' } });
  assert.deepEqual([created.status, await created.json()], [201, { warrant_id: 'wrt_sandbox', sandbox: true }]);
});

test('the fixture is deterministic: the same request gives the same reply every time', async () => {
  const { app } = await sandboxedApp();
  const call = async () => (await app.request('/v1/extract?sandbox=true', { method: 'POST', body: JSON.stringify({ filename: 'a.pdf' }), headers: { 'content-type': 'application/json' } })).json();
  const first = await call();
  assert.deepEqual(await call(), first);
  assert.equal(first.filename, 'a.pdf');
});

test('a real call goes on to the meter and the tool with sandbox false visible to later and outer middleware', async () => {
  const { app, calls, seen } = await sandboxedApp();
  for (const init of [
    { method: 'POST' },
    { method: 'POST', body: JSON.stringify({ sandbox: false }), headers: { 'content-type': 'application/json' } },
    { method: 'POST', body: JSON.stringify({ sandbox: 'true' }), headers: { 'content-type': 'application/json' } },
  ]) {
    const reply = await app.request('/v1/extract?sandbox=false', init);
    assert.deepEqual(await reply.json(), { real: true });
    assert.equal(reply.headers.get('svc-sandbox'), null);
  }
  assert.deepEqual(calls, { meter: 3, handler: 3 });
  assert.deepEqual(seen, { inner: false, outer: false });
});

test('a meter mounted before the sandbox middleware can tell a sandbox call with isSandboxRequest', async () => {
  const sandbox = createSandbox();
  sandbox.register('extract', { summary: 'An invoice.', reply: () => ({ fields: {} }) });
  let metered = 0;
  const app = new Hono<Env>();
  app.use('*', async (c, next) => {
    if (!(await isSandboxRequest(c))) metered++;
    await next();
  });
  app.post('/v1/extract', sandbox.middleware('extract'), (c) => c.json({ real: true }));
  await app.request('/v1/extract', { method: 'POST', body: '{"sandbox":true}', headers: { 'content-type': 'application/json' } });
  await app.request('/v1/extract', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  assert.equal(metered, 1);
});

test('a sandbox call to a tool without a fixture answers 501 {detail} and runs nothing', async () => {
  const { app, calls } = await sandboxedApp();
  const reply = await app.request('/v1/screen?sandbox=true', { method: 'POST' });
  assert.equal(reply.status, 501);
  assert.match((await reply.json()).detail, /^screen has no sandbox reply yet; call it without sandbox mode/);
  assert.deepEqual(calls, { meter: 0, handler: 0 });
});

test('fixtures are listed for the discovery documents, and a tool registers once', async () => {
  const { sandbox } = await sandboxedApp();
  assert.deepEqual(sandbox.fixtures(), [
    { tool: 'extract', summary: 'A two-page invoice with its number and total extracted.' },
    { tool: 'warrants', summary: 'A stored warrant of a clean PDF.' },
  ]);
  assert.throws(() => sandbox.register('extract', { summary: 'again', reply: () => ({}) }), /already has a fixture for extract/);
});

test('a malformed JSON body does not switch the sandbox on; the tool answers for it', async () => {
  const { app, calls } = await sandboxedApp();
  const reply = await app.request('/v1/extract', { method: 'POST', body: '{"sandbox": tru', headers: { 'content-type': 'application/json' } });
  assert.deepEqual(await reply.json(), { real: true });
  assert.equal(calls.handler, 1);
});
