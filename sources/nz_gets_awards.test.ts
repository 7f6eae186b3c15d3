import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './nz_gets_awards.ts';
import type { AwardRecord } from './_contract/records.ts';
import { sha256Hex } from '../lib/hash.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const LIST_URL = 'https://www.gets.govt.nz/ExternalAwardedTenderList.htm';
const TAKEN_DOWN_URL = 'https://www.gets.govt.nz/HCC/ExternalTenderDetails.htm?id=34598007';

let crawl: FixtureCrawl;
let awards: AwardRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
});

function award(contractId: string): AwardRecord {
  const found = awards.find((record) => record.contract_id === contractId);
  assert.ok(found, `no award ${contractId}`);
  return found;
}

test('the list is paged back to 90 days before a first run; older awards and later pages are not fetched', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  // notices are fetched concurrently, so they arrive in any order: which ones were kept is what counts
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['34598001', '34598002', '34598003', '34598005', '34598006', '34598008']);
  const paths = crawl.requests.map((request) => request.path);
  assert.deepEqual(paths.filter((path) => path.startsWith('/ExternalAwardedTenderList.htm')), [
    '/ExternalAwardedTenderList.htm',
    '/ExternalAwardedTenderList.htm?page=2',
    '/ExternalAwardedTenderList.htm?page=3', // page 2 still had recent awards; page 3 has none, so its Next link is not followed
  ]);
  for (const old of ['34598009', '34597950', '34597921']) assert.ok(!paths.some((path) => path.endsWith(`id=${old}`)), `${old} predates the cutoff`);
  assert.equal(crawl.requests.length, 12, 'robots.txt, three list pages and eight notices');
});

test('a later night reads back only to two weeks before the last successful run', async () => {
  const later = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-20T01:00:00Z') });
  assert.deepEqual(later.records.map((record) => (record.record_type === 'award' ? record.contract_id : null)), ['34598001', '34598002', '34598003']);
  assert.deepEqual(
    later.requests.map((request) => request.path).filter((path) => path.startsWith('/ExternalAwardedTenderList.htm')),
    ['/ExternalAwardedTenderList.htm', '/ExternalAwardedTenderList.htm?page=2'],
    'page 1 still had recent awards; page 2 has none from 6 September on, so page 3 is not requested',
  );
  assert.ok(!later.requests.some((request) => request.path.endsWith('id=34598004')), 'an award from 4 September predates the cutoff');
});

test('an award notice maps to the non-OCDS award convention', () => {
  const training = award('34598001');
  const { release_id: releaseId, ...rest } = training;
  assert.deepEqual(rest, {
    record_type: 'award',
    ocid: 'nz_gets_awards:34598001',
    release_date: '2026-09-21T03:15:00.000Z', // "Date RFx was completed/updated: 3:15 PM 21 Sep 2026", NZST
    release_tag: 'contract',
    contract_id: '34598001',
    amendment_id: null,
    amends_release_id: null,
    jurisdiction: 'NZ',
    buyer: 'Ministry of Business, Innovation and Employment',
    buyer_id: null,
    supplier: 'Kōwhai Learning Limited',
    supplier_abn: null,
    supplier_id: null,
    title: 'Procurement capability training',
    description: 'MBIE sought a provider to design and deliver procurement capability training for agency staff.',
    value_amount: '248500.00',
    value_currency: 'NZD',
    awarded_date: '2026-09-18',
    start_date: '2026-10-01',
    end_date: '2028-09-30',
    categories: ['86111600'],
    procurement_method: 'Request for Proposal (RFP)',
    url: 'https://www.gets.govt.nz/MBIE/ExternalTenderDetails.htm?id=34598001',
  });
  const published = {
    contract_id: rest.contract_id, jurisdiction: rest.jurisdiction, buyer: rest.buyer, supplier: rest.supplier, title: rest.title, description: rest.description,
    value_amount: rest.value_amount, value_currency: rest.value_currency, awarded_date: rest.awarded_date, start_date: rest.start_date, end_date: rest.end_date,
    categories: rest.categories, procurement_method: rest.procurement_method,
  };
  assert.equal(releaseId, `nz_gets_awards:34598001:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`);
  assert.match(releaseId, /^nz_gets_awards:34598001:[0-9a-f]{16}$/);
});

test('release ids are stable across runs and differ between notices', async () => {
  const again = await crawlOnFixtures(source, { now: new Date('2026-09-26T01:00:00Z') });
  const ids = (records: typeof crawl.records) => records.map((record) => (record.record_type === 'award' ? record.release_id : null)).sort();
  assert.deepEqual(ids(again.records), ids(crawl.records), 'a later clock does not change a release whose published fields are unchanged');
  assert.equal(new Set(awards.map((record) => record.release_id)).size, awards.length);
});

test('values: one published amount becomes a plain decimal; a range or no amount is no value', () => {
  const amounts = Object.fromEntries(awards.map((record) => [record.contract_id, [record.value_amount, record.value_currency]]));
  assert.deepEqual(amounts, {
    '34598001': ['248500.00', 'NZD'], // "$248,500.00 (excl. GST)"
    '34598002': ['1234567.00', 'NZD'], // "$1,234,567.00 (inc GST)"
    '34598003': ['3600000.00', 'NZD'], // "$3,600,000.00 (excl. GST, panel total)"
    '34598005': [null, null], // no value published
    '34598006': ['845000', 'NZD'], // "NZ$845,000"
    '34598008': [null, null], // "$95,000 - $120,000"
  });
  assert.deepEqual(crawl.warnings.sort(), [
    `HTTP 404 from GET ${TAKEN_DOWN_URL} after 1 attempt`,
    'https://www.gets.govt.nz/WCC/ExternalTenderDetails.htm?id=34598008: contract value "$95,000 - $120,000" is not one amount; recorded without a value',
  ]);
});

test('a panel lists its suppliers in one record; a tender completed without an award gives no record', () => {
  assert.equal(award('34598003').supplier, 'Kererū Linen Company Limited; Tussock Laundry Services Limited');
  assert.equal(award('34598003').buyer, 'Te Whatu Ora – Health New Zealand');
  assert.ok(crawl.requests.some((request) => request.path === '/MOE/ExternalTenderDetails.htm?id=34598004'), 'the notice was read');
  assert.ok(!awards.some((record) => record.contract_id === '34598004'));
});

test('dates are New Zealand dates; without a completed time the release is the award day at Auckland midnight', () => {
  const bridges = award('34598006');
  assert.equal(bridges.awarded_date, '2026-08-02');
  assert.equal(bridges.release_date, '2026-08-01T12:00:00.000Z');
  assert.equal(award('34598002').release_date, '2026-09-13T21:40:00.000Z', '9:40 AM 14 Sep 2026 NZST is the previous day in UTC');
  assert.equal(award('34598008').awarded_date, '2026-06-30', 'the last award inside the 90-day reach (cutoff 27 June)');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean; descriptions keep line breaks as spaces', () => {
  const stormwater = award('34598002');
  assert.equal(stormwater.title, 'Stormwater pipe renewals & relining – Ōtāhuhu');
  assert.equal(stormwater.description, 'Renewal and relining of stormwater pipes in Ōtāhuhu. Works include traffic management.');
  assert.deepEqual(stormwater.categories, ['72141100', '83101600']);
});

test('a notice without a reference, linked with a doubled slash, is fetched and linked at its single-slash address', () => {
  const vessel = award('34598005');
  assert.equal(vessel.url, 'https://www.gets.govt.nz/ExternalTenderDetails.htm?id=34598005');
  assert.equal(vessel.buyer, 'University of Otago');
  assert.equal(vessel.start_date, null);
  assert.ok(crawl.requests.every((request) => !request.path.includes('//')));
});

test('every record links to the live notice, never the fixture server', () => {
  for (const record of awards) assert.match(record.url, /^https:\/\/www\.gets\.govt\.nz\/([A-Z]+\/)?ExternalTenderDetails\.htm\?id=\d+$/);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a list answering 500 fails the source with a one-line diagnosis naming the list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${LIST_URL} after 1 attempt`);
});

test('a list answering 200 with a sign-in page fails the source instead of reporting no awards', async (t) => {
  const root = await mkdtemp(join(tmpdir(), `${source.id}-login-`));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, source.id));
  await writeFile(join(root, source.id, 'login.html'), '<!DOCTYPE html><html><body><h1>Log in</h1><form method="post"></form></body></html>');
  const meta = { source: source.id, captured_at: '2026-09-25T01:00:00Z', provenance: 'test: a sign-in page in place of the list', files: [{ file: 'login.html', url: LIST_URL }] };
  await writeFile(join(root, source.id, '_meta.json'), JSON.stringify(meta));
  const login = await crawlOnFixtures(source, { root });
  assert.equal(login.failed, true);
  assert.match(login.diagnosis ?? '', /not the GETS awarded tender list/);
  assert.ok(login.diagnosis?.includes(LIST_URL), login.diagnosis ?? 'no diagnosis');
});

test('the licence states the non-commercial condition and the caveats the privacy rule', () => {
  assert.match(source.licence, /CC BY 3\.0 NZ/);
  assert.match(source.licence, /non-commercial/);
  assert.match(source.caveats.join(' '), /sole trader/);
});
