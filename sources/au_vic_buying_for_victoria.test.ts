import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import source from './au_vic_buying_for_victoria.ts';
import type { AwardRecord, TenderRecord } from './_contract/records.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, editMeta, editedFixtures, replaceIn, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.tenders.vic.gov.au';
const TENDER_LIST = `${ORIGIN}/tenders/open?page=1`;
const REAL_CONTRACT = 'CWF_25-26_00159-CWF_25-26_00658-CWF_25-26_0081';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];
let awards: AwardRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
  awards = crawl.records.filter((record): record is AwardRecord => record.record_type === 'award');
});

function tender(reference: string): TenderRecord {
  const found = tenders.find((record) => record.reference === reference);
  assert.ok(found, `no tender ${reference}`);
  return found;
}

function award(contractId: string): AwardRecord {
  const found = awards.find((record) => record.contract_id === contractId);
  assert.ok(found, `no award ${contractId}`);
  return found;
}

test('both lists are followed to their last page and every detail page is read; withdrawn and challenged pages are warnings', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(tenders.map((record) => record.reference).sort(), [
    'DFFH-2026-118', 'DGS-EOI-2026-07', 'DH-RFT-26-044', 'DJCS/26/0311', 'DTP-RFT-2026-0412', 'ITR-SS-05-2018', 'PROCF22-000236', 'PROCF23-149', 'VSBA-2026-0519',
  ]);
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), [REAL_CONTRACT, 'DE-PANEL-2026-04', 'DGS-FLEET-2026-02', 'DTF-2026-0077', 'DTP-C-2026-1187']);
  assert.deepEqual(crawl.warnings.sort(), [
    `HTTP 403 from GET ${ORIGIN}/contract/view?id=230418 after 1 attempt`,
    `HTTP 404 from GET ${ORIGIN}/tender/view?id=291250 after 1 attempt`,
    `${ORIGIN}/contract/search?preset=recentlyAwarded&page=2: read 6 of the 31 records the list counts over 2 pages`,
    `${ORIGIN}/tenders/open?page=4: read 10 of the 78 records the list counts over 4 pages`,
  ], 'the fixture pages carry a few rows each of the 78 and 31 their footers count, and the crawl says so');
  const paths = crawl.requests.map((request) => request.path);
  assert.equal(paths[0], '/robots.txt', 'robots.txt is read before anything else');
  assert.equal(crawl.requests.length, 23, 'robots.txt, six list pages, ten tender pages, six contract pages');
});

test('the real footer "Records: 1 - 25 of 78" pages the open-tender list four deep (it was read as 1, and one page)', () => {
  const lists = crawl.requests.map((request) => request.path).filter((path) => path.startsWith('/tenders/open') || path.startsWith('/contract/search'));
  assert.deepEqual(lists.filter((path) => path.startsWith('/tenders/open')), [1, 2, 3, 4].map((page) => `/tenders/open?page=${page}`));
  assert.deepEqual(lists.filter((path) => path.startsWith('/contract/search')), [1, 2].map((page) => `/contract/search?preset=recentlyAwarded&page=${page}`), '"Records: 1 - 25 of 31"');
  assert.deepEqual(
    Object.entries(Object.groupBy(tenders, (record) => record.listing_url ?? '')).map(([url, records]) => [url, records?.length]),
    [[`${ORIGIN}/tenders/open?page=1`, 3], [`${ORIGIN}/tenders/open?page=2`, 2], [`${ORIGIN}/tenders/open?page=3`, 2], [`${ORIGIN}/tenders/open?page=4`, 2]],
    'every row the four pages carry',
  );
});

test('PROCF23-149, read from the real list row and the real tender page: the row\'s UNSPSC code is kept where the page prints a name alone', () => {
  assert.deepEqual(tender('PROCF23-149'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Clinical Advisory Services Register',
    buyer: 'Transport Accident Commission',
    reference: 'PROCF23-149',
    jurisdiction: 'AU-VIC',
    tier: 'state',
    summary:
      'The TAC’s Clinical Advisory Services Register provides the TAC access and flexibility to engage highly experienced and qualified allied health and medical professionals for best-practice and specialist clinical advice across a wide range of disciplines. The register ensures the TAC is enabled to support the Make Every Day Matter Strategy by using suppliers for both internal claims advice as well as providing clinical input into strategic initiatives. Clinical Advisory Services supports the TAC’s internal claims management process by providing independent clinical reviews and advice on a referral basis. Clinical reviews are focused on ensuring that treatment is evidence informed and clinically justified. The TAC is seeking applications from individual and intermediary Suppliers capable of providing Clinical Advisory Services or Senior Clinical Advisory Services under the Register. Services include: Claims advice and Client outcomes; Business advice; and Sector Engagement. A detailed description of Service and clinical disciplines being sought via the Register can be found in the Service Specification (and attachments) included as part of the Register pack below: Invitation to Register (Individual) - for single applicants i.e. providing only one Clincial Advisor Invitation to Register (Multiple) - for applicants providing more than one Clinical Advisor Privacy Questionnaire Service Specification Service Specification (Annex A) - Service Standards Service Specification (Annex B) - Invoice Template Service Specification (Annex C) - Quality Review Framework Service Specification (Annex D) - Clinical Advisory Service Categories NOTE - Interested applicants may register as a supplier with Buying for Victoria to download the Register pack. To lodge your application, please follow the instructions detailed in the Invitation to Register.',
    category: '85000000', // the row's "85000000 - Healthcare Services"; the page prints "Healthcare Services"
    category_name: 'Healthcare Services',
    notice_type: 'Expression of Interest',
    published_date: '2025-02-24',
    closing_date: '2030-02-25',
    closing_at: '2030-02-25T06:00:00.000Z', // "Mon, 25 February 2030 5:00 pm", Melbourne summer time
    value_text: null,
    url: `${ORIGIN}/tender/view?id=285775`,
    listing_url: TENDER_LIST,
  });
  assert.deepEqual([tender('ITR-SS-05-2018').category, tender('ITR-SS-05-2018').category_name], ['53000000', 'Apparel and Luggage and Personal Care Products'], 'the first of the real row\'s two UNSPSC lines');
});

test('a page without its Number falls back to the row\'s code, not to the column label the row\'s cell opens with', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) => replaceIn(join(dir, 'tender-285775.html'), '\t\t\t\tNumber:', '\t\t\t\tReference:'));
  const fallback = (await crawlOnFixtures(source, { root })).records.find((record): record is TenderRecord => record.record_type === 'tender' && record.url.endsWith('id=285775'));
  assert.equal(fallback?.reference, 'PROCF23-149');
});

test('a footer whose count cannot be read fully is a warning, and no later page is guessed at', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) => replaceIn(join(dir, 'tenders-open-page-1.html'), 'Records: 1 - 25 of 78', 'Records: 1 - 25 of many'));
  const unreadable = await crawlOnFixtures(source, { root });
  assert.deepEqual(unreadable.requests.map((request) => request.path).filter((path) => path.startsWith('/tenders/open')), ['/tenders/open?page=1']);
  assert.ok(
    unreadable.warnings.includes(`${TENDER_LIST}: page 1's footer "Pages: 1 2 3 4 Records: 1 - 25 of many" gives no record count; later pages were not read`),
    unreadable.warnings.join('\n'),
  );
});

test('DTP-RFT-2026-0412: every field of a tender, with its release date, close and UNSPSC code taken from the list row', () => {
  assert.deepEqual(tender('DTP-RFT-2026-0412'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Road Maintenance Services – Western Region',
    buyer: 'Department of Transport and Planning',
    reference: 'DTP-RFT-2026-0412',
    jurisdiction: 'AU-VIC',
    tier: 'state',
    summary:
      'The Department seeks a contractor for routine and reactive maintenance of arterial roads in the Western Region, including pothole repair, line marking and drainage clearing. The contract term is three years with two one-year options.',
    category: '72000000',
    category_name: 'Building and Facility Construction and Maintenance Services',
    notice_type: 'Request for Tender',
    published_date: '2026-09-07',
    closing_date: '2026-10-13',
    closing_at: '2026-10-13T03:00:00.000Z',
    value_text: null,
    url: `${ORIGIN}/tender/view?id=291044`,
    listing_url: `${ORIGIN}/tenders/open?page=2`,
  });
});

test('closing times are Melbourne time on either side of the daylight-saving change of 4 October; a standing register has none', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    'DFFH-2026-118': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day itself, 2:00 pm AEST
    'DJCS/26/0311': ['2026-10-02', '2026-10-02T02:00:00.000Z'], // noon AEST, UTC+10
    'DTP-RFT-2026-0412': ['2026-10-13', '2026-10-13T03:00:00.000Z'], // 2:00 pm AEDT, UTC+11
    'VSBA-2026-0519': ['2026-10-15', '2026-10-15T04:00:00.000Z'],
    'DH-RFT-26-044': ['2026-11-02', '2026-11-02T00:00:00.000Z'],
    'DGS-EOI-2026-07': [null, null],
    'PROCF22-000236': ['2030-03-01', '2030-03-01T03:00:00.000Z'], // the real rows' closes, in Melbourne summer time
    'PROCF23-149': ['2030-02-25', '2030-02-25T06:00:00.000Z'],
    'ITR-SS-05-2018': ['2028-08-04', '2028-08-04T04:00:00.000Z'], // AEST, UTC+10
  });
});

test('entities, non-breaking spaces and ragged whitespace come out clean', () => {
  const cleaning = tender('DJCS/26/0311');
  assert.equal(cleaning.title, 'Cleaning & Waste Services – Barwon Region Offices');
  assert.equal(
    cleaning.summary,
    'Daily office cleaning, washroom services and general waste & recycling removal for six Barwon region offices. Site visits are not mandatory. Questions close 5 business days before the closing time.',
  );
  assert.equal(award('DTP-C-2026-1187').supplier, "O'Brien Traffic & Civil Pty Ltd");
});

test('a tender with two UNSPSC lines takes the first as its category; page-four tenders link to page four', () => {
  const modular = tender('VSBA-2026-0519');
  assert.equal(modular.category, '72000000');
  assert.equal(modular.category_name, 'Building and Facility Construction and Maintenance Services');
  assert.equal(modular.listing_url, `${ORIGIN}/tenders/open?page=4`);
});

test('229501 is read from the real contract page: ocid and release follow the award convention', () => {
  const ocid = `au_vic_buying_for_victoria:${REAL_CONTRACT}`;
  const record = award(REAL_CONTRACT);
  assert.match(record.release_id, new RegExp(`^${ocid}:[0-9a-f]{16}$`));
  assert.deepEqual(
    { ...record, release_id: 'checked above' },
    {
      record_type: 'award',
      ocid,
      release_id: 'checked above',
      release_date: '2026-09-25T01:00:00.000Z',
      release_tag: 'contract',
      contract_id: REAL_CONTRACT,
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-VIC',
      buyer: 'Department of Education',
      buyer_id: null,
      supplier: 'Architecture Caisson',
      supplier_abn: '56607067925',
      supplier_id: 'AU-ACN:607067925',
      title:
        'CWF_25-26_00159 - Box Hill North Primary School CWF_25-26_00658 - Donvale Primary School CWF_25-26_00810 - Kew High School CWF_25-26_00010 - Rangeview Primary School',
      description: 'Bathroom Refurbishments',
      value_amount: '176385.00',
      value_currency: 'AUD',
      awarded_date: null,
      start_date: '2027-03-07',
      end_date: '2027-07-30',
      categories: [], // the page prints the UNSPSC name only
      procurement_method: null,
      url: `${ORIGIN}/contract/view?id=229501`,
    },
  );
});

test('award values, dates, ABNs and UNSPSC codes as the contract pages print them', () => {
  const traffic = award('DTP-C-2026-1187');
  assert.equal(traffic.value_amount, '1127860.00', '"$1,127,860.00 (inc GST)"');
  assert.equal(traffic.supplier_abn, '51824753556', 'printed "51 824 753 556"');
  assert.equal(traffic.end_date, '2028-09-30', 'printed "30 Sept 2028"');
  assert.deepEqual(traffic.categories, ['92000000']);
  const panel = award('DE-PANEL-2026-04');
  assert.equal(panel.supplier, 'Northbank Design Studio Pty Ltd; Yarra Edge Architects');
  assert.equal(panel.supplier_abn, null, 'a panel of two has no single ABN');
  assert.equal(panel.value_amount, '2500000.00');
  const software = award('DTF-2026-0077');
  assert.equal(software.value_amount, null, 'no value printed');
  assert.equal(software.value_currency, null);
  assert.equal(software.supplier, 'Kestrel Software Ltd');
  assert.equal(software.supplier_abn, null);
  assert.equal(award('DGS-FLEET-2026-02').supplier_id, null, 'no ACN printed');
});

test('a changed published value is a new release of the same contract; the platform\'s own status flip is not', async (t) => {
  const root = await editedFixtures(t, source.id, async (dir) => {
    await replaceIn(join(dir, 'contract-229501.html'), '$176,385.00', '$181,000.00');
    await replaceIn(join(dir, 'contract-230114.html'), '>Current</div>', '>Expired</div>');
  });
  const again = await crawlOnFixtures(source, { root });
  const find = (contractId: string) => again.records.find((record): record is AwardRecord => record.record_type === 'award' && record.contract_id === contractId);
  assert.equal(find(REAL_CONTRACT)?.ocid, award(REAL_CONTRACT).ocid);
  assert.equal(find(REAL_CONTRACT)?.value_amount, '181000.00');
  assert.notEqual(find(REAL_CONTRACT)?.release_id, award(REAL_CONTRACT).release_id);
  assert.equal(find('DTP-C-2026-1187')?.release_id, award('DTP-C-2026-1187').release_id);
});

test('every record links to its live page, never the fixture server', () => {
  for (const record of tenders) assert.match(record.url, /^https:\/\/www\.tenders\.vic\.gov\.au\/tender\/view\?id=\d+$/);
  for (const record of awards) assert.match(record.url, /^https:\/\/www\.tenders\.vic\.gov\.au\/contract\/view\?id=\d+$/);
  assert.equal(new Set(crawl.records.map((record) => record.url)).size, crawl.records.length);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('the recently-awarded list is read 200 contracts deep a night, with a warning when it holds more', async (t) => {
  const root = await editedFixtures(t, source.id, async (dir) => {
    await replaceIn(join(dir, 'contract-search-page-1.html'), 'Records: 1 - 25 of 31', 'Records: 1 - 25 of 4,800');
    await editMeta(dir, (meta) => {
      for (const file of meta.files) file.url = file.url.replace('recentlyAwarded&page=1', 'recentlyAwarded&page=*');
    });
  });
  const deep = await crawlOnFixtures(source, { root });
  const listPages = deep.requests.filter((request) => request.path.startsWith('/contract/search?')).map((request) => request.path);
  assert.deepEqual(listPages, [1, 2, 3, 4, 5, 6, 7, 8].map((page) => `/contract/search?preset=recentlyAwarded&page=${page}`));
  assert.ok(deep.warnings.some((warning) => warning.includes('4800 records; only the first 8 pages (200)')), deep.warnings.join('\n'));
  assert.equal(deep.failed, false);
});

test('a list answering 200 with a challenge page fails the source instead of reporting no tenders', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) =>
    writeFile(join(dir, 'tenders-open-page-1.html'), '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-error-text">Enable JavaScript and cookies to continue</div></body></html>'),
  );
  const challenged = await crawlOnFixtures(source, { root });
  assert.equal(challenged.failed, true);
  assert.match(challenged.diagnosis ?? '', /not a TenderSearch tender list/);
  assert.ok(challenged.diagnosis?.includes(TENDER_LIST), challenged.diagnosis ?? 'no diagnosis');
});

test('detail pages that are not tender or contract pages are counted invalid, naming the page', async (t) => {
  const challenge = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-error-text">Enable JavaScript and cookies to continue</div></body></html>';
  const root = await editedFixtures(t, source.id, async (dir) => {
    await writeFile(join(dir, 'tender-291301.html'), challenge);
    await writeFile(join(dir, 'contract-230402.html'), challenge);
  });
  const challenged = await crawlOnFixtures(source, { root });
  assert.equal(challenged.failed, false);
  assert.deepEqual(challenged.invalid.sort((a, b) => a.url.localeCompare(b.url)), [
    { url: `${ORIGIN}/contract/view?id=230402`, problem: 'not a TenderSearch contract page (no span.LIST_TITLE rows)' },
    { url: `${ORIGIN}/tender/view?id=291301`, problem: 'not a TenderSearch tender page (no #opportunityGeneral section or no title)' },
  ]);
  assert.equal(challenged.records.length, crawl.records.length - 2);
});

test('a portal answering 500 fails the source with a one-line diagnosis naming a list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /^HTTP 500 from GET https:\/\/www\.tenders\.vic\.gov\.au\/(tenders\/open\?page=1|contract\/search\?preset=recentlyAwarded&page=1) after 1 attempt$/);
  assert.ok(!broken.diagnosis?.includes('\n'));
});

test('manners: robots.txt asks for 2 s between requests and the source keeps to it, one at a time', async () => {
  assert.match(await readFile(join(FIXTURES_ROOT, source.id, 'robots.txt'), 'utf8'), /^Crawl-delay: 2$/m);
  assert.equal(source.politeness.delayMs, 2000);
  assert.equal(source.politeness.maxConcurrency, 1);
  assert.deepEqual(source.kinds, ['tender', 'award']);
});
