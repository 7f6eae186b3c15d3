import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { readModel } from '../data/build.ts';
import { titleKeywords, titleTerms } from '../data/intelligence/title-terms.ts';
import { type StateDb } from '../data/state/db.ts';
import { openStore, sqlString } from '../data/store.ts';
import { buyerKey } from '../lib/keys.ts';
import { keyFor } from './helpers/access.ts';
import { RUN_AT, seedAwardModels } from './helpers/award-seed.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

// The award seed's run: "today" is 2026-09-25; the award window is 2023-09-25 to 2026-09-25.
const NOW = new Date(RUN_AT);
const TFNSW = buyerKey('AU-NSW', 'Transport for NSW')!;

const tfnsw = (title: string, closing: string | null, extra: Parameters<typeof tenderRow>[0] = {}) =>
  tenderRow({ title, reference: title, buyer: 'Transport for NSW', closing_date: closing, ...extra });

const tenders = {
  regional: tfnsw('Regional road maintenance', '2026-10-20'),
  hunter: tfnsw('Road maintenance, Hunter region', '2026-10-01'),
  panels: ['Mid North Coast', 'Riverina', 'Illawarra', 'New England', 'Far West'].map((place, at) =>
    tfnsw(`Road maintenance panel, ${place}`, `2026-11-0${at + 1}`),
  ),
  closed: tfnsw('Road maintenance (closed)', '2026-09-01'),
  resealing: tfnsw('Road resealing', '2026-10-05'),
  nz: tenderRow({ title: 'Road maintenance Auckland', reference: 'NZ-1', buyer: 'Auckland Transport', jurisdiction: 'NZ', tier: 'council', source: 'nz_gets', source_tag: 'GETS', closing_date: '2026-10-10' }),
  grant: tfnsw('Road maintenance grants', '2026-12-01', { kind: 'grant' }),
  library: tenderRow({ title: 'Library fit-out', reference: 'CoS-44', buyer: 'City of Sydney', tier: 'council', closing_date: '2026-10-15' }),
  anonymousBuyer: tenderRow({ title: 'Footbridge repainting', reference: 'X-1', buyer: null, closing_date: '2026-10-15' }),
};
const allTenders = [tenders.regional, tenders.hunter, ...tenders.panels, tenders.closed, tenders.resealing, tenders.nz, tenders.grant, tenders.library, tenders.anonymousBuyer];
const sources = [
  sourceRow({ tender_count: allTenders.length }),
  sourceRow({ id: 'au_nsw_contract_awards', name: 'NSW contract awards', attribution: 'NSW Government contract awards', kinds: ['award'] }),
  sourceRow({ id: 'au_federal_austender_ocds', name: 'AusTender contract notices', jurisdiction: 'AU', tier: 'federal', attribution: 'AusTender, Commonwealth of Australia' }),
  sourceRow({ id: 'nz_gets', tag: 'GETS', name: 'GETS', jurisdiction: 'NZ', tier: 'national', attribution: 'New Zealand Government' }),
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('GET /v1/tenders/{key}/context', () => {
  let dataDir: string;
  let store: ReleaseStore;
  let state: StateDb;
  let app: Awaited<ReturnType<typeof createApp>>;
  let keyed: Record<string, string>;
  /** Similar awards counted straight from `awards`, without the terms index: the oracle for the heuristic. */
  let oracle: { count: number; valued: number; value_min: number; value_max: number };

  const get = async (key: unknown, headers: Record<string, string> = {}) => {
    const response = await app.request(`/v1/tenders/${String(key)}/context`, { headers });
    return { status: response.status, body: (await response.json()) as Json };
  };

  before(async () => {
    dataDir = await makeDataDir();
    const { dir } = await seedRelease({ dataDir, tenders: allTenders, sources, computedAt: RUN_AT });
    const release = await openStore(join(dir, 'store.duckdb'));
    try {
      await seedAwardModels(release);
      await release.exec(`${await readModel('award_terms')}; ${await readModel('tender_terms')}`);
      // "regional road maintenance": similar contracts share two of its three keywords
      const [row] = await release.all<typeof oracle>(
        `WITH m AS (
           SELECT * FROM awards
           WHERE jurisdiction LIKE 'AU%' AND coalesce(awarded_date, start_date, (first_seen AT TIME ZONE 'Australia/Sydney')::DATE) BETWEEN '2023-09-25' AND '2026-09-25'
             AND ((regexp_matches(lower(title), '\\bregional\\b'))::INT + (regexp_matches(lower(title), '\\broads?\\b'))::INT + (regexp_matches(lower(title), '\\bmaintenance\\b'))::INT) >= 2
         )
         SELECT count(*)::INT AS count, count(value_amount) FILTER (WHERE value_currency = 'AUD')::INT AS valued,
                min(value_amount) FILTER (WHERE value_currency = 'AUD')::DOUBLE AS value_min, max(value_amount) FILTER (WHERE value_currency = 'AUD')::DOUBLE AS value_max
         FROM m`,
      );
      oracle = row!;
    } finally {
      release.close();
    }
    store = await ReleaseStore.open({ dataDir, now: () => NOW, log: () => {} });
    state = await openTestState();
    app = await createApp({ store, state, burst: false, now: () => NOW });
    keyed = (await keyFor(state, null)).headers;
  });

  after(async () => {
    await store.close();
    await state.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("gives the buyer's nightly summary, five most recent contracts and the contracts ending soonest", async () => {
    const { status, body } = await get(tenders.regional.tender_key, keyed);
    assert.equal(status, 200);
    assert.equal(body.buyer.summary.buyer_key, TFNSW);
    assert.equal(body.buyer.summary.name, 'Transport for NSW');
    assert.equal(typeof body.buyer.summary.award_count, 'number');
    assert.equal(body.buyer.summary.window_from, '2023-09-25');
    // most recent first: dated after the run, first collected 1 March, then the 15 January contracts by id
    assert.deepEqual(body.buyer.recent_awards.map((award: Json) => award.contract_id), ['TFN-future', 'TFN-undated', 'NSW-K', 'NSW-S', 'TFN-nzd']);
    // ending from today on, soonest first (one ended yesterday)
    assert.deepEqual(body.buyer.ending_soonest.map((award: Json) => award.contract_id), ['TFN-ending', 'TFN-undated', 'TFN-later']);
  });

  it('names suppliers for identified callers only, and says for every contract whether one is held', async () => {
    const identified = (await get(tenders.regional.tender_key, keyed)).body;
    const anonymous = (await get(tenders.regional.tender_key)).body;
    const kalbar = identified.buyer.recent_awards.find((award: Json) => award.contract_id === 'NSW-K');
    assert.equal(kalbar.supplier, 'Kalbar Earthworks');
    assert.equal(kalbar.supplier_held, true);
    const hidden = anonymous.buyer.recent_awards.find((award: Json) => award.contract_id === 'NSW-K');
    assert.equal(hidden.supplier, undefined);
    assert.equal(hidden.supplier_key, undefined);
    assert.equal(hidden.url, undefined);
    assert.equal(hidden.supplier_held, true);
    const unnamed = anonymous.buyer.recent_awards.find((award: Json) => award.contract_id === 'TFN-nzd');
    assert.equal(unnamed.supplier_held, false);
    for (const award of [...anonymous.buyer.recent_awards, ...anonymous.buyer.ending_soonest]) {
      assert.equal(typeof award.supplier_held, 'boolean');
      assert.equal('supplier' in award, false);
    }
  });

  it('counts similar contracts by title keywords, with their value range, as the direct count over awards does', async () => {
    const { body } = await get(tenders.regional.tender_key);
    assert.deepEqual(body.similar.keywords, ['regional', 'road', 'maintenance']);
    assert.deepEqual(body.similar.match, { method: 'heuristic', rule: 'title_keyword' });
    assert.ok(oracle.count > 20, 'the seed has many road maintenance contracts');
    assert.equal(body.similar.awards.count, oracle.count);
    assert.equal(body.similar.awards.valued, oracle.valued);
    assert.equal(body.similar.awards.value_min, oracle.value_min);
    assert.equal(body.similar.awards.value_max, oracle.value_max);
    assert.equal(body.similar.awards.value_currency, 'AUD', 'values are never converted: the range is in the main currency');
  });

  it('lists up to five other open tenders of the same country sharing enough keywords, each with its page_key', async () => {
    const { body } = await get(tenders.regional.tender_key);
    const similar = body.similar.open_tenders as Json[];
    assert.equal(similar.length, 5);
    // Two keywords shared by each; closing soonest first. Closed, New Zealand, grants and single-word overlaps are left out.
    assert.deepEqual(similar.map((tender) => tender.page_key), [tenders.hunter, ...tenders.panels.slice(0, 4)].map((tender) => tender.tender_key));
    assert.deepEqual(similar.map((tender) => tender.shared_keywords), [2, 2, 2, 2, 2]);
    assert.equal(similar[0]!.title, 'Road maintenance, Hunter region');
    assert.equal(similar[0]!.closing_date, '2026-10-01');
  });

  it('gives sources with attributions, computed_at and the award window', async () => {
    const { body } = await get(tenders.regional.tender_key);
    assert.equal(body.sources.computed_at, RUN_AT);
    assert.equal(body.computed_at, RUN_AT);
    assert.deepEqual(body.sources.award_window, { from: '2023-09-25', to: '2026-09-25' });
    const ids = body.sources.attributions.map((attribution: Json) => attribution.source);
    assert.ok(ids.includes('au_nsw_buy_nsw'), 'the tender itself');
    assert.ok(ids.includes('au_nsw_contract_awards'), 'the contracts');
    assert.equal(body.sources.attributions.find((attribution: Json) => attribution.source === 'au_nsw_contract_awards').attribution, 'NSW Government contract awards');
  });

  it('gives null blocks when nothing is held: no buyer, no similar work', async () => {
    const library = (await get(tenders.library.tender_key)).body;
    assert.equal(library.buyer.summary.name, 'City of Sydney', 'a buyer with tenders and no contracts still has a summary');
    assert.deepEqual([library.buyer.recent_awards, library.buyer.ending_soonest], [[], []]);
    assert.equal(library.similar, null, 'nothing shares its title words');
    const noBuyer = (await get(tenders.anonymousBuyer.tender_key)).body;
    assert.equal(noBuyer.buyer, null);
    assert.deepEqual(noBuyer.sources.attributions.map((attribution: Json) => attribution.source), ['au_nsw_buy_nsw']);
  });

  it('answers 404 for an unknown key and 400 for a malformed one', async () => {
    const unknown = await get('0'.repeat(32));
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.detail, /No tender has the key/);
    const malformed = await get('not-a-key');
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.detail, /key=not-a-key: must be a page_key/);
  });
});

describe('GET /v1/tenders/{key}/context without a release', () => {
  it('answers 503 with Retry-After', async () => {
    const store = { state: () => ({ ready: false as const, detail: 'No release has been published yet.' }), now: () => NOW };
    const response = await (await createApp({ store, burst: false })).request(`/v1/tenders/${'a'.repeat(32)}/context`);
    assert.equal(response.status, 503);
    assert.ok(response.headers.get('Retry-After'));
    assert.match(((await response.json()) as { detail: string }).detail, /No release/);
  });
});

describe('title keywords', () => {
  it('split a title as the award_terms and tender_terms models do', async () => {
    const dataDir = await makeDataDir();
    const title = 'Supply of Roads & Bridges — Māori Glass 2026 RFQ-12 bus analysis; the Café fit-outs';
    try {
      const { dir } = await seedRelease({ dataDir, tenders: [tenderRow({ title })], sources: [] });
      const release = await openStore(join(dir, 'store.duckdb'));
      try {
        await release.exec(`INSERT INTO awards BY NAME SELECT 's' AS source, 'c' AS contract_id, 'o' AS ocid, 'r' AS latest_release_id, 'AU' AS jurisdiction,
          'b' AS buyer, ${sqlString(title)} AS title, 0 AS amendment_count, [] AS categories, 'u' AS url, now() AS first_seen, now() AS last_changed, false AS stale,
          current_date AS award_day`);
        await release.exec(`${await readModel('award_terms')}; ${await readModel('tender_terms')}`);
        const expected = titleTerms(title).sort();
        assert.deepEqual((await release.all<{ term: string }>('SELECT term FROM award_terms ORDER BY term')).map((row) => row.term), expected);
        assert.deepEqual((await release.all<{ term: string }>('SELECT term FROM tender_terms ORDER BY term')).map((row) => row.term), expected);
      } finally {
        release.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("index an award's description words as well as its title's, so similar work finds a subject named only there", async () => {
    const dataDir = await makeDataDir();
    try {
      const { dir } = await seedRelease({ dataDir, tenders: [], sources: [] });
      const release = await openStore(join(dir, 'store.duckdb'));
      try {
        // CN4161550 as AusTender published it: the title is the agency's purchase-order number
        await release.exec(`INSERT INTO awards BY NAME SELECT 'au_federal_austender_ocds' AS source, 'CN4161550' AS contract_id, 'o' AS ocid, 'r' AS latest_release_id,
          'AU' AS jurisdiction, 'Department of Foreign Affairs and Trade' AS buyer, '4600023005' AS title, 'General Waste Machinery' AS description,
          DATE '2025-06-20' AS awarded_date, DATE '2025-06-20' AS award_day, 0 AS amendment_count, [] AS categories, 'u' AS url, now() AS first_seen, now() AS last_changed, false AS stale`);
        await release.exec(await readModel('award_terms'));
        assert.deepEqual((await release.all<{ term: string }>('SELECT term FROM award_terms ORDER BY term')).map((row) => row.term), ['general', 'machinery', 'waste']);
      } finally {
        release.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('split a title into terms, leaving out how a thing is bought', () => {
    assert.deepEqual(titleTerms('Supply of Roads & Bridges — Māori Glass 2026 RFQ-12 bus analysis'), ['supply', 'road', 'bridge', 'maori', 'glass', 'rfq', 'bus', 'analysis']);
    assert.deepEqual(titleKeywords('Request for tender: provision of cleaning services, panel'), ['cleaning']);
  });
});
