import { OpenAPIHono } from '@hono/zod-openapi';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { mcpRoutes } from './server.ts';

// The Ajv the MCP SDK builds its JSON Schema validators with: the one copy in node_modules, loaded as the SDK loads it.
const Ajv = createRequire(import.meta.url)('ajv') as { prototype: { addFormat(...args: unknown[]): unknown } };

test('MCP requests share one JSON Schema validator: a POST builds no Ajv instance of its own', async (t) => {
  // ajv-formats adds each format to each new Ajv instance: the instances formats were added to are the instances built.
  const built = new WeakSet<object>();
  let instances = 0;
  const addFormat = Ajv.prototype.addFormat;
  Ajv.prototype.addFormat = function countingAddFormat(this: object, ...args: unknown[]) {
    if (!built.has(this)) {
      built.add(this);
      instances++;
    }
    return addFormat.apply(this, args);
  };
  t.after(() => {
    Ajv.prototype.addFormat = addFormat;
  });

  const app = new OpenAPIHono();
  app.route('/', mcpRoutes({ forward: (path, init) => app.request(path, init), tools: [], openApiDocument: () => app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'MCP test', version: '1' } }) }));
  const builtWithTheRoutes = instances;
  for (let id = 1; id <= 20; id++) {
    const reply = await app.request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }),
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(((await reply.json()) as { result: unknown }).result, { tools: [] });
  }
  assert.equal(instances - builtWithTheRoutes, 0, `${instances - builtWithTheRoutes} Ajv instances built by 20 MCP requests`);
  assert.equal(builtWithTheRoutes, 1, 'the routes build the one validator they share');
});
