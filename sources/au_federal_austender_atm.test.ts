import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source from './au_federal_austender_atm.ts';
import { DEFAULT_POLITENESS } from './_contract/define-source.ts';
import type { TenderRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const FEED_URL = 'https://www.tenders.gov.au/public_data/rss/rss.xml';
const WITHDRAWN_URL = 'https://www.tenders.gov.au/Atm/Show/9d0e1f2a-3b4c-4d5e-b6f7-b8c9d0e1f2a3';

let crawl: FixtureCrawl;
let tenders: TenderRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  tenders = crawl.records.filter((record): record is TenderRecord => record.record_type === 'tender');
});

function atm(reference: string): TenderRecord {
  const found = tenders.find((tender) => tender.reference === reference);
  assert.ok(found, `no record for ${reference}`);
  return found;
}

test('the feed leads to every detail page; the withdrawn ATM is a warning, not a failure', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.equal(crawl.records.length, 9);
  assert.deepEqual(
    tenders.map((tender) => tender.reference).sort(),
    ['ASD-COM-2026-35', 'BOM-ATM-2026-77', 'CASA 03/26-27', 'DCCEEW-2026-3310', 'DEFENCE-EOI-2026-02', 'DFAT-1110', 'HA-26-0219', 'PROC-9177459', 'SRA-2026-011'],
  );
  assert.equal(crawl.errors, 1);
  assert.equal(crawl.warnings.length, 1);
  assert.match(crawl.warnings[0] ?? '', /HTTP 404/);
  assert.ok(crawl.warnings[0]?.includes(WITHDRAWN_URL), crawl.warnings[0]);
  assert.equal(crawl.requests.length, 12, 'robots.txt, the feed and ten detail pages');
});

test('DFAT-1110 is read from the real full-details capture', () => {
  assert.deepEqual(atm('DFAT-1110'), {
    record_type: 'tender',
    kind: 'tender',
    title: 'PNG: Western Province Partnership Mid-Term Review',
    buyer: 'Department of Foreign Affairs and Trade - Australian Aid Program',
    reference: 'DFAT-1110',
    jurisdiction: 'AU',
    tier: 'federal',
    summary:
      "The Mid-Term Review (MTR) of the Western Province Partnership (WPP) will assess the Program's progress toward its intended outcomes, identify key achievements and challenges, and provide actionable recommendations to inform management decisions and program improvement and consolidation opportunities for the remainder of WPP Phase II. The MTR will assess the relevance, effectiveness, efficiency, sustainability and cross-cutting performance (including GEDSI, subnational governance and climate resilience) of WPP’s approach and delivery.",
    category: '80101600',
    category_name: 'Project management',
    notice_type: 'Request for Tender',
    published_date: '2026-09-02',
    closing_date: '2026-09-28',
    closing_at: '2026-09-28T00:00:00.000Z',
    value_text: '$220,000.00',
    url: 'https://www.tenders.gov.au/Atm/Show/a64467be-bb82-4228-85e7-5009fe1f162c',
    listing_url: FEED_URL,
  });
});

test('ASD-COM-2026-35: a value range, and description paragraphs joined by a space', () => {
  const asd = atm('ASD-COM-2026-35');
  assert.equal(asd.value_text, 'From $400,000.00 to $1,200,000.00');
  assert.equal(asd.summary, 'ASD intends to establish an arrangement with Training Provider(s) for the provision of the ASD Essentials training program. Training is delivered to staff in Canberra.');
  assert.equal(asd.category, '86000000');
  assert.equal(asd.category_name, 'Education and Training Services');
  assert.equal(asd.closing_at, '2026-09-28T05:00:00.000Z');
});

test('a title with an entity, a non-breaking space and ragged whitespace comes out clean', () => {
  const cleaning = atm('HA-26-0219');
  assert.equal(cleaning.title, 'Cleaning & Waste Services – Darwin Regional Office');
  assert.equal(cleaning.summary, 'Daily office cleaning and waste removal for the Darwin regional office.');
  assert.equal(cleaning.notice_type, 'Request for Quote');
  assert.equal(cleaning.buyer, 'Department of Home Affairs');
});

test('close times are ACT local time, on either side of the daylight-saving change of 4 October', () => {
  const closings = Object.fromEntries(tenders.map((tender) => [tender.reference, [tender.closing_date, tender.closing_at]]));
  assert.deepEqual(closings, {
    'HA-26-0219': ['2026-09-25', '2026-09-25T04:00:00.000Z'], // the capture day itself, AEST
    'CASA 03/26-27': ['2026-09-26', '2026-09-26T02:00:00.000Z'],
    'DFAT-1110': ['2026-09-28', '2026-09-28T00:00:00.000Z'],
    'ASD-COM-2026-35': ['2026-09-28', '2026-09-28T05:00:00.000Z'],
    'PROC-9177459': ['2026-09-29', '2026-09-29T07:00:00.000Z'],
    'BOM-ATM-2026-77': ['2026-10-02', '2026-10-02T04:00:00.000Z'], // 2:00 pm AEST, UTC+10
    'DCCEEW-2026-3310': ['2026-10-06', '2026-10-06T03:00:00.000Z'], // 2:00 pm AEDT, UTC+11
    'SRA-2026-011': ['2026-11-12', '2026-11-12T00:00:00.000Z'],
    'DEFENCE-EOI-2026-02': [null, null], // a standing register publishes no close date
  });
});

test('estimated values are kept as published, and absent when the page leaves them blank', () => {
  assert.equal(atm('DCCEEW-2026-3310').value_text, '$480,000.00 (inc GST)');
  assert.equal(atm('PROC-9177459').value_text, null);
  assert.equal(atm('SRA-2026-011').value_text, null);
  assert.equal(atm('PROC-9177459').category, '70140000');
  assert.equal(atm('PROC-9177459').published_date, '2026-08-07');
});

test('every record links to the live detail page and the live feed, never the fixture server', () => {
  for (const tender of tenders) {
    assert.match(tender.url, /^https:\/\/www\.tenders\.gov\.au\/Atm\/Show\/[0-9a-f-]{36}$/);
    assert.equal(tender.listing_url, FEED_URL);
  }
  assert.equal(new Set(tenders.map((tender) => tender.url)).size, tenders.length);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a feed answering 500 fails the source with a one-line diagnosis naming the feed', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.match(broken.diagnosis ?? '', /500/);
  assert.ok(broken.diagnosis?.includes(FEED_URL), broken.diagnosis ?? 'no diagnosis');
  assert.ok(!broken.diagnosis?.includes('\n'));
});

test('a feed answering 200 with an HTML page (a login or WAF page) fails the source instead of reporting zero ATMs', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'atm-waf-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, source.id));
  await writeFile(join(root, source.id, 'challenge.html'), '<!DOCTYPE html><html><body><p>Checking your browser…</p></body></html>');
  const meta = { source: source.id, captured_at: '2026-09-25T01:00:00Z', provenance: 'test: a WAF challenge in place of the feed', files: [{ file: 'challenge.html', url: FEED_URL }] };
  await writeFile(join(root, source.id, '_meta.json'), JSON.stringify(meta));
  const challenged = await crawlOnFixtures(source, { root });
  assert.equal(challenged.failed, true);
  assert.match(challenged.diagnosis ?? '', /not an RSS 2\.0 feed/);
  assert.ok(challenged.diagnosis?.includes(FEED_URL), challenged.diagnosis ?? 'no diagnosis');
});

test('politeness is the default, set field by field', () => {
  assert.deepEqual(source.politeness, DEFAULT_POLITENESS);
  assert.equal(source.origin, 'https://www.tenders.gov.au');
  assert.match(source.licence, /except|exclude/i, 'the ATM exclusion from CC BY 3.0 AU is stated');
});
