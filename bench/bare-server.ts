import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// The baseline for the search benchmark: Hono on the same Node server adapter, answering a small JSON body.
const app = new Hono();
app.get('/bare', (c) => c.json({ total: 1, results: [{ title: 'bare' }] }));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
