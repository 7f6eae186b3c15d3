import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { addressRefusal, checkedUrl, createSafeFetcher, MAX_FETCH_BYTES, SafeFetchError, type SafeFetchErrorKind } from './safe-fetch.ts';

function rejectsWith(kind: SafeFetchErrorKind, pattern?: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof SafeFetchError, `expected a SafeFetchError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}

describe('addressRefusal (the default guard, no test permissions)', () => {
  const refused: [string, RegExp][] = [
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade/],
    ['100.127.255.255', /carrier-grade/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /broadcast/],
    ['240.0.0.1', /reserved/],
    ['192.0.0.8', /reserved/],
    ['192.0.2.1', /reserved/],
    ['198.18.0.1', /reserved/],
    ['198.51.100.7', /reserved/],
    ['203.0.113.9', /reserved/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['fc00::1', /unique local/],
    ['fd12:3456:789a::1', /unique local/],
    ['ff02::1', /multicast/],
    ['::ffff:127.0.0.1', /loopback/],
    ['::ffff:7f00:1', /loopback/],
    ['::ffff:10.1.2.3', /private/],
    ['::ffff:169.254.169.254', /link-local/],
    ['::7f00:1', /outside the public IPv6 range/],
    ['4000::1', /outside the public IPv6 range/],
    ['::ffff:0:7f00:1', /IPv4-translated/],
    ['64:ff9b::a9fe:a9fe', /NAT64/],
    ['2002:7f00:1::1', /6to4/],
    ['2001::1', /Teredo|reserved/],
    ['2001:db8::1', /reserved/],
    ['fec0::1', /reserved/],
    ['100::1', /reserved/],
    ['not-an-address', /not an IP address/],
  ];
  for (const [address, why] of refused) {
    it(`refuses ${address}`, () => {
      const refusal = addressRefusal(address);
      assert.notEqual(refusal, null);
      assert.match(refusal!, why);
    });
  }

  for (const address of ['1.1.1.1', '8.8.8.8', '203.2.218.214', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
    it(`lets the public address ${address} through`, () => assert.equal(addressRefusal(address), null));
  }
});

describe('checkedUrl and refused URLs (nothing is connected to)', () => {
  const fetchSafely = createSafeFetcher({ resolve: () => Promise.reject(new Error('no DNS in this test')) });

  it('reads the odd IPv4 spellings as the address they mean', () => {
    assert.equal(checkedUrl('http://0x7f.1/').hostname, '127.0.0.1');
    assert.equal(checkedUrl('http://2130706433/').hostname, '127.0.0.1');
    assert.equal(checkedUrl('http://0177.0.0.1/').hostname, '127.0.0.1');
    assert.equal(checkedUrl('http://0/').hostname, '0.0.0.0');
    assert.equal(checkedUrl('http://127.0.0.1./').hostname, '127.0.0.1');
  });

  const literals = [
    'http://127.0.0.1/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://017700000001/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://0/',
    'http://127.0.0.1./',
    'https://10.0.0.1:8443/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
  ];
  for (const url of literals) {
    it(`refuses ${url}`, () => assert.rejects(fetchSafely(url), rejectsWith('refused', /not a public internet host/)));
  }

  for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/html,hi']) {
    it(`refuses the scheme of ${url}`, () => assert.rejects(fetchSafely(url), rejectsWith('refused', /Only http and https/)));
  }

  it('refuses credentials in the URL and text that is not a URL', async () => {
    await assert.rejects(fetchSafely('http://user:secret@example.com/'), rejectsWith('refused', /user name or password/));
    await assert.rejects(fetchSafely('not a url'), rejectsWith('refused', /is not a URL/));
  });

  it('refuses a name that resolves to a private address, or to any private address among public ones', async () => {
    const intranet = createSafeFetcher({ resolve: async () => [{ address: '10.0.0.5', family: 4 }] });
    await assert.rejects(intranet('https://intranet.example/'), rejectsWith('refused', /intranet\.example \(10\.0\.0\.5\) is a private network address/));
    const mixed = createSafeFetcher({ resolve: async () => [{ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }] });
    await assert.rejects(mixed('https://mixed.example/'), rejectsWith('refused', /loopback/));
  });

  it('refuses localhost through the real system resolver', async () => {
    await assert.rejects(createSafeFetcher()('http://localhost/'), rejectsWith('refused', /loopback/));
  });

  it('answers unreachable for a name that does not resolve', async () => {
    await assert.rejects(fetchSafely('https://no-such-host.example/'), rejectsWith('unreachable', /could not be found/));
  });
});

describe('fetching from a loopback server permitted for the test', () => {
  let server: Server;
  let port: number;
  const seen: { path: string; host: string | undefined }[] = [];
  const methods: (string | undefined)[] = [];
  const routes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();

  before(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', host: req.headers.host });
      methods.push(req.method);
      const route = routes.get(req.url ?? '');
      if (route) route(req, res);
      else res.writeHead(404).end('missing');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;

    routes.set('/page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<p>Civil works</p>'));
    routes.set('/redirect-local', (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end());
    routes.set('/redirect-relative', (_req, res) => res.writeHead(301, { location: '/page' }).end());
    routes.set('/redirect-private', (_req, res) => res.writeHead(302, { location: 'http://10.0.0.1/' }).end());
    routes.set('/redirect-metadata-name', (_req, res) => res.writeHead(302, { location: 'http://metadata.example/' }).end());
    routes.set('/redirect-ftp', (_req, res) => res.writeHead(302, { location: 'ftp://example.com/' }).end());
    routes.set('/loop', (_req, res) => res.writeHead(302, { location: '/loop' }).end());
    routes.set('/declared-large', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(MAX_FETCH_BYTES + 1) });
      res.write('<p>');
      // Never finishes: the fetcher must refuse on the declared length alone.
    });
    routes.set('/large-head', (_req, res) => res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(MAX_FETCH_BYTES + 1) }).end());
    routes.set('/streamed-large', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const more = () => {
        while (sent <= MAX_FETCH_BYTES && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    routes.set('/gzip-bomb', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(64 * 1024, 'a')));
    });
    routes.set('/gzip', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('compressed text')));
    routes.set('/silent', () => {
      // never answers
    });
    routes.set('/error', (_req, res) => res.writeHead(500).end('boom'));
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const siteName = () => `site.example:${port}`;
  const names: Record<string, string> = { 'site.example': '127.0.0.1', 'metadata.example': '169.254.169.254' };
  const permitted = (extra: Partial<Parameters<typeof createSafeFetcher>[0]> = {}) =>
    createSafeFetcher({
      resolve: async (host) => {
        const address = names[host];
        if (address === undefined) throw new Error(`unknown ${host}`);
        return [{ address, family: 4 }];
      },
      testOnlyPermittedAddresses: ['127.0.0.1'],
      ...extra,
    });

  it('refuses the loopback server without the test permission', async () => {
    await assert.rejects(createSafeFetcher()(`http://127.0.0.1:${port}/page`), rejectsWith('refused', /loopback/));
  });

  it('reads a page by name, sending the name as Host', async () => {
    const page = await permitted()(`http://${siteName()}/page`);
    assert.equal(page.status, 200);
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.body.toString(), '<p>Civil works</p>');
    assert.equal(page.url, `http://${siteName()}/page`);
    assert.equal(seen.at(-1)?.host, siteName());
  });

  it('connects to the address it checked: a second DNS answer is never asked for (no rebinding window)', async () => {
    let calls = 0;
    const rebinding = createSafeFetcher({
      resolve: async () => [{ address: calls++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }],
      testOnlyPermittedAddresses: ['127.0.0.1'],
    });
    const page = await rebinding(`http://${siteName()}/page`);
    assert.equal(page.body.toString(), '<p>Civil works</p>');
    assert.equal(calls, 1);
  });

  it('follows redirects hop by hop, absolute and relative', async () => {
    assert.equal((await permitted()(`http://${siteName()}/redirect-local`)).url, `http://127.0.0.1:${port}/page`);
    assert.equal((await permitted()(`http://${siteName()}/redirect-relative`)).url, `http://${siteName()}/page`);
  });

  it('re-checks every hop: a redirect to a private address, a name for the metadata address or another scheme is refused', async () => {
    await assert.rejects(permitted()(`http://${siteName()}/redirect-private`), rejectsWith('refused', /10\.0\.0\.1 is a private network address/));
    await assert.rejects(permitted()(`http://${siteName()}/redirect-metadata-name`), rejectsWith('refused', /metadata\.example \(169\.254\.169\.254\) is a link-local/));
    await assert.rejects(permitted()(`http://${siteName()}/redirect-ftp`), rejectsWith('refused', /Only http and https/));
  });

  it('stops after five redirects', async () => {
    const before = seen.length;
    await assert.rejects(permitted()(`http://${siteName()}/loop`), rejectsWith('unreachable', /more than 5 times/));
    assert.equal(seen.length - before, 6, 'the first request and five redirects');
  });

  it('refuses a body over 25 MB, declared or streamed, and a small body that inflates past the cap', async () => {
    await assert.rejects(permitted()(`http://${siteName()}/declared-large`), rejectsWith('too_large', /larger than 25 MB/));
    await assert.rejects(permitted()(`http://${siteName()}/streamed-large`), rejectsWith('too_large'));
    await assert.rejects(permitted({ maxBytes: 32 * 1024 })(`http://${siteName()}/gzip-bomb`), rejectsWith('too_large'));
  });

  it('inflates a compressed body', async () => {
    assert.equal((await permitted()(`http://${siteName()}/gzip`)).body.toString(), 'compressed text');
  });

  it('sends HEAD when asked, reading no body even when the declared length is over the cap', async () => {
    const before = seen.length;
    const head = await permitted()(`http://${siteName()}/large-head`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(seen.length - before, 1);
    assert.equal(methods.at(-1), 'HEAD');
  });

  it('answers a 404 or 500 with its status and body when the caller judges statuses itself (anyStatus)', async () => {
    const missing = await permitted()(`http://${siteName()}/nothing-here`, { anyStatus: true });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.toString(), 'missing');
    assert.equal((await permitted()(`http://${siteName()}/error`, { anyStatus: true })).status, 500);
    assert.equal((await permitted()(`http://${siteName()}/redirect-relative`, { anyStatus: true })).url, `http://${siteName()}/page`);
  });

  it('answers unreachable for an error status, a closed port and a server that never answers', async () => {
    await assert.rejects(permitted()(`http://${siteName()}/error`), rejectsWith('unreachable', /HTTP 500/));
    await assert.rejects(permitted()(`http://${siteName()}/nothing-here`), rejectsWith('unreachable', /HTTP 404/));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assert.rejects(permitted()(`http://site.example:${closedPort}/`), rejectsWith('unreachable', /could not be reached/));
    await assert.rejects(permitted({ timeoutMs: 200 })(`http://${siteName()}/silent`), rejectsWith('unreachable', /did not answer in time/));
  });
});
