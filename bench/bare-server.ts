import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { parseArgs } from 'node:util';

// The baseline for the search benchmark: Hono on the same Node server adapter, answering a small JSON body.
// With --body-bytes N it also answers /bare-sized with a fixed JSON body of about N bytes, prepared once: what
// moving a reply of the search mix's size costs on this machine, without any work behind it.
const { values } = parseArgs({ options: { 'body-bytes': { type: 'string' } } });
const app = new Hono();
app.get('/bare', (c) => c.json({ total: 1, results: [{ title: 'bare' }] }));
if (values['body-bytes'] !== undefined) {
  const wanted = Number(values['body-bytes']);
  const results = Array.from({ length: 20 }, (_, i) => ({ title: `bare ${i}`, summary: 'x'.repeat(Math.max(0, Math.floor(wanted / 20) - 40)) }));
  const body = new TextEncoder().encode(JSON.stringify({ total: results.length, results }));
  app.get('/bare-sized', (c) => c.body(body, 200, { 'content-type': 'application/json' }));
}
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
