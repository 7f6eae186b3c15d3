import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createSafeFetcher } from '../../lib/safe-fetch.ts';
import { createProviderTransport } from './http.ts';
import { createPageFetch } from './page-fetch.ts';

/** A site on 127.0.0.1 named `site.example` (and `down.example`, whose robots.txt fails) for the SSRF-safe fetcher's test allowance. */
describe('page fetch', () => {
  let server: Server;
  let port: number;
  const asked: string[] = [];
  const pages: Record<string, (res: ServerResponse, method: string) => void> = {
    'site.example/robots.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n\nUser-agent: TenderIntelBot\nDisallow: /no-bots/\nDisallow: /private/\n'),
    'site.example/report.html': (res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><head><title> Annual  report 2024 </title><script>var x=1</script></head><body><h1>Results</h1><p>Revenue rose 12%.</p></body></html>'),
    'site.example/notes.txt': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('Plain notes\r\n\r\n\r\nsecond line'),
    'site.example/paper.pdf': (res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'),
    'site.example/gone': (res) => res.writeHead(410).end(),
    'site.example/no-head': (res, method) => (method === 'HEAD' ? res.writeHead(405).end() : res.writeHead(200, { 'content-type': 'text/plain' }).end('GET works')),
    'site.example/moved': (res) => res.writeHead(301, { location: '/' }).end(),
    'site.example/': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Home</title>'),
    'down.example/robots.txt': (res) => res.writeHead(503).end(),
    'free.example/anything': (res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('free'),
  };

  before(async () => {
    server = createServer((req, res) => {
      const key = `${(req.headers.host ?? '').split(':')[0]}${req.url}`;
      asked.push(`${req.method} ${key}`);
      (pages[key] ?? ((response: ServerResponse) => response.writeHead(404).end('not here')))(res, req.method ?? 'GET');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const fetcher = () =>
    createSafeFetcher({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], testOnlyPermittedAddresses: ['127.0.0.1'], timeoutMs: 2_000 });
  const pageFetch = (clock = () => 0) => createPageFetch({ fetcher: fetcher(), transport: createProviderTransport({ userAgent: 'test', minIntervalMs: 0 }), clock });
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;

  it('reads an HTML page as visible text with its title, HEAD then GET', async () => {
    const before = asked.length;
    const read = await pageFetch().read(at('site.example', '/report.html'));
    assert.deepEqual(read, {
      ok: true,
      value: { url: at('site.example', '/report.html'), finalUrl: at('site.example', '/report.html'), status: 200, method: 'GET', contentType: 'text/html', title: 'Annual report 2024', text: 'Results\nRevenue rose 12%.' },
    });
    assert.deepEqual(asked.slice(before), ['GET site.example/robots.txt', 'HEAD site.example/report.html', 'GET site.example/report.html']);
  });

  it('keeps plain text, gives no text for other types, and stops at HEAD for a 410', async () => {
    const pages = pageFetch();
    const notes = await pages.read(at('site.example', '/notes.txt'));
    assert.equal(notes.ok && notes.value.text, 'Plain notes\n\nsecond line');
    const pdf = await pages.read(at('site.example', '/paper.pdf'));
    assert.deepEqual(pdf.ok && [pdf.value.contentType, pdf.value.text], ['application/pdf', null]);
    const before = asked.length;
    const gone = await pages.read(at('site.example', '/gone'));
    assert.deepEqual(gone.ok && [gone.value.status, gone.value.method], [410, 'HEAD']);
    assert.deepEqual(asked.slice(before), ['HEAD site.example/gone'], 'robots.txt is cached per origin');
  });

  it('goes on to GET when a server refuses HEAD, and reports where a redirect ended', async () => {
    const pages = pageFetch();
    const noHead = await pages.read(at('site.example', '/no-head'));
    assert.deepEqual(noHead.ok && [noHead.value.status, noHead.value.text], [200, 'GET works']);
    const moved = await pages.read(at('site.example', '/moved'));
    assert.deepEqual(moved.ok && [moved.value.status, moved.value.finalUrl, moved.value.title], [200, at('site.example', '/'), 'Home']);
  });

  it('does not fetch what robots.txt disallows for this bot, and treats a robots.txt server error as disallowing all (RFC 9309)', async () => {
    const pages = pageFetch();
    const before = asked.length;
    assert.deepEqual(await pages.read(at('site.example', '/no-bots/page')), {
      ok: false,
      reason: 'refused',
      detail: `Not read: the site's robots.txt asks bots not to fetch ${at('site.example', '/no-bots/page')}.`,
    });
    const down = await pages.read(at('down.example', '/page'));
    assert.deepEqual(down.ok ? null : [down.reason, down.detail], ['unreachable', `Not read: ${at('down.example', '/robots.txt')} answered HTTP 503, so the site's crawling rules are unknown.`]);
    assert.deepEqual(asked.slice(before), ['GET site.example/robots.txt', 'GET down.example/robots.txt']);
    const free = await pages.read(at('free.example', '/anything'));
    assert.equal(free.ok && free.value.text, 'free', 'a missing robots.txt (404) allows everything');
  });

  it('reads robots.txt again after 24 hours', async () => {
    let now = 0;
    const pages = pageFetch(() => now);
    await pages.read(at('site.example', '/notes.txt'));
    now = 24 * 60 * 60 * 1000 + 1;
    const before = asked.length;
    await pages.read(at('site.example', '/notes.txt'));
    assert.equal(asked.slice(before)[0], 'GET site.example/robots.txt');
  });

  it('refuses private addresses through the SSRF-safe fetcher: no test allowance, no read', async () => {
    const guarded = createPageFetch({ fetcher: createSafeFetcher(), transport: createProviderTransport({ userAgent: 'test', minIntervalMs: 0 }) });
    const read = await guarded.read(`http://127.0.0.1:${port}/notes.txt`);
    assert.deepEqual(read.ok ? null : read.reason, 'refused');
    assert.match(read.ok ? '' : read.detail, /^127\.0\.0\.1 is a loopback address/);
  });
});
