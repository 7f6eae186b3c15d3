import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { INSPECTION_VERSION } from '../api/checkers/warrants/version.ts';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { TenderSearchQuery } from '../api/schemas/tender.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';

// Wednesday 10 June 2026: 12:00 in Sydney, 10:00 in Perth, 14:00 in Auckland.
const NOW = new Date('2026-06-10T02:00:00.000Z');
const COMPUTED_AT = '2026-06-10T00:30:00.000Z';

const tenders = {
  road: tenderRow({
    title: 'Road maintenance services',
    summary: 'Resurfacing and pothole repairs on regional roads',
    buyer: 'Transport for NSW',
    reference: 'TfNSW-2026-118',
    category: '72141103',
    closing_date: '2026-06-20',
    closing_at: '2026-06-20T04:00:00.000Z',
    first_seen: '2026-06-08T12:00:00.000Z',
    dates_changed_at: '2026-06-08T12:00:00.000Z',
    url: 'https://buy.nsw.gov.au/notices/118',
    listing_url: 'https://buy.nsw.gov.au/notices',
  }),
  bridge: tenderRow({
    title: 'Bridge inspection panel',
    buyer: 'Transport for NSW',
    reference: 'TfNSW-2026-090',
    closing_date: '2026-06-01',
  }),
  cloud: tenderRow({
    source: 'au_federal_austender_atm',
    source_tag: 'ATM',
    title: 'Cloud hosting services',
    buyer: 'Department of Finance',
    reference: 'ATM-FIN-2026-7',
    jurisdiction: 'AU',
    tier: 'federal',
    category: '81112003',
    closing_date: '2026-06-11',
    closing_at: '2026-06-11T02:00:00.000Z',
    first_seen: '2026-06-09T00:00:00.000Z',
  }),
  grant: tenderRow({
    source: 'au_vic_grants',
    source_tag: 'VICG',
    kind: 'grant',
    title: 'Community road safety grants',
    buyer: 'Department of Transport and Planning',
    jurisdiction: 'AU-VIC',
    tier: 'state',
  }),
  library: tenderRow({
    title: 'Library fit-out',
    buyer: 'City of Sydney',
    reference: 'CoS-44',
    tier: 'council',
    category: '56101500',
    closing_date: '2026-06-12',
    first_seen: '2026-05-01T00:00:00.000Z',
  }),
  auckland: tenderRow({
    source: 'nz_gets',
    source_tag: 'GETS',
    title: 'Road resurfacing programme',
    buyer: 'Auckland Transport',
    reference: 'AT-2026-5',
    jurisdiction: 'NZ',
    tier: 'council',
    closing_date: '2026-06-30',
    first_seen: '2026-06-09T00:00:00.000Z',
  }),
};

const sources = [
  sourceRow({ tender_count: 3 }),
  sourceRow({ id: 'au_federal_austender_atm', tag: 'ATM', name: 'AusTender approaches to market', jurisdiction: 'AU', tier: 'federal', mode: 'rss' }),
  sourceRow({ id: 'au_vic_grants', tag: 'VICG', name: 'Victorian grants', jurisdiction: 'AU-VIC', kinds: ['grant'] }),
  sourceRow({ id: 'au_wa_tenders_wa', tag: 'WA', name: 'Tenders WA', jurisdiction: 'AU-WA', status: 'login_walled', why: 'The tender list now needs a login.', tender_count: 0 }),
  sourceRow({ id: 'au_qld_qtenders', tag: 'QLD', name: 'QTenders', jurisdiction: 'AU-QLD', tender_count: 0 }),
  sourceRow({ id: 'au_federal_austender_ocds', tag: 'CN', name: 'AusTender contract notices', jurisdiction: 'AU', tier: 'federal', kinds: ['award'], tender_count: 0, award_count: 900 }),
  sourceRow({ id: 'nz_gets', tag: 'GETS', name: 'NZ Government Electronic Tenders', jurisdiction: 'NZ', tier: 'national' }),
];

const key = (tender: { tender_key: unknown }) => String(tender.tender_key);

interface SearchBody {
  total: number;
  results: Record<string, unknown>[];
  coverage: { sources_total: number; sources_empty: { source: string; status: string; why: string }[]; last_run: string };
}

let dataDir: string;
let releaseId: string;
let store: ReleaseStore;
let app: Awaited<ReturnType<typeof createApp>>;

async function search(query: string): Promise<SearchBody> {
  const response = await app.request(`/v1/tenders${query}`);
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as SearchBody;
}

async function keysOf(query: string): Promise<string[]> {
  return (await search(query)).results.map((result) => String(result.page_key));
}

describe('tender API over a seeded release', () => {
  before(async () => {
    dataDir = await makeDataDir();
    ({ releaseId } = await seedRelease({ dataDir, tenders: Object.values(tenders), sources, computedAt: COMPUTED_AT }));
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    app = await createApp({ store, burst: false });
  });

  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('GET /v1/tenders', () => {
    it('lists open Australian tenders by closing date, soonest first, undated last', async () => {
      const body = await search('');
      assert.deepEqual(body.results.map((r) => r.page_key), [key(tenders.cloud), key(tenders.library), key(tenders.road), key(tenders.grant)]);
      assert.equal(body.total, 4);
    });

    it('ranks free text by relevance and leaves New Zealand out unless asked', async () => {
      const body = await search('?q=road');
      assert.deepEqual(body.results.map((r) => r.page_key).sort(), [key(tenders.road), key(tenders.grant)].sort());
      assert.equal(body.results[0]!.page_key, key(tenders.road), 'a title and summary match outranks a title match alone');
      assert.deepEqual(await keysOf('?q=road&jurisdiction=NZ'), [key(tenders.auckland)]);
    });

    it('orders a word search by closing date with sort=closing, and ignores sort without words', async () => {
      assert.deepEqual(await keysOf('?q=services&sort=closing'), [key(tenders.cloud), key(tenders.road)], 'closing 11 June, then 20 June');
      assert.deepEqual(await keysOf('?q=road&sort=relevance'), await keysOf('?q=road'));
      assert.deepEqual(await keysOf('?sort=relevance'), await keysOf(''));
    });

    it('matches word stems, buyers and summaries, ignoring case and accents', async () => {
      assert.deepEqual(await keysOf('?q=POTHOLE'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?q=resurfac&jurisdiction=NZ'), [key(tenders.auckland)]);
      assert.deepEqual(await keysOf('?q=finance%20hosting'), [key(tenders.cloud)]);
      assert.deepEqual(await keysOf('?q=hosting%20bridges'), [], 'every word must match');
    });

    it('treats AU as every Australian jurisdiction and a state as itself', async () => {
      assert.equal((await search('?jurisdiction=AU')).total, 4);
      assert.deepEqual(await keysOf('?jurisdiction=AU-NSW'), [key(tenders.library), key(tenders.road)]);
      assert.deepEqual(await keysOf('?jurisdiction=AU-VIC'), [key(tenders.grant)]);
      assert.deepEqual(await keysOf('?jurisdiction=NZ'), [key(tenders.auckland)]);
      assert.deepEqual(await keysOf('?jurisdiction=AU-TAS'), []);
    });

    it('filters by kind, tier and source', async () => {
      assert.deepEqual(await keysOf('?kind=grant'), [key(tenders.grant)]);
      assert.equal((await search('?kind=tender')).total, 3);
      assert.deepEqual(await keysOf('?tier=council'), [key(tenders.library)]);
      assert.deepEqual(await keysOf('?tier=council&jurisdiction=NZ'), [key(tenders.auckland)]);
      assert.deepEqual(await keysOf('?source=au_federal_austender_atm'), [key(tenders.cloud)]);
    });

    it('matches a UNSPSC code and every code beneath a parent', async () => {
      assert.deepEqual(await keysOf('?category=72141103'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?category=7214'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?category=72000000'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?category=8111'), [key(tenders.cloud)]);
      assert.deepEqual(await keysOf('?category=72141104'), []);
    });

    it('matches the buyer exactly, ignoring case', async () => {
      assert.deepEqual(await keysOf('?buyer=transport%20for%20nsw'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?buyer=Transport%20for%20NSW&include_closed=true'), [key(tenders.road), key(tenders.bridge)]);
      assert.deepEqual(await keysOf('?buyer=Transport'), []);
    });

    it('filters by closing date', async () => {
      assert.deepEqual(await keysOf('?closing_before=2026-06-12'), [key(tenders.cloud), key(tenders.library)]);
      assert.deepEqual(await keysOf('?closing_within_days=0'), []);
      assert.deepEqual(await keysOf('?closing_within_days=1'), [key(tenders.cloud)]);
      assert.deepEqual(await keysOf('?closing_within_days=2'), [key(tenders.cloud), key(tenders.library)]);
      assert.equal((await search('?closing_within_days=366')).total, 3, 'a tender without a closing date never matches');
    });

    it('filters by date changes and first sighting (strictly after)', async () => {
      assert.deepEqual(await keysOf('?changed_within_days=7'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?changed_within_days=1'), [], 'changed 38 hours ago');
      assert.deepEqual(await keysOf('?changed_within_days=2'), [key(tenders.road)]);
      assert.deepEqual(await keysOf('?first_seen_after=2026-06-08T00:00:00Z'), [key(tenders.cloud), key(tenders.road)]);
      assert.deepEqual(await keysOf('?first_seen_after=2026-06-09T00:00:00Z'), []);
      assert.deepEqual(await keysOf('?first_seen_after=2026-06-09T09:59:59%2B10:00'), [key(tenders.cloud)]);
    });

    it('adds closed tenders on request, after the open ones', async () => {
      const body = await search('?include_closed=true');
      assert.equal(body.total, 5);
      assert.equal(body.results.at(-1)!.page_key, key(tenders.bridge));
      assert.equal(body.results.at(-1)!.open, false);
      assert.ok(body.results.slice(0, 4).every((result) => result.open === true));
      assert.deepEqual(await keysOf('?q=bridge'), []);
      assert.deepEqual(await keysOf('?q=bridge&include_closed=true'), [key(tenders.bridge)]);
    });

    it('pages with limit and offset, keeping the total', async () => {
      const first = await search('?limit=2');
      assert.equal(first.total, 4);
      assert.deepEqual(first.results.map((r) => r.page_key), [key(tenders.cloud), key(tenders.library)]);
      const second = await search('?limit=2&offset=2');
      assert.deepEqual(second.results.map((r) => r.page_key), [key(tenders.road), key(tenders.grant)]);
      const beyond = await search('?offset=50');
      assert.deepEqual(beyond.results, []);
      assert.equal(beyond.total, 4);
    });

    it('gives 20 results by default and at most 100', async () => {
      assert.equal(TenderSearchQuery.parse({}).limit, 20);
      assert.equal(TenderSearchQuery.parse({}).offset, 0);
      const response = await app.request('/openapi.json');
      const document = (await response.json()) as { paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }> };
      const limit = document.paths['/v1/tenders']!.get.parameters.find((parameter) => parameter.name === 'limit')!;
      assert.equal(limit.schema.default, 20);
      assert.equal(limit.schema.maximum, 100);
      assert.equal((await app.request('/v1/tenders?limit=100')).status, 200);
    });

    it('replies with tender fields and withholds every link to another site', async () => {
      const [road] = (await search('?q=pothole')).results;
      assert.deepEqual(road, {
        page_key: key(tenders.road),
        tender_key: key(tenders.road),
        kind: 'tender',
        title: 'Road maintenance services',
        buyer: 'Transport for NSW',
        reference: 'TfNSW-2026-118',
        jurisdiction: 'AU-NSW',
        tier: 'state',
        source: 'au_nsw_buy_nsw',
        source_tag: 'NSW',
        summary: 'Resurfacing and pothole repairs on regional roads',
        category: '72141103',
        published_date: '2026-05-20',
        closing_date: '2026-06-20',
        closing_at: '2026-06-20T04:00:00.000Z',
        first_seen: '2026-06-08T12:00:00.000Z',
        last_seen: '2026-06-01T12:00:00.000Z',
        dates_changed_at: '2026-06-08T12:00:00.000Z',
        stale: false,
        open: true,
      });
    });

    it('reports coverage: sources in scope and those that returned nothing, with why', async () => {
      const { coverage } = await search('?q=nothing%20matches%20this');
      assert.equal(coverage.sources_total, 5, 'AU sources of tenders or grants; awards-only and NZ sources are out of scope');
      assert.equal(coverage.last_run, COMPUTED_AT);
      assert.deepEqual(coverage.sources_empty.map((s) => [s.source, s.status]), [['au_qld_qtenders', 'ok'], ['au_wa_tenders_wa', 'login_walled']]);
      assert.equal(coverage.sources_empty[1]!.why, 'The tender list now needs a login.');
      assert.match(coverage.sources_empty[0]!.why, /no tenders/);

      assert.deepEqual((await search('?jurisdiction=NZ')).coverage.sources_total, 1);
      assert.deepEqual((await search('?kind=grant')).coverage, { sources_total: 1, sources_empty: [], last_run: COMPUTED_AT });
      assert.deepEqual((await search('?jurisdiction=AU-WA')).coverage.sources_empty.map((s) => s.source), ['au_wa_tenders_wa']);
      assert.equal((await search('?source=au_nsw_buy_nsw')).coverage.sources_total, 1);
    });

    const malformed: [string, string][] = [
      ['closing_within_days=367', 'closing_within_days'],
      ['closing_within_days=-1', 'closing_within_days'],
      ['closing_within_days=1.5', 'closing_within_days'],
      ['closing_within_days=', 'closing_within_days'],
      ['changed_within_days=0', 'changed_within_days'],
      ['changed_within_days=32', 'changed_within_days'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['first_seen_after=yesterday', 'first_seen_after'],
      ['first_seen_after=2026-06-01', 'first_seen_after'],
      ['closing_before=2026-13-01', 'closing_before'],
      ['jurisdiction=XX', 'jurisdiction'],
      ['jurisdiction=au', 'jurisdiction'],
      ['kind=award', 'kind'],
      ['tier=city', 'tier'],
      ['include_closed=yes', 'include_closed'],
      ['category=801', 'category'],
      ['source=Bad-Id', 'source'],
      ['source=au_nowhere_portal', 'source'],
      ['buyer=', 'buyer'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['trade=civil', 'trade'],
      ['sort=newest', 'sort'],
      ['limit=5&limit=6', 'limit'],
    ];
    for (const [query, parameter] of malformed) {
      it(`answers 400 naming ${parameter} for ?${query.slice(0, 40)}`, async () => {
        const response = await app.request(`/v1/tenders?${query}`);
        assert.equal(response.status, 400);
        const body = (await response.json()) as { detail: string };
        assert.deepEqual(Object.keys(body), ['detail']);
        assert.match(body.detail, new RegExp(`\\b${parameter}\\b`));
      });
    }

    it('says what is allowed in the 400 detail', async () => {
      const body = (await (await app.request('/v1/tenders?closing_within_days=367')).json()) as { detail: string };
      assert.equal(body.detail, 'Invalid query parameter closing_within_days=367: must be a whole number from 0 to 366.');
      const unknown = (await (await app.request('/v1/tenders?region=west')).json()) as { detail: string };
      assert.match(unknown.detail, /^Unknown query parameter region: this route takes q, jurisdiction, .*trade.*offset\.$/);
      const trade = (await (await app.request('/v1/tenders?trade=civil')).json()) as { detail: string };
      assert.match(trade.detail, /^Invalid query parameter trade=civil: must be one of civil-works, building-construction, /);
    });
  });

  describe('GET /v1/tenders/{key}', () => {
    it('answers one tender with open: true', async () => {
      const response = await app.request(`/v1/tenders/${key(tenders.road)}`);
      assert.equal(response.status, 200);
      const body = (await response.json()) as Record<string, unknown>;
      assert.equal(body.title, 'Road maintenance services');
      assert.equal(body.open, true);
      for (const link of ['link', 'url', 'listing_url', 'source_url']) assert.equal(link in body, false, `${link} is withheld`);
      const sources = body.sources as { source: string; licence: string; attribution: string }[];
      assert.deepEqual(sources.map((s) => [s.source, s.licence, s.attribution]), [[body.source, 'CC BY 4.0', 'NSW Government']], 'the licence attribution travels with the data');
    });

    it('still answers a closed tender, with open: false', async () => {
      const body = (await (await app.request(`/v1/tenders/${key(tenders.bridge)}`)).json()) as Record<string, unknown>;
      assert.equal(body.open, false);
      assert.equal(body.closing_date, '2026-06-01');
    });

    it('answers New Zealand tenders by key', async () => {
      const body = (await (await app.request(`/v1/tenders/${key(tenders.auckland)}`)).json()) as Record<string, unknown>;
      assert.equal(body.jurisdiction, 'NZ');
    });

    it('answers 404 {detail} for an unknown key', async () => {
      for (const unknown of ['0123456789abcdef0123456789abcdef', 'f0123456789abcdef0123456789abcdef']) {
        const response = await app.request(`/v1/tenders/${unknown}`);
        assert.equal(response.status, 404, unknown);
        const body = (await response.json()) as { detail: string };
        assert.deepEqual(Object.keys(body), ['detail']);
        assert.ok(body.detail.includes(unknown));
      }
    });

    it('answers 400 {detail} for a malformed key, on the tender, its portal link and its context', async () => {
      for (const malformed of ['not-a-key', key(tenders.road).toUpperCase(), `${key(tenders.road)}0`]) {
        for (const path of [`/v1/tenders/${malformed}`, `/v1/tenders/${malformed}/portal`, `/v1/tenders/${malformed}/context`]) {
          const response = await app.request(path);
          assert.equal(response.status, 400, path);
          const body = (await response.json()) as { detail: string };
          assert.deepEqual(Object.keys(body), ['detail']);
          assert.equal(body.detail, `Invalid path parameter key=${malformed}: must be a page_key: 32 lowercase hex characters, or f and 32 (the page_key of a search result).`);
        }
      }
    });
  });

  describe('GET /v1/tenders/sources', () => {
    it('lists every registry row without homepages', async () => {
      const response = await app.request('/v1/tenders/sources');
      assert.equal(response.status, 200);
      const body = (await response.json()) as { sources: Record<string, unknown>[]; computed_at: string };
      assert.equal(body.computed_at, COMPUTED_AT);
      assert.deepEqual(body.sources.map((s) => s.id), [
        'au_federal_austender_atm', 'au_federal_austender_ocds', 'au_nsw_buy_nsw', 'au_qld_qtenders', 'au_vic_grants', 'au_wa_tenders_wa', 'nz_gets',
      ]);
      const wa = body.sources.find((s) => s.id === 'au_wa_tenders_wa')!;
      assert.deepEqual(wa, {
        id: 'au_wa_tenders_wa',
        tag: 'WA',
        name: 'Tenders WA',
        jurisdiction: 'AU-WA',
        tier: 'state',
        kinds: ['tender'],
        mode: 'json-api',
        refresh: 'incremental',
        tender_count: 0,
        award_count: 0,
        plan_count: 0,
        reference_count: 0,
        last_run_at: '2026-06-01T12:00:00.000Z',
        last_success_at: '2026-06-01T12:00:00.000Z',
        status: 'login_walled',
        why: 'The tender list now needs a login.',
        licence: 'CC BY 4.0',
        attribution: 'NSW Government',
        caveats: [],
      });
    });
  });

  describe('GET /v1/tenders/strip', () => {
    it('counts open Australian tenders closing within 48 hours, changed and new in 7 days', async () => {
      const response = await app.request('/v1/tenders/strip');
      assert.equal(response.status, 200);
      // cloud closes in 24 h (timed); library closes the day after tomorrow (date only); road is 10 days out.
      // new: road and cloud (the Auckland tender is new too, but New Zealand is outside the default scope).
      assert.deepEqual(await response.json(), { closing_48h: 2, dates_changed_7d: 1, new_7d: 2 });
    });
  });

  describe('health and discovery', () => {
    for (const path of ['/livez', '/health', '/healthz']) {
      it(`${path} names the engine version and the release served`, async () => {
        const response = await app.request(path);
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), {
          status: 'ok',
          engine_version: INSPECTION_VERSION,
          release_id: releaseId,
          computed_at: COMPUTED_AT,
        });
      });
    }

    it('/openapi.json is OpenAPI 3.1, version 0.6.0, listing every tender and health route', async () => {
      const document = (await (await app.request('/openapi.json')).json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
      assert.equal(document.openapi, '3.1.0');
      assert.equal(document.info.version, '0.6.0');
      // Other resources' tests check their own paths.
      const paths = Object.keys(document.paths);
      for (const path of ['/health', '/healthz', '/livez', '/v1/tenders', '/v1/tenders/sources', '/v1/tenders/strip', '/v1/tenders/{key}', '/v1/tenders/{key}/portal']) {
        assert.ok(paths.includes(path), `${path} is documented`);
      }
    });

    it('answers 404 {detail} for unknown paths and methods', async () => {
      for (const [method, path] of [['GET', '/v1/nothing'], ['POST', '/v1/tenders'], ['GET', '/v1/tenders/strip/extra']] as const) {
        const response = await app.request(path, { method });
        assert.equal(response.status, 404, `${method} ${path}`);
        assert.deepEqual(Object.keys((await response.json()) as object), ['detail']);
      }
    });
  });
});

describe('tender API before any release exists', () => {
  let emptyDir: string;
  let waitingStore: ReleaseStore;

  before(async () => {
    emptyDir = await makeDataDir();
    waitingStore = await ReleaseStore.open({ dataDir: emptyDir, now: () => NOW, pollMs: 60_000, log: () => {} });
  });

  after(async () => {
    await waitingStore.close();
    await rm(emptyDir, { recursive: true, force: true });
  });

  it('answers 503 {detail} on data routes, 200 "starting" on health, then serves the first release', async () => {
    const waitingApp = await createApp({ store: waitingStore, burst: false });
    for (const path of ['/v1/tenders', '/v1/tenders?q=road', '/v1/tenders/strip', '/v1/tenders/sources', `/v1/tenders/${key(tenders.road)}`]) {
      const response = await waitingApp.request(path);
      assert.equal(response.status, 503, path);
      assert.ok(response.headers.get('Retry-After'));
      const body = (await response.json()) as { detail: string };
      assert.deepEqual(Object.keys(body), ['detail']);
      assert.match(body.detail, /no release/i);
    }
    const health = await waitingApp.request('/health');
    assert.equal(health.status, 200);
    const healthBody = (await health.json()) as Record<string, unknown>;
    assert.equal(healthBody.status, 'starting');
    assert.equal(healthBody.engine_version, INSPECTION_VERSION);
    assert.equal('release_id' in healthBody, false);

    await seedRelease({ dataDir: emptyDir, tenders: [tenders.road], sources: [sources[0]!], computedAt: COMPUTED_AT });
    await waitingStore.refresh();
    assert.equal((await waitingApp.request('/v1/tenders')).status, 200);
    assert.equal(((await (await waitingApp.request('/health')).json()) as Record<string, unknown>).status, 'ok');
  });
});

describe('unexpected failures', () => {
  it('answer 500 {detail} and are logged', async () => {
    const logged: unknown[] = [];
    const failing = await createApp({
      store: {
        state: () => {
          throw new Error('disk on fire');
        },
        now: () => NOW,
      },
      log: (error) => logged.push(error),
    });
    const response = await failing.request('/v1/tenders');
    assert.equal(response.status, 500);
    const body = (await response.json()) as { detail: string };
    assert.deepEqual(Object.keys(body), ['detail']);
    assert.doesNotMatch(body.detail, /disk on fire/, 'internals stay in the log');
    assert.equal((logged[0] as Error).message, 'disk on fire');
  });
});
