import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './au_sa_tenders.ts';
import type { TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.tenders.sa.gov.au';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function tender(reference: string): TenderRecord {
  const found = tenders.find((record) => record.reference === reference);
  assert.ok(found, `no tender ${reference}`);
  return found;
}

test('open tenders only: both list pages by the "Records: 1 - 25 of 26" footer and every tender page, nothing from the contract register', () => {
  assert.equal(crawl.failed, false);
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, [`${ORIGIN}/tenders/open?page=2: read 4 of the 26 records the list counts over 2 pages`]);
  assert.equal(crawl.records.length, 4);
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['DE-EOI-2026-33', 'DEW-2026-077', 'DIT-2026-0145', 'SAH-RFQ-26-0871']);
  assert.deepEqual(source.kinds, ['tender']);
  assert.ok(source.caveats.some((caveat) => /never captured/.test(caveat) && /unverified/.test(caveat)), 'the caveats say the markup is unverified');
  const paths = crawl.requests.map((request) => request.path);
  assert.deepEqual(paths.filter((path) => path.startsWith('/tenders/open')), ['/tenders/open?page=1', '/tenders/open?page=2']);
  assert.ok(!paths.some((path) => path.startsWith('/contract/')), paths.join(', '));
});

test('DIT-2026-0145: every field of a South Australian tender', () => {
  assert.deepEqual(tender('DIT-2026-0145'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Port Augusta Road Resurfacing Works',
    buyer: 'Department for Infrastructure and Transport',
    reference: 'DIT-2026-0145',
    jurisdiction: 'AU-SA',
    tier: 'state',
    summary: 'Asphalt resurfacing of 4.2 km of urban arterial road in Port Augusta.',
    category: '72000000',
    category_name: 'Building and Facility Construction and Maintenance Services',
    notice_type: 'Request for Tender',
    published_date: '2026-09-14',
    closing_date: '2026-10-14',
    closing_at: '2026-10-14T00:30:00.000Z',
    value_text: null,
    url: `${ORIGIN}/tender/view?id=412088`,
    listing_url: `${ORIGIN}/tenders/open?page=1`,
  });
});

test('closing times are Adelaide time, half an hour off the hour, across the daylight-saving change of 4 October', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, record.closing_at]));
  assert.deepEqual(closings, {
    'SAH-RFQ-26-0871': '2026-09-30T07:30:00.000Z', // "30 Sept 2026 05:00 pm", ACST UTC+9:30
    'DE-EOI-2026-33': '2026-10-01T02:30:00.000Z',
    'DEW-2026-077': '2026-10-05T03:30:00.000Z', // 2:00 pm ACDT, UTC+10:30
    'DIT-2026-0145': '2026-10-14T00:30:00.000Z',
  });
  assert.equal(tender('SAH-RFQ-26-0871').closing_date, '2026-09-30');
});

test('titles with entities come out clean and link to the live pages', () => {
  assert.equal(tender('DE-EOI-2026-33').title, 'Out of School Hours Care – Regional Sites');
  assert.equal(tender('DE-EOI-2026-33').summary, 'Providers are sought to operate out of school hours care at regional sites.');
  assert.equal(tender('DEW-2026-077').listing_url, `${ORIGIN}/tenders/open?page=2`);
  for (const record of tenders) assert.match(record.url, /^https:\/\/www\.tenders\.sa\.gov\.au\/tender\/view\?id=\d+$/);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a portal answering 500 fails the source with a one-line diagnosis naming the list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${ORIGIN}/tenders/open?page=1 after 1 attempt`);
});
