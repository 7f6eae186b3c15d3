import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'cheerio';
import source from './au_tas_tenders.ts';
import type { AwardRecord, TenderRecord } from './_contract/records.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.tenders.tas.gov.au';

let crawl: FixtureCrawl;
let awards: AwardRecord[];
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function award(contractId: string): AwardRecord {
  const found = awards.find((record) => record.contract_id === contractId);
  assert.ok(found, `no award ${contractId}`);
  return found;
}

function tender(reference: string): TenderRecord {
  const found = tenders.find((record) => record.reference === reference);
  assert.ok(found, `no tender ${reference}`);
  return found;
}

test('both lists are paged through and every linked page is read', () => {
  assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
  assert.deepEqual(crawl.invalid, []);
  const paths = crawl.requests.map((request) => request.path);
  for (const path of ['/ContractAwarded/List/DateAwarded', '/ContractAwarded/List/DateAwarded?page=2', '/OpenForBids/List/Public/ClosingDate', '/OpenForBids/List/Public/ClosingDate?page=2']) assert.ok(paths.includes(path), `${path} was fetched`);
  assert.equal(crawl.requests.length, 13, 'robots.txt, four list pages, four contracts and four tenders');
  assert.equal(new Set(paths).size, paths.length, 'a tender linked twice from its row is fetched once');
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['14000', '14012-1', '14012-2', '14021']);
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['DSG-2026-118', 'TF-PQ-2026', 'TFS-2026-07', 'THS-N-2026-031']);
});

test('the real award page (14000) is read field for field', () => {
  const record = award('14000');
  assert.match(record.release_id, /^au_tas_tenders:14000:[0-9a-f]{16}$/);
  assert.deepEqual({ ...record, release_id: '' }, {
    record_type: 'award',
    ocid: 'au_tas_tenders:14000',
    release_id: '',
    release_date: '2025-11-19T13:00:00.000Z',
    release_tag: 'contract',
    contract_id: '14000',
    amendment_id: null,
    amends_release_id: null,
    jurisdiction: 'AU-TAS',
    buyer: 'Department of Justice',
    buyer_id: null,
    supplier: 'Tascon Constructions Pty Ltd',
    supplier_abn: null,
    supplier_id: null,
    title: '89 Cambridge Park Road Fitout',
    description: null,
    value_amount: '3025440',
    value_currency: 'AUD',
    awarded_date: '2025-11-20',
    start_date: '2025-11-08',
    end_date: '2027-04-03',
    categories: [],
    procurement_method: 'Request for Tender',
    url: `${ORIGIN}/ContractAwarded/Details/14000`,
  });
});

test('a panel becomes one award per supplier at its allocated amount', () => {
  const [first, second] = [award('14012-1'), award('14012-2')];
  assert.deepEqual([first.supplier, first.value_amount], ['Hazell Bros Group Pty Ltd', '400000']);
  assert.deepEqual([second.supplier, second.value_amount], ['Vos Construction & Joinery Pty Ltd', '250000.50']);
  assert.deepEqual([first.ocid, second.ocid], ['au_tas_tenders:14012', 'au_tas_tenders:14012'], 'a panel is one contracting process');
  assert.notEqual(first.release_id, second.release_id);
  assert.equal(first.url, `${ORIGIN}/ContractAwarded/Details/14012`);
  assert.deepEqual([first.start_date, first.end_date, first.awarded_date], ['2026-10-01', '2028-09-30', '2026-09-08']);
});

test('a total "(inc GST)" with no allocated column, no period, entities and paragraphs', () => {
  const radio = award('14021');
  assert.equal(radio.title, 'Statewide Radio Network Maintenance & Support');
  assert.equal(radio.value_amount, '1264395.00');
  assert.deepEqual([radio.start_date, radio.end_date], [null, null]);
  assert.equal(radio.supplier, 'Motorola Solutions Australia Pty Limited');
  assert.equal(radio.procurement_method, 'Direct/Limited Submission Sourcing');
  assert.equal(radio.description, "Maintenance and support of the Tasmanian Government Radio Network for a further three years. Sole supplier: the network runs on the supplier's proprietary equipment.");
  assert.equal(radio.release_date, '2026-09-14T14:00:00.000Z', 'midnight in Hobart (AEST) on the awarded date');
});

test('a listed contract the site says has not been found is a warning, not an invalid record', () => {
  assert.deepEqual(crawl.warnings, [`${ORIGIN}/ContractAwarded/Details/13995: the list links to a contract the site says has not been found`]);
});

test('open tenders: Hobart close times across daylight saving, the capture day, and a register with no close', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    'THS-N-2026-031': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day, AEST
    'TFS-2026-07': ['2026-10-06', '2026-10-06T00:00:00.000Z'], // 11 am AEDT, two days after the change
    'DSG-2026-118': ['2026-10-15', '2026-10-15T03:00:00.000Z'],
    'TF-PQ-2026': [null, null], // "Open until further notice"
  });
});

test('both lists are the ones the real site menu links: recent awards, and open tenders by closing date', async () => {
  const $ = load(await readFile(join(FIXTURES_ROOT, source.id, 'contract-14000.html'), 'utf8'));
  const menuLinks = $('ul.sf-menu a[href^="/"]').toArray().map((link) => $(link).attr('href'));
  const fetched = crawl.requests.map((request) => request.path);
  for (const list of ['/ContractAwarded/List/DateAwarded', '/OpenForBids/List/Public/ClosingDate']) {
    assert.ok(menuLinks.includes(list), `the captured menu links ${list}`);
    assert.ok(fetched.includes(list), `${list} is read`);
  }
  assert.ok(!menuLinks.some((href) => href?.startsWith('/Tender/')), 'the site has no /Tender/ pages to read');
});

test('an open tender is read in full, with its UNSPSC category', () => {
  assert.deepEqual(tender('TFS-2026-07'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Supply & Delivery of Firefighting Foam',
    buyer: 'Tasmania Fire Service',
    reference: 'TFS-2026-07',
    jurisdiction: 'AU-TAS',
    tier: 'state',
    summary: 'Supply and delivery of fluorine-free firefighting foam concentrate to stations statewide. Estimated quantity: 40,000 litres over two years.',
    category: '46191600',
    category_name: 'Fire suppression equipment',
    notice_type: 'Request for Tender',
    published_date: '2026-09-18',
    closing_date: '2026-10-06',
    closing_at: '2026-10-06T00:00:00.000Z',
    value_text: null,
    url: `${ORIGIN}/OpenForBids/Details/6214`,
    listing_url: `${ORIGIN}/OpenForBids/List/Public/ClosingDate?page=2`,
  });
  assert.deepEqual([tender('TF-PQ-2026').category, tender('TF-PQ-2026').category_name], [null, null]);
});

test('every record links to the live site, never the fixture server', () => {
  for (const record of crawl.records) assert.ok(record.url.startsWith(`${ORIGIN}/`), record.url);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('lists answering 500 (as the site does for user agents it does not know) fail the source with a one-line diagnosis', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /^HTTP 500 from GET https:\/\/www\.tenders\.tas\.gov\.au\/(ContractAwarded\/List\/DateAwarded|OpenForBids\/List\/Public\/ClosingDate) after 1 attempt$/);
  assert.ok(source.caveats.some((caveat) => /HTTP 500/.test(caveat)));
});
