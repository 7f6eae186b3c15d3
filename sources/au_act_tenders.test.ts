import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import source from './au_act_tenders.ts';
import type { AwardRecord, TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, editedFixtures, replaceIn, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const ORIGIN = 'https://www.tenders.act.gov.au';

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

test('tenders and awards, each list followed to its second page by its "Records: 1 - 25 of N" footer', () => {
  assert.equal(crawl.failed, false);
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, [
    `${ORIGIN}/tenders/open?page=1: left out the portal's practice notice "SUPPLIER Tenders ACT Practice ATM" (99999.8): it is not a tender`,
    `${ORIGIN}/tenders/open?page=2: read 6 of the 27 records the list counts over 2 pages`,
    `${ORIGIN}/contract/search?preset=recentlyAwarded&page=2: read 3 of the 26 records the list counts over 2 pages`,
  ], 'the fixture pages are trimmed to a few rows, and the crawl says so');
  assert.deepEqual(tenders.map((record) => record.reference).sort(), ['CLR-N2300-PANEL', 'PICE0012299', 'PICM0011611', 'PIMA0014211', 'SL20260630']);
  assert.deepEqual(awards.map((record) => record.contract_id).sort(), ['2026.28491.210', '2026.29014.110', '2026.29377.210']);
  const lists = crawl.requests.map((request) => request.path).filter((path) => path.includes('/search?')).sort();
  assert.deepEqual(lists, [
    '/contract/search?preset=recentlyAwarded&page=1',
    '/contract/search?preset=recentlyAwarded&page=2',
  ]);
  assert.deepEqual(crawl.requests.map((request) => request.path).filter((path) => path.startsWith('/tenders/open')), ['/tenders/open?page=1', '/tenders/open?page=2']);
});

test('the real single-page footer "Records: 22" is one page, and a page carrying fewer rows than it counts is a warning', async (t) => {
  const root = await editedFixtures(t, source.id, (dir) => replaceIn(join(dir, 'tenders-open-page-1.html'), /<div class="paging">[\s\S]*?<\/div>/, '<p class="paging">Records: 22 </p>'));
  const single = await crawlOnFixtures(source, { root });
  assert.deepEqual(single.requests.map((request) => request.path).filter((path) => path.startsWith('/tenders/open')), ['/tenders/open?page=1']);
  assert.ok(single.warnings.includes(`${ORIGIN}/tenders/open?page=1: read 5 of the 22 records the list counts over 1 page`), single.warnings.join('\n'));
});

test('the portal\'s practice notice, listed among the open tenders, is never read as a tender', () => {
  assert.ok(!tenders.some((record) => /practice/i.test(record.title) || record.reference === '99999.8'), 'no practice tender');
  assert.ok(!crawl.requests.some((request) => request.path === '/tender/view?id=224403'), 'its page is not fetched');
});

test('PIMA0014211 is read from the real Tenders ACT capture', () => {
  assert.deepEqual(tender('PIMA0014211'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'Public Housing Disability Modification and Domestic Violence Upgrade Services Multi Use List (MUL)',
    buyer: 'ACT Government',
    reference: 'PIMA0014211',
    jurisdiction: 'AU-ACT',
    tier: 'state',
    summary:
      'The Territory invites suppliers to submit an Application for the Public Housing Disability Modifications and Domestic Violence Modification Services MUL. The purpose of this procurement is to establish a fit for purpose MUL for sourcing disability modification and domestic and family violence modification services for public housing properties. The MUL will establish a qualified pool of suppliers that meet the Territory’s technical, licensing, insurance, safety, WHS and public housing specific requirements. The MUL will be established for an initial period of one (1) years , with an optional extension period of one (1) years. The MUL will remain open for receiving Applications from the date of publication until the MUL is formally closed by the Territory. Suppliers may submit questions or seek clarification regarding the application process while the MUL remains open for Applications',
    category: '72000000',
    category_name: 'Building and Facility Construction and Maintenance Services',
    notice_type: 'Other Arrangements',
    published_date: '2026-08-18',
    closing_date: '2028-08-31',
    closing_at: '2028-08-31T04:00:00.000Z', // "31 August 2028 02:00 pm", Canberra winter time
    value_text: null,
    url: `${ORIGIN}/tender/view?id=330643`,
    listing_url: `${ORIGIN}/tenders/open?page=1`,
  });
});

test('Canberra closing times, and the first of several UNSPSC lines as the category', () => {
  const closings = Object.fromEntries(tenders.map((record) => [record.reference, record.closing_at]));
  assert.deepEqual(closings, {
    'PIMA0014211': '2028-08-31T04:00:00.000Z',
    'PICM0011611': '2026-10-27T03:00:00.000Z', // 2:00 pm AEDT
    'SL20260630': '2026-10-20T03:00:00.000Z',
    'CLR-N2300-PANEL': '2027-07-29T04:00:00.000Z', // 2:00 pm AEST
    'PICE0012299': '2026-10-13T03:00:00.000Z',
  });
  assert.equal(tender('PICM0011611').category, '80000000');
  assert.equal(tender('PICM0011611').category_name, 'Management and Business Professionals and Administrative Services');
  assert.equal(tender('CLR-N2300-PANEL').published_date, '2023-08-02');
  assert.equal(tender('CLR-N2300-PANEL').buyer, 'Infrastructure Canberra');
});

test('awards: ACT ocids, amounts as printed, ABNs without spaces', () => {
  const waste = awards.find((record) => record.contract_id === '2026.28491.210');
  assert.ok(waste);
  assert.equal(waste.ocid, 'au_act_tenders:2026.28491.210');
  assert.match(waste.release_id, /^au_act_tenders:2026\.28491\.210:[0-9a-f]{16}$/);
  assert.equal(waste.jurisdiction, 'AU-ACT');
  assert.equal(waste.title, 'Waste Collection Services – Town Centres');
  assert.equal(waste.value_amount, '8940000.00');
  assert.equal(waste.supplier_abn, '44608221907');
  assert.equal(waste.end_date, '2031-09-30');
  assert.deepEqual(waste.categories, ['76120000']);
  const desk = awards.find((record) => record.contract_id === '2026.29014.110');
  assert.deepEqual(desk?.categories, [], 'UNSPSC printed as "Computer services" alone');
  assert.equal(awards.find((record) => record.contract_id === '2026.29377.210')?.value_amount, '285000.00');
  for (const record of crawl.records) assert.ok(record.url.startsWith(`${ORIGIN}/`), record.url);
});

test('a portal answering 500 fails the source with a one-line diagnosis', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /^HTTP 500 from GET https:\/\/www\.tenders\.act\.gov\.au\/(tenders\/open\?page=1|contract\/search\?preset=recentlyAwarded&page=1) after 1 attempt$/);
});
