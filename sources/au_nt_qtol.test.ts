import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './au_nt_qtol.ts';
import type { AwardRecord, TenderRecord } from './_contract/records.ts';
import { sha256Hex } from '../lib/hash.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://tendersonline.nt.gov.au';

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

test('current and awarded lists are both paged through, and every tender page is read', () => {
  assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, []);
  const paths = crawl.requests.map((request) => request.path);
  for (const path of ['/Tender/Search/Current?page=1', '/Tender/Search/Current?page=2', '/Tender/Search/Awarded?page=1', '/Tender/Search/Awarded?page=2']) assert.ok(paths.includes(path), `${path} was fetched`);
  assert.equal(crawl.requests.length, 13, 'robots.txt, four list pages, four current and four awarded tenders');
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['EOI26-0019', 'Q26-0460', 'Q26-0471', 'T26-0455']);
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['25992', '25998', '26010', '26033-1', '26033-2']);
});

test('the real awarded page (25992) is read field for field, keeping its estimated unit-rate value', () => {
  const description =
    'Power and Water Corporation are seeking to purchase a software-as-a-service (SaaS) subscription to a cybersecurity risk platform that supports Power and Water to uplift its cybersecurity posture and third-party risk management to meet regulated requirements. Power and Water are looking acquire and implement a platform providing: (1) third‑party risk management (TPRM) with automated questionnaires, evidence collection and continuous monitoring. (2) external attack surface management (EASM) for continuous discovery of internet‑facing assets and exposures; and (3) governance dashboards and audit‑ready reporting to support ongoing risk treatment and annual attestations Please refer to RFT documents for full description.';
  const published = JSON.stringify([
    'Darwin - Subscription to a Cybersecurity Risk Platform for a Period of 36 Months',
    'Power and Water Corporation',
    'RFT0661',
    '2026-05-18',
    description,
    'Public',
    'UPGUARD, INC',
    'Period contract - estimated unit rates of $446,425.94',
    '$446,425.94',
  ]);
  assert.deepEqual(award('25992'), {
    record_type: 'award',
    ocid: 'au_nt_qtol:25992',
    release_id: `au_nt_qtol:25992:${sha256Hex(published).slice(0, 16)}`,
    release_date: '2026-05-17T14:30:00.000Z',
    release_tag: 'contract',
    contract_id: '25992',
    amendment_id: null,
    amends_release_id: null,
    jurisdiction: 'AU-NT',
    buyer: 'Power and Water Corporation',
    buyer_id: null,
    supplier: 'UPGUARD, INC',
    supplier_abn: null,
    supplier_id: null,
    title: 'Darwin - Subscription to a Cybersecurity Risk Platform for a Period of 36 Months',
    description,
    value_amount: '446425.94',
    value_currency: 'AUD',
    awarded_date: '2026-05-18',
    start_date: null,
    end_date: null,
    categories: [],
    procurement_method: 'Public',
    url: `${ORIGIN}/Tender/Details/25992?status=Awarded`,
  });
});

test('award values: a lump sum "(inc GST)", one award per panel contractor, and none for unit rates without a total', () => {
  assert.deepEqual([award('26010').value_amount, award('26010').supplier], ['1234567.00', 'CENTRAL CIVIL & ROADS PTY LTD']);
  assert.deepEqual([award('26033-1').supplier, award('26033-1').value_amount], ['TOP END ELECTRICAL SERVICES PTY LTD', '300000.00']);
  assert.deepEqual([award('26033-2').supplier, award('26033-2').value_amount], ['LARRAKIA SPARKS PTY LTD', '180000.00']);
  assert.equal(award('26033-2').ocid, 'au_nt_qtol:26033-2');
  assert.deepEqual([award('25998').value_amount, award('25998').value_currency], [null, null]);
  assert.equal(award('25998').supplier, 'KATHERINE GREEN SPACES PTY LTD');
  assert.ok(source.caveats.some((caveat) => /unit rates/.test(caveat) && /null/.test(caveat)));
});

test('current tenders close in Darwin time (UTC+9:30, no daylight saving); a close without a time has no instant', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    'Q26-0460': ['2026-09-25', '2026-09-25T04:30:00.000Z'], // the capture day, still open at 10:30 am Darwin
    'Q26-0471': ['2026-10-02', '2026-10-02T01:30:00.000Z'],
    'T26-0455': ['2026-10-15', '2026-10-15T04:30:00.000Z'], // no shift after 4 October: Darwin keeps standard time
    'EOI26-0019': ['2026-10-30', null],
  });
});

test('a current tender is read in full; entities, a non-breaking space and paragraphs come out clean', () => {
  assert.deepEqual(tender('Q26-0471'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Tennant Creek - Air-conditioning Maintenance & Repairs',
    buyer: 'NT Health',
    reference: 'Q26-0471',
    jurisdiction: 'AU-NT',
    tier: 'state',
    summary: 'Preventive maintenance and breakdown repairs of split systems at Tennant Creek Hospital. Site inspection is optional.',
    category: null,
    category_name: 'Property Services',
    notice_type: 'Request For Quotation',
    published_date: '2026-09-18',
    closing_date: '2026-10-02',
    closing_at: '2026-10-02T01:30:00.000Z',
    value_text: null,
    url: `${ORIGIN}/Tender/Details/26108`,
    listing_url: `${ORIGIN}/Tender/Search/Current?page=1`,
  });
  assert.equal(tender('EOI26-0019').listing_url, `${ORIGIN}/Tender/Search/Current?page=2`);
});

test('a later run stops paging the awarded register once it passes 30 days before the last success', async () => {
  const later = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-24T01:30:00Z') });
  const paths = later.requests.map((request) => request.path);
  assert.ok(!paths.includes('/Tender/Search/Awarded?page=2'), 'page 1 already reaches 19/08/2026, before 25/08/2026');
  assert.ok(paths.includes('/Tender/Search/Current?page=2'), 'current tenders are always read in full');
  assert.ok(!later.records.some((record) => record.record_type === 'award' && record.contract_id === '25992'));
  assert.equal(later.records.filter((record) => record.record_type === 'award').length, 4, 'every award on the page read is kept');
});

test('every record links to the live site, never the fixture server', () => {
  for (const record of awards) assert.match(record.url, /^https:\/\/tendersonline\.nt\.gov\.au\/Tender\/Details\/\d+\?status=Awarded$/);
  for (const record of tenders) assert.match(record.url, /^https:\/\/tendersonline\.nt\.gov\.au\/Tender\/Details\/\d+$/);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('lists answering 500 fail the source with a one-line diagnosis', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /^HTTP 500 from GET https:\/\/tendersonline\.nt\.gov\.au\/Tender\/Search\/(Current|Awarded)\?page=1 after 1 attempt$/);
});
