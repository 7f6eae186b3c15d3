import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buyerKey } from '../lib/keys.ts';
import { NSW_ROADS, intelligenceApp, scenario, type IntelligenceApp } from './helpers/intel-scenario.ts';
import { planRow } from './helpers/intel-seed.ts';

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
const refs = (body: Json) => (body.results as Json[]).map((s) => s.evidence_ref).sort();

describe('GET /v1/signals', () => {
  it('lists every kind, never a withdrawn plan, and withholds evidence links and incumbents from anonymous callers', async () => {
    const { status, body } = await get('/v1/signals?limit=100');
    assert.equal(status, 200);
    assert.deepEqual(refs(body), ['APP-BIOMETRIC', 'APP-TRAVEL', 'CN-FIN-1', 'NSW-A1', 'NSW-A2', 'NSW-PLAN-OLD', 'NSW-PLAN-ROADS', 'TAS-2025', 'TAS-2025']);
    assert.equal(body.total, 9);
    assert.deepEqual([...new Set((body.results as Json[]).map((s) => s.kind))].sort(), ['contract_expiry', 'planned_procurement', 'recurring_tender']);
    for (const signal of body.results as Json[]) {
      assert.equal('evidence_url' in signal, false);
      assert.equal('incumbent' in signal, false);
    }
    assert.equal(body.computed_at, '2026-09-25T01:00:00.000Z');
    assert.ok((body.sources as Json[]).some((s) => s.source === 'au_nsw_contract_awards' && s.attribution === 'Attribution of au_nsw_contract_awards'));
  });

  it('gives identified callers the evidence link and the incumbent', async () => {
    const { body } = await get('/v1/signals?kind=contract_expiry&jurisdiction=AU-NSW', api.keyed);
    const a1 = (body.results as Json[]).find((s) => s.evidence_ref === 'NSW-A1')!;
    assert.equal(a1.evidence_url, 'https://buy.nsw.gov.au/awards/A1');
    assert.equal(a1.incumbent, 'Acme Roads Pty Ltd');
    assert.equal(a1.window_start, '2026-11-15');
    assert.equal(a1.window_end, '2026-11-15');
    assert.equal(a1.confidence, 'published');
  });

  it('filters by kind, jurisdiction (AU takes its states), buyer, words and windows', async () => {
    assert.deepEqual(refs((await get('/v1/signals?kind=recurring_tender')).body), ['TAS-2025']);
    assert.deepEqual(refs((await get('/v1/signals?jurisdiction=AU-NSW&kind=contract_expiry')).body), ['NSW-A1', 'NSW-A2']);
    assert.deepEqual(refs((await get('/v1/signals?jurisdiction=AU&kind=contract_expiry')).body), ['CN-FIN-1', 'NSW-A1', 'NSW-A2', 'TAS-2025'], 'AU takes every state');
    assert.deepEqual(refs((await get(`/v1/signals?buyer=${encodeURIComponent('  transport for   nsw ')}&kind=planned_procurement`)).body), ['NSW-PLAN-OLD', 'NSW-PLAN-ROADS']);
    assert.deepEqual(refs((await get('/v1/signals?q=bridge%20repainting')).body), ['NSW-A2']);
    assert.deepEqual(refs((await get('/v1/signals?window_before=2026-11-30&window_after=2026-10-01&kind=contract_expiry')).body), ['NSW-A1']);
    assert.ok(refs((await get('/v1/signals?window_after=2027-02-01&kind=planned_procurement')).body).includes('APP-BIOMETRIC'), 'a window without an end is kept');
    assert.deepEqual(refs((await get('/v1/signals?first_seen_after=2026-09-01T00:00:00Z&kind=planned_procurement')).body), []);
  });

  it('searches incumbents only for identified callers', async () => {
    assert.deepEqual(refs((await get('/v1/signals?q=acme', api.keyed)).body), ['NSW-A1']);
    assert.deepEqual(refs((await get('/v1/signals?q=acme')).body), [], 'an anonymous caller cannot find a contract by the holder it may not see');
  });

  it('pages with limit and offset, sorted by window start', async () => {
    const first = await get('/v1/signals?limit=2');
    const second = await get('/v1/signals?limit=2&offset=2');
    assert.equal(first.body.results.length, 2);
    assert.equal(first.body.total, 9);
    assert.deepEqual(first.body.results.map((s: Json) => s.evidence_ref), ['NSW-PLAN-OLD', 'TAS-2025'], 'earliest window first');
    assert.notDeepEqual(second.body.results.map((s: Json) => s.evidence_ref), first.body.results.map((s: Json) => s.evidence_ref));
  });

  for (const [query, named] of [
    ['kind=expiry', 'kind=expiry'], ['jurisdiction=AU-XX', 'jurisdiction=AU-XX'], ['window_after=2026-10-1', 'window_after=2026-10-1'],
    ['window_before=yesterday', 'window_before=yesterday'], ['first_seen_after=2026-10-01', 'first_seen_after=2026-10-01'], ['limit=0', 'limit=0'],
    ['limit=101', 'limit=101'], ['offset=-1', 'offset=-1'], ['colour=red', 'colour'], ['q=', 'q='],
  ] as Array<[string, string]>) {
    it(`answers 400 naming ${named}`, async () => {
      const { status, body } = await get(`/v1/signals?${query}`);
      assert.equal(status, 400);
      assert.ok(String(body.detail).includes(named), body.detail);
    });
  }
});

describe('GET /v1/intelligence/planned', () => {
  it('lists planned procurements still to come, undated ones last, never withdrawn, with facets', async () => {
    const { status, body } = await get('/v1/intelligence/planned');
    assert.equal(status, 200);
    assert.deepEqual(body.results.map((s: Json) => s.evidence_ref), ['APP-TRAVEL', 'NSW-PLAN-ROADS', 'APP-BIOMETRIC']);
    assert.equal(body.total, 3);
    assert.deepEqual(body.by_jurisdiction, [{ jurisdiction: 'AU', count: 2 }, { jurisdiction: 'AU-NSW', count: 1 }]);
    assert.deepEqual(body.figures, { total: 3, with_window: 2, released: 1, current_quarter: 0 });
    assert.deepEqual(body.quarters, ['2026Q3', '2026Q4', '2027Q1', '2027Q2', '2027Q3']);
    assert.deepEqual(body.by_quarter, [
      { quarter: '2026Q3', count: 0 }, { quarter: '2026Q4', count: 1 }, { quarter: '2027Q1', count: 1 }, { quarter: '2027Q2', count: 0 }, { quarter: '2027Q3', count: 0 },
    ]);
    assert.equal(body.top_buyers.length, 3);
    assert.deepEqual(body.top_categories.map((c: Json) => c.trade).sort(), ['civil-works', 'it-services', 'transport-logistics']);
    const travel = body.results[0];
    assert.equal(travel.released, true);
    assert.equal(travel.status, 'Released');
    assert.equal(travel.quarter, '2026Q4');
    assert.equal('evidence_url' in travel, false);
    const biometric = body.results[2];
    assert.equal('window_start' in biometric, false, 'a plan whose period cannot be read has no window');
  });

  it('keeps the facets whatever the row filters say', async () => {
    const all = (await get('/v1/intelligence/planned')).body;
    const filtered = (await get('/v1/intelligence/planned?jurisdiction=AU-NSW&q=road')).body;
    assert.deepEqual(filtered.results.map((s: Json) => s.evidence_ref), ['NSW-PLAN-ROADS']);
    assert.deepEqual(filtered.by_jurisdiction, [{ jurisdiction: 'AU-NSW', count: 1 }]);
    for (const facet of ['figures', 'by_quarter', 'top_buyers', 'top_categories']) assert.deepEqual(filtered[facet], all[facet], facet);
  });

  it('filters by quarter within the current five; a well-formed quarter outside them gives an empty list', async () => {
    assert.deepEqual((await get('/v1/intelligence/planned?quarter=2027Q1')).body.results.map((s: Json) => s.evidence_ref), ['NSW-PLAN-ROADS']);
    const later = await get('/v1/intelligence/planned?quarter=2030Q1');
    assert.equal(later.status, 200);
    assert.equal(later.body.total, 0);
    assert.deepEqual(later.body.results, []);
    assert.equal(later.body.figures.total, 3, 'facets still answer');
    assert.equal((await get('/v1/intelligence/planned?quarter=2026Q1')).body.total, 0, 'an ended quarter is outside the current five');
  });

  it('takes quarter=later (windows starting after the current five quarters) and quarter=ended (windows already over)', async () => {
    // The scenario with a plan starting after the current five quarters (2026Q3 to 2027Q3).
    const later = planRow({ plan_id: 'APP-HANGAR', buyer: 'Department of Defence', title: 'Hangar refit', trade: 'civil-works', window_start: '2027-10-01', window_end: '2028-06-30' });
    const wider = await intelligenceApp({ ...scenario, plans: [...scenario.plans, later] });
    try {
      const planned = async (query: string) => {
        const reply = await wider.app.request(`/v1/intelligence/planned?${query}`);
        assert.equal(reply.status, 200, query);
        return ((await reply.json()) as Json).results.map((s: Json) => s.evidence_ref);
      };
      assert.deepEqual(await planned('quarter=later'), ['APP-HANGAR']);
      assert.deepEqual(await planned('quarter=ended'), ['NSW-PLAN-OLD'], 'never a withdrawn plan, nor one without a window');
      assert.deepEqual(await planned('quarter=ended&jurisdiction=AU'), ['NSW-PLAN-OLD'], 'row filters still apply');
      assert.deepEqual(await planned('quarter=2027Q3'), [], 'the last of the five is not later');
      assert.deepEqual(await planned(''), ['APP-TRAVEL', 'NSW-PLAN-ROADS', 'APP-HANGAR', 'APP-BIOMETRIC']);
    } finally {
      await wider.close();
    }
  });

  it('takes the jurisdiction code alone with exact=1, buyer_key, window_after, and sorts by buyer', async () => {
    assert.deepEqual((await get('/v1/intelligence/planned?jurisdiction=AU')).body.total, 3);
    assert.deepEqual((await get('/v1/intelligence/planned?jurisdiction=AU&exact=1')).body.results.map((s: Json) => s.evidence_ref), ['APP-TRAVEL', 'APP-BIOMETRIC']);
    const key = buyerKey('AU-NSW', NSW_ROADS)!;
    assert.deepEqual((await get(`/v1/intelligence/planned?buyer_key=${key}`)).body.results.map((s: Json) => s.evidence_ref), ['NSW-PLAN-ROADS']);
    assert.ok((await get('/v1/intelligence/planned?window_after=2026-02-01')).body.results.some((s: Json) => s.evidence_ref === 'NSW-PLAN-OLD'), 'an earlier window_after brings back plans whose window has ended');
    const byBuyer = (await get('/v1/intelligence/planned?sort=buyer')).body.results.map((s: Json) => s.buyer);
    assert.deepEqual(byBuyer, ['Department of Finance', 'Department of Home Affairs', 'Transport for NSW']);
  });

  it('shows evidence links to identified callers', async () => {
    const travel = (await get('/v1/intelligence/planned', api.keyed)).body.results[0];
    assert.equal(travel.evidence_url, 'https://www.tenders.gov.au/App/Show/TRAVEL');
  });

  for (const [query, named] of [
    ['quarter=2026Q5', 'quarter=2026Q5'], ['quarter=Q4-2026', 'quarter=Q4-2026'], ['quarter=soon', 'quarter=soon'], ['window_after=2026/10/01', 'window_after=2026/10/01'],
    ['window_after=2026-02-30', 'window_after=2026-02-30'], ['sort=latest', 'sort=latest'], ['exact=yes', 'exact=yes'], ['buyer_key=nsw', 'buyer_key=nsw'],
    ['jurisdiction=NSW', 'jurisdiction=NSW'], ['kind=contract_expiry', 'kind'], ['limit=abc', 'limit=abc'],
  ] as Array<[string, string]>) {
    it(`answers 400 naming ${named}`, async () => {
      const { status, body } = await get(`/v1/intelligence/planned?${query}`);
      assert.equal(status, 400);
      assert.ok(String(body.detail).includes(named), body.detail);
    });
  }
});

describe('GET /v1/intelligence/planned/{plan_id}/context', () => {
  it('gives the plan, its buyer\'s summary and the buyer\'s similar contracts as counts, labelled heuristic', async () => {
    const { status, body } = await get('/v1/intelligence/planned/NSW-PLAN-ROADS/context');
    assert.equal(status, 200);
    assert.equal(body.plan.evidence_ref, 'NSW-PLAN-ROADS');
    assert.equal(body.buyer.name, NSW_ROADS);
    assert.equal(body.buyer.award_count, 2);
    assert.deepEqual(body.similar, { count: 2, ending_12m: 2, from: '2021-09-25', to: '2026-09-25', match: { method: 'heuristic', rule: 'same_buyer_same_trade' } });
    assert.ok(body.sources.some((s: Json) => s.source === 'au_nsw_contract_awards'));
  });

  it('has no buyer block when the release holds no summary for the buyer', async () => {
    const { body } = await get('/v1/intelligence/planned/APP-TRAVEL/context');
    assert.equal(body.buyer, null);
    assert.equal(body.similar, null);
  });

  it('answers 404 for a withdrawn plan and an unknown id', async () => {
    assert.equal((await get('/v1/intelligence/planned/APP-WITHDRAWN/context')).status, 404);
    const unknown = await get('/v1/intelligence/planned/NOPE/context');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /NOPE/);
  });
});

describe('?sandbox=true on read routes', () => {
  const withSandbox = (path: string, value: string) => `${path}${path.includes('?') ? '&' : '?'}sandbox=${value}`;

  it('is accepted wherever the Svc-Sandbox header is, and changes nothing on a read', async () => {
    for (const path of ['/v1/tenders', '/v1/tenders/strip', '/v1/awards/buyers', '/v1/awards/buyers/lookup?name=Transport%20for%20NSW&jurisdiction=AU-NSW',
      '/v1/signals?kind=planned_procurement', '/v1/intelligence/planned', '/v1/intelligence/summary', '/v1/grants/summary']) {
      const plain = await get(path);
      assert.equal(plain.status, 200, path);
      const switched = await get(withSandbox(path, 'true'));
      assert.equal(switched.status, 200, `${path} with sandbox=true: ${switched.body.detail}`);
      assert.deepEqual(switched.body, plain.body, path);
    }
  });

  it('answers 400 to a value other than true or false on a route that checks its query', async () => {
    for (const path of ['/v1/tenders', '/v1/awards/buyers', '/v1/signals', '/v1/intelligence/planned']) {
      const { status, body } = await get(withSandbox(path, 'maybe'));
      assert.equal(status, 400, path);
      assert.match(body.detail, /sandbox=maybe: must be true or false/);
    }
  });
});
