import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './nz_gets_awards.ts';
import type { AwardRecord } from './_contract/records.ts';
import { sha256Hex } from '../lib/hash.ts';
import { parseGetsDate } from './_platforms/gets.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const LIST_URL = 'https://www.gets.govt.nz/ExternalAwardedTenderList.htm?orderBy=date';
const TAKEN_DOWN_URL = 'https://www.gets.govt.nz/MEDU/ExternalTenderDetails.htm?id=34721345';

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

test('the list is read newest first by ?page=N&orderBy=date back to 90 days before a first run; older rows and later pages are not fetched', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  // notices are fetched concurrently, so they arrive in any order: which ones were kept is what counts
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['33943523', '34012466', '34117250', '34509000']);
  const paths = crawl.requests.map((request) => request.path);
  assert.deepEqual(paths.filter((path) => path.startsWith('/ExternalAwardedTenderList.htm')), [
    '/ExternalAwardedTenderList.htm?orderBy=date',
    '/ExternalAwardedTenderList.htm?page=2&orderBy=date',
    '/ExternalAwardedTenderList.htm?page=3&orderBy=date', // page 2 still had recent tenders; page 3 has none, so page 4 is not requested
  ]);
  for (const old of ['32941078', '34705876', '33402281']) assert.ok(!paths.some((path) => path.endsWith(`id=${old}`)), `${old} predates the cutoff`);
  assert.equal(crawl.requests.length, 12, 'robots.txt, three list pages and eight notices');
});

test('a later night reads back only to two weeks before the last successful run', async () => {
  const later = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-20T01:00:00Z') });
  assert.deepEqual(later.records.map((record) => (record.record_type === 'award' ? record.contract_id : null)).sort(), ['33943523', '34117250', '34509000']);
  assert.deepEqual(
    later.requests.map((request) => request.path).filter((path) => path.startsWith('/ExternalAwardedTenderList.htm')),
    ['/ExternalAwardedTenderList.htm?orderBy=date', '/ExternalAwardedTenderList.htm?page=2&orderBy=date'],
    'page 1 still had recent tenders; page 2 has none from 6 September on, so page 3 is not requested',
  );
  assert.ok(!later.requests.some((request) => request.path.endsWith('id=34012466')), 'a tender completed on 1 September predates the cutoff');
});

test("an award box maps to the non-OCDS award convention: supplier before its address, the Value, the Award Date", () => {
  const housing = award('33943523');
  const { release_id: releaseId, ...rest } = housing;
  assert.deepEqual(rest, {
    record_type: 'award',
    ocid: 'nz_gets_awards:33943523',
    release_date: '2026-09-21T22:12:00.000Z', // the list's "10:12 AM 22 Sep 2026 (Pacific/Auckland UTC+12:00)"
    release_tag: 'contract',
    contract_id: '33943523',
    amendment_id: null,
    amends_release_id: null,
    jurisdiction: 'NZ',
    buyer: 'Ministry of Foreign Affairs and Trade',
    buyer_id: null,
    supplier: 'L T MCGUINNESS LIMITED',
    supplier_abn: null,
    supplier_id: null,
    title: 'Main Construction Contractor – Pacific Staff Housing',
    description: 'Main construction contractor for staff housing. Design documentation is complete.',
    value_amount: '12000000', // "Value $ 12,000,000"; the free text's "~$12,000,000" is not read
    value_currency: 'NZD',
    awarded_date: '2026-08-31', // "Award Date: Monday, 31 August 2026 (Pacific/Auckland UTC+12:00)"
    start_date: null,
    end_date: null,
    categories: ['72111000', '72121000'],
    procurement_method: 'Request for Tenders (RFT)',
    url: 'https://www.gets.govt.nz/MFAT/ExternalTenderDetails.htm?id=33943523',
  });
  const published = {
    contract_id: rest.contract_id, jurisdiction: rest.jurisdiction, buyer: rest.buyer, supplier: rest.supplier, title: rest.title, description: rest.description,
    value_amount: rest.value_amount, value_currency: rest.value_currency, awarded_date: rest.awarded_date, start_date: rest.start_date, end_date: rest.end_date,
    categories: rest.categories, procurement_method: rest.procurement_method,
  };
  assert.equal(releaseId, `nz_gets_awards:33943523:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`);
});

test('release ids are stable across runs and differ between notices', async () => {
  const again = await crawlOnFixtures(source, { now: new Date('2026-09-26T01:00:00Z') });
  const ids = (records: typeof crawl.records) => records.map((record) => (record.record_type === 'award' ? record.release_id : null)).sort();
  assert.deepEqual(ids(again.records), ids(crawl.records), 'a later clock does not change a release whose published fields are unchanged');
  assert.equal(new Set(awards.map((record) => record.release_id)).size, awards.length);
});

test('values: one published amount becomes a plain decimal; a range or no Value is no value', () => {
  const amounts = Object.fromEntries(awards.map((record) => [record.contract_id, [record.value_amount, record.value_currency]]));
  assert.deepEqual(amounts, {
    '33943523': ['12000000', 'NZD'],
    '34509000': ['186340.00', 'NZD'], // "Value $ 186,340.00"
    '34117250': [null, null], // an exemption award prints no Value
    '34012466': [null, null], // "Value $ 95,000 - $ 120,000"
  });
  assert.deepEqual(crawl.warnings.sort(), [
    `HTTP 404 from GET ${TAKEN_DOWN_URL} after 1 attempt`,
    'https://www.gets.govt.nz/MFAT/ExternalTenderDetails.htm?id=34012466: contract value "$ 95,000 - $ 120,000" is not one amount; recorded without a value',
  ]);
});

test("a sole trader's award keeps the name and never the postal address or free-text award information", () => {
  const adviser = award('34117250');
  assert.equal(adviser.supplier, 'Sir Alastair Kettleborough');
  assert.equal(adviser.awarded_date, null, 'the box prints no Award Date');
  assert.equal(adviser.release_date, '2026-09-08T02:30:00.000Z', 'the list\'s completed time');
  const everything = JSON.stringify(awards);
  for (const leaked of ['Example Street', 'Brooklyn', '6011', 'NEW ZEALAND', 'Further Award Information', 'as of 31/8/26']) assert.ok(!everything.includes(leaked), leaked);
});

test('tenders completed without an award box give no record: not awarded, completed by system, awarded only in free text', () => {
  for (const id of ['33995584', '34090273', '33968811']) {
    assert.ok(crawl.requests.some((request) => request.path.endsWith(`ExternalTenderDetails.htm?id=${id}`)), `notice ${id} was read`);
    assert.ok(!awards.some((record) => record.contract_id === id), `notice ${id} is not an award`);
  }
  assert.ok(!JSON.stringify(awards).includes('Hana Petersen'), 'a person named only in free text is never recorded');
});

test('GETS dates: the zone "(Pacific/Auckland UTC+12:00)" gives the offset and is never read as the clock', () => {
  assert.deepEqual(parseGetsDate('12:00 AM 19 Sep 2026 (Pacific/Auckland UTC+12:00)'), { date: '2026-09-19', at: '2026-09-18T12:00:00.000Z' });
  assert.deepEqual(parseGetsDate('Monday, 31 August 2026 (Pacific/Auckland UTC+12:00)'), { date: '2026-08-31', at: null });
  assert.deepEqual(parseGetsDate('Tuesday, 6 October 2026 1:00 PM (Pacific/Auckland UTC+13:00)'), { date: '2026-10-06', at: '2026-10-06T00:00:00.000Z' });
  assert.deepEqual(parseGetsDate('Monday, 17 August 2026 4:00 PM +12:00'), { date: '2026-08-17', at: '2026-08-17T04:00:00.000Z' });
  assert.deepEqual(parseGetsDate('Monday, 7 September 2026 10:19 AM'), { date: '2026-09-07', at: '2026-09-06T22:19:00.000Z' }, 'no zone: New Zealand time');
  assert.equal(award('34509000').release_date, '2026-09-18T12:00:00.000Z', 'midnight at the start of 19 September in Dunedin');
  assert.equal(award('34509000').awarded_date, '2026-09-17');
});

test('the buyer is the list\'s organisation; the description keeps line breaks as spaces; categories are UNSPSC codes', () => {
  const fitout = award('34509000');
  assert.equal(fitout.buyer, 'University of Otago');
  assert.equal(fitout.supplier, 'Kōwhai Interiors Limited');
  assert.equal(fitout.procurement_method, 'Award Notice (AN)');
  assert.deepEqual(fitout.categories, ['56100000']);
  assert.equal(fitout.url, 'https://www.gets.govt.nz/UO/ExternalTenderDetails.htm?id=34509000');
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
  assert.match(login.diagnosis ?? '', /not the GETS completed tender list/);
  assert.ok(login.diagnosis?.includes(LIST_URL), login.diagnosis ?? 'no diagnosis');
});

test('the licence states the non-commercial condition and the caveats the privacy rule', () => {
  assert.match(source.licence, /CC BY 3\.0 NZ/);
  assert.match(source.licence, /non-commercial/);
  assert.match(source.caveats.join(' '), /sole trader/);
});
