import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { MAX_BODY_BYTES, bodyLimit, wellFormedJson } from './body-limit.ts';
import { caller } from './caller.ts';
import { openTestState } from '../../test/helpers/state.ts';

async function limitedApp(maxBytes?: number) {
  const calls = { handler: 0, bytes: 0 };
  const app = new Hono();
  app.use('*', bodyLimit(maxBytes === undefined ? {} : { maxBytes }), caller({ state: await openTestState(), clientIp: () => '198.51.100.9' }), wellFormedJson());
  app.post('/v1/upload', async (c) => {
    calls.handler++;
    calls.bytes = (await c.req.arrayBuffer()).byteLength;
    return c.json({ received: calls.bytes });
  });
  return { app, calls };
}

/** A chunked body (no Content-Length) of `chunks` pieces of `size` bytes, counting how many were pulled. */
function chunkedBody(chunks: number, size: number) {
  const pulled = { count: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled.count === chunks) return controller.close();
        pulled.count++;
        controller.enqueue(new Uint8Array(size).fill(120));
      },
    },
    // Nothing is pulled until someone reads.
    { highWaterMark: 0 },
  );
  return { stream, pulled };
}

test('a declared Content-Length over 25 MB answers 413 {detail} before the handler runs or a byte is read', async () => {
  const { app, calls } = await limitedApp();
  const { stream, pulled } = chunkedBody(1, 10);
  const reply = await app.request('/v1/upload', { method: 'POST', body: stream, duplex: 'half', headers: { 'content-length': String(MAX_BODY_BYTES + 1) } } as RequestInit);
  assert.equal(reply.status, 413);
  assert.match((await reply.json()).detail, /^The request body is larger than 25 MB \(26214400 bytes\); send a smaller document/);
  assert.equal(calls.handler, 0);
  assert.equal(pulled.count, 0);
  const declaredWithChunking = await app.request('/v1/upload', {
    method: 'POST',
    body: 'x',
    headers: { 'content-length': String(MAX_BODY_BYTES + 1), 'transfer-encoding': 'chunked' },
  });
  assert.equal(declaredWithChunking.status, 413, 'refused even when Transfer-Encoding is also sent');
  assert.equal(calls.handler, 0);
});

test('a chunked body is refused with 413 as soon as it passes the limit, before the handler runs', async () => {
  const { app, calls } = await limitedApp(4 * 1024);
  const { stream, pulled } = chunkedBody(100, 1024);
  const reply = await app.request('/v1/upload', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
  assert.equal(reply.status, 413);
  assert.match((await reply.json()).detail, /larger than 4 KB \(4096 bytes\)/);
  assert.equal(calls.handler, 0);
  assert.ok(pulled.count <= 6, `stopped reading after ${pulled.count} of 100 chunks`);
  const small = chunkedBody(4, 1024);
  const fits = await app.request('/v1/upload', { method: 'POST', body: small.stream, duplex: 'half' } as RequestInit);
  assert.deepEqual(await fits.json(), { received: 4096 });
});

test('over a real socket: a chunked body and a declared 26 MB body are both refused before the handler', async () => {
  const { app, calls } = await limitedApp(64 * 1024);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const send = (headers: Record<string, string>, chunks: number) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/upload', method: 'POST', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      let sent = 0;
      const writeMore = () => {
        while (sent < chunks) {
          sent++;
          if (!req.write(Buffer.alloc(16 * 1024, 120))) return void req.once('drain', writeMore);
        }
        req.end();
      };
      writeMore();
    });
  try {
    const chunked = await send({ 'content-type': 'application/octet-stream' }, 8);
    assert.equal(chunked.status, 413);
    assert.match(JSON.parse(chunked.body).detail, /larger than 64 KB/);
    const declared = await send({ 'content-length': String(26 * 1024 * 1024) }, 1);
    assert.equal(declared.status, 413);
    assert.equal(calls.handler, 0);
  } finally {
    server.close();
  }
});

test('malformed JSON answers 400 {detail} naming the problem; well-formed, empty and non-JSON bodies pass', async () => {
  const { app, calls } = await limitedApp();
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const broken = await app.request('/v1/upload', { method: 'POST', body: '{"verdict": }', headers: json });
  assert.equal(broken.status, 400);
  assert.match((await broken.json()).detail, /^The request body is not valid JSON \(Unexpected token '}', .*\); fix the syntax and send it again\.$/);
  const trailing = await app.request('/v1/upload', { method: 'POST', body: '{"a":1}}', headers: json });
  assert.match((await trailing.json()).detail, /after JSON at position 7 \(line 1 column 8\)/);
  const notUtf8 = await app.request('/v1/upload', { method: 'POST', body: new Uint8Array([0x22, 0xff, 0x22]), headers: json });
  assert.equal(notUtf8.status, 400);
  assert.match((await notUtf8.json()).detail, /not UTF-8 text/);
  assert.equal(calls.handler, 0);
  assert.deepEqual(await (await app.request('/v1/upload', { method: 'POST', body: '{"verdict":"useful"}', headers: json })).json(), { received: 20 });
  assert.equal((await app.request('/v1/upload', { method: 'POST', headers: json })).status, 200, 'an empty body is left to the route');
  assert.equal((await app.request('/v1/upload', { method: 'POST', body: '{not json', headers: { 'content-type': 'text/plain' } })).status, 200);
  assert.equal(calls.handler, 3);
});

test('a path given a larger limit takes bodies up to it, and only that path', async () => {
  const app = new Hono();
  app.use('*', bodyLimit({ maxBytes: 100, largerFor: { '/v1/warrants': 1000 } }));
  app.post('*', async (c) => c.json({ received: (await c.req.arrayBuffer()).byteLength }));
  const body = 'x'.repeat(500);
  assert.deepEqual(await (await app.request('/v1/warrants', { method: 'POST', body })).json(), { received: 500 });
  assert.equal((await app.request('/v1/warrants', { method: 'POST', body: 'x'.repeat(1001) })).status, 413);
  assert.equal((await app.request('/v1/feedback', { method: 'POST', body })).status, 413);
});
