import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit, wellFormedJson } from '../api/middleware/body-limit.ts';
import type { CallerEnv } from '../api/accounts/caller.ts';
import { caller } from '../api/middleware/caller.ts';
import { errorReplies } from '../api/middleware/errors.ts';
import { idempotency } from '../api/middleware/idempotency.ts';
import { createSandbox } from '../api/middleware/sandbox.ts';
import { base64Bytes, invalidBodyStatus, sandboxField, type SandboxEnv } from '../api/schemas/common.ts';
import { openTestState } from './helpers/state.ts';

type Env = { Variables: CallerEnv['Variables'] & SandboxEnv['Variables'] };

/** The request conventions in the order app.ts mounts them, around one metered tool declared with createRoute. */
async function conventionsApp() {
  const state = await openTestState();
  const counts = { metered: 0, runs: 0 };
  const sandbox = createSandbox();
  sandbox.register('extract', { summary: 'An invoice with its total.', reply: () => ({ fields: { total: '1,250.00' } }) });
  const meter: MiddlewareHandler<Env> = async (_c, next) => {
    counts.metered++;
    await next();
  };
  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => (result.success ? undefined : c.json({ detail: result.error.issues.map((i) => i.message).join(' ') }, invalidBodyStatus(result.error))),
  });
  app.onError(errorReplies<Env>({ log: () => {} }).onError);
  app.use('*', caller({ state, clientIp: () => '198.51.100.20' }), bodyLimit({ maxBytes: 64 * 1024 }), wellFormedJson(), idempotency({ state }));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/extract',
      middleware: [sandbox.middleware('extract'), meter],
      request: { body: { content: { 'application/json': { schema: z.object({ bytes_b64: base64Bytes, sandbox: sandboxField }) } }, required: true } },
      responses: { 200: { description: 'Fields.', content: { 'application/json': { schema: z.object({ pages: z.number() }) } } } },
    }),
    (c) => {
      counts.runs++;
      return c.json({ pages: c.req.valid('json').bytes_b64.length }, 200);
    },
  );
  return { app, counts };
}

const post = (app: OpenAPIHono<Env>, body: string, headers: Record<string, string> = {}) =>
  app.request('/v1/extract', { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

test('in app order: a sandbox call skips validation and the meter, a replay is not metered again, limits answer first', async () => {
  const { app, counts } = await conventionsApp();
  const sandboxed = await post(app, '{"sandbox": true}');
  assert.deepEqual([sandboxed.status, await sandboxed.json()], [200, { fields: { total: '1,250.00' }, sandbox: true }]);
  assert.deepEqual(counts, { metered: 0, runs: 0 });

  const body = JSON.stringify({ bytes_b64: 'QUJD' });
  assert.deepEqual(await (await post(app, body, { 'idempotency-key': 'k1' })).json(), { pages: 3 });
  const replay = await post(app, body, { 'idempotency-key': 'k1' });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(counts, { metered: 1, runs: 1 });

  assert.equal((await post(app, '{"bytes_b64": "QUJD" ')).status, 400);
  assert.equal((await post(app, JSON.stringify({ bytes_b64: 'QU%D' }))).status, 400);
  assert.equal((await post(app, JSON.stringify({ bytes: 'QUJD' }))).status, 422);
  assert.equal((await post(app, JSON.stringify({ bytes_b64: 'A'.repeat(70 * 1024) }))).status, 413);
  assert.equal(counts.runs, 1);
});
