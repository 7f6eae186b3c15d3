import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../api/server.ts';
import { DEFAULT_CAPS } from '../api/usage/meter.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testDatabaseUrlFor } from './helpers/state.ts';

interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Writes `request` on a new connection and reads until the server closes it. */
function exchange(url: string, request: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: like a browser, the client keeps its side open until the reply (Node closes a half-closed connection).
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function assertJsonRefusal(reply: RawReply, status: number, detail: RegExp): void {
  assert.equal(reply.status, status);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(reply.headers.get('content-length'), String(Buffer.byteLength(reply.body)));
  assert.match((JSON.parse(reply.body) as { detail: string }).detail, detail);
  assert.equal(reply.headers.get('ratelimit-limit'), String(DEFAULT_CAPS.anonymous));
  assert.equal(reply.headers.get('ratelimit-remaining'), String(DEFAULT_CAPS.anonymous));
  assert.match(reply.headers.get('ratelimit-reset') ?? '', /^\d+$/);
}

describe('requests Node refuses before the app, on the real server', () => {
  let running: RunningServer;
  const lines: string[] = [];
  const errors: unknown[] = [];

  before(async () => {
    const dataDir = await tempDir('client-errors-');
    running = await startServer({
      dataDir,
      databaseUrl: await testDatabaseUrlFor(dataDir),
      port: 0,
      log: (line) => lines.push(line),
      logError: (error) => errors.push(error),
    });
  });

  after(async () => {
    await running.close();
  });

  it('answers a malformed request line with 400 {detail} and the rate headers', async () => {
    assertJsonRefusal(await exchange(running.url, 'NOT A REQUEST\r\n\r\n'), 400, /request line or a header is malformed/);
  });

  it('answers an HTTP/1.1 request without Host with 400 {detail} and the rate headers', async () => {
    assertJsonRefusal(await exchange(running.url, 'GET /health HTTP/1.1\r\nAccept: application/json\r\n\r\n'), 400, /must carry a Host header/);
    // HTTP/1.0 has no Host requirement: the app answers it.
    assert.equal((await exchange(running.url, 'GET /livez HTTP/1.0\r\n\r\n')).status, 200);
  });

  it('answers a 20 KB header with 431 {detail} and the rate headers', async () => {
    const request = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
    assertJsonRefusal(await exchange(running.url, request), 431, /headers are larger than the 16 KB/);
  });

  it('logs a client that hangs up mid-upload as one line, not an error', async () => {
    const before = lines.length;
    const { hostname, port } = new URL(running.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(`POST /v1/contact HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"message":"half`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    for (let waited = 0; lines.length === before && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    // Time for any later report to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(lines.slice(before), ['POST /v1/contact: the client closed the connection before its request arrived in full; nothing was answered.']);
    assert.deepEqual(errors, []);
  });
});
