import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'cheerio';
import source, { mapDisclosureRow, plainAmount } from './au_qld_contract_disclosure.ts';
import { financialYearOf, newestCsvResources, parseCsv, readDatasetResources, type CkanResource } from './_platforms/ckan.ts';
import { AwardRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.data.qld.gov.au';
const PACKAGE_UUID = '8d1f1b7a-3c5e-4f6a-9b2d-1e4c7a9f0b35';
const RESOURCE_2026_27 = 'c9e81f42-0d7b-4a36-8e5c-3f1a6d9b7e20';
const RESOURCE_2025_26 = 'a47d3e19-6b58-4c2a-9f01-7e3c5b8d2a64';
const PAGE_2026_27 = `${ORIGIN}/dataset/tmr-contract-disclosure/resource/${RESOURCE_2026_27}`;
const PAGE_2025_26 = `${ORIGIN}/dataset/tmr-contract-disclosure/resource/${RESOURCE_2025_26}`;

let crawl: FixtureCrawl;
let awards: AwardRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
});

function releasesOf(contractId: string): AwardRecord[] {
  return awards.filter((award) => award.contract_id === contractId);
}

describe('au_qld_contract_disclosure on its fixtures', () => {
  test('reads robots.txt, the dataset page, then the two newest years: resource page and CSV each, never /api/', () => {
    assert.equal(crawl.failed, false);
    assert.equal(crawl.refused, null);
    assert.deepEqual(
      crawl.requests.map((request) => [request.path, request.status]),
      [
        ['/robots.txt', 200],
        ['/dataset/tmr-contract-disclosure', 200],
        [`/dataset/tmr-contract-disclosure/resource/${RESOURCE_2026_27}`, 200],
        [`/dataset/tmr-contract-disclosure/resource/${RESOURCE_2025_26}`, 200],
        [`/dataset/${PACKAGE_UUID}/resource/${RESOURCE_2026_27}/download/tmr-contract-disclosure-2026-27.csv`, 200],
        [`/dataset/${PACKAGE_UUID}/resource/${RESOURCE_2025_26}/download/tmr-contract-disclosure-2025-26.csv`, 200],
      ],
    );
  });

  test('the CKAN action API is refused by the portal\'s robots.txt, which is why the pages are read instead', async () => {
    const viaApi = { ...source, start: (ctx: Parameters<typeof source.start>[0]) => [{ url: ctx.url('/api/3/action/package_show?id=tmr-contract-disclosure'), label: 'DATASET' }] };
    const refused = await crawlOnFixtures(viaApi);
    assert.equal(refused.refused, 'robots_refused');
    assert.equal(refused.diagnosis, 'robots.txt disallows /api/3/action/package_show for crawlers; not fetched');
    assert.deepEqual(refused.requests.map((request) => request.path), ['/robots.txt']);
  });

  test('every row becomes a valid award; the empty trailing row is skipped; the unreadable cells are warnings', () => {
    assert.deepEqual(crawl.invalid, []);
    assert.equal(awards.length, 8);
    for (const award of awards) AwardRecord.parse(award);
    const csv2026 = `${ORIGIN}/dataset/${PACKAGE_UUID}/resource/${RESOURCE_2026_27}/download/tmr-contract-disclosure-2026-27.csv`;
    assert.deepEqual(crawl.warnings, [
      `${csv2026}: TMR contract disclosure 2026-27 row 3: supplier ABN "N/A" is neither an ABN nor an ACN; recorded without one`,
      `${csv2026}: TMR contract disclosure 2026-27 row 6: contract value "Schedule of rates" is not an amount; recorded without one`,
    ]);
  });

  test('a row maps to an exact award: quoted fields, a line break in a cell, a spaced ABN, "$" amounts, Brisbane midnight', () => {
    const [award] = releasesOf('TMR-NCR-2026-0142');
    assert.deepEqual(award, {
      record_type: 'award',
      ocid: 'au_qld_contract_disclosure:TMR-NCR-2026-0142',
      release_id: 'au_qld_contract_disclosure:TMR-NCR-2026-0142:f48f206a1eabd032',
      release_date: '2026-08-13T14:00:00.000Z', // 14/08/2026 00:00 in Brisbane (UTC+10, no daylight saving)
      release_tag: 'contract',
      contract_id: 'TMR-NCR-2026-0142',
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-QLD',
      buyer: 'Transport and Main Roads',
      buyer_id: null,
      supplier: 'Kalbar Civil Works Pty Ltd',
      supplier_abn: '99757431745',
      supplier_id: null,
      title: 'Bruce Highway (Cooroy - Curra) Section D - Pavement Rehabilitation',
      description: 'Pavement rehabilitation with a "heavy duty" asphalt overlay, line marking and guardrail reinstatement',
      value_amount: '1209874.00',
      value_currency: 'AUD',
      awarded_date: '2026-08-14',
      start_date: '2026-09-01',
      end_date: '2027-06-30',
      categories: [],
      procurement_method: 'Selective',
      url: PAGE_2026_27,
    });
  });

  test('amounts with a GST note or no cents, one-digit dates and an odd-spaced supplier name read as published', () => {
    const [traffic] = releasesOf('TMR-MET-2026-0077');
    assert.deepEqual(
      [traffic?.value_amount, traffic?.awarded_date, traffic?.start_date, traffic?.supplier, traffic?.supplier_abn],
      ['248930.50', '2026-07-01', '2026-07-01', 'Brisbane Traffic Solutions Pty Ltd', null],
    );
    const [design] = releasesOf('TMR-CQ-2026-0058');
    assert.deepEqual([design?.value_amount, design?.supplier_abn, design?.supplier_id], ['875619', null, 'AU-ACN-935063719']);
  });

  test('a variation is a second release of the same contract, its row published a year later at the new value', () => {
    const chain = releasesOf('TMR-SWD-2025-0310').map((award) => [award.ocid, award.release_date, award.value_amount, award.end_date, award.url]);
    assert.deepEqual(chain, [
      ['au_qld_contract_disclosure:TMR-SWD-2025-0310', '2026-07-21T14:00:00.000Z', '412000.00', '2028-09-30', PAGE_2026_27],
      ['au_qld_contract_disclosure:TMR-SWD-2025-0310', '2026-03-09T14:00:00.000Z', '380000.00', '2028-03-31', PAGE_2025_26],
    ]);
    const [variation, original] = releasesOf('TMR-SWD-2025-0310');
    assert.notEqual(variation?.release_id, original?.release_id);
  });

  test('a row without a reference is keyed by its stable fields; a blank agency is the publisher; ISO dates read too', () => {
    const unnumbered = awards.filter((award) => award.contract_id.startsWith('unnumbered-'));
    assert.equal(unnumbered.length, 1);
    assert.equal(unnumbered[0]?.contract_id, 'unnumbered-6707ff1e1e5cff52');
    assert.equal(unnumbered[0]?.title, 'Heavy vehicle weigh-in-motion site calibration');
    assert.deepEqual([unnumbered[0]?.value_amount, unnumbered[0]?.value_currency], [null, null]);
    const [hull] = releasesOf('TMR-MSQ-2025-0102');
    assert.deepEqual([hull?.buyer, hull?.awarded_date, hull?.start_date, hull?.end_date], ['Transport and Main Roads', '2025-09-03', '2025-09-08', '2025-10-31']);
  });

  test('every award links to its resource page on the live portal', () => {
    for (const award of awards) assert.ok([PAGE_2026_27, PAGE_2025_26].includes(award.url), award.url);
  });

  test('a failing portal fails the source with a one-line diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.deepEqual(failed.records, []);
    assert.equal(failed.diagnosis, `HTTP 500 from GET ${ORIGIN}/dataset/tmr-contract-disclosure after 1 attempt`);
  });
});

describe('CKAN family', () => {
  const resource: CkanResource = { name: 'TMR contract disclosure 2026-27', format: 'csv', pageUrl: PAGE_2026_27, financialYear: 2026 };

  test('financial years are read from resource names in their usual spellings', () => {
    assert.equal(financialYearOf('TMR contract disclosure 2026-27'), 2026);
    assert.equal(financialYearOf('Contract disclosure 2025–2026'), 2025);
    assert.equal(financialYearOf('FY2024/25 contracts'), 2024);
    assert.equal(financialYearOf('Contracts 2019-2023'), null);
    assert.equal(financialYearOf('Contract disclosure data dictionary'), null);
  });

  test('the dataset page yields its resources; the newest years\' CSVs are chosen, one per year', () => {
    const $ = load(`<ul class="resource-list">
      <li class="resource-item"><a class="heading" href="/dataset/x/resource/1" title="Disclosure 2024-25">Disclosure 2024-25<span class="format-label" data-format="csv">CSV</span></a></li>
      <li class="resource-item"><a class="heading" href="/dataset/x/resource/2">Disclosure 2026-27 <span class="format-label" data-format="xlsx">XLSX</span></a></li>
      <li class="resource-item"><a class="heading" href="/dataset/x/resource/3" title="Disclosure 2026-27">Disclosure 2026-27<span class="format-label" data-format="CSV">CSV</span></a></li>
      <li class="resource-item"><a class="heading" href="/dataset/x/resource/4" title="Disclosure 2025-26 (revised)"><span class="format-label" data-format="csv">CSV</span></a></li>
      <li class="resource-item"><a class="heading" href="/dataset/x/resource/5" title="Disclosure 2025-26"><span class="format-label" data-format="csv">CSV</span></a></li>
    </ul>`);
    const resources = readDatasetResources($, `${ORIGIN}/dataset/x`);
    assert.deepEqual(resources[1], { name: 'Disclosure 2026-27', format: 'xlsx', pageUrl: `${ORIGIN}/dataset/x/resource/2`, financialYear: 2026 });
    assert.deepEqual(newestCsvResources(resources, 2).map((chosen) => chosen.pageUrl), [`${ORIGIN}/dataset/x/resource/3`, `${ORIGIN}/dataset/x/resource/4`]);
  });

  test('CSV parsing: BOM, quotes, doubled quotes, line breaks in cells, spaced headers, all-empty rows', () => {
    const rows = parseCsv('\ufeff"Supplier  name",Value\r\n"Smith, Jones & Co","$1,000.00"\r\n"Say ""hi""\r\nthere",\r\n,\r\n\r\n');
    assert.deepEqual(rows, [
      { 'Supplier name': 'Smith, Jones & Co', Value: '$1,000.00' },
      { 'Supplier name': 'Say "hi"\r\nthere', Value: '' },
    ]);
    assert.throws(() => parseCsv('a,b\r\n1,2,3\r\n'), /Invalid Record Length/);
  });

  test('plain amounts from the register\'s money strings', () => {
    assert.equal(plainAmount('$1,234,567.00 (inc GST)'), '1234567.00');
    assert.equal(plainAmount('$96,500.00 excl GST'), '96500.00');
    assert.equal(plainAmount('875619'), '875619');
    assert.equal(plainAmount('Schedule of rates'), null);
    assert.equal(plainAmount('$1,23,4'), null);
  });

  test('a changed published field is a new release of the same contract; an unchanged row, even reordered, is the same release', () => {
    const row = { 'Contract reference number': 'TMR-1', 'Contract description/name': 'Works', 'Award contract date': '2/1/2026', 'Contract value': '$10.00' };
    const first = mapDisclosureRow(row, resource, new Date('2026-09-25T01:00:00Z')).record;
    const reordered = Object.fromEntries(Object.entries(row).reverse());
    const again = mapDisclosureRow(reordered, resource, new Date('2026-09-26T01:00:00Z')).record;
    const varied = mapDisclosureRow({ ...row, 'Contract value': '$12.00' }, resource, new Date('2026-09-25T01:00:00Z')).record;
    assert.equal(again.release_id, first.release_id);
    assert.equal(varied.ocid, first.ocid);
    assert.notEqual(varied.release_id, first.release_id);
    assert.equal(first.release_date, '2026-01-01T14:00:00.000Z');
  });

  test('a row without an award date is released at the run clock; one without a title fails the schema', () => {
    const { record } = mapDisclosureRow({ 'Contract reference number': 'TMR-2' }, resource, new Date('2026-09-25T01:00:00Z'));
    assert.equal(record.release_date, '2026-09-25T01:00:00.000Z');
    assert.deepEqual(AwardRecord.safeParse(record).error?.issues.map((issue) => issue.path.join('.')), ['title']);
  });
});
