import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { pointCurrentAt } from '../data/release.ts';
import { awardIndexOf } from '../data/search/award-index.ts';
import { writeServingIndex } from '../data/search/serving-index.ts';
import { type StateDb } from '../data/state/db.ts';
import { openStore } from '../data/store.ts';
import { buyerKey } from '../lib/keys.ts';
import { keyFor } from './helpers/access.ts';
import { RUN_AT, seedAwardModels } from './helpers/award-seed.ts';
import { makeDataDir, seedRelease, sourceRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

const NOW = new Date(RUN_AT);
const TFNSW = buyerKey('AU-NSW', 'Transport for NSW')!;
const DEFENCE = buyerKey('AU', 'Department of Defence')!;
const QLD_HEALTH = buyerKey('AU-QLD', 'Queensland Health')!;

const sources = [
  sourceRow({ id: 'au_nsw_contract_awards', name: 'NSW contract awards', attribution: 'NSW Government', kinds: ['award'] }),
  sourceRow({ id: 'au_federal_austender_ocds', name: 'AusTender contract notices', jurisdiction: 'AU', tier: 'federal', attribution: 'AusTender, Commonwealth of Australia' }),
  sourceRow({ id: 'au_federal_austender_atm', name: 'AusTender approaches to market', jurisdiction: 'AU', tier: 'federal', attribution: 'AusTender' }),
  sourceRow({ id: 'au_vendorpanel', name: 'VendorPanel', jurisdiction: 'AU', tier: 'council', attribution: 'VendorPanel' }),
  sourceRow({ id: 'nz_gets_awards', name: 'GETS awards', jurisdiction: 'NZ', tier: 'national', attribution: 'GETS, New Zealand Government' }),
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let dataDir: string;
let store: ReleaseStore;
let state: StateDb;
let app: Awaited<ReturnType<typeof createApp>>;
let keyed: Record<string, string>;

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const response = await app.request(path, { headers });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('awards, buyers and suppliers API over a seeded release', () => {
  before(async () => {
    dataDir = await makeDataDir();
    const { dir, manifest } = await seedRelease({ dataDir, sources, computedAt: RUN_AT, point: false });
    const release = await openStore(join(dir, 'store.duckdb'));
    try {
      await seedAwardModels(release);
    } finally {
      release.close();
    }
    await writeServingIndex(dir);
    await pointCurrentAt(dataDir, manifest, new Date());
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    const loaded = store.state();
    assert.ok(loaded.ready);
    await awardIndexOf(loaded.release.store);
    state = await openTestState();
    app = await createApp({ store, state, burst: false, now: () => NOW });
    keyed = (await keyFor(state, null)).headers;
  });

  after(async () => {
    await store.close();
    await state.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  describe('GET /v1/awards', () => {
    it('lists contracts most recent first, each amendment chain once, with the envelope', async () => {
      const { status, body } = await get('/v1/awards?limit=100');
      assert.equal(status, 200);
      assert.equal(body.total, 37);
      assert.equal(body.results.length, 37);
      assert.equal(body.results[0].contract_id, 'TFN-future', 'dated after the run, so first');
      assert.equal(body.results.filter((a: Json) => a.contract_id.startsWith('CN-D1')).length, 1);
      assert.equal(body.computed_at, RUN_AT);
      assert.ok(body.sources.some((s: Json) => s.source === 'au_nsw_contract_awards' && s.attribution === 'NSW Government'));
    });

    it('withholds supplier names, identifiers and links from anonymous callers and says so', async () => {
      const anonymous = (await get('/v1/awards?buyer_key=' + DEFENCE)).body;
      const amended = anonymous.results.find((a: Json) => a.contract_id === 'CN-D1');
      assert.deepEqual(Object.keys(amended).sort(), ['awarded_date', 'buyer', 'buyer_key', 'categories', 'contract_id', 'end_date', 'jurisdiction', 'source', 'title', 'value_amount', 'value_currency']);
      assert.equal(amended.value_amount, 150, 'the amended value');
      assert.deepEqual(anonymous.withheld, ['url', 'supplier', 'supplier_id', 'supplier_key']);
      assert.match(anonymous.withheld_reason, /API key/);

      const identified = (await get('/v1/awards?buyer_key=' + DEFENCE, keyed)).body;
      const full = identified.results.find((a: Json) => a.contract_id === 'CN-D1');
      assert.equal(full.supplier, 'Harbourside Civil Pty Ltd');
      assert.equal(full.supplier_key, 'AU-ABN:53004085616');
      assert.equal(full.url, 'https://example.gov.au/CN-D1-A1');
      assert.deepEqual(identified.withheld, []);
      assert.equal(identified.withheld_reason, null);
    });

    it('filters by buyer name (any case and spacing), key, supplier, supplier key, words, jurisdiction and date', async () => {
      const ids = async (query: string, headers: Record<string, string> = {}) => (await get(`/v1/awards?limit=100&${query}`, headers)).body.results.map((a: Json) => a.contract_id).sort();
      assert.equal((await ids('buyer=TRANSPORT%20%20for%20nsw')).length, 30);
      assert.deepEqual(await ids(`buyer_key=${DEFENCE}`), ['CN-D1', 'CN-D2', 'CN-X']);
      assert.deepEqual(await ids('supplier=harbourside%20civil%20pty%20ltd', keyed), ['CN-D1', 'NZ-1']);
      assert.deepEqual(await ids('supplier_key=AU-ABN:53004085616', keyed), ['CN-D1', 'CN-D2', 'NZ-1']);
      assert.deepEqual(await ids('supplier_key=53%20004%20085%20616', keyed), ['CN-D1', 'CN-D2', 'NZ-1'], 'a spaced ABN is the same key');
      assert.deepEqual(await ids('supplier_key=AU-ACN-935063719', keyed), ['QLD-1']);
      assert.deepEqual(await ids('jurisdiction=NZ'), ['NZ-1']);
      assert.deepEqual(await ids('jurisdiction=AU&since=2026-05-01'), ['CN-D2', 'TFN-future'], 'a country matches its states; since is inclusive');
      assert.deepEqual(await ids('jurisdiction=AU-QLD'), ['QLD-1']);
      assert.deepEqual(await ids('q=road%20maintenance&jurisdiction=AU-VIC'), ['VIC-1', 'VIC-2']);
      assert.deepEqual(await ids('q=harbourside'), [], 'anonymous words never search supplier names');
      assert.deepEqual(await ids('q=harbourside', keyed), ['CN-D1', 'CN-D2', 'NZ-1']);
    });

    it('answers 401 {detail} to a supplier filter without a key or session', async () => {
      for (const query of ['supplier=harbourside%20civil%20pty%20ltd', 'supplier_key=AU-ABN:53004085616', 'supplier_key=53004085616&jurisdiction=AU']) {
        const { status, body } = await get(`/v1/awards?${query}`);
        assert.equal(status, 401, query);
        assert.deepEqual(Object.keys(body), ['detail']);
        assert.match(body.detail, /by supplier.*API key.*signed-in session/);
      }
    });

    it('answers 503 {ready: false} with Retry-After while the release\'s awards are being indexed, then lists them', async () => {
      const loaded = store.state();
      assert.ok(loaded.ready);
      // the same release over a store object never indexed: its first list request starts the index
      const unindexed = { ...loaded.release.store };
      const fresh = await createApp({ store: { state: () => ({ ready: true, release: { ...loaded.release, store: unindexed } }), now: () => NOW }, state, burst: false, now: () => NOW });
      const loading = await fresh.request('/v1/awards');
      assert.equal(loading.status, 503);
      assert.ok(loading.headers.get('retry-after'));
      const body = (await loading.json()) as Json;
      assert.equal(body.ready, false);
      assert.match(body.detail, /indexed/);
      await awardIndexOf(unindexed);
      assert.equal((await fresh.request('/v1/awards')).status, 200);
    });

    it('pages with limit and offset', async () => {
      const first = (await get('/v1/awards?limit=2')).body;
      const second = (await get('/v1/awards?limit=2&offset=2')).body;
      assert.equal(first.results.length, 2);
      assert.equal(first.total, 37);
      assert.notDeepEqual(first.results.map((a: Json) => a.contract_id), second.results.map((a: Json) => a.contract_id));
    });

    it('answers 400 naming a bad value', async () => {
      for (const [query, named] of [
        ['limit=101', 'limit=101'], ['limit=0', 'limit=0'], ['offset=-1', 'offset=-1'], ['jurisdiction=AU-XX', 'jurisdiction=AU-XX'],
        ['since=yesterday', 'since=yesterday'], ['buyer_key=nope', 'buyer_key=nope'], ['supplier_key=12345', 'supplier_key=12345'], ['colour=red', 'colour'],
      ]) {
        const { status, body } = await get(`/v1/awards?${query}`);
        assert.equal(status, 400, query);
        assert.ok(body.detail.includes(named!), `${query}: ${body.detail}`);
      }
    });
  });

  describe('GET /v1/awards/buyers and /new', () => {
    it('lists only the listed buyers of a country, by count or value', async () => {
      const { body } = await get('/v1/awards/buyers');
      assert.equal(body.country, 'AU');
      assert.deepEqual(body.buyers.map((b: Json) => b.buyer_key), [TFNSW, DEFENCE], '25 awards; 6 open tenders');
      assert.equal(body.total, 2);
      assert.deepEqual(body.buyers[1], {
        buyer_key: DEFENCE, name: 'Department of Defence', slug: 'au-department-of-defence', jurisdiction: 'AU', award_count: 3, open_tenders: 6,
        expiring_12m: 1, planned_12m: 2, median_value: 225, value_total: 450, value_currency: 'AUD',
      });
      const byValue = (await get('/v1/awards/buyers?order=value')).body;
      assert.deepEqual(byValue.buyers.map((b: Json) => b.buyer_key), [TFNSW, DEFENCE]);
      assert.deepEqual((await get('/v1/awards/buyers?country=NZ')).body.buyers, [], 'no NZ buyer meets the rule');
      assert.equal((await get('/v1/awards/buyers?order=size')).status, 400);
    });

    it('counts buyers first seen since a date, which is required', async () => {
      assert.equal((await get('/v1/awards/buyers/new?since=2026-08-01')).body.count, 3, 'TMR and the two Victorian spellings');
      assert.equal((await get('/v1/awards/buyers/new?since=2026-01-01')).body.count, 6);
      assert.equal((await get('/v1/awards/buyers/new?since=2026-08-01&country=NZ')).body.count, 1);
      const missing = await get('/v1/awards/buyers/new');
      assert.equal(missing.status, 400);
      assert.match(missing.body.detail, /since/);
    });
  });

  describe('GET /v1/awards/buyers/{buyer_key}', () => {
    it('gives the figures and lists; top supplier shares to everyone, their names to identified callers', async () => {
      const anonymous = (await get(`/v1/awards/buyers/${DEFENCE}`)).body;
      assert.equal(anonymous.buyer.award_count, 3);
      assert.equal(anonymous.buyer.p25_value, 187.5);
      assert.equal(anonymous.buyer.median_response_days, 30);
      assert.equal(anonymous.buyer.window_from, '2023-09-25');
      assert.deepEqual(anonymous.expiring.map((a: Json) => a.contract_id), ['CN-D1']);
      assert.deepEqual(anonymous.planned.map((p: Json) => p.plan_id), ['running', 'in-window', 'far', 'unwindowed'], 'current plans, windowless last, never withdrawn');
      assert.equal(anonymous.planned[0].url, undefined);
      assert.deepEqual(anonymous.recent_awards.map((a: Json) => a.contract_id), ['CN-D2', 'CN-D1', 'CN-X']);
      assert.equal(anonymous.recent_awards[0].supplier, undefined);
      assert.equal(anonymous.open_tenders.length, 6);
      assert.equal(anonymous.open_tenders.at(-1).page_key, 'open-undated', 'no closing date sorts last');
      assert.deepEqual(anonymous.top_suppliers, [{ share: 0.6667 }, { share: 0.3333 }], 'shares, with names withheld');
      assert.equal('match' in anonymous, false);
      // The page's charts: contracts per calendar year of the window add up to its figures; contracts ending per month from this month.
      assert.deepEqual(anonymous.spend_by_year.map((y: Json) => y.year), ['2023', '2024', '2025', '2026']);
      assert.equal(anonymous.spend_by_year.reduce((sum: number, y: Json) => sum + y.count, 0), anonymous.buyer.award_count);
      assert.equal(anonymous.spend_by_year.reduce((sum: number, y: Json) => sum + y.value, 0), anonymous.buyer.value_total);
      assert.equal(anonymous.expiring_by_month.length, 12);
      assert.equal(anonymous.expiring_by_month[0].month, '2026-09');
      const endMonth = anonymous.expiring[0].end_date.slice(0, 7);
      assert.deepEqual(anonymous.expiring_by_month.filter((m: Json) => m.count > 0).map((m: Json) => [m.month, m.count]), [[endMonth, 1]], 'CN-D1 in the month it ends');

      const identified = (await get(`/v1/awards/buyers/${DEFENCE}`, keyed)).body;
      assert.deepEqual(identified.top_suppliers, [{ name: 'HARBOURSIDE CIVIL', share: 0.6667 }, { name: 'Exempt', share: 0.3333 }]);
      assert.equal(identified.planned[0].url, 'https://example.gov.au/p');
    });

    it('keeps the spec\'s buyer figures present, null when the release holds no value', async () => {
      const { body } = await get(`/v1/awards/buyers/${QLD_HEALTH}`);
      for (const figure of ['award_count', 'window_from', 'median_value', 'p25_value', 'p75_value', 'value_currency', 'median_response_days', 'expiring_12m', 'planned_12m']) {
        assert.ok(figure in body.buyer, figure);
      }
      assert.deepEqual([body.buyer.median_value, body.buyer.p25_value, body.buyer.p75_value, body.buyer.value_currency, body.buyer.median_response_days], [null, null, null, null, null]);
      assert.deepEqual(body.top_suppliers, []);
    });

    it('answers 404 for an unknown or malformed key', async () => {
      assert.equal((await get('/v1/awards/buyers/au-000000000000')).status, 404);
      assert.equal((await get('/v1/awards/buyers/not-a-key')).status, 404);
    });
  });

  describe('GET /v1/awards/buyers/lookup', () => {
    const lookup = (query: string) => get(`/v1/awards/buyers/lookup?${query}`);

    it('resolves under the jurisdiction, case and spacing aside, with no match label', async () => {
      const { status, body } = await lookup('name=transport%20for%20%20NSW&jurisdiction=AU-NSW');
      assert.equal(status, 200);
      assert.equal(body.buyer.buyer_key, TFNSW);
      assert.equal(body.match, undefined);
    });

    it('falls back to the federal key of the same country, never to another state', async () => {
      assert.equal((await lookup('name=Department%20of%20Defence&jurisdiction=AU-NSW')).body.buyer.buyer_key, DEFENCE);
      assert.equal((await lookup('name=Transport%20for%20NSW&jurisdiction=AU-VIC')).status, 404);
    });

    it('never resolves a country-only source to a national buyer', async () => {
      assert.equal((await lookup('name=Department%20of%20Defence&jurisdiction=AU&source=au_vendorpanel')).status, 404);
      assert.equal((await lookup('name=Department%20of%20Defence&jurisdiction=AU&source=au_federal_austender_atm')).body.buyer.buyer_key, DEFENCE);
    });

    it('tries the name without a trailing division code, and says so', async () => {
      const { body } = await lookup('name=Department%20of%20Defence%20-%20CASG&jurisdiction=AU');
      assert.equal(body.buyer.buyer_key, DEFENCE);
      assert.deepEqual(body.match, { method: 'heuristic', rule: 'without_division_code', name: 'Department of Defence', jurisdiction: 'AU' });
    });

    it('resolves a country-only name under the one state it names, and says so', async () => {
      const { body } = await lookup('name=Queensland%20Health&jurisdiction=AU&source=au_vendorpanel');
      assert.equal(body.buyer.buyer_key, QLD_HEALTH);
      assert.deepEqual(body.match, { method: 'heuristic', rule: 'state_named', name: 'Queensland Health', jurisdiction: 'AU-QLD' });
    });

    it('answers 404 on a miss and 400 on bad input', async () => {
      assert.equal((await lookup('name=Nobody&jurisdiction=AU')).status, 404);
      assert.equal((await lookup('name=Nobody')).status, 400);
      const unknown = await lookup('name=Nobody&jurisdiction=AU&source=au_nowhere');
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.detail, /source=au_nowhere/);
    });
  });

  describe('GET /v1/awards/suppliers/{identifier}', () => {
    it('gives an identified caller the entity, contracts, buyers, categories and standing', async () => {
      const { status, body } = await get('/v1/awards/suppliers/53%20004%20085%20616', keyed);
      assert.equal(status, 200);
      assert.equal(body.entity.supplier_key, 'AU-ABN:53004085616');
      assert.equal(body.entity.name, 'Harbourside Civil Pty Ltd');
      assert.deepEqual(body.entity.value_totals, [{ currency: 'AUD', amount: 450, contracts: 2 }, { currency: 'NZD', amount: 250, contracts: 1 }]);
      assert.deepEqual(body.contracts.map((a: Json) => a.contract_id), ['CN-D2', 'CN-D1', 'NZ-1']);
      assert.deepEqual(body.buyers.map((b: Json) => [b.buyer, b.contracts]), [['Department of Defence', 2], ['Auckland Council', 1]]);
      assert.deepEqual(body.categories, [{ code: '72141000', contracts: 2 }, { code: '72101500', contracts: 1 }]);
      assert.equal(body.standing.abn.status, 'ACT');
      assert.equal(body.standing.asic.acn, '004085616');
      assert.equal(body.standing.asic.status_meaning, 'registered');
      assert.deepEqual(body.withheld, []);
    });

    it('gives an anonymous caller counts only, with names, identifiers, contracts and buyers withheld', async () => {
      const { body } = await get('/v1/awards/suppliers/AU-ABN:53004085616');
      assert.deepEqual(Object.keys(body.entity).sort(), ['buyer_count', 'contract_count', 'first_awarded', 'jurisdictions', 'last_awarded', 'scheme', 'value_totals']);
      assert.equal(body.entity.contract_count, 3);
      assert.equal(body.entity.buyer_count, 2);
      assert.deepEqual(body.contracts, [], 'no list ties the supplier to its contracts');
      assert.deepEqual(body.buyers, []);
      assert.deepEqual(body.categories, [{ code: '72141000', contracts: 2 }, { code: '72101500', contracts: 1 }]);
      for (const contractId of ['CN-D1', 'CN-D2', 'NZ-1']) assert.ok(!JSON.stringify(body).includes(contractId), contractId);
      assert.ok(body.withheld.includes('contracts') && body.withheld.includes('buyers'));
      assert.equal(body.standing.asic.acn, undefined);
      assert.equal(body.standing.asic.company_name, undefined);
      assert.equal(body.standing.abn.abn_name, undefined);
      assert.ok(body.withheld.includes('name'));
      assert.ok(JSON.stringify(body).toLowerCase().includes('harbourside') === false, 'the name appears nowhere');
    });

    it('takes other schemes, and answers 404 for an unknown identifier and 400 for a malformed one', async () => {
      assert.equal((await get('/v1/awards/suppliers/AU-ACN:935063719', keyed)).body.standing.asic.company_name, 'CAPRICORNIA ENGINEERING PTY LTD');
      for (const published of ['AU-ACN:004085616', 'AU-ACN-004085616']) {
        const byAcn = await get(`/v1/awards/suppliers/${published}`, keyed);
        assert.equal(byAcn.status, 200, `${published}: an ACN an award carries beside its ABN`);
        assert.equal(byAcn.body.entity.supplier_key, 'AU-ABN:53004085616');
        assert.equal(byAcn.body.entity.contract_count, 3);
      }
      assert.equal((await get('/v1/awards/suppliers/11111111111')).status, 404);
      const malformed = await get('/v1/awards/suppliers/12345');
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.detail, /identifier=12345/);
    });
  });

  it('serves each release from a DuckDB kept to 128 MB that hands freed memory back past 16 MB (the API stays within its memory goal)', async () => {
    const loaded = store.state();
    assert.ok(loaded.ready);
    const [settings] = await loaded.release.store.all<{ memory_limit: string; flush: string }>(
      "SELECT current_setting('memory_limit') AS memory_limit, current_setting('allocator_flush_threshold') AS flush",
    );
    assert.deepEqual(settings, { memory_limit: '122.0 MiB', flush: '15.2 MiB' });
  });

  it('lists every awards route in the OpenAPI document', async () => {
    const { body } = await get('/openapi.json');
    for (const path of ['/v1/awards', '/v1/awards/buyers', '/v1/awards/buyers/new', '/v1/awards/buyers/lookup', '/v1/awards/buyers/{buyer_key}', '/v1/awards/suppliers/{identifier}']) {
      assert.ok(body.paths[path]?.get, path);
    }
  });
});

describe('awards routes with no release loaded', () => {
  it('answer 503 {ready: false, detail} with Retry-After', async () => {
    const emptyDir = await makeDataDir();
    const empty = await ReleaseStore.open({ dataDir: emptyDir, log: () => {} });
    const emptyState = await openTestState();
    try {
      const bare = await createApp({ store: empty, state: emptyState, burst: false });
      for (const path of ['/v1/awards', '/v1/awards/buyers', '/v1/awards/buyers/au-193a9830879c', '/v1/awards/suppliers/53004085616']) {
        const response = await bare.request(path);
        assert.equal(response.status, 503, path);
        const body = (await response.json()) as Json;
        assert.equal(body.ready, false);
        assert.match(body.detail, /release/);
        assert.ok(response.headers.get('retry-after'));
      }
    } finally {
      await empty.close();
      await emptyState.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});
