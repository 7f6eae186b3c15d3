import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { errorReplies, loggablePath } from './errors.ts';

test('an unexpected error is logged with its path, never the token the path carries', async (t) => {
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
  assert.match(line, /^POST \/v1\/orgs\/invites\/…\/accept failed:/);
  assert.ok(!line.includes('inv_secret0123456789'));
});

test('secret path segments are hidden from log lines, other paths are kept whole', () => {
  assert.equal(loggablePath('/mcp/c/svc_live_abc123'), '/mcp/c/…');
  assert.equal(loggablePath('/v1/tenders/watch/stop/wst_0123'), '/v1/tenders/watch/stop/…');
  assert.equal(loggablePath('/v1/orgs/invites/inv_0123/accept'), '/v1/orgs/invites/…/accept');
  assert.equal(loggablePath('/v1/contact'), '/v1/contact');
  assert.equal(loggablePath('/v1/orgs/org_1/invites'), '/v1/orgs/org_1/invites');
});
