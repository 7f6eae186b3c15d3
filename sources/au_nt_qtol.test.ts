import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import source from './au_nt_qtol.ts';
import type { AwardRecord, TenderRecord } from './_contract/records.ts';
import { sha256Hex } from '../lib/hash.ts';
import { crawlOnFixtures, editMeta, editedFixtures, replaceIn, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://tendersonline.nt.gov.au';
const CURRENT = (page: number) => `/Tender/SearchResults/Current?page=${page}&size=20`;
const AWARDED = (page: number) => `/Tender/SearchResults/Awarded?page=${page}&size=20`;

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

function listPaths(requests: FixtureCrawl['requests']): string[] {
  return requests.map((request) => request.path).filter((path) => path.startsWith('/Tender/Search'));
}

test('the lists are read from the results fragment, paged 20 cards at a time by data-total-records, and every card\'s page is read', () => {
  assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, []);
  assert.deepEqual(listPaths(crawl.requests), [CURRENT(1), CURRENT(2), AWARDED(1), AWARDED(2)], '33 and 24 records at 20 a page make two pages each');
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['NTG26-0121', 'NTG26-0168', 'RFF26-0130', 'RFT0791', 'T26-1192', 'T26-1279']);
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['25992', '25998', '26010', '26033-1', '26033-2']);
  assert.equal(crawl.requests.length, 15, 'robots.txt, four fragment pages, six tender pages and four awarded pages');
});

test('the real tender page (26396) is read field for field; its card came from the real second fragment', () => {
  assert.deepEqual(tender('T26-1279'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Katherine Region - Victoria Highway - Watch Creek - Bridge Abutment Reconstruction and Reinstatement',
    buyer: 'Department of Logistics and Infrastructure',
    reference: 'T26-1279',
    jurisdiction: 'AU-NT',
    tier: 'state',
    summary:
      'A general outline of the work to be carried out under the Contract comprises excavation of the pavement on bridge approach on the Western end, test density of sub-grade, stabilise sub-base, prepare base course and seal it such that the settlement on bridge approach is rectified and smooth pavement transition to bridge is obtained.',
    category: null,
    category_name: 'Civil',
    notice_type: 'Request For Quote',
    published_date: '2026-09-10',
    closing_date: '2026-09-21',
    closing_at: '2026-09-21T04:30:00.000Z', // "21/09/2026 2:00 PM ACST": Darwin, UTC+9:30
    value_text: null,
    url: `${ORIGIN}/Tender/Details/26396`,
    listing_url: `${ORIGIN}${CURRENT(2)}`,
  });
});

test('a tender page missing its facts falls back to the real card: "Quote RFF26-0130" splits into type and reference, agency, category, close', async (t) => {
  const root = await editedFixtures(t, source.id, async (dir) => {
    const page = join(dir, 'tender-26426.html');
    await replaceIn(page, 'Tender number RFF26-0130', '');
    await replaceIn(page, '<h3 class="fs-20">Department of Corporate and Digital Development</h3>', '');
    await replaceIn(page, '<div class="general-badge">Information Technology</div>', '');
    await replaceIn(page, '<h2 class="mb-4">Request For Quote</h2>', '');
    await replaceIn(page, '<p class="mb-0">Close</p>', '<p class="mb-0">Closes</p>');
  });
  const fallback = (await crawlOnFixtures(source, { root })).records.find((record): record is TenderRecord => record.record_type === 'tender' && record.url.endsWith('/26426'));
  assert.deepEqual(
    fallback && [fallback.reference, fallback.notice_type, fallback.buyer, fallback.category_name, fallback.closing_date, fallback.closing_at],
    ['RFF26-0130', 'Quote', 'Department of Corporate and Digital Development', 'Information Technology', '2026-10-09', '2026-10-09T04:30:00.000Z'],
  );
});

test('a fragment without a record count is read on until a page comes back empty, with a warning', async (t) => {
  const root = await editedFixtures(t, source.id, async (dir) => {
    for (const page of ['current-page-1.html', 'current-page-2.html']) await replaceIn(join(dir, page), 'data-total-records="33"', '');
    await writeFile(join(dir, 'current-page-3.html'), '<div id="tender-search-results">\n</div>\n');
    await editMeta(dir, (meta) => meta.files.push({ file: 'current-page-3.html', url: `${ORIGIN}${CURRENT(3)}`, method: 'GET', status: 200, content_type: 'text/html; charset=utf-8' }));
  });
  const uncounted = await crawlOnFixtures(source, { root });
  assert.deepEqual(listPaths(uncounted.requests).filter((path) => path.includes('Current')), [CURRENT(1), CURRENT(2), CURRENT(3)]);
  assert.deepEqual(uncounted.warnings, [`${ORIGIN}${CURRENT(1)}: the results print no data-total-records count; pages are read until one comes back empty`]);
  assert.equal(uncounted.records.filter((record) => record.record_type === 'tender').length, 6);
});

test('a list longer than ten pages is read ten pages deep, with a warning', async (t) => {
  const root = await editedFixtures(t, source.id, async (dir) => {
    await replaceIn(join(dir, 'current-page-1.html'), 'data-total-records="33"', 'data-total-records="4800"');
    await editMeta(dir, (meta) => {
      for (const file of meta.files) file.url = file.url.replace('Current?page=1&', 'Current?page=*&');
    });
  });
  const deep = await crawlOnFixtures(source, { root });
  assert.deepEqual(listPaths(deep.requests).filter((path) => path.includes('Current')), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(CURRENT));
  assert.ok(deep.warnings.includes(`${ORIGIN}${CURRENT(10)}: the list holds 4800 records; only the first 10 pages (200) are read per night`), deep.warnings.join('\n'));
});

test('the awarded address is inferred: when it answers 404 the awards are a warning and the current tenders are still read', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) =>
    editMeta(dir, (meta) => {
      meta.files = meta.files.filter((file) => !file.url.includes('/SearchResults/Awarded'));
    }),
  );
  const unawarded = await crawlOnFixtures(source, { root });
  assert.equal(unawarded.failed, false);
  assert.deepEqual(unawarded.warnings, [`HTTP 404 from GET ${ORIGIN}${AWARDED(1)} after 1 attempt`]);
  assert.equal(unawarded.records.filter((record) => record.record_type === 'tender').length, 6);
  assert.equal(unawarded.records.filter((record) => record.record_type === 'award').length, 0);
});

test('the full search page, which the site fills by script, is not mistaken for an empty list: the source fails', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) =>
    writeFile(join(dir, 'current-page-1.html'), '<!DOCTYPE html><html><body><main><h1>Current tenders</h1><div id="searchResultsContainer"></div></main></body></html>'),
  );
  const scripted = await crawlOnFixtures(source, { root });
  assert.equal(scripted.failed, true);
  assert.equal(scripted.diagnosis, `not a QTOL search-results fragment (no #tender-search-results) from GET ${ORIGIN}${CURRENT(1)} after 1 attempt`);
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
  assert.deepEqual([award('26010').value_amount, award('26010').supplier], ['1342718.00', 'CENTRAL CIVIL & ROADS PTY LTD']);
  assert.deepEqual([award('26033-1').supplier, award('26033-1').value_amount], ['TOP END ELECTRICAL SERVICES PTY LTD', '300000.00']);
  assert.deepEqual([award('26033-2').supplier, award('26033-2').value_amount], ['LARRAKIA SPARKS PTY LTD', '180000.00']);
  assert.deepEqual([award('26033-1').ocid, award('26033-2').ocid], ['au_nt_qtol:26033', 'au_nt_qtol:26033'], 'a panel is one contracting process');
  assert.deepEqual([award('25998').value_amount, award('25998').value_currency], [null, null]);
  assert.equal(award('25998').supplier, 'KATHERINE GREEN SPACES PTY LTD');
  assert.ok(source.caveats.some((caveat) => /unit rates/.test(caveat) && /null/.test(caveat)));
});

test('current tenders close in Darwin time, printed as ACST (UTC+9:30, no daylight saving after 4 October)', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, record.closing_at]));
  assert.deepEqual(closings, {
    'RFF26-0130': '2026-10-09T04:30:00.000Z',
    'RFT0791': '2026-10-21T04:30:00.000Z',
    'T26-1192': '2026-10-13T04:30:00.000Z',
    'T26-1279': '2026-09-21T04:30:00.000Z',
    'NTG26-0168': '2026-10-02T04:30:00.000Z',
    'NTG26-0121': '2026-10-07T04:30:00.000Z',
  });
  assert.equal(tender('RFT0791').notice_type, 'Request For Tender');
  assert.equal(tender('RFT0791').listing_url, `${ORIGIN}${CURRENT(1)}`);
});

test('every record links to the live site, never the fixture server', () => {
  for (const record of awards) assert.match(record.url, /^https:\/\/tendersonline\.nt\.gov\.au\/Tender\/Details\/\d+\?status=Awarded$/);
  for (const record of tenders) assert.match(record.url, /^https:\/\/tendersonline\.nt\.gov\.au\/Tender\/Details\/\d+$/, 'the list\'s ?status=Current is left off');
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a site answering 500 fails the source with a one-line diagnosis naming the current list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${ORIGIN}${CURRENT(1)} after 1 attempt`);
});
