import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { ANONYMOUS_SHOWN, SCORE_MEANING } from '../api/routes/tender-match.ts';
import { createMeter } from '../api/usage/meter.ts';
import { type StateDb } from '../data/state/db.ts';
import { createSafeFetcher, MAX_FETCH_BYTES, type SafeFetcher } from '../lib/safe-fetch.ts';
import { keyFor } from './helpers/access.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

// Wednesday 10 June 2026, midday in Sydney.
const NOW = new Date('2026-06-10T02:00:00.000Z');
const SITES = fileURLToPath(new URL('../fixtures/match/sites/', import.meta.url));

const open = (title: string, extra: Parameters<typeof tenderRow>[0] = {}) =>
  tenderRow({ title, reference: title.slice(0, 20), closing_date: '2026-07-01', ...extra });

const tenders = {
  reseal: open('Rural road reseal and asphalt patching', { summary: 'Bitumen sealing of rural roads and kerb repairs.', trade: 'civil-works', closing_date: '2026-06-25' }),
  drainage: open('Stormwater drainage upgrade', { summary: 'New culverts and pits; traffic management required.', trade: 'civil-works' }),
  bridge: open('Bridge replacement, Creek Road', { summary: 'Geotechnical investigation and detailed design of a concrete bridge.', trade: 'civil-works', closing_date: '2026-06-18' }),
  footpath: open('Footpath renewal program', { summary: 'Concrete footpaths and landscaping.', trade: 'civil-works', closing_date: '2026-08-01' }),
  earthworks: open('Earthworks for the landfill cell', { summary: 'Earthworks and leachate drainage at the waste facility.', trade: 'waste', buyer: 'Example Waste Authority' }),
  cloud: open('Cloud hosting and managed services', { summary: 'Managed services and cyber security.', trade: 'it-services', jurisdiction: 'AU', tier: 'federal', buyer: 'Department of Finance' }),
  cleaning: open('Cleaning services for council buildings', { summary: 'Daily cleaning and washroom hygiene services.', trade: 'cleaning', buyer: 'City of Sydney', tier: 'council' }),
  kayak: open('Kayak hire concession at the harbour foreshore', { summary: 'Guided paddle tours licence.', buyer: 'Harbour Trust', jurisdiction: 'AU', tier: 'federal' }),
  nzRoad: open('State highway resurfacing', { summary: 'Asphalt resurfacing of the state highway.', trade: 'civil-works', jurisdiction: 'NZ', tier: 'national', buyer: 'NZ Transport Agency', source: 'nz_gets', source_tag: 'GETS' }),
  closedRoad: open('Road resealing (closed)', { summary: 'Bitumen reseal.', trade: 'civil-works', closing_date: '2026-06-01' }),
  grantRoad: open('Road safety grants', { kind: 'grant', summary: 'Grants for road safety works.', trade: 'civil-works' }),
};
const sources = [sourceRow({ tender_count: 9 }), sourceRow({ id: 'nz_gets', tag: 'GETS', name: 'GETS', jurisdiction: 'NZ', tier: 'national', attribution: 'New Zealand Government' })];

interface MatchReply {
  company: { url?: string; example?: string; pages_read: string[]; trades: { trade: string }[]; capabilities: string[] };
  score_meaning: string;
  degraded: boolean;
  degraded_reason?: string;
  matched: number;
  withheld: number;
  considered: number;
  results: { page_key: string; title: string; score?: number; why?: string[]; gaps?: string[]; url?: string }[];
  computed_at: string;
  sources: { source: string }[];
  sandbox?: boolean;
  detail?: string;
}

/** Fixture company sites by host name, on one loopback server, plus pages the guard and caps must stop. */
function siteServer(): Server {
  const siteOf: Record<string, string> = { 'ridgeline.example': 'civil-co', 'kayak.example': 'kayak-co' };
  return createServer(async (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    if (host === 'huge.example') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(MAX_FETCH_BYTES + 1) });
      res.write('<html>');
      return;
    }
    if (host === 'moved.example') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    if (host === 'broken.example') return void res.writeHead(500).end('down');
    const folder = siteOf[host];
    const file = path === '/' ? 'index.html' : path.slice(1);
    try {
      if (!folder || file.includes('..')) throw new Error('no such page');
      const html = await readFile(join(SITES, folder, file));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
}

describe('POST /v1/tenders/match', () => {
  let dataDir: string;
  let store: ReleaseStore;
  let state: StateDb;
  let sites: Server;
  let port: number;
  let app: Awaited<ReturnType<typeof createApp>>;
  let requested: string[];

  const fetchSite = (): SafeFetcher => {
    const fetcher = createSafeFetcher({
      resolve: async (host) => {
        if (!host.endsWith('.example')) throw new Error(`unknown host ${host}`);
        return [{ address: '127.0.0.1', family: 4 }];
      },
      testOnlyPermittedAddresses: ['127.0.0.1'],
    });
    return (url, init) => {
      requested.push(url);
      return fetcher(url, init);
    };
  };

  before(async () => {
    dataDir = await makeDataDir();
    await seedRelease({ dataDir, tenders: Object.values(tenders), sources, computedAt: '2026-06-10T00:30:00.000Z' });
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    state = await openTestState();
    sites = siteServer();
    await new Promise<void>((resolve) => sites.listen(0, '127.0.0.1', resolve));
    port = (sites.address() as AddressInfo).port;
    requested = [];
    const meter = createMeter({ state, caps: { anonymous: 1000, identified: 1000 }, now: () => NOW });
    app = await createApp({ store, state, meter, burst: false, fetchSite: fetchSite(), now: () => NOW });
  });

  after(async () => {
    sites.closeAllConnections();
    await new Promise<void>((resolve) => sites.close(() => resolve()));
    await store.close();
    await state.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await app.request('/v1/tenders/match', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as MatchReply };
  };
  const site = (host: string) => `http://${host}:${port}/`;

  it("reads the home page and the services and about pages it links to, and ranks civil tenders for a civil contractor's site", async () => {
    requested = [];
    const { status, body } = await post({ url: site('ridgeline.example') }, (await keyFor(state, null)).headers);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.company.pages_read, [site('ridgeline.example'), `${site('ridgeline.example')}our-services.html`, `${site('ridgeline.example')}about.html`]);
    assert.deepEqual(requested.sort(), [...body.company.pages_read].sort(), 'news, contact, the partner site and mail links are not read');
    assert.equal(body.company.trades[0]?.trade, 'civil-works');
    assert.ok(body.company.capabilities.includes('asphalt'));
    assert.ok(!body.company.capabilities.includes('cleaning'), 'words in scripts and unread pages are not capabilities');
    assert.ok(!body.company.capabilities.includes('security'), 'nor words in styles');

    assert.equal(body.degraded, false);
    assert.equal(body.score_meaning, SCORE_MEANING);
    assert.match(body.score_meaning, /not a probability of winning/);
    assert.equal(body.withheld, 0);
    assert.equal(body.matched, body.results.length);
    const titles = body.results.map((result) => result.title);
    for (const excluded of ['State highway resurfacing', 'Road resealing (closed)', 'Road safety grants', 'Cloud hosting and managed services', 'Kayak hire concession at the harbour foreshore']) {
      assert.ok(!titles.includes(excluded), `${excluded} is not a match here`);
    }
    // Everything the drainage tender asks for is on the site; the reseal tender shares only asphalt and kerb.
    assert.deepEqual(body.results.map((result) => result.title), [
      'Stormwater drainage upgrade',
      'Rural road reseal and asphalt patching',
      'Bridge replacement, Creek Road',
      'Earthworks for the landfill cell',
      'Footpath renewal program',
    ]);
    assert.equal(body.results[0]!.score, 100);
    const scores = body.results.map((result) => result.score!);
    assert.deepEqual([...scores].sort((a, b) => b - a), scores, 'best first');
    assert.ok(scores.slice(1).every((score) => score >= 1 && score < 100), 'the rest relative to the best');
    assert.deepEqual(body.results[0]!.why, ['stormwater', 'drainage', 'culvert']);
    assert.deepEqual(body.results[0]!.gaps, []);
    const reseal = body.results[1]!;
    assert.deepEqual(reseal.why!.slice().sort(), ['asphalt', 'kerb']);
    assert.ok(['reseal', 'bitumen', 'sealing'].every((gap) => reseal.gaps!.includes(gap)), `gaps: ${reseal.gaps!.join(', ')}`);
    const footpath = body.results.find((result) => result.title === 'Footpath renewal program')!;
    assert.deepEqual(footpath.why, ['civil works'], 'a tender of a trade the company offers fits through the trade alone');
    assert.deepEqual(footpath.gaps, ['footpath', 'landscaping']);

    const bridge = body.results.find((result) => result.title === 'Bridge replacement, Creek Road')!;
    assert.ok(bridge.why!.includes('bridge'));
    assert.ok(bridge.gaps!.includes('geotechnical') && bridge.gaps!.includes('detailed design'), `gaps: ${bridge.gaps!.join(', ')}`);
    const landfill = body.results.find((result) => result.title === 'Earthworks for the landfill cell')!;
    assert.equal(landfill.gaps![0], 'waste and recycling', 'a trade the company does not offer comes first among the gaps');
    assert.ok(landfill.why!.includes('earthworks'));
    assert.ok(body.results.every((result) => typeof result.url === 'string'), 'an identified caller gets portal links');
    assert.deepEqual(body.sources.map((source) => source.source), ['au_nsw_buy_nsw']);
  });

  it('anonymous callers see the strongest three; withheld counts the rest', async () => {
    const full = await post({ example: 'civil' }, (await keyFor(state, null)).headers);
    const anonymous = await post({ example: 'civil' });
    assert.equal(anonymous.status, 200);
    assert.ok(full.body.matched > ANONYMOUS_SHOWN, 'the fixture has more civil matches than an anonymous caller sees');
    assert.equal(anonymous.body.matched, full.body.matched);
    assert.equal(anonymous.body.results.length, ANONYMOUS_SHOWN);
    assert.equal(anonymous.body.withheld, full.body.matched - ANONYMOUS_SHOWN);
    assert.deepEqual(anonymous.body.results.map((result) => result.page_key), full.body.results.slice(0, ANONYMOUS_SHOWN).map((result) => result.page_key));
    assert.ok(anonymous.body.results.every((result) => result.url === undefined), 'no portal links for anonymous callers');
  });

  it('shown + withheld == matched for every input, anonymous or not', async () => {
    const inputs: unknown[] = [
      { example: 'civil' },
      { example: 'it' },
      { example: 'facilities' },
      { example: 'civil', jurisdiction: 'NZ' },
      { example: 'civil', jurisdiction: 'AU-VIC' },
      { example: 'civil', closing_before: '2026-06-20' },
      { example: 'it', jurisdiction: 'AU' },
      { url: site('ridgeline.example') },
      { url: site('kayak.example') },
    ];
    const key = (await keyFor(state, null)).headers;
    for (const input of inputs) {
      for (const headers of [{}, key]) {
        const { status, body } = await post(input, headers);
        assert.equal(status, 200, JSON.stringify({ input, body }));
        assert.equal(body.results.length + body.withheld, body.matched, JSON.stringify(input));
        assert.ok(body.results.length <= (headers === key ? body.matched : ANONYMOUS_SHOWN));
      }
    }
  });

  it('filters by jurisdiction and closing date; New Zealand only when asked', async () => {
    const nz = await post({ example: 'civil', jurisdiction: 'NZ' }, (await keyFor(state, null)).headers);
    assert.deepEqual(nz.body.results.map((result) => result.title), ['State highway resurfacing']);
    assert.equal(nz.body.considered, 1);
    const soon = await post({ example: 'civil', closing_before: '2026-06-20' }, (await keyFor(state, null)).headers);
    assert.deepEqual(soon.body.results.map((result) => result.title), ['Bridge replacement, Creek Road']);
  });

  it('the it and facilities examples find their own tenders without reading anything', async () => {
    requested = [];
    const it = await post({ example: 'it' }, (await keyFor(state, null)).headers);
    assert.equal(it.body.results[0]!.title, 'Cloud hosting and managed services');
    assert.equal(it.body.company.example, 'it');
    assert.deepEqual(it.body.company.pages_read, []);
    const facilities = await post({ example: 'facilities' }, (await keyFor(state, null)).headers);
    assert.equal(facilities.body.results[0]!.title, 'Cleaning services for council buildings');
    assert.deepEqual(requested, []);
  });

  it('is degraded, in keyword order without scores, why or gaps, when the site names no capability', async () => {
    const { status, body } = await post({ url: site('kayak.example') }, (await keyFor(state, null)).headers);
    assert.equal(status, 200);
    assert.equal(body.degraded, true);
    assert.match(body.degraded_reason!, /names none of the trades/);
    assert.deepEqual(body.company.capabilities, []);
    assert.deepEqual(body.results.map((result) => result.title), ['Kayak hire concession at the harbour foreshore']);
    for (const result of body.results) {
      assert.equal(result.score, undefined);
      assert.equal(result.why, undefined);
      assert.equal(result.gaps, undefined);
    }
  });

  it('uses one unit of the weekly allowance per call, none for a refused call', async () => {
    const headers = (await keyFor(state, null)).headers;
    const first = await post({ example: 'civil' }, headers);
    const second = await post({ example: 'it' }, headers);
    assert.equal(Number(first.headers.get('RateLimit-Remaining')) - Number(second.headers.get('RateLimit-Remaining')), 1);
    const refused = await post({ url: 'http://10.0.0.1/' }, headers);
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('RateLimit-Remaining'), second.headers.get('RateLimit-Remaining'));
  });

  it('answers 400 for a URL the real guard refuses, before anything is fetched', async () => {
    // The app's own fetcher, without the test permission for 127.0.0.1.
    const guarded = await createApp({ store, state, burst: false, now: () => NOW, meter: createMeter({ state, caps: { anonymous: 1000 }, now: () => NOW }) });
    for (const url of [site('127.0.0.1'), 'http://[::1]/', 'http://0x7f.1/', 'http://2130706433/', 'localhost', 'http://169.254.169.254/latest/meta-data/', 'ftp://ridgeline.example/', '10.0.0.1', 'http://[::ffff:10.0.0.1]/']) {
      const response = await guarded.request('/v1/tenders/match', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
      assert.equal(response.status, 400, url);
      assert.match(((await response.json()) as { detail: string }).detail, /not a public internet host|Only http and https/, url);
    }
  });

  it('answers 400 when a redirect leads to a non-public address', async () => {
    const redirected = await post({ url: site('moved.example') });
    assert.equal(redirected.status, 400);
    assert.match(redirected.body.detail!, /169\.254\.169\.254 is a link-local address/);
  });

  it('answers 413 for a page over 25 MB and 502 for a site that cannot be read', async () => {
    const huge = await post({ url: site('huge.example') });
    assert.equal(huge.status, 413);
    assert.match(huge.body.detail!, /larger than 25 MB/);
    const broken = await post({ url: site('broken.example') });
    assert.equal(broken.status, 502);
    assert.match(broken.body.detail!, /HTTP 500/);
    const unknown = await post({ url: 'http://nowhere.invalid/' });
    assert.equal(unknown.status, 502);
    assert.match(unknown.body.detail!, /could not be found/);
  });

  it('reads a bare domain over https', async () => {
    // A TCP listener that records the first byte: a TLS handshake starts with 0x16.
    const firstBytes: number[] = [];
    const tls = createTcpServer((socket) => socket.once('data', (data) => (firstBytes.push(data[0]!), socket.destroy())));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const { status } = await post({ url: `ridgeline.example:${(tls.address() as AddressInfo).port}` });
      assert.equal(status, 502);
      assert.deepEqual(firstBytes, [0x16]);
    } finally {
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('answers 422 for an unknown example, both or neither of url and example, and an unknown field', async () => {
    const unknown = await post({ example: 'plumbing' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.detail!, /example: must be one of civil, it, facilities/);
    assert.equal((await post({ url: site('ridgeline.example'), example: 'civil' })).status, 422);
    assert.match((await post({ jurisdiction: 'AU' })).body.detail!, /give exactly one of url/);
    assert.equal((await post({ example: 'civil', limit: 5 })).status, 422);
    assert.equal((await post({ example: 'civil', jurisdiction: 'Mars' })).status, 422);
  });

  it('answers the sandbox fixture for free, labelled, the same every time', async () => {
    const headers = { ...(await keyFor(state, null)).headers, 'svc-sandbox': 'true' };
    const first = await post({ example: 'civil' }, headers);
    const again = await post({ example: 'civil', sandbox: true });
    assert.equal(first.status, 200);
    assert.equal(first.body.sandbox, true);
    assert.equal(first.headers.get('Svc-Sandbox'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(first.body.results.length + first.body.withheld, first.body.matched);
    assert.equal(first.body.results.length, ANONYMOUS_SHOWN);
    assert.equal(first.body.results[0]!.score, 100);
    const it = await post({ example: 'it', sandbox: true });
    assert.equal(it.body.results[0]!.title, 'Cloud hosting and managed services panel');
    const key = (await keyFor(state, null)).headers;
    const remaining = Number((await post({ example: 'civil' }, key)).headers.get('RateLimit-Remaining'));
    const afterSandbox = Number((await post({ example: 'civil', sandbox: true }, key)).headers.get('RateLimit-Remaining'));
    const afterReal = Number((await post({ example: 'civil' }, key)).headers.get('RateLimit-Remaining'));
    assert.equal(afterSandbox, remaining, 'a sandbox call is not counted');
    assert.equal(afterReal, remaining - 1);
  });
});

describe('POST /v1/tenders/match without a release', () => {
  it('answers 503, while the sandbox still answers', async () => {
    const store = { state: () => ({ ready: false as const, detail: 'No release has been published yet.' }), now: () => NOW };
    const app = await createApp({ store, burst: false });
    const post = (body: unknown) => app.request('/v1/tenders/match', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const real = await post({ example: 'civil' });
    assert.equal(real.status, 503);
    assert.match(((await real.json()) as { detail: string }).detail, /No release/);
    const sandboxed = await post({ example: 'civil', sandbox: true });
    assert.equal(sandboxed.status, 200);
    assert.equal(((await sandboxed.json()) as { sandbox: boolean }).sandbox, true);
  });
});
