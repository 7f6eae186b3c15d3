import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import source, { planWindow } from './au_federal_austender_app.ts';
import type { PlanRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const LIST_URL = 'https://www.tenders.gov.au/app/list';

let crawl: FixtureCrawl;
let plans: PlanRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  plans = crawl.records.filter((record): record is PlanRecord => record.record_type === 'plan');
});

function plan(planId: string): PlanRecord {
  const found = plans.find((record) => record.plan_id === planId);
  assert.ok(found, `no plan ${planId}`);
  return found;
}

test('both list pages are followed to every view page, and every plan is read', () => {
  assert.equal(crawl.failed, false);
  assert.equal(crawl.diagnosis, null);
  assert.deepEqual(crawl.invalid, []);
  assert.deepEqual(crawl.warnings, []);
  assert.equal(plans.length, 9);
  assert.deepEqual(
    crawl.requests.filter((request) => request.path.startsWith('/app/list')).map((request) => request.path),
    ['/app/list', '/app/list?page=2'],
  );
  assert.equal(crawl.requests.length, 12, 'robots.txt, two list pages and nine view pages');
  assert.ok(plans.every((record) => record.jurisdiction === 'AU' && record.tier === 'federal' && record.value_text === null));
});

test('a plan with a financial-year quarter: Q3 2026-27 is January to March 2027', () => {
  assert.deepEqual(plan('FIN-APP-2026-27-014'), {
    record_type: 'plan',
    plan_id: 'FIN-APP-2026-27-014',
    title: 'Whole-of-Australian-Government travel management services',
    buyer: 'Department of Finance',
    jurisdiction: 'AU',
    tier: 'federal',
    description: 'Replacement of the whole-of-government arrangement for travel booking and travel management services. The current arrangement expires in 2027.',
    category: '90121500',
    category_name: 'Travel agents',
    expected_period_text: 'Q3 2026-27',
    window_start: '2027-01-01',
    window_end: '2027-03-31',
    value_text: null,
    status: 'Current',
    released: false,
    withdrawn: false,
    published_date: '2026-07-01',
    url: 'https://www.tenders.gov.au/App/Show/1f0e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
  });
});

test('windows are computed only from periods that can be read; the rest keep the text and no dates', () => {
  const windows = Object.fromEntries(plans.map((record) => [record.plan_id, [record.expected_period_text, record.window_start, record.window_end]]));
  assert.deepEqual(windows, {
    'FIN-APP-2026-27-014': ['Q3 2026-27', '2027-01-01', '2027-03-31'],
    'ABS-APP-2026-09': ['October 2026', '2026-10-01', '2026-10-31'],
    'DFAT-APP-26-27-03': ['2026-27', '2026-07-01', '2027-06-30'],
    'HA-APP-2026-0041': ['Mid 2027', null, null],
    'DEF-APP-2026-112': ['Q2 2026-27', '2026-10-01', '2026-12-31'],
    'ATO-APP-2026-27-008': ['Q1 2027-28', '2027-07-01', '2027-09-30'],
    'BOM-APP-2026-19': ['Quarter 4, 2026-2027', '2027-04-01', '2027-06-30'],
    'CSIRO-APP-2026-05': ['December 2026', '2026-12-01', '2026-12-31'],
    'NLA-APP-2026-02': [null, null, null],
  });
});

test('the period reader: quarters, months and financial years; nothing ambiguous or malformed is guessed', () => {
  assert.deepEqual(planWindow('Q1 2026-27'), { start: '2026-07-01', end: '2026-09-30' });
  assert.deepEqual(planWindow('Q4 FY2026/27'), { start: '2027-04-01', end: '2027-06-30' });
  assert.deepEqual(planWindow('Q3 2026–27'), { start: '2027-01-01', end: '2027-03-31' }, 'an en dash reads like a hyphen');
  assert.deepEqual(planWindow('FY 2099-00'), { start: '2099-07-01', end: '2100-06-30' }, 'the century rolls over');
  assert.deepEqual(planWindow('Feb 2028'), { start: '2028-02-01', end: '2028-02-29' }, 'a leap-year February');
  for (const unreadable of ['Mid 2027', 'Q3 2027', 'Q3 2026-28', '2026', 'Q5 2026-27', 'Smarch 2026', 'To be advised', '', null]) {
    assert.equal(planWindow(unreadable), null, String(unreadable));
  }
});

test('status is kept as printed; released and withdrawn are flags read from it and from a linked ATM', () => {
  const flags = Object.fromEntries(plans.map((record) => [record.plan_id, [record.status, record.released, record.withdrawn]]));
  assert.deepEqual(flags, {
    'FIN-APP-2026-27-014': ['Current', false, false],
    'ABS-APP-2026-09': ['Released', true, false],
    'DFAT-APP-26-27-03': ['Current', false, false],
    'HA-APP-2026-0041': ['Current', false, false],
    'DEF-APP-2026-112': ['Withdrawn', false, true],
    'ATO-APP-2026-27-008': ['Current', false, false],
    'BOM-APP-2026-19': ['Current', false, false],
    'CSIRO-APP-2026-05': ['Current', true, false], // the status lags; the linked ATM says it went to market
    'NLA-APP-2026-02': ['Current', false, false],
  });
});

test('a title with an entity, a non-breaking space and a line break comes out clean; a blank category is null', () => {
  const ato = plan('ATO-APP-2026-27-008');
  assert.equal(ato.title, 'Data & analytics platform – managed services');
  assert.equal(ato.description, "Managed services for the ATO's data & analytics platform, including platform engineering and support.");
  assert.equal(ato.published_date, '2026-08-14');
  const nla = plan('NLA-APP-2026-02');
  assert.equal(nla.category, null);
  assert.equal(nla.category_name, null);
});

test('every record links to the live view page, never the fixture server', () => {
  for (const record of plans) assert.match(record.url, /^https:\/\/www\.tenders\.gov\.au\/App\/Show\/[0-9a-f-]{36}$/);
  assert.equal(new Set(plans.map((record) => record.plan_id)).size, plans.length);
  assert.ok(!JSON.stringify(crawl.records).includes('127.0.0.1'));
});

test('a list answering 500 fails the source with a one-line diagnosis naming the list', async () => {
  const broken = await crawlOnFixtures(source, { fault: 'http500' });
  assert.equal(broken.failed, true);
  assert.deepEqual(broken.records, []);
  assert.equal(broken.diagnosis, `HTTP 500 from GET ${LIST_URL} after 1 attempt`);
});

test('a list answering 200 with a sign-in page fails the source instead of reporting no planned procurements', async (t) => {
  const root = await mkdtemp(join(tmpdir(), `${source.id}-login-`));
  t.after(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, source.id));
  await writeFile(join(root, source.id, 'login.html'), '<!DOCTYPE html><html><body><h1>Log in</h1><form method="post"></form></body></html>');
  const meta = { source: source.id, captured_at: '2026-09-25T01:00:00Z', provenance: 'test: a sign-in page in place of the list', files: [{ file: 'login.html', url: LIST_URL }] };
  await writeFile(join(root, source.id, '_meta.json'), JSON.stringify(meta));
  const login = await crawlOnFixtures(source, { root });
  assert.equal(login.failed, true);
  assert.match(login.diagnosis ?? '', /not the AusTender planned procurements list/);
  assert.ok(login.diagnosis?.includes(LIST_URL), login.diagnosis ?? 'no diagnosis');
});

test('the caveats say the markup is unverified', () => {
  assert.match(source.caveats.join(' '), /unverified/);
  assert.match(source.licence, /CC BY 3\.0 AU/);
});
