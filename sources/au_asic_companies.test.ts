import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import source, { REGISTER_COLUMNS, mapRegisterRow } from './au_asic_companies.ts';
import { ProblemTally } from './_platforms/data_gov_au.ts';
import { CompanyRecord } from './_contract/records.ts';
import { openStore } from '../data/store.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';

const DATASET = '7b8656f9-606d-4337-af29-66b89b2eeefb';
const RESOURCE = '5c3914e6-413e-4a2c-b890-bf8efe3eabf2';
const RESOURCE_PAGE = `https://data.gov.au/data/dataset/asic-companies/resource/${RESOURCE}`;
const FILE_PATH = `/data/dataset/${DATASET}/resource/${RESOURCE}/download/company_202609.csv`;
const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };

let crawl: FixtureCrawl;
let rows: CompanyRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  rows = crawl.records.filter((record): record is CompanyRecord => record.record_type === 'company');
});

describe('au_asic_companies on its fixtures', () => {
  test('reads robots.txt, the dataset page, the current CSV resource\'s page, then downloads the file', () => {
    assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
    assert.deepEqual(crawl.requests.map((request) => [request.path, request.status]), [
      ['/robots.txt', 200],
      [`/data/dataset/${DATASET}`, 200],
      [`/data/dataset/asic-companies/resource/${RESOURCE}`, 200],
      [FILE_PATH, 200],
    ]);
    assert.equal(crawl.requests.some((request) => request.conditional), false, 'a first run has no validators to send');
    assert.deepEqual(crawl.validators, [{
      url: `https://data.gov.au${FILE_PATH}`,
      etag: '"5c3914e6-20260922"',
      last_modified: 'Tue, 22 Sep 2026 03:00:00 GMT',
      fetched_at: '2026-09-25T01:00:00.000Z',
    }]);
  });

  test('every data row is one record (the BOM-prefixed header is not); none invalid, no warnings', () => {
    assert.equal(rows.length, 12);
    assert.deepEqual(crawl.invalid, []);
    assert.deepEqual(crawl.warnings, []);
    for (const row of rows) CompanyRecord.parse(row);
    assert.ok(rows.every((row) => !row.name.includes('\ufeff') && !row.name.startsWith('Company')));
  });

  test('a row maps to an exact record: ACN with leading zeros, DD/MM/YYYY dates, previous state, Canberra file date', () => {
    assert.deepEqual(rows.find((row) => row.name === 'HARBOURSIDE CIVIL PTY LTD'), {
      record_type: 'company',
      acn: '004085616',
      name: 'HARBOURSIDE CIVIL PTY LTD',
      is_current_name: true,
      current_name: null,
      current_name_start_date: null,
      type: 'APTY',
      class: 'LMSH',
      sub_class: 'PROP',
      status: 'REGD',
      registered_date: '1974-05-02',
      deregistered_date: null,
      previous_state: 'NSW',
      state_registration_number: 'C0012345X',
      abn: '53004085616',
      as_of: '2026-09-22', // Last-Modified Tue, 22 Sep 2026 03:00 GMT is 13:00 that day in Canberra
      url: RESOURCE_PAGE,
    });
  });

  test('the real rows read as published: a blank "Modified since last report", a former-name row naming its current name', () => {
    const christensen = rows.find((row) => row.name === 'CHRISTENSEN & ASSOCIATES PTY LTD');
    assert.deepEqual(
      [christensen?.acn, christensen?.sub_class, christensen?.registered_date, christensen?.previous_state, christensen?.state_registration_number, christensen?.is_current_name, christensen?.abn],
      ['000000028', 'PSTC', '1987-09-15', 'NSW', '40398926', true, '91000000028'],
    );
    const lovini = rows.find((row) => row.name === 'LOVINI HOLDINGS PTY LTD');
    assert.deepEqual(
      [lovini?.acn, lovini?.is_current_name, lovini?.current_name, lovini?.current_name_start_date, lovini?.registered_date, lovini?.abn],
      ['000000019', false, 'MONAKA PTY LTD', '2016-01-28', '1990-01-08', '89000000019'],
    );
  });

  test('a renamed company\'s former-name row points at its current name and when it took effect', () => {
    const former = rows.find((row) => row.name === 'KALBAR EARTHWORKS PTY LTD');
    assert.deepEqual(
      [former?.acn, former?.is_current_name, former?.current_name, former?.current_name_start_date],
      ['004085616', false, 'HARBOURSIDE CIVIL PTY LTD', '2019-03-04'],
    );
  });

  test('status codes, a deregistration date, a blank ABN, a non-ASCII name and odd spacing read as published', () => {
    const byName = new Map(rows.map((row) => [row.name, row]));
    assert.deepEqual(
      ['BRISBANE TRAFFIC SOLUTIONS PTY LTD', 'COASTAL MODULAR BUILDINGS PTY LTD', 'DARLING DOWNS HAULAGE PTY LTD', 'EYRE PENINSULA AQUACULTURE LTD'].map((name) => byName.get(name)?.status),
      ['DRGD', 'EXAD', 'SOFF', 'NOAC'],
    );
    const deregistered = byName.get('BRISBANE TRAFFIC SOLUTIONS PTY LTD');
    assert.deepEqual([deregistered?.acn, deregistered?.registered_date, deregistered?.deregistered_date], ['003124507', '1981-08-11', '2025-11-18']);
    assert.equal(byName.get('FAR NORTH SURVEYING PTY LTD')?.abn, null);
    assert.equal(byName.get('CAFÉ ROMA PTY LTD')?.acn, '635412092');
    assert.ok(byName.has('H & R CONSULTING PTY. LTD.'), 'the double space collapses');
  });

  test('a failing portal fails the source with a one-line diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.deepEqual(failed.records, []);
    assert.equal(failed.diagnosis, `HTTP 500 from GET https://data.gov.au/data/dataset/${DATASET} after 1 attempt`);
  });

  test('a file whose header is not the 15 columns fails the whole snapshot, without a second download, rather than loading shifted columns', async () => {
    const root = await tempDir('asic-fixtures-');
    await cp(join(FIXTURES_ROOT, 'au_asic_companies'), join(root, 'au_asic_companies'), { recursive: true });
    const file = join(root, 'au_asic_companies', 'company_202609.csv');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Sub Class\t', ''));
    const broken = await crawlOnFixtures(source, { root, politeness: { maxRetries: 2 } });
    assert.equal(broken.failed, true);
    assert.equal(broken.requests.filter((request) => request.path === FILE_PATH).length, 1, 'a file that cannot be read is not downloaded again');
    assert.equal(broken.recordCount, 0);
    assert.match(broken.diagnosis ?? '', /^the register's header is not the 15 columns it used to have: Company Name \| ACN \| Type \| Class \| Status .* from GET https:\/\/data\.gov\.au\/data\/dataset\/asic-companies\/resource\/5c3914e6-[0-9a-f-]+ after 1 attempt; a snapshot is replaced only when every file is read$/);
  });

  test('the nightly run folds a renamed company into one row per ACN with its former name and the status meaning', async () => {
    const dataDir = await tempDir('asic-nightly-');
    const { manifest, releaseDir } = await runNightly({ dataDir, fixtures: true, registry: [source], progress: quiet });
    assert.deepEqual([manifest.sources[0]?.status, manifest.sources[0]?.records, manifest.sources[0]?.new], ['ok', 12, 11]);
    const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
    try {
      const companies = await store.all<{ acn: string; name: string; former_names: string[]; name_start_date: string | null; status: string; status_meaning: string; abn: string | null; as_of: string }>(
        `SELECT acn, name, former_names, name_start_date::VARCHAR AS name_start_date, status, status_meaning, abn, as_of::VARCHAR AS as_of FROM companies ORDER BY acn`);
      assert.equal(companies.length, 11, 'twelve rows, eleven companies');
      assert.deepEqual(companies[0], {
        acn: '000000019', name: 'MONAKA PTY LTD', former_names: ['LOVINI HOLDINGS PTY LTD'], name_start_date: '2016-01-28', status: 'REGD', status_meaning: 'registered', abn: '89000000019', as_of: '2026-09-22',
      }, 'a former-name row alone gives the company its current name');
      assert.deepEqual(companies[2], {
        acn: '003124507', name: 'BRISBANE TRAFFIC SOLUTIONS PTY LTD', former_names: [], name_start_date: null, status: 'DRGD', status_meaning: 'deregistered', abn: '54003124507', as_of: '2026-09-22',
      });
      assert.deepEqual(companies[3], {
        acn: '004085616', name: 'HARBOURSIDE CIVIL PTY LTD', former_names: ['KALBAR EARTHWORKS PTY LTD'], name_start_date: '2019-03-04', status: 'REGD', status_meaning: 'registered', abn: '53004085616', as_of: '2026-09-22',
      });
      assert.deepEqual(companies.map((c) => c.status_meaning).filter((m, i, all) => all.indexOf(m) === i).sort(),
        ['deregistered', 'not active', 'registered', 'strike-off action in progress', 'under external administration']);
      const [registry] = await store.all<{ refresh: string; reference_count: number; tender_count: number }>(`SELECT refresh, reference_count, tender_count FROM sources`);
      assert.deepEqual(registry, { refresh: 'snapshot', reference_count: 11, tender_count: 0 });
    } finally {
      store.close();
    }
  });
});

describe('ASIC register rows', () => {
  const context = () => ({ asOf: '2026-09-22', url: RESOURCE_PAGE, problems: new ProblemTally(), lineNumber: 7 });
  const cells = (overrides: Partial<Record<(typeof REGISTER_COLUMNS)[number], string>>) =>
    REGISTER_COLUMNS.map((column) => overrides[column] ?? { 'Company Name': 'ACME PTY LTD', ACN: '000000019', Status: 'REGD' }[column as string] ?? '');

  test('a date that is not DD/MM/YYYY is kept as null and tallied once, never guessed', () => {
    const ctx = context();
    const record = mapRegisterRow(cells({ 'Date of Registration': '1974-05-02', 'Date of Deregistration': '31/02/2020' }), ctx);
    assert.deepEqual([record.registered_date, record.deregistered_date], [null, null]);
    const warnings: string[] = [];
    ctx.problems.report({ warn: (message: string) => warnings.push(message) } as never, 'file');
    assert.deepEqual(warnings, ['file: 2 dates that are not DD/MM/YYYY (kept as null), e.g. line 7 Date of Registration "1974-05-02"']);
  });

  test('an ACN that lost its leading zeros fails the schema instead of being padded', () => {
    const record = mapRegisterRow(cells({ ACN: '4085616' }), context());
    assert.deepEqual(CompanyRecord.safeParse(record).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`), ['acn: 9 digits (an ACN keeps its leading zeros)']);
  });

  test('a spaced ABN is read as its digits; the indicator is case-insensitive', () => {
    const record = mapRegisterRow(cells({ ABN: '53 004 085 616', 'Current Name Indicator': 'y' }), context());
    assert.deepEqual([record.abn, record.is_current_name], ['53004085616', true]);
  });
});
