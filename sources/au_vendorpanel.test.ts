import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './au_vendorpanel.ts';
import type { TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const FEED_URL = 'https://www.vendorpanel.com.au/PublicTendersRssV2.aspx?mode=all';
const WITHDRAWN_URL = 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=4e5f60718293a4b5c6d7e8f90a1b2c3ds527111';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function tender(url: string): TenderRecord {
  const found = tenders.find((record) => record.url.endsWith(url));
  assert.ok(found, `no record at ${url}`);
  return found;
}

test('every feed item is read from its public preview; the withdrawn tender is a warning, not a failure', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.equal(tenders.length, 8);
  assert.deepEqual(crawl.warnings, [`HTTP 404 from GET ${WITHDRAWN_URL} after 1 attempt`]);
  const previews = crawl.requests.filter((request) => request.path.includes('?id='));
  assert.equal(previews.length, 9);
  assert.ok(previews.every((request) => request.path.startsWith('/PublicTenderPreviewPop.aspx?id=')), 'the sign-in links in the feed are rewritten to the public previews');
});

test('VP527073 is read from the real preview capture', () => {
  assert.deepEqual(tender('s527073'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'UniSQ Servicing of Electrical, Mechanical and Electro-Mechanical Infrastructure',
    buyer: 'University of Southern Queensland',
    reference: 'UniSQ2026116242',
    jurisdiction: 'AU-QLD',
    tier: 'university',
    summary:
      'The University requires the services of a contractor to support maintenance of its electrical, mechanical, and electro-mechanical infrastructure at the Toowoomba, Ipswich, and Springfield campuses, as well as two smaller satellite sites. The works include planned predictive and reactive maintenance, as well as corrective and reactive maintenance.',
    category: null,
    category_name: 'Building Trade & Repairs & Maintenance Services; Construction & Operation; Electrical Systems, Lighting, Equipment & Services; Mechanical Plant & Equipment & Services',
    notice_type: 'Request for Tender',
    published_date: '2026-09-24',
    closing_date: '2026-10-22',
    closing_at: '2026-10-22T04:00:00.000Z', // 2:00 PM "E. Australia Standard Time" is Brisbane, UTC+10 all year
    value_text: null,
    url: 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=99329f4df5b4499dabc6b78db3d40bd2s527073',
    listing_url: FEED_URL,
  });
});

test('close times follow the zone printed beside them, across Victoria\'s change to daylight time on 4 October', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    UniSQ2026116242: ['2026-10-22', '2026-10-22T04:00:00.000Z'],
    'NCR2627 022_FPN': ['2026-10-02', '2026-10-02T07:00:00.000Z'], // the instant the real QTenders reply gives for VP525791
    'CoB-2026-118': ['2026-10-21', '2026-10-21T03:00:00.000Z'], // 2:00 PM AEDT, UTC+11
    'TRC-T-26-041': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day itself, still open at 01:00 UTC
    'MNHHS-2026-552': ['2026-10-12', '2026-10-12T00:00:00.000Z'],
    VP527355: ['2026-11-03', '2026-11-03T02:00:00.000Z'], // Brisbane noon, although the buyer's state is unknown (Sydney would say 01:00)
    'RFT 026/26': ['2026-10-08', '2026-10-08T06:00:00.000Z'], // Perth, UTC+8
    'BSC-2026-17': ['2026-10-16', '2026-10-16T05:00:00.000Z'], // a Queensland council listing in Sydney's daylight time (Brisbane would say 06:00)
  });
});

test('jurisdiction comes from the state in the buyer\'s address, tier from the buyer\'s name', () => {
  const buyers = Object.fromEntries(tenders.map((record) => [record.buyer, [record.jurisdiction, record.tier]]));
  assert.deepEqual(buyers, {
    'University of Southern Queensland': ['AU-QLD', 'university'],
    'Department of Transport and Main Roads-North Coast': ['AU-QLD', 'state'],
    'City of Ballarat': ['AU-VIC', 'council'],
    'Toowoomba Regional Council': ['AU-QLD', 'council'],
    'Metro North Hospital and Health Service': ['AU-QLD', 'health'],
    'Port of Townsville Limited': ['AU', 'state'], // "Benwell Road, South Townsville, Australia" names no state
    'City of Joondalup': ['AU-WA', 'council'],
    'Barcoo Shire Council': ['AU-QLD', 'council'],
  });
});

test("the buyer's own reference is the reference; without one, the VP number", () => {
  assert.equal(tender('s525791').reference, 'NCR2627 022_FPN');
  assert.equal(tender('s527355').reference, 'VP527355');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean; the money string is kept as published', () => {
  const wharf = tender('s527355');
  assert.equal(wharf.title, 'Wharf fender & bollard maintenance – Berth 4');
  assert.equal(wharf.summary, 'Inspection and maintenance of wharf fenders and bollards at Berth 4.');
  assert.equal(wharf.notice_type, 'Request for Quote');
  const ballarat = tender('s527584');
  assert.equal(ballarat.value_text, '$1,234,567.00 (inc GST)');
  assert.equal(ballarat.summary, 'The City seeks a panel of contractors for sprayed bitumen resealing of local roads. The contract term is three years.');
  assert.equal(ballarat.published_date, '2026-09-21');
});

test('every record links to the live public preview and the live feed, never the fixture server', () => {
  for (const record of tenders) {
    assert.match(record.url, /^https:\/\/www\.vendorpanel\.com\.au\/PublicTenderPreviewPop\.aspx\?id=[0-9a-f]{32}s\d+$/);
    assert.equal(record.listing_url, FEED_URL);
  }
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a feed answering 500 fails the source with a one-line diagnosis naming the feed', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${FEED_URL} after 1 attempt`);
});

test('the licence says no licence is published', () => {
  assert.match(source.licence, /No licence is published/);
});
