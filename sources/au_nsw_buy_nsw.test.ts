import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import source from './au_nsw_buy_nsw.ts';
import type { TenderRecord } from './_contract/records.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';
import { describeChromium } from '../lib/chromium.ts';

const PAGE_1 = 'https://buy.nsw.gov.au/opportunity/search?page=1';
const PAGE_2 = 'https://buy.nsw.gov.au/opportunity/search?page=2';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function byTitle(title: string): TenderRecord {
  const found = tenders.find((tender) => tender.title === title);
  assert.ok(found, `no record titled ${title}`);
  return found;
}

test('Chromium reads both list pages, and every card becomes a tender', (t) => {
  assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
  assert.ok(crawl.browser, 'the crawl says which browser rendered the pages');
  t.diagnostic(`browser: ${describeChromium(crawl.browser)}`);
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, []);
  assert.equal(tenders.length, 14);
  assert.equal(crawl.pages, 2, 'two list pages, no detail pages');
  const own = crawl.requests.filter((request) => request.source === source.id).map((request) => [request.path, request.status]);
  assert.deepEqual(own, [
    ['/robots.txt', 404],
    ['/opportunity/search?page=1', 200],
    ['/opportunity/search?page=2', 200],
  ], 'the disabled Next item on the last page asks for no page 3');
  assert.equal(tenders.filter((tender) => tender.listing_url === PAGE_1).length, 10);
  assert.equal(tenders.filter((tender) => tender.listing_url === PAGE_2).length, 4);
});

test('the real page serves its cards as "cards profiles", and its own script renames them before the crawler reads them', async () => {
  const html = await readFile(join(FIXTURES_ROOT, source.id, 'search-page-1.html'), 'utf8');
  assert.match(html, /<ul class="cards profiles ls-n borders-0 c-links nsw-wysiwyg-content">/);
  assert.match(html, /elm\.className = 'cards opps ls-n borders-0 nsw-wysiwyg-content';/);
  assert.ok(html.includes('Dorrigo'), 'the cards are in the served HTML');
  assert.equal(tenders.filter((tender) => tender.listing_url === PAGE_1).length, 10, 'every card of the renamed list is read');
});

test('a card of the real capture is read field for field', () => {
  assert.deepEqual(byTitle('Proposed Dorrigo Skywalk D&C'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Proposed Dorrigo Skywalk D&C',
    buyer: 'NSW Public Works',
    reference: 'RFT-2015581',
    jurisdiction: 'AU-NSW',
    tier: 'state',
    summary: 'Design and Construction of the Dorrigo ARC Skywalk, part of the greater works package for Dorrigo National Park.',
    category: null,
    category_name: 'Construction; Construction - Infrastructure',
    notice_type: 'Request for tender (RFT)',
    published_date: null,
    closing_date: '2026-10-20',
    closing_at: '2026-10-20T04:00:00.000Z',
    value_text: null,
    url: 'https://buy.nsw.gov.au/prcOpportunity/AC6276B4-C5BE-4DBD-ADB20A5D3E0030C4',
    listing_url: PAGE_1,
  });
});

test('entities, non-breaking spaces, an en dash and CR/LF come out as clean text', () => {
  const linen = byTitle('Linen & Laundry Services – Prince of Wales Hospital');
  assert.equal(linen.summary, 'Supply, collection and laundering of linen for Prince of Wales Hospital, Randwick.');
  assert.equal(linen.reference, 'SESLHD-RFT-2026-118');
  assert.equal(byTitle('Future Fleet Program – Risk Management Services').summary, 'Transport for NSW is seeking to engage a suitably qualified and experienced Contractor to provide Risk Management Services for the Future Fleet Program (FFP).');
  assert.equal(byTitle('2027 CAPERS Arena Performance EOI: Sponsorship & advertising').notice_type, 'Expression of interest (EOI)');
});

test('close times are Sydney time on either side of the daylight-saving change of 4 October; a scheme has none', () => {
  const closings = Object.fromEntries(tenders.map((tender) => [tender.reference ?? tender.title, [tender.closing_date, tender.closing_at]]));
  assert.deepEqual(closings['RFQ Q-2026-50'], ['2026-09-22', '2026-09-22T05:00:00.000Z']);
  assert.deepEqual(closings['SESLHD-RFT-2026-118'], ['2026-09-25', '2026-09-25T05:00:00.000Z'], 'closes at 3 pm on the capture day, AEST');
  assert.deepEqual(closings['RFQ-2016904'], ['2026-10-01', '2026-10-01T05:00:00.000Z'], 'AEST, UTC+10');
  assert.deepEqual(closings.GSHS9477, ['2026-10-15', '2026-10-15T04:00:00.000Z'], 'AEDT, UTC+11');
  assert.deepEqual(closings['T-2026-031'], ['2026-11-03', '2026-11-02T23:00:00.000Z'], '10 am in Sydney is the evening before in UTC');
  assert.deepEqual(closings.SCM0005, [null, null]);
  assert.equal(tenders.filter((tender) => tender.closing_date !== null && tender.closing_date >= '2026-09-25').length, 12, 'most are open on the capture day');
});

test('tiers come from the agency name; a card without a reference pill keeps its buyer', () => {
  const tiers = Object.fromEntries(tenders.map((tender) => [tender.buyer, tender.tier]));
  assert.equal(tiers['Canterbury-Bankstown Council'], 'council');
  assert.equal(tiers['Wingecarribee Shire Council'], 'council');
  assert.equal(tiers['City of Parramatta Council'], 'council');
  assert.equal(tiers['South Eastern Sydney Local Health District'], 'health');
  assert.equal(tiers['The University of Newcastle'], 'university');
  assert.equal(tiers['Health Care Complaints Commission'], 'state', 'a health regulator is a state agency');
  assert.equal(tiers['NSW Department of Education'], 'state');
  const security = byTitle('Campus Security Services');
  assert.equal(security.reference, null);
  assert.equal(security.buyer, 'The University of Newcastle');
});

test('every record links to its live opportunity page, never the fixture server', () => {
  for (const tender of tenders) {
    assert.match(tender.url, /^https:\/\/buy\.nsw\.gov\.au\/prcOpportunity\/[0-9A-F-]{35}$/);
    assert.equal(tender.jurisdiction, 'AU-NSW');
  }
  assert.equal(new Set(tenders.map((tender) => tender.url)).size, tenders.length);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a list page answering 500 fails the source with a one-line diagnosis', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${PAGE_1} after 1 attempt`);
});
