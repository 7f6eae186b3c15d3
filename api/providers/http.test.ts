import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { botUserAgent, createProviderTransport, providerGet, providerJson } from './http.ts';

describe('provider calls', () => {
  let server: Server;
  let base: string;
  const asked: { path: string; headers: IncomingHttpHeaders }[] = [];
  before(async () => {
    server = createServer((req, res) => {
      asked.push({ path: req.url ?? '', headers: req.headers });
      const answers: Record<string, () => void> = {
        '/thing': () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'Crossref', count: 3 })),
        '/odd-shape': () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 7 })),
        '/not-json': () => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'),
        '/missing': () => res.writeHead(404).end('Resource not found.'),
        '/forbidden': () => res.writeHead(403).end('bad key'),
        '/busy': () => res.writeHead(429).end(),
        '/broken': () => res.writeHead(503).end(),
        '/silent': () => undefined,
      };
      (answers[req.url ?? ''] ?? answers['/missing']!)();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const thing = z.object({ name: z.string(), count: z.number() });
  const transport = (timeoutMs = 2_000) => createProviderTransport({ userAgent: botUserAgent('https://ops.example/contact', 'mailto:ops@example.com'), timeoutMs, minIntervalMs: 0 });

  it('sends one GET with the contact User-Agent and returns the checked JSON', async () => {
    const before = asked.length;
    assert.deepEqual(await providerJson(transport(), new URL(`${base}/thing`), thing), { ok: true, value: { name: 'Crossref', count: 3 } });
    assert.equal(asked.length - before, 1);
    assert.equal(asked.at(-1)!.headers['user-agent'], 'TenderIntelBot/0.6 (+https://ops.example/contact; mailto:ops@example.com)');
    assert.equal(asked.at(-1)!.headers['accept'], 'application/json');
  });

  it('falls back to the project contact when SVC_CONTACT_URL is unset', () => {
    assert.equal(botUserAgent(undefined), 'TenderIntelBot/0.6 (+https://github.com/tender-intel/tender-intel#contact)');
  });

  it('answers null for a 404, refused for another 4xx, unreachable for 429, 5xx, a wrong shape, non-JSON and the time limit, each after one attempt', async () => {
    assert.deepEqual(await providerJson(transport(), new URL(`${base}/missing`), thing), { ok: true, value: null });
    const failures = await Promise.all(['/forbidden', '/busy', '/broken', '/odd-shape', '/not-json'].map((path) => providerJson(transport(), new URL(`${base}${path}`), thing)));
    assert.deepEqual(failures.map((result) => (result.ok ? 'ok' : result.reason)), ['refused', 'unreachable', 'unreachable', 'unreachable', 'unreachable']);
    assert.match(failures[2]!.ok ? '' : failures[2]!.detail, /answered HTTP 503; try again later/);
    const before = asked.length;
    const silent = await providerJson(transport(300), new URL(`${base}/silent`), thing);
    assert.deepEqual(silent, { ok: false, reason: 'unreachable', detail: `127.0.0.1:${new URL(base).port} did not answer within 0.3 s; try again later.` });
    assert.equal(asked.length - before, 1, 'never retried');
  });

  it('keeps the raw status for the client to judge', async () => {
    const answered = await providerGet(transport(), new URL(`${base}/missing`));
    assert.ok(answered.ok);
    assert.equal(answered.value.status, 404);
    assert.equal(answered.value.body, 'Resource not found.');
  });

  it('spaces calls to one host by the minimum interval, in the order they were asked, and leaves other hosts alone', async () => {
    let clock = 1_000;
    const waits: number[] = [];
    const paced = createProviderTransport({ userAgent: 'test', minIntervalMs: 500, clock: () => clock, sleep: async (ms) => void waits.push(ms) });
    await paced.turn('api.crossref.org');
    await paced.turn('api.crossref.org');
    await paced.turn('api.crossref.org');
    await paced.turn('archive.org');
    clock = 3_000;
    await paced.turn('api.crossref.org');
    assert.deepEqual(waits, [500, 1_000]);
  });
});
