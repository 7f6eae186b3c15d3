import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { errorReplies } from './errors.ts';

test('an unexpected error is logged with the route pattern, never the path and the token it carries', async (t) => {
  const logged = t.mock.method(console, 'error', () => {});
  const app = new Hono();
  app.onError(errorReplies().onError);
  app.post('/v1/orgs/invites/:token/accept', () => {
    throw new Error('engine down');
  });
  const reply = await app.request('/v1/orgs/invites/inv_secret0123456789/accept', { method: 'POST' });
  assert.equal(reply.status, 500);
  assert.match(((await reply.json()) as { detail: string }).detail, /logged/);
  assert.equal(logged.mock.callCount(), 1);
  const line = logged.mock.calls[0]!.arguments.map(String).join(' ');
  assert.match(line, /^POST \/v1\/orgs\/invites\/:token\/accept failed:/);
  assert.ok(!line.includes('inv_secret0123456789'));
});
