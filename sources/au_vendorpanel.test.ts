import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './au_vendorpanel.ts';
import type { TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const FEED_URL = 'https://www.vendorpanel.com.au/PublicTendersRssV2.aspx?mode=all';
const WITHDRAWN_URL = 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=95ab153ac25e459398f86e832c7438c5s521833';

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

test('every feed item is read from its public preview, whether its link is the sign-in gate or the tsi.axd redirect; the withdrawn tender is a warning', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.equal(tenders.length, 10);
  assert.deepEqual(crawl.warnings, [`HTTP 404 from GET ${WITHDRAWN_URL} after 1 attempt`]);
  const previews = crawl.requests.filter((request) => request.path.includes('?id='));
  assert.equal(previews.length, 11);
  assert.ok(previews.every((request) => /^\/PublicTenderPreviewPop\.aspx\?id=[0-9a-f]{32}s\d+$/.test(request.path)), 'both link forms are rewritten to the public previews');
  // VP522175's feed link is "tsi.axd?id=843ed3…s522175s786e23…s1611": the preview is the id's first two parts.
  assert.ok(previews.some((request) => request.path === '/PublicTenderPreviewPop.aspx?id=843ed3b01f3e4bffaa602695507098f0s522175'));
});

test('VP527073 is read from the real preview capture; the feed states no procurement class, so notice_type is null', () => {
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
    notice_type: null, // the feed's <category> elements are tender categories ("Building Trade, Repairs, Maint."), not a procurement class
    published_date: '2026-09-24',
    closing_date: '2026-10-22',
    closing_at: '2026-10-22T04:00:00.000Z', // 2:00 PM "E. Australia Standard Time" is Brisbane, UTC+10 all year
    value_text: null,
    url: 'https://www.vendorpanel.com.au/PublicTenderPreviewPop.aspx?id=99329f4df5b4499dabc6b78db3d40bd2s527073',
    listing_url: FEED_URL,
  });
  assert.ok(tenders.every((record) => record.notice_type === null));
});

test("close times follow the zone printed beside them, across New South Wales's change to daylight time on 4 October", () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    UniSQ2026116242: ['2026-10-22', '2026-10-22T04:00:00.000Z'],
    'RFT-KSC-2026-19': ['2026-10-09', '2026-10-09T03:00:00.000Z'], // 2:00 PM AEDT, UTC+11
    'WT25-25/26': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day itself, still open at 01:00 UTC
    'CCB-RFT-2026-31': ['2026-10-02', '2026-10-02T04:00:00.000Z'], // Sydney before daylight time, UTC+10
    'BSC-2026-17': ['2026-10-15', '2026-10-15T04:00:00.000Z'], // a Queensland shire listing in Sydney's daylight time (Brisbane would say 05:00)
    'QH-PMN-2026-88': ['2026-09-30', '2026-09-30T07:00:00.000Z'],
    VP521923: ['2026-09-30', '2026-09-30T04:00:00.000Z'],
    'RFT2627-06': ['2026-10-02', '2026-10-02T09:00:00.000Z'], // Perth, UTC+8
    'AEMO-SRS-2026-NM': ['2026-10-13', '2026-10-13T09:00:00.000Z'], // Perth time, although the buyer's address names no state
    'TL26-00375': ['2026-10-06', '2026-10-06T06:00:00.000Z'],
  });
});

test("jurisdiction comes from the state in the buyer's address, tier from the buyer's name", () => {
  const buyers = Object.fromEntries(tenders.map((record) => [record.buyer, [record.jurisdiction, record.tier]]));
  assert.deepEqual(buyers, {
    'University of Southern Queensland': ['AU-QLD', 'university'],
    'Kempsey Shire Council': ['AU-NSW', 'council'],
    'Toowoomba Regional Council': ['AU-QLD', 'council'],
    'City of Canada Bay': ['AU-NSW', 'council'],
    'Boulia Shire Council': ['AU-QLD', 'council'],
    'Queensland Health': ['AU-QLD', 'health'],
    'Palm Island Aboriginal Shire Council': ['AU-QLD', 'council'],
    'Town of Port Hedland': ['AU-WA', 'council'],
    'Australian Energy Market Operator (AEMO)': ['AU', 'state'], // "Level 22, 530 Collins Street, Melbourne, Australia" names no state
    'Department of Transport and Main Roads - NSO': ['AU-QLD', 'state'],
  });
});

test("the buyer's own reference is the reference; without one, the VP number", () => {
  assert.equal(tender('s522130').reference, 'BSC-2026-17');
  assert.equal(tender('s521923').reference, 'VP521923');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean; the preview details keep line breaks as spaces', () => {
  const palm = tender('s521923');
  assert.equal(palm.title, 'Palm Island Waste Transfer Facility – Design & Construction');
  assert.match(palm.summary ?? '', /^Palm Island Aboriginal Shire Council \(Council\) is seeking suitably qualified and experienced Tenderers/);
  assert.ok(!palm.summary?.includes('<br'), 'no markup in the summary');
  assert.equal(palm.category_name, 'Construction & Operation; Engineer, Research, Tech services');
  assert.equal(palm.published_date, '2026-08-20');
  assert.equal(tender('s520882').value_text, '$350,000.00 (inc GST)', 'an Estimated Value row is kept as published');
  assert.equal(tender('s527073').value_text, null);
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
