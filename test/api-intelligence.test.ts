import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { NOW, intelligenceApp, type IntelligenceApp } from './helpers/intel-scenario.ts';
import { makeDataDir } from './helpers/seed-release.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let api: IntelligenceApp;
before(async () => {
  api = await intelligenceApp();
});
after(async () => api.close());

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await api.app.request(path, { headers });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Every object in a reply that has a `count`, `days_90`/`days_365` figure or `suppliers` must carry its covers. */
function assertCovered(reply: Json): void {
  for (const key of ['open', 'planned', 'recurring', 'buyers', 'concentration']) assert.ok(reply[key].covers?.counts, `${key} carries covers`);
  for (const key of ['covers', 'covers_90', 'covers_by_month']) assert.ok(reply.ending[key]?.counts, `ending.${key}`);
}

describe('GET /v1/intelligence/trades/{trade}/{state}', () => {
  it('gives an anonymous caller every figure with its covers, chart data, and no holder names or calendar', async () => {
    const { status, body } = await get('/v1/intelligence/trades/civil-works/nsw');
    assert.equal(status, 200);
    assert.deepEqual(body.trade, { id: 'civil-works', name: 'Civil works' });
    assert.equal(body.jurisdiction, 'AU-NSW');
    assert.equal(body.open.count, 1, 'the tender that closed on 1 September is not open');
    assert.deepEqual(body.open.rows.map((r: Json) => r.title), ['Road resurfacing Hume Highway']);
    assert.equal(body.ending.days_90, 1);
    assert.equal(body.ending.days_365, 2);
    assert.deepEqual(body.ending.covers_90, {
      counts: 'civil works contracts of New South Wales buyers ending within 90 days', jurisdictions: ['AU-NSW'], sources: ['au_nsw_contract_awards'], from: '2026-09-25', to: '2026-12-24',
    });
    assert.equal(body.ending.by_month.length, 12);
    assert.deepEqual(body.ending.by_month.filter((m: Json) => m.count > 0), [{ month: '2026-11', count: 1, value: 100000 }, { month: '2027-05', count: 1, value: 300000 }]);
    assert.equal(body.ending.value_currency, 'AUD');
    assert.deepEqual(body.ending.chart.x, body.ending.by_month.map((m: Json) => m.month));
    assert.deepEqual(body.ending.chart.series[0].values, body.ending.by_month.map((m: Json) => m.count));
    assert.equal(body.planned.count, 1);
    assert.equal(body.planned.rows[0].evidence_ref, 'NSW-PLAN-ROADS');
    assert.equal(body.recurring.count, 0);
    assert.deepEqual(body.buyers.rows.map((b: Json) => [b.buyer, b.awards]), [['Transport for NSW', 2]]);
    assert.deepEqual(body.buyers.by_value.map((b: Json) => [b.buyer, b.value_total, b.value_currency]), [['Transport for NSW', 400000, 'AUD']]);
    assert.deepEqual({ ...body.concentration, covers: undefined }, { suppliers: 2, top_supplier_share: 0.5, top_five_share: 1, covers: undefined });
    assert.equal(body.eligible, true, 'volume 1 open + 2 ending + 2 signed in the year reaches the minimum of 4');
    assertCovered(body);
    assert.equal('calendar' in body.ending, false);
    assert.equal('holders' in body.concentration, false);
    for (const row of body.ending.rows) assert.equal('incumbent' in row, false);
  });

  it('gives an identified caller the holders, incumbents and the re-tender calendar', async () => {
    const { body } = await get('/v1/intelligence/trades/civil-works/AU-NSW', api.keyed);
    assert.deepEqual(body.concentration.holders.map((h: Json) => [h.supplier, h.share]), [['Bridgeworks Pty Ltd', 0.5], ['Acme Roads Pty Ltd', 0.5]], 'a tie is ordered by holder key (the ABN)');
    assert.equal(body.ending.rows[0].incumbent, 'Acme Roads Pty Ltd');
    const november = body.ending.calendar.find((m: Json) => m.month === '2026-11');
    assert.deepEqual(november, {
      month: '2026-11', count: 1,
      contracts: [{ evidence_ref: 'NSW-A1', subject: 'Pavement rehabilitation Pacific Highway', buyer: 'Transport for NSW', buyer_key: november.contracts[0].buyer_key,
        end_date: '2026-11-15', holder: 'Acme Roads Pty Ltd', value_text: 'AUD 100000.00' }],
    });
    assert.equal(body.ending.calendar.length, 12);
  });

  it('shows a recurring tender on its trade page', async () => {
    const { body } = await get('/v1/intelligence/trades/cleaning/tas');
    assert.equal(body.recurring.count, 1);
    assert.equal(body.recurring.rows[0].confidence, 'derived');
    assert.equal(body.recurring.rows[0].buyer, 'City of Hobart');
  });

  it('answers 404 for an unknown trade or jurisdiction', async () => {
    const trade = await get('/v1/intelligence/trades/knitting/nsw');
    assert.equal(trade.status, 404);
    assert.match(trade.body.detail, /knitting/);
    const state = await get('/v1/intelligence/trades/civil-works/atlantis');
    assert.equal(state.status, 404);
    assert.match(state.body.detail, /atlantis/);
  });
});

describe('GET /v1/intelligence/trades', () => {
  it('lists pairs largest first with the minimum, the award year and how trades are matched', async () => {
    const { status, body } = await get('/v1/intelligence/trades');
    assert.equal(status, 200);
    assert.deepEqual(body.pairs[0], { trade: 'civil-works', jurisdiction: 'AU-NSW', open_now: 1, ending_12m: 2, planned_quarter: 0, year_awards: 2, volume: 5, eligible: true });
    const volumes = body.pairs.map((p: Json) => p.volume);
    assert.deepEqual(volumes, [...volumes].sort((a: number, b: number) => b - a));
    assert.equal(body.minimum, 4);
    assert.deepEqual(body.year, { from: '2025-09-26', to: '2026-09-25' });
    assert.equal(body.match.method, 'statistical');
    assert.ok(body.pairs.some((p: Json) => p.trade === 'it-services' && p.jurisdiction === 'AU' && !p.eligible));
  });
});

describe('GET /v1/intelligence/{jurisdiction}', () => {
  it('gives a state its expiring contracts, planned procurements, buyers and open tenders', async () => {
    const { status, body } = await get('/v1/intelligence/nsw');
    assert.equal(status, 200);
    assert.equal(body.jurisdiction, 'AU-NSW');
    assert.equal(body.name, 'New South Wales');
    assert.equal(body.expiring.total, 2);
    assert.equal(body.expiring.horizon_days, 365);
    assert.deepEqual(body.expiring.federal_by_region, [{ jurisdiction: 'AU-NSW', count: 1 }], 'the federal cloud contract\'s supplier is registered in NSW');
    assert.deepEqual(body.expiring.rows.map((r: Json) => r.evidence_ref), ['NSW-A1', 'NSW-A2']);
    assert.deepEqual(body.expiring.by_month.map((m: Json) => m.month), ['2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03', '2027-04', '2027-05', '2027-06', '2027-07', '2027-08']);
    assert.deepEqual(body.expiring.by_month.filter((m: Json) => m.count > 0), [{ month: '2026-11', count: 1, value: 100000 }, { month: '2027-05', count: 1, value: 300000 }]);
    assert.equal(body.expiring.value_currency, 'AUD');
    for (const row of body.expiring.rows) assert.equal('incumbent' in row, false);
    assert.equal(body.planned.total, 1, 'the plan whose window ended is not counted');
    assert.equal(body.planned.quarter, '2026Q3');
    assert.deepEqual(body.buyers.map((b: Json) => b.name), ['Transport for NSW']);
    assert.equal(body.open_tenders, 1);
    assert.match(body.region_basis, /ABN register/);
    assert.ok(body.sources.some((s: Json) => s.source === 'au_nsw_contract_awards'));
  });

  it('takes a code in any case, places federal contracts by region on the AU page, and shows incumbents to identified callers', async () => {
    const federal = await get('/v1/intelligence/AU', api.keyed);
    assert.equal(federal.body.name, 'Australian Government (federal)');
    assert.deepEqual(federal.body.expiring.rows.map((r: Json) => [r.evidence_ref, r.incumbent]), [['CN-FIN-1', 'Cloudy Pty Ltd']]);
    assert.deepEqual(federal.body.expiring.federal_by_region, [{ jurisdiction: 'AU-NSW', count: 1 }]);
    assert.deepEqual((await get('/v1/intelligence/nz')).body.expiring.federal_by_region, []);
    assert.equal((await get('/v1/intelligence/au-nsw')).body.jurisdiction, 'AU-NSW');
  });

  it('answers 404 for an unknown jurisdiction', async () => {
    const { status, body } = await get('/v1/intelligence/narnia');
    assert.equal(status, 404);
    assert.match(body.detail, /narnia/);
  });
});

describe('GET /v1/intelligence/summary', () => {
  it('counts across every jurisdiction with short previews and no identified-only fields', async () => {
    const { status, body } = await get('/v1/intelligence/summary', api.keyed);
    assert.equal(status, 200);
    assert.equal(body.open_now, 1);
    assert.equal(body.grants_open, 3);
    assert.equal(body.expiring_12m, 4, 'NSW-A1, NSW-A2, CN-FIN-1 and the Hobart contract ending on 30 September 2026; the earlier Hobart ones have ended');
    assert.equal(body.planned_quarter, 0);
    assert.equal(body.sources_total, 6);
    assert.deepEqual(body.countries, [{ country: 'AU', open_now: 1, grants_open: 3 }, { country: 'NZ', open_now: 0, grants_open: 0 }]);
    assert.equal(body.by_jurisdiction.length, 10);
    assert.deepEqual(body.by_jurisdiction.find((j: Json) => j.jurisdiction === 'AU-NSW'), { jurisdiction: 'AU-NSW', name: 'New South Wales', open_now: 1, expiring_12m: 2, planned_quarter: 0 });
    assert.ok(body.previews.expiring.length > 0);
    for (const row of [...body.previews.expiring, ...body.previews.planned, ...body.previews.recurring]) {
      assert.equal('incumbent' in row, false);
      assert.equal('evidence_url' in row, false);
    }
    assert.equal(body.computed_at, NOW.toISOString());
  });
});

describe('GET /v1/grants/summary', () => {
  it('sums only the open rounds that state a value and counts them', async () => {
    const { status, body } = await get('/v1/grants/summary');
    assert.equal(status, 200);
    assert.equal(body.open, 3, 'the round that closed on 1 September is not open');
    assert.equal(body.month_end, '2026-09-30');
    assert.equal(body.closing_month, 1);
    assert.equal(body.value_open, 1_000_000, 'a range states no one value; a round without value text is not guessed');
    assert.equal(body.with_value, 1);
    assert.equal(body.value_currency, 'AUD');
    assert.deepEqual(body.by_jurisdiction, [{ jurisdiction: 'AU', open: 3, value_open: 1_000_000, with_value: 1 }]);
    assert.deepEqual(body.closing_soon.map((g: Json) => g.title), ['Rural health grants', 'Research grants']);
    assert.deepEqual(body.sources.map((s: Json) => s.source), ['au_federal_grantconnect']);
  });
});

describe('intelligence routes without a release', () => {
  it('answer 503 {ready: false, detail} with Retry-After', async () => {
    const emptyDir = await makeDataDir();
    const store = await ReleaseStore.open({ dataDir: emptyDir, now: () => NOW, pollMs: 60_000, log: () => {} });
    try {
      const app = await createApp({ store, burst: false });
      for (const path of ['/v1/signals', '/v1/intelligence/planned', '/v1/intelligence/planned/X/context', '/v1/intelligence/summary', '/v1/intelligence/trades',
        '/v1/intelligence/trades/civil-works/nsw', '/v1/intelligence/nsw', '/v1/grants/summary']) {
        const res = await app.request(path);
        assert.equal(res.status, 503, path);
        assert.ok(res.headers.get('retry-after'), path);
        const body = (await res.json()) as Json;
        assert.equal(body.ready, false, path);
        assert.match(body.detail, /release/, path);
      }
    } finally {
      await store.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes every signals and intelligence route', async () => {
    const doc = (await get('/openapi.json')).body;
    for (const path of ['/v1/signals', '/v1/intelligence/planned', '/v1/intelligence/planned/{plan_id}/context', '/v1/intelligence/summary', '/v1/intelligence/trades',
      '/v1/intelligence/trades/{trade}/{state}', '/v1/intelligence/{jurisdiction}', '/v1/grants/summary']) {
      assert.ok(doc.paths[path]?.get, path);
    }
  });
});
