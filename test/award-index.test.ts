import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DuckDBValue } from '@duckdb/node-api';
import { listAwards, type AwardFilters } from '../data/intelligence/awards.ts';
import { ANONYMOUS, type Audience, type IntelContext } from '../data/intelligence/context.ts';
import { intersect } from '../data/search/award-index.ts';
import { AWARD_COLUMNS, createTableSql } from '../data/schema.ts';
import { openStore, sqlString, type Store } from '../data/store.ts';
import { JURISDICTIONS, type Jurisdiction } from '../lib/jurisdictions.ts';
import { buyerKey, normaliseBuyerName } from '../lib/keys.ts';

const IDENTIFIED: Audience = { identified: true };
const AWARDS = 2500;

/** A deterministic stream of numbers in [0, 1) (mulberry32), so the seeded store is the same every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BUYERS = ['Transport for NSW', '  transport FOR   nsw ', 'Department of Defence', 'Queensland Health', 'Te Whatu Ora', 'City of Hobart', 'Māori Development'];
const SUPPLIERS = ['Harbourside Civil Pty Ltd', 'harbourside  civil pty ltd', 'Roadworks Co', "O'Brien & Sons", 'Café Supplies Ltd', null];
const SUPPLIER_KEYS = ['AU-ABN:53004085616', 'AU-ACN:935063719', 'NZ-NZBN:9429041234567', null];
const TITLE_WORDS = ['road', 'roads', 'roadworks', 'railroad', 'maintenance', 'cleaning', 'IT', 'software', 'café', 'bridge-works', 'the', 'water'];
const SOURCES = ['au_nsw_contract_awards', 'au_federal_austender_ocds', 'nz_gets_awards'];

/** One award row of the awards table: varied buyers, suppliers, words, jurisdictions and days, with same-day ties and missing dates. */
function awardRows(): Record<string, string | null>[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const day = (from: string, span: number) => new Date(Date.parse(from) + Math.floor(next() * span) * 86_400_000).toISOString().slice(0, 10);
  return Array.from({ length: AWARDS }, (_, i) => {
    const jurisdiction = pick(JURISDICTIONS);
    const buyer = pick(BUYERS);
    const dated = next();
    return {
      source: pick(SOURCES),
      // contract ids repeat across sources, so the source breaks ties
      contract_id: `CN${Math.floor(i / 2)}`,
      jurisdiction,
      buyer,
      buyer_key: buyerKey(jurisdiction, buyer),
      supplier: pick(SUPPLIERS),
      supplier_key: pick(SUPPLIER_KEYS),
      title: `${pick(TITLE_WORDS)} ${pick(TITLE_WORDS)} services ${i}`,
      description: next() < 0.5 ? null : `Provision of ${pick(TITLE_WORDS)}, (${pick(TITLE_WORDS)}) and more.`,
      awarded_date: dated < 0.8 ? day('2025-01-01', 120) : null,
      start_date: dated >= 0.8 && dated < 0.9 ? day('2025-01-01', 120) : null,
      // neither date: the day first collected, in Sydney (15:00 UTC is the next day there)
      first_seen: `${day('2025-01-01', 120)}T${next() < 0.5 ? '15' : '01'}:00:00Z`,
    };
  });
}

async function seedAwards(store: Store): Promise<void> {
  await store.exec(createTableSql('awards', AWARD_COLUMNS));
  const literal = (value: string | null | undefined) => (value === null || value === undefined ? 'NULL' : sqlString(value));
  const values = awardRows().map((row) =>
    `(${[row.source, row.contract_id, 'ocid', 'release', row.jurisdiction, row.buyer, row.buyer_key, row.supplier, row.supplier_key, row.title, row.description, row.awarded_date, row.start_date, row.first_seen].map(literal).join(', ')})`);
  await store.exec(`INSERT INTO awards (source, contract_id, ocid, latest_release_id, jurisdiction, buyer, buyer_key, supplier, supplier_key, title, description,
      awarded_date, start_date, first_seen, amendment_count, categories, url, last_changed, stale, award_day)
    SELECT *, 0, [], 'https://example.gov.au', TIMESTAMPTZ '2025-06-01 00:00:00+00', false,
      coalesce(awarded_date::DATE, start_date::DATE, (first_seen::TIMESTAMPTZ AT TIME ZONE 'Australia/Sydney')::DATE)
    FROM (VALUES ${values.join(', ')}) v(source, contract_id, ocid, latest_release_id, jurisdiction, buyer, buyer_key, supplier, supplier_key, title, description,
      awarded_date, start_date, first_seen)`);
}

// The reference: the filters as plain SQL over the whole table. A word matches the start of a word of the
// fields, words split at spaces and punctuation, lower case, accents folded, stop words left out (termsOf);
// the words are split once into a copy of the table.
const STOP_WORDS = ['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'with'];
const wordsOf = (field: string) =>
  `list_filter(regexp_split_to_array(lower(strip_accents(coalesce(${field}, ''))), '[\\n\\r\\p{Z}\\p{P}]+'), w -> w <> '' AND w NOT IN (${STOP_WORDS.map(sqlString).join(', ')}))`;
const AWARD_DAY = "coalesce(awarded_date, start_date, (first_seen AT TIME ZONE 'Australia/Sydney')::DATE)";

async function splitWords(store: Store): Promise<void> {
  await store.exec(`CREATE TABLE reference_awards AS
    SELECT *, ${AWARD_DAY} AS day, list_concat(${wordsOf('title')}, ${wordsOf('description')}, ${wordsOf('buyer')}) AS public_words, ${wordsOf('supplier')} AS supplier_words
    FROM awards`);
}

async function reference(store: Store, filters: AwardFilters, page: { limit: number; offset: number }, audience: Audience) {
  const conditions: string[] = [];
  const params: DuckDBValue[] = [];
  const bind = (value: string) => {
    params.push(value);
    return '?';
  };
  if (filters.buyer !== undefined) conditions.push(`lower(trim(regexp_replace(buyer, '\\s+', ' ', 'g'))) = ${bind(normaliseBuyerName(filters.buyer))}`);
  if (filters.buyer_key !== undefined) conditions.push(`buyer_key = ${bind(filters.buyer_key)}`);
  if (filters.supplier !== undefined) conditions.push(`lower(trim(regexp_replace(supplier, '\\s+', ' ', 'g'))) = ${bind(normaliseBuyerName(filters.supplier))}`);
  if (filters.supplier_key !== undefined) conditions.push(`supplier_key = ${bind(filters.supplier_key)}`);
  if (filters.jurisdiction === 'AU') conditions.push("(jurisdiction = 'AU' OR jurisdiction LIKE 'AU-%')");
  else if (filters.jurisdiction !== undefined) conditions.push(`jurisdiction = ${bind(filters.jurisdiction)}`);
  if (filters.since !== undefined) conditions.push(`day >= ${bind(filters.since)}::DATE`);
  const words = audience.identified ? 'list_concat(public_words, supplier_words)' : 'public_words';
  for (const word of filters.q === undefined ? [] : filters.q.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').split(/[\n\r\p{Z}\p{P}]+/u)) {
    if (word !== '' && !STOP_WORDS.includes(word)) conditions.push(`len(list_filter(${words}, w -> starts_with(w, ${bind(word)}))) > 0`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const [counted] = await store.all<{ total: number }>(`SELECT count(*)::INTEGER AS total FROM reference_awards ${where}`, params);
  const rows = await store.all<{ id: string }>(
    `SELECT source || '/' || contract_id AS id FROM reference_awards ${where} ORDER BY day DESC, contract_id, source LIMIT ${page.limit} OFFSET ${page.offset}`,
    params,
  );
  return { total: counted!.total, ids: rows.map((row) => row.id) };
}

describe('award index against plain SQL over a seeded store', () => {
  let store: Store;
  let ctx: IntelContext;

  before(async () => {
    store = await openStore(':memory:');
    await seedAwards(store);
    await splitWords(store);
    ctx = { store, computedAt: '2025-06-01T00:00:00.000Z', now: new Date('2025-06-01T00:00:00Z'), registry: [] };
  });

  after(() => store.close());

  const filterGrid: AwardFilters[] = [
    {},
    ...(['AU', 'NZ', 'AU-NSW', 'AU-TAS'] as Jurisdiction[]).map((jurisdiction) => ({ jurisdiction })),
    { buyer: 'TRANSPORT for nsw' }, { buyer: 'Queensland Health', jurisdiction: 'AU' }, { buyer: 'Nobody at all' },
    { buyer_key: buyerKey('AU-NSW', 'Transport for NSW')! }, { buyer_key: buyerKey('NZ', 'Te Whatu Ora')!, since: '2025-03-01' }, { buyer_key: 'au-nsw-000000000000' },
    { supplier: 'HARBOURSIDE civil   Pty Ltd' }, { supplier: "o'brien & sons", jurisdiction: 'AU-VIC' },
    { supplier_key: 'AU-ABN:53004085616' }, { supplier_key: 'NZ-NZBN:9429041234567', q: 'road' }, { supplier_key: 'AU-ABN:00000000000' },
    { since: '2024-01-01' }, { since: '2025-02-14' }, { since: '2025-04-30' }, { since: '2030-01-01' },
    { q: 'road' }, { q: 'ROADS' }, { q: 'rail' }, { q: 'road maintenance' }, { q: 'cafe' }, { q: 'Café supplies' }, { q: 'bridge' }, { q: 'works' },
    { q: 'the' }, { q: 'it software' }, { q: 'harbourside' }, { q: "o'brien" }, { q: 'māori development' }, { q: 'nothing-like-this' }, { q: 'services 12' },
    { q: 'road', jurisdiction: 'AU', since: '2025-02-01' }, { q: 'water', buyer: 'department of defence' }, { q: 'cleaning', supplier_key: 'AU-ACN:935063719', jurisdiction: 'NZ' },
  ];
  const pages = [{ limit: 20, offset: 0 }, { limit: 5, offset: 3 }, { limit: 100, offset: 0 }, { limit: 7, offset: 150 }, { limit: 20, offset: 100_000 }];

  for (const audience of [ANONYMOUS, IDENTIFIED]) {
    it(`gives the reference's totals and pages for every filter and page (${audience.identified ? 'identified' : 'anonymous'})`, async () => {
      let nonEmpty = 0;
      for (const filters of filterGrid) {
        for (const page of pages) {
          const expected = await reference(store, filters, page, audience);
          const got = await listAwards(ctx, filters, page, audience);
          const label = `${JSON.stringify(filters)} ${JSON.stringify(page)}`;
          assert.equal(got.total, expected.total, label);
          assert.deepEqual(got.results.map((award) => `${award.source}/${award.contract_id}`), expected.ids, label);
          if (expected.ids.length > 0) nonEmpty += 1;
        }
      }
      assert.ok(nonEmpty > filterGrid.length, 'most of the grid matches something');
    });
  }

  it('matches word starts, not the middle of words, and only identified callers\' words reach supplier names', async () => {
    const total = async (q: string) => (await listAwards(ctx, { q }, { limit: 1, offset: 0 }, ANONYMOUS)).total;
    assert.ok((await total('railroad')) > 0);
    assert.equal(await total('rail'), await total('railroad'), 'no other word starts with rail');
    assert.equal(await total('ailroad'), 0, 'the middle of a word is no match');
    assert.equal((await listAwards(ctx, { q: 'harbourside' }, { limit: 1, offset: 0 }, ANONYMOUS)).total, 0);
    assert.ok((await listAwards(ctx, { q: 'harbourside' }, { limit: 1, offset: 0 }, IDENTIFIED)).total > 0);
  });
});

describe('intersect', () => {
  const list = (...values: number[]) => Int32Array.from(values);

  it('counts and pages the positions below the end held by every list', () => {
    const lists = [list(1, 3, 5, 7, 9, 11), list(0, 1, 2, 3, 5, 8, 9, 11, 12), list(1, 5, 9, 10, 11)];
    assert.deepEqual(intersect(lists, 100, 0, 10), { total: 4, page: [1, 5, 9, 11] });
    assert.deepEqual(intersect(lists, 10, 0, 10), { total: 3, page: [1, 5, 9] });
    assert.deepEqual(intersect(lists, 100, 1, 2), { total: 4, page: [5, 9] });
    assert.deepEqual(intersect(lists, 100, 9, 2), { total: 4, page: [] });
  });

  it('takes a single list or none as it is', () => {
    assert.deepEqual(intersect([list(2, 4, 6, 8)], 7, 1, 5), { total: 3, page: [4, 6] });
    assert.deepEqual(intersect([], 5, 3, 10), { total: 5, page: [3, 4] });
    assert.deepEqual(intersect([list(), list(1, 2)], 5, 0, 10), { total: 0, page: [] });
  });
});
