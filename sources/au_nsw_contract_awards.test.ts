import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './au_nsw_contract_awards.ts';
import type { AwardRecord } from './_contract/records.ts';
import { sha256Hex } from '../lib/hash.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const LIST_PATH = '/notices/search?noticeTypes=can&mode=advanced&dateFrom=2026-09-11&page=1';
const CHALLENGED_URL = 'https://buy.nsw.gov.au/notices/5B1F6CA7-D283-406C-F9E46DB07C8BAF5D';

let crawl: FixtureCrawl;
let awards: AwardRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
});

function can(id: string): AwardRecord {
  const found = awards.find((award) => award.contract_id === id);
  assert.ok(found, `no award ${id}`);
  return found;
}

test('a first run asks for two weeks of notices, follows the pager and reads every notice page', () => {
  assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
  assert.deepEqual(crawl.invalid, []);
  assert.equal(crawl.requests[1]?.path, LIST_PATH, 'dateFrom is 14 days before the clock, in Sydney');
  assert.ok(crawl.requests.some((request) => request.path === LIST_PATH.replace('page=1', 'page=2')), 'page 2 keeps the filters');
  assert.equal(crawl.requests.length, 13, 'robots.txt, two list pages and ten notices; the disabled Next item on page 2 asks for no page 3');
  assert.deepEqual(awards.map((award) => award.contract_id).sort(), ['CAN-122526', 'CAN-122540', 'CAN-122555', 'CAN-122561', 'CAN-122570', 'CAN-122590', 'CAN-122601', 'CAN-LAHC 2026/176', 'CAN-RFT-2015099']);
});

test('a later run reads from the day before its last success', async () => {
  const later = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-24T01:30:00Z') });
  assert.equal(later.requests[1]?.path, '/notices/search?noticeTypes=can&mode=advanced&dateFrom=2026-09-23&page=1');
  assert.equal(later.records.length, 9);
});

test('a notice becomes an award record under the non-OCDS convention', () => {
  const fields = [
    'Social Housing Responsive Maintenance – Western Sydney',
    ['Agency', 'Homes NSW'],
    ['CAN ID', 'CAN-122526'],
    ['Category', 'Building and property - Maintenance'],
    ['Contract period', '1-Oct-2026 to 30-Sep-2029'],
    ['Contractor ABN', '51 824 753 556'],
    ['Contractor name', 'Programmed Facility Management Pty Ltd'],
    ['Estimated amount payable to the contractor (including GST)', '$1,318,942.00 (inc GST)'],
    ['Is an Aboriginal-owned business', 'No'],
    ['Last updated', '14-Sep-2026'],
    ['Publish date', '12-Sep-2026'],
  ];
  assert.deepEqual(can('CAN-122526'), {
    record_type: 'award',
    ocid: 'au_nsw_contract_awards:CAN-122526',
    release_id: `au_nsw_contract_awards:CAN-122526:${sha256Hex(JSON.stringify(fields)).slice(0, 16)}`,
    release_date: '2026-09-13T14:00:00.000Z',
    release_tag: 'contract',
    contract_id: 'CAN-122526',
    amendment_id: null,
    amends_release_id: null,
    jurisdiction: 'AU-NSW',
    buyer: 'Homes NSW',
    buyer_id: null,
    supplier: 'Programmed Facility Management Pty Ltd',
    supplier_abn: '51824753556',
    supplier_id: null,
    title: 'Social Housing Responsive Maintenance – Western Sydney',
    description: null,
    value_amount: '1318942.00',
    value_currency: 'AUD',
    awarded_date: null,
    start_date: '2026-10-01',
    end_date: '2029-09-30',
    categories: [],
    procurement_method: null,
    url: 'https://buy.nsw.gov.au/notices/0C6A1F52-8D3E-4B27-A4F91E6B2D3C5A08',
  });
});

test('the real card\'s values: a classification after the amount, a line break after the contractor, a CAN ID that is not a number', () => {
  const runcorn = can('CAN-RFT-2015099');
  assert.deepEqual(
    [runcorn.title, runcorn.buyer, runcorn.supplier, runcorn.supplier_abn, runcorn.value_amount, runcorn.value_currency, runcorn.start_date, runcorn.end_date, runcorn.release_date],
    ['Residential Design and Construct at 27 Runcorn Avenue', 'Aboriginal Housing Office', 'WINSMAN GROUP PTY LTD', null, '770165.00', 'AUD', '2026-08-11', '2027-04-15', '2026-08-12T14:00:00.000Z'],
  );
  const lahc = can('CAN-LAHC 2026/176');
  assert.equal(lahc.ocid, 'au_nsw_contract_awards:CAN-LAHC 2026/176', 'the encoded slash and the space are kept as published');
  assert.equal(lahc.supplier, 'BG&E Pty Limited');
  assert.equal(lahc.value_amount, '96250.00');
});

test('entities and non-breaking spaces are cleaned, and an ABN printed with one is read', () => {
  const cleaning = can('CAN-122540');
  assert.equal(cleaning.title, 'Cleaning & Waste Services (Parramatta Justice Precinct)');
  assert.equal(cleaning.supplier, 'Ace Cleaning & Hygiene Pty Ltd');
  assert.equal(cleaning.supplier_abn, '12345678901');
  assert.equal(cleaning.value_amount, '845200.00');
});

test('missing fields stay null: no ABN, no period, no value; a notice never updated dates from its publish date', () => {
  assert.equal(can('CAN-122555').supplier_abn, null, 'an overseas contractor without an ABN');
  const panel = can('CAN-122570');
  assert.deepEqual([panel.start_date, panel.end_date, panel.value_amount, panel.value_currency], [null, null, null, null]);
  assert.equal(can('CAN-122601').release_date, '2026-09-22T14:00:00.000Z', 'publish date 23-Sep-2026, midnight AEST');
  assert.equal(can('CAN-122590').release_date, '2026-09-23T14:00:00.000Z', 'last updated 24-Sep-2026 wins over the publish date');
  assert.equal(can('CAN-122590').end_date, '2031-10-12');
});

test('a malformed ABN and a WAF challenge are warnings; the rest of the night is kept', () => {
  assert.equal(can('CAN-122561').supplier_abn, null);
  assert.equal(can('CAN-122561').supplier, 'Southern Highlands Civil Pty Ltd');
  assert.equal(crawl.errors, 1);
  assert.equal(crawl.warnings.length, 2);
  assert.ok(crawl.warnings.some((warning) => /CAN-122561: contractor ABN "12 345 678 90" is not 11 digits/.test(warning)));
  assert.ok(crawl.warnings.includes(`buy.nsw answered with its WAF challenge (HTTP 202) instead of the notice from GET ${CHALLENGED_URL} after 1 attempt`));
  assert.ok(!awards.some((award) => award.url === CHALLENGED_URL));
});

test('release ids hash the published fields: stable across runs, distinct per notice', async () => {
  const again = await crawlOnFixtures(source);
  const ids = (records: typeof awards) => records.map((award) => award.release_id).sort();
  assert.deepEqual(ids(again.records.filter((record): record is AwardRecord => record.record_type === 'award')), ids(awards));
  assert.equal(new Set(ids(awards)).size, awards.length);
  for (const award of awards) assert.equal(award.release_id.slice(0, -17), award.ocid);
  for (const award of awards) assert.match(award.release_id, /:[0-9a-f]{16}$/);
});

test('every record links to its live notice page, never the fixture server', () => {
  for (const award of awards) assert.match(award.url, /^https:\/\/buy\.nsw\.gov\.au\/notices\/[0-9A-F-]{35}$/);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a notice list answering 500 fails the source with a one-line diagnosis', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET https://buy.nsw.gov.au${LIST_PATH} after 1 attempt`);
});

test('a notice list answered by the WAF challenge fails the source instead of reporting no awards', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'nsw-can-waf-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, source.id));
  await copyFile(join(FIXTURES_ROOT, source.id, 'notice-waf-challenge.html'), join(root, source.id, 'challenge.html'));
  const meta = { source: source.id, captured_at: '2026-09-25T01:00:00Z', provenance: 'test: the WAF challenge in place of the list', files: [{ file: 'challenge.html', url: 'https://buy.nsw.gov.au/notices/search?*', status: 202 }] };
  await writeFile(join(root, source.id, '_meta.json'), JSON.stringify(meta));
  const challenged = await crawlOnFixtures(source, { root });
  assert.equal(challenged.failed, true);
  assert.equal(challenged.diagnosis, `buy.nsw answered with its WAF challenge (HTTP 202) instead of the notice list from GET https://buy.nsw.gov.au${LIST_PATH} after 1 attempt`);
});
