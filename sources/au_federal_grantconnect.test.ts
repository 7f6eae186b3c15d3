import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './au_federal_grantconnect.ts';
import type { TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const LIST_URL = 'https://www.grants.gov.au/Go/List';
const PAGE_2_URL = 'https://www.grants.gov.au/Go/List?page=2';
const WITHDRAWN_URL = 'https://www.grants.gov.au/Go/Show?GoUuid=8eaf5bc4-7a3d-4c91-8f6e-5dbe4c9a0f73';

let crawl: FixtureCrawl;
let grants: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  grants = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function grant(reference: string): TenderRecord {
  const found = grants.find((record) => record.reference === reference);
  assert.ok(found, `no record for ${reference}`);
  return found;
}

test('both list pages are followed to every full-details page; the withdrawn round is a warning, not a failure', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.equal(grants.length, 13);
  assert.ok(grants.every((record) => record.kind === 'grant' && record.tier === 'federal' && record.jurisdiction === 'AU'));
  assert.deepEqual(
    grants.map((record) => record.reference).sort(),
    ['GO7926', 'GO8201', 'GO8232', 'GO8439', 'GO8455', 'GO8529', 'GO8530', 'GO8554', 'GO8574', 'GO8603', 'GO8611', 'GO8616', 'GO8622'],
  );
  assert.deepEqual(crawl.warnings, [`HTTP 404 from GET ${WITHDRAWN_URL} after 1 attempt`]);
  const lists = crawl.requests.filter((request) => request.path.startsWith('/Go/List')).map((request) => request.path);
  assert.deepEqual(lists, ['/Go/List', '/Go/List?page=2'], 'the Next link is followed once, and page 2 (no Next link) ends the walk');
  assert.equal(crawl.requests.length, 17, 'robots.txt, two list pages and fourteen full-details pages');
});

test('GO8232 is read from the real full-details capture', () => {
  const mrff = grant('GO8232');
  const { summary, ...fields } = mrff;
  assert.deepEqual(fields, {
    record_type: 'tender',
    kind: 'grant',
    title: 'MRFF – Clinical Trials Activity Initiative – 2026 International Clinical Trial Collaborations Grant Opportunity',
    buyer: 'National Health and Medical Research Council (NHMRC)',
    reference: 'GO8232',
    jurisdiction: 'AU',
    tier: 'federal',
    category: null,
    category_name: 'Medical Research',
    notice_type: 'Targeted or Restricted Competitive',
    published_date: '2026-02-11',
    closing_date: '2026-09-16',
    closing_at: '2026-09-16T07:00:00.000Z',
    value_text: '$13,000,000.00',
    url: 'https://www.grants.gov.au/Go/Show?GoUuid=01b50890-22c3-449b-9f1b-1d44b77d7e37',
    listing_url: LIST_URL,
  });
  assert.ok(summary?.startsWith('The Medical Research Future Fund (MRFF) Clinical Trials Activity Initiative (the Initiative) aims to increase clinical trial activity in Australia in order to improve'), summary ?? 'no summary');
  assert.ok(summary?.endsWith('can be found on the NHMRC List of MRFF Eligible Organisations webpage'), summary ?? 'no summary');
  assert.match(summary ?? '', /health circumstances and enable researchers to bring international trials to Australian patients\. The objective of this grant opportunity/, '&nbsp; and paragraph breaks become single spaces');
  assert.match(summary ?? '', /site\/s in Australia\. Provide high-quality evidence/, 'list items are separated');
  assert.doesNotMatch(summary ?? '', /\u00a0| {2}/);
});

test('the detail page gives the full description where the list truncates it', () => {
  assert.equal(grant('GO8530').summary, 'IRIISS allocates funds for infrastructure support to independent medical research institutes managing NHMRC research funding, to contribute to the indirect costs of the research they host.');
  assert.equal(grant('GO8529').summary, 'The objectives of Equipment Grants are to support Administering Institutions to: be strategic in the purchase of large items of equipment; share equipment between research groups.');
});

test('close times are ACT local time, either side of daylight saving (4 October); an ongoing round has none', () => {
  const closings = Object.fromEntries(grants.map((record) => [record.reference, [record.closing_date, record.closing_at]]));
  assert.deepEqual(closings, {
    GO8232: ['2026-09-16', '2026-09-16T07:00:00.000Z'],
    GO8530: ['2026-09-23', '2026-09-23T07:00:00.000Z'],
    GO8439: ['2026-09-23', '2026-09-23T07:00:00.000Z'],
    GO8529: ['2026-09-23', '2026-09-23T07:00:00.000Z'],
    GO8455: ['2026-09-24', '2026-09-24T04:00:00.000Z'],
    GO8574: ['2026-09-25', '2026-09-25T11:00:00.000Z'], // the capture day itself, 9:00 pm AEST: still open at 01:00 UTC
    GO8554: ['2026-09-28', '2026-09-28T04:00:00.000Z'],
    GO7926: ['2026-09-28', '2026-09-28T04:00:00.000Z'],
    GO8603: ['2026-09-30', '2026-09-30T07:00:00.000Z'],
    GO8611: ['2026-10-06', '2026-10-06T03:00:00.000Z'], // 2:00 pm AEDT, UTC+11
    GO8616: ['2026-10-14', '2026-10-14T12:59:00.000Z'], // 11:59 pm AEDT
    GO8622: ['2026-11-02', '2026-11-02T01:00:00.000Z'], // 12:00 pm is noon
    GO8201: [null, null], // "Ongoing"
  });
});

test('the total amount available is kept as published; rounds that state none, or only a per-grant range, have no value', () => {
  assert.equal(grant('GO8603').value_text, '$2,500,000.00');
  assert.equal(grant('GO8611').value_text, '$4,500,000.00');
  assert.equal(grant('GO8622').value_text, '$22,800,000.00');
  assert.equal(grant('GO8616').value_text, null, 'an Estimated Grant Value range is not a total');
  assert.equal(grant('GO8530').value_text, null);
});

test('a title with an entity, a non-breaking space and a line break comes out clean', () => {
  const women = grant('GO8611');
  assert.equal(women.title, "Women's Leadership & Development Program – 2026-27");
  assert.equal(women.summary, "The Women's Leadership and Development Program funds projects that improve women's economic security and leadership. Projects may run for up to three years.");
  assert.equal(women.buyer, 'Department of the Prime Minister and Cabinet');
  assert.equal(women.listing_url, PAGE_2_URL);
});

test('GrantConnect category codes are not UNSPSC: the category is the name alone', () => {
  assert.ok(grants.every((record) => record.category === null));
  assert.equal(grant('GO8455').category_name, 'Carers of People with Disabilities');
  assert.equal(grant('GO8574').notice_type, 'Closed Non-competitive');
  assert.equal(grant('GO8201').published_date, '2026-03-03');
});

test('every record links to the live full-details page and the live list page, never the fixture server', () => {
  for (const record of grants) {
    assert.match(record.url, /^https:\/\/www\.grants\.gov\.au\/Go\/Show\?GoUuid=[0-9a-f-]{36}$/);
    assert.ok(record.listing_url === LIST_URL || record.listing_url === PAGE_2_URL);
  }
  assert.equal(new Set(grants.map((record) => record.url)).size, grants.length);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a list answering 500 fails the source with a one-line diagnosis naming the list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${LIST_URL} after 1 attempt`);
});

test('a list answering 200 with a page that is not the grant list fails the source instead of reporting zero rounds', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'grantconnect-login-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, source.id));
  await writeFile(join(root, source.id, 'login.html'), '<!DOCTYPE html><html><body><h1>Login</h1><form action="/Account/Login"></form></body></html>');
  const meta = { source: source.id, captured_at: '2026-09-25T01:00:00Z', provenance: 'test: a login page in place of the list', files: [{ file: 'login.html', url: LIST_URL }] };
  await writeFile(join(root, source.id, '_meta.json'), JSON.stringify(meta));
  const login = await crawlOnFixtures(source, { root });
  assert.equal(login.failed, true);
  assert.match(login.diagnosis ?? '', /not a GrantConnect grant opportunity list/);
  assert.ok(login.diagnosis?.includes(LIST_URL), login.diagnosis ?? 'no diagnosis');
});

test('the licence is CC BY 3.0 AU, as the GrantConnect footer states', () => {
  assert.match(source.licence, /CC BY 3\.0 AU/);
  assert.deepEqual(source.kinds, ['grant']);
});
