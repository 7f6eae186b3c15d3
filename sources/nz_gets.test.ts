import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './nz_gets.ts';
import { DEFAULT_POLITENESS } from './_contract/define-source.ts';
import type { TenderRecord } from './_contract/records.ts';
import { tenderKey } from '../lib/keys.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const FEED_URL = 'https://www.gets.govt.nz/ExternalRSSFeed.htm?rss=1';
const WITHDRAWN_URL = 'https://www.gets.govt.nz/HCC/ExternalTenderDetails.htm?id=34612008';

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
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['34612001', '34612002', '34612003', '34612004', '34612005', '34612006', null]);
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
    reference: '34612001',
    jurisdiction: 'NZ',
    tier: 'national',
    summary: 'MSD seeks online job advertising services for its recruitment teams.',
    category: '81110000',
    category_name: 'Computer services',
    notice_type: 'Request for Proposal (RFP)',
    published_date: '2026-09-02',
    closing_date: '2026-09-25',
    closing_at: '2026-09-25T04:00:00.000Z', // read from the feed's Close date row, whose <b> never closes
    value_text: null,
    url: 'https://www.gets.govt.nz/MSD/ExternalTenderDetails.htm?id=34612001',
    listing_url: FEED_URL,
  });
  assert.ok(crawl.requests.every((request) => !request.path.includes('//')), 'no request kept the doubled slash');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean; a city council is tier council', () => {
  const kerbs = tender('Kerb & channel renewals – Island Bay');
  assert.equal(kerbs.buyer, 'Wellington City Council');
  assert.equal(kerbs.tier, 'council');
  assert.equal(kerbs.closing_date, '2026-09-26');
  assert.equal(kerbs.closing_at, '2026-09-26T00:00:00.000Z');
});

test("the detail page's Tender name is the title, not the feed title with the buyer's reference in front", () => {
  const transport = tenders.find((record) => record.reference === '34612003');
  assert.equal(transport?.title, 'Patient transport services – Te Tai Tokerau');
});

test('closing instants use the offset GETS prints, across the change to daylight time on 27 September', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.title, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    'Online job advertising services': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day itself, +12:00
    'Kerb & channel renewals – Island Bay': ['2026-09-26', '2026-09-26T00:00:00.000Z'],
    'Patient transport services – Te Tai Tokerau': ['2026-09-28', '2026-09-28T03:00:00.000Z'], // first Monday of daylight time, +13:00
    'Research computing cluster refresh': ['2026-10-15', '2026-10-15T04:00:00.000Z'],
    'Pharmaceutical supply chain review': ['2026-11-20', '2026-11-19T23:00:00.000Z'], // noon in Wellington is the previous day in UTC
    'Bridge inspection services: registration of interest': [null, null], // a registration of interest with no close date
    'Kaimahi wellbeing survey platform': ['2026-11-11', '2026-11-11T02:00:00.000Z'],
  });
});

test('tier follows the organisation name: health provider, university, and a ministry stays national', () => {
  const tiers = Object.fromEntries(tenders.map((record) => [record.buyer ?? '(none)', record.tier]));
  assert.deepEqual(tiers, {
    'Ministry of Social Development': 'national',
    'Wellington City Council': 'council',
    'Te Whatu Ora – Health New Zealand': 'health',
    'University of Otago': 'university',
    'Ministry of Health': 'national',
    'NZ Transport Agency Waka Kotahi': 'national',
    '(none)': 'national',
  });
});

test('the detail page supplies the full overview, and the buyer from its <title> when the feed leaves it blank', () => {
  const cluster = tender('Research computing cluster refresh');
  assert.equal(cluster.buyer, 'University of Otago');
  assert.equal(cluster.tier, 'university');
  assert.equal(cluster.summary, 'Replacement of the research computing cluster at the Dunedin campus. The estimated budget is $1,234,567.00 (inc GST).');
  assert.equal(cluster.value_text, null, 'an amount written in the overview stays text, never a value');
  assert.equal(cluster.category, '43211500', 'the first of the two categories');
  assert.equal(cluster.category_name, 'Computers');
  assert.equal(cluster.notice_type, 'Request for Tender (RFT)');
  assert.equal(cluster.published_date, '2026-09-14');
});

test('an item with neither RFx ID nor organisation is emitted without buyer or reference, so its key is the f fallback', () => {
  const survey = tender('Kaimahi wellbeing survey platform');
  assert.equal(survey.buyer, null);
  assert.equal(survey.reference, null);
  assert.equal(survey.tier, 'national');
  assert.equal(survey.notice_type, 'Request for Quote (RFQ)');
  assert.equal(survey.url, 'https://www.gets.govt.nz/ExternalTenderDetails.htm?id=34612007');
  const key = (record: TenderRecord) => tenderKey({ source: source.id, jurisdiction: record.jurisdiction, buyer: record.buyer, reference: record.reference, title: record.title, url: record.url });
  assert.match(key(survey), /^f[0-9a-f]{32}$/);
  for (const record of tenders.filter((other) => other !== survey)) assert.match(key(record), /^[0-9a-f]{32}$/);
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
