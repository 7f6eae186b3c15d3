import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './nz_gets.ts';
import { DEFAULT_POLITENESS } from './_contract/define-source.ts';
import type { TenderRecord } from './_contract/records.ts';
import { tenderKey } from '../lib/keys.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const FEED_URL = 'https://www.gets.govt.nz/ExternalRSSFeed.htm?rss=1';
const WITHDRAWN_URL = 'https://www.gets.govt.nz/DCC/ExternalTenderDetails.htm?id=34920325';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function tender(title: string): TenderRecord {
  const found = tenders.find((record) => record.title === title);
  assert.ok(found, `no record titled ${title}`);
  return found;
}

test('the feed leads to every detail page; the withdrawn tender is a warning, not a failure', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.equal(crawl.records.length, 7);
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['32705858', '33799335', '34290117', '34375520', '34461208', '34808478', '34912604']);
  assert.equal(crawl.errors, 1);
  assert.equal(crawl.warnings.length, 1);
  assert.match(crawl.warnings[0] ?? '', /HTTP 404/);
  assert.ok(crawl.warnings[0]?.includes(WITHDRAWN_URL), crawl.warnings[0]);
});

test('an item with a doubled // organisation segment is fetched and linked at its single-slash address', () => {
  assert.deepEqual(tender('Online job advertising services'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Online job advertising services',
    buyer: 'Ministry of Social Development',
    reference: '32705858',
    jurisdiction: 'NZ',
    tier: 'national',
    summary: 'MSD is establishing a panel of providers of online job advertising services for its recruitment teams.',
    category: '81110000',
    category_name: 'Computer services',
    notice_type: 'Request for Proposals (RFP)',
    published_date: '2025-10-08',
    closing_date: '2029-12-31',
    closing_at: '2029-12-31T04:00:00.000Z', // read from the feed's Close date row, whose <b> never closes
    value_text: null,
    url: 'https://www.gets.govt.nz/MSD/ExternalTenderDetails.htm?id=32705858',
    listing_url: FEED_URL,
  });
  assert.ok(crawl.requests.every((request) => !request.path.includes('//')), 'no request kept the doubled slash');
});

test('the detail table is read through its "&nbsp;:" labels: Tender Name, RFx ID, Tender Type and the Categories list', () => {
  const security = tender('322859 - Security Services');
  assert.equal(security.reference, '34808478');
  assert.equal(security.buyer, 'University of Waikato');
  assert.equal(security.tier, 'university');
  assert.equal(security.notice_type, 'Request for Proposals (RFP)');
  assert.equal(security.category, '92120000');
  assert.equal(security.category_name, 'Security and personal safety');
  assert.equal(security.summary, 'The University of Waikato seeks security services for its Hamilton and Tauranga campuses.');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean', () => {
  const housing = tender('HDS Main Contractor for Bankwood & Tongariro Project, Hamilton');
  assert.equal(housing.buyer, 'Kāinga Ora');
  assert.equal(housing.tier, 'national');
});

test('closing instants use the offset GETS prints, across the change to daylight time on 27 September', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.title, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    'Online job advertising services': ['2029-12-31', '2029-12-31T04:00:00.000Z'],
    '322859 - Security Services': ['2026-09-28', '2026-09-28T03:00:00.000Z'], // first Monday of daylight time, +13:00
    'Relief Supplies Logistics (2026 - 2035)': ['2026-09-30', '2026-09-30T04:00:00.000Z'], // opened at +12:00, closes at +13:00
    'Advance Notice: Vanuatu Resilient Education Infrastructure': ['2027-01-20', '2027-01-20T04:00:00.000Z'],
    'Stormwater Upgrade Design Haybittle Street Feilding': ['2026-10-02', '2026-10-01T23:00:00.000Z'], // noon in Feilding is the previous day in UTC
    'HDS Main Contractor for Bankwood & Tongariro Project, Hamilton': ['2026-10-15', '2026-10-15T03:00:00.000Z'],
    'Pacific Homework and Tutoring Initiative': ['2026-10-16', '2026-10-16T04:00:00.000Z'],
  });
  assert.equal(tender('Relief Supplies Logistics (2026 - 2035)').published_date, '2026-04-14');
});

test('tier follows the organisation name: a district council, a university, and ministries stay national', () => {
  const tiers = Object.fromEntries(tenders.map((record) => [record.buyer ?? '(none)', record.tier]));
  assert.deepEqual(tiers, {
    'Ministry of Social Development': 'national',
    'University of Waikato': 'university',
    'Ministry of Foreign Affairs and Trade': 'national',
    'Manawatu District Council': 'council',
    'Kāinga Ora': 'national',
    '(none)': 'national',
  });
});

test("the buyer comes from the detail page's <title> when the feed leaves it blank; the overview keeps its line break as a space", () => {
  const stormwater = tender('Stormwater Upgrade Design Haybittle Street Feilding');
  assert.equal(stormwater.buyer, 'Manawatu District Council');
  assert.equal(stormwater.tier, 'council');
  assert.equal(stormwater.summary, 'Design of a stormwater upgrade for Haybittle Street, Feilding. The design is to be delivered in two stages.');
  assert.equal(stormwater.notice_type, 'Request for Tenders (RFT)');
  assert.equal(stormwater.category, '81101500');
});

test('an item naming no organisation anywhere is emitted without a buyer, at its address without an organisation segment', () => {
  const homework = tender('Pacific Homework and Tutoring Initiative');
  assert.equal(homework.buyer, null);
  assert.equal(homework.reference, '34912604', 'the RFx ID row of the detail page');
  assert.equal(homework.tier, 'national');
  assert.equal(homework.notice_type, 'Notice of Information (NOI)');
  assert.equal(homework.url, 'https://www.gets.govt.nz/ExternalTenderDetails.htm?id=34912604');
  const key = (record: TenderRecord) => tenderKey({ source: source.id, jurisdiction: record.jurisdiction, buyer: record.buyer, reference: record.reference, title: record.title, url: record.url });
  for (const record of tenders) assert.match(key(record), /^[0-9a-f]{32}$/);
});

test('every record links to the live detail page and the live feed, never the fixture server', () => {
  for (const record of tenders) {
    assert.match(record.url, /^https:\/\/www\.gets\.govt\.nz\/([A-Z]+\/)?ExternalTenderDetails\.htm\?id=\d+$/);
    assert.equal(record.listing_url, FEED_URL);
  }
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a feed answering 500 fails the source with a one-line diagnosis naming the feed', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /500/);
  assert.ok(broken.diagnosis?.includes(FEED_URL), broken.diagnosis ?? 'no diagnosis');
  assert.ok(!broken.diagnosis?.includes('\n'));
});

test('politeness is the default, set field by field; the licence states the non-commercial condition', () => {
  assert.deepEqual(source.politeness, DEFAULT_POLITENESS);
  assert.match(source.licence, /CC BY 3\.0 NZ/);
  assert.match(source.licence, /non-commercial/);
  assert.match(source.licence, /competing product/);
});
