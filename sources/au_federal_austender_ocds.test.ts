import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import source, { austenderOcdsOptions } from './au_federal_austender_ocds.ts';
import { mapOcdsRelease, nextPageUrl, ocdsReleasePackageRoute, type OcdsReleaseOptions } from './_platforms/ocds.ts';
import type { Fetched } from './_contract/define-source.ts';
import { AwardRecord } from './_contract/records.ts';
import { FIXTURES_ROOT, readFixtureMeta } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const WINDOW_PATH = '/ocds/findByDates/contractLastModified/2026-09-11T01:00:00Z/2026-09-25T01:00:00Z';
const PAGE_2_PATH = `${WINDOW_PATH}?cursor=eyJwIjoyLCJzIjoiY29udHJhY3RMYXN0TW9kaWZpZWQifQ`;
const PAGE_3_PATH = `${WINDOW_PATH}?cursor=eyJwIjozLCJzIjoiY29udHJhY3RMYXN0TW9kaWZpZWQifQ`;

let firstRun: Promise<FixtureCrawl> | undefined;
/** One crawl of the fixtures as a first run (no previous success), shared by the tests that read its records. */
function crawlFirstRun(): Promise<FixtureCrawl> {
  firstRun ??= crawlOnFixtures(source);
  return firstRun;
}

function recordsOf(crawl: FixtureCrawl, contractId: string): AwardRecord[] {
  return crawl.records.filter((record): record is AwardRecord => record.record_type === 'award' && record.contract_id === contractId);
}

describe('au_federal_austender_ocds on its fixtures', () => {
  test('a first run asks for the last 14 days up to the clock, follows every cursor and stops at the empty one', async () => {
    const crawl = await crawlFirstRun();
    assert.deepEqual(
      crawl.requests.map((request) => [request.path, request.status]),
      [
        ['/robots.txt', 404],
        [WINDOW_PATH, 200],
        [PAGE_2_PATH, 200],
        [PAGE_3_PATH, 200],
      ],
    );
    assert.ok(crawl.requests.every((request) => !/[?&]cursor=$/.test(request.path)), 'the empty cursor was requested');
    assert.equal(crawl.pages, 3);
    assert.equal(crawl.failed, false);
  });

  test('the last page really ends with an empty cursor that the server answers with 502', async () => {
    const lastPage = JSON.parse(await readFile(join(FIXTURES_ROOT, source.id, 'page-3.json'), 'utf8')) as { links: { next: string } };
    assert.equal(lastPage.links.next, `https://api.tenders.gov.au${WINDOW_PATH}?cursor=`);
    const meta = await readFixtureMeta(source.id);
    const trap = meta.files.find((file) => file.url === lastPage.links.next);
    assert.equal(trap?.status, 502);
    assert.deepEqual(JSON.parse(await readFile(join(FIXTURES_ROOT, source.id, trap.file ?? ''), 'utf8')), { message: 'Internal server error' });
  });

  test('a later run reaches back 24 hours before the last success', async () => {
    const crawl = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-24T01:30:12.345Z') });
    assert.equal(crawl.requests[1]?.path, '/ocds/findByDates/contractLastModified/2026-09-23T01:30:12Z/2026-09-25T01:00:00Z');
    assert.equal(crawl.requests.length, 4, 'robots.txt and three pages');
    assert.equal(crawl.records.length, 13);
  });

  test('every release becomes a valid award record', async () => {
    const crawl = await crawlFirstRun();
    assert.deepEqual(crawl.invalid, []);
    assert.equal(crawl.records.length, 13);
    for (const record of crawl.records) AwardRecord.parse(record);
  });

  test('a release maps to an exact record: procuringEntity buyer, spaced ABN, string amount, AEST midnights as Sydney dates', async () => {
    const [record] = recordsOf(await crawlFirstRun(), 'CN4187301');
    assert.deepEqual(record, {
      record_type: 'award',
      ocid: 'prod-af8707548fd061a2efc043c4e595a84a',
      release_id: 'prod-af8707548fd061a2efc043c4e595a84a-a5457c4069b8313ad3b54feec8cd4a3b',
      release_date: '2026-09-17T03:41:12Z',
      release_tag: 'contract',
      contract_id: 'CN4187301',
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU',
      buyer: 'Department of Home Affairs',
      buyer_id: 'e04d5150c44b5fd915d1530d1a56a05a',
      supplier: 'Harbourline Data Services Pty Ltd',
      supplier_abn: '53614776007',
      supplier_id: 'aede39b561470afa781e8d5981831954',
      title: 'Software maintenance and support',
      description: 'Annual maintenance and support of the visa processing data platform',
      value_amount: '245300.00',
      value_currency: 'AUD',
      awarded_date: '2026-09-15', // dateSigned 2026-09-14T14:00:00Z
      start_date: '2026-09-15',
      end_date: '2027-09-15',
      categories: ['81112200'],
      procurement_method: 'open',
      url: 'https://api.tenders.gov.au/ocds/findById/CN4187301',
    });
  });

  test('a multi-item contract keeps both UNSPSC codes and reads its AEDT end date on the Sydney day', async () => {
    const [record] = recordsOf(await crawlFirstRun(), 'CN4179950');
    assert.deepEqual(
      {
        buyer: record?.buyer,
        supplier: record?.supplier,
        supplier_abn: record?.supplier_abn,
        value_amount: record?.value_amount,
        value_currency: record?.value_currency,
        awarded_date: record?.awarded_date,
        start_date: record?.start_date,
        end_date: record?.end_date,
        categories: record?.categories,
        procurement_method: record?.procurement_method,
      },
      {
        buyer: 'Department of Health, Disability and Ageing',
        supplier: 'Ridgeway Clinical Supplies Pty Ltd',
        supplier_abn: '27163094413',
        value_amount: '88410.50',
        value_currency: 'AUD',
        awarded_date: '2026-08-31', // 2026-08-30T14:00:00Z, AEST
        start_date: '2026-08-31',
        end_date: '2027-02-28', // 2027-02-27T13:00:00Z, AEDT
        categories: ['42132200', '42131600'],
        procurement_method: 'selective',
      },
    );
  });

  test('amendment releases are all kept, chained, each at the value the contract then stood at', async () => {
    const crawl = await crawlFirstRun();
    const chain = (contractId: string) =>
      recordsOf(crawl, contractId).map((record) => [record.release_tag, record.release_id, record.amendment_id, record.amends_release_id, record.value_amount]);
    const bom = 'prod-5c2eb784acc790d0c656e660a9db1401';
    assert.deepEqual(chain('CN4112870'), [
      ['contract', `${bom}-d7004e54d331ef92167e16a644d70f78`, null, null, '1200000.00'],
      ['contractAmendment', `${bom}-9513571d84621441c38b4093fb6ab946`, 'CN4112870-A1', `${bom}-d7004e54d331ef92167e16a644d70f78`, '1350000.00'],
      ['contractAmendment', `${bom}-674cadb2f25d2ba5ffbdb7eeff5f64c2`, 'CN4112870-A2', `${bom}-9513571d84621441c38b4093fb6ab946`, '1425500.00'],
    ]);
    const ato = 'prod-c522a4e37716047ccc203869714ec8e8';
    assert.deepEqual(chain('CN4098842'), [
      ['contract', `${ato}-02f2fae94193b862208553ec5600457d`, null, null, '310000.00'],
      ['contractAmendment', `${ato}-a38182fddaf5bee54674dcae9eb12320`, 'CN4098842-A1', `${ato}-02f2fae94193b862208553ec5600457d`, '362000.00'],
    ]);
    // The extension moved the end from 2026-06-29T14:00:00Z (AEST) to 2026-12-30T13:00:00Z (AEDT).
    assert.deepEqual(recordsOf(crawl, 'CN4098842').map((record) => record.end_date), ['2026-06-30', '2026-12-31']);
  });

  test('an EXEMPTUUID supplier has its party id and no ABN', async () => {
    const [record] = recordsOf(await crawlFirstRun(), 'CN4190412');
    assert.equal(record?.supplier, 'Kestrel Freight Forwarding GmbH');
    assert.equal(record?.supplier_id, 'EXEMPTUUID-0bf8c0543c989ea0c83aec491c4020fc');
    assert.equal(record?.supplier_abn, null);
  });

  test("Defence's own ABN in the supplier field is dropped with a warning, the supplier kept by name", async () => {
    const crawl = await crawlFirstRun();
    const [record] = recordsOf(crawl, 'CN4176255');
    assert.equal(record?.buyer, 'Department of Defence');
    assert.equal(record?.supplier, 'Tasman Field Catering Pty Ltd');
    assert.equal(record?.supplier_abn, null);
    assert.equal(crawl.warnings.length, 1);
    assert.match(crawl.warnings[0] ?? '', /^https:\/\/api\.tenders\.gov\.au\/ocds\/.*Tasman Field Catering Pty Ltd carries agency ABN 68706814312/);
  });

  test('awarded dates span 2025 and 2026, the years the store partitions by', async () => {
    const crawl = await crawlFirstRun();
    const years = new Set(crawl.records.map((record) => (record.record_type === 'award' ? record.awarded_date?.slice(0, 4) : undefined)));
    assert.deepEqual([...years].sort(), ['2025', '2026']);
  });

  test('a failing API fails the source with a one-line diagnosis naming the public URL', async () => {
    const crawl = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(crawl.failed, true);
    assert.deepEqual(crawl.records, []);
    const diagnosis = crawl.diagnosis ?? '';
    assert.match(diagnosis, /\bHTTP 500\b/);
    assert.ok(diagnosis.includes(`https://api.tenders.gov.au${WINDOW_PATH}`), diagnosis);
    assert.doesNotMatch(diagnosis, /\n|127\.0\.0\.1/);
  });
});

/** A release shaped as AusTender publishes one, for the family's mapping tests. */
function austenderRelease() {
  const ocid = 'prod-0123456789abcdef0123456789abcdef';
  return {
    ocid,
    id: `${ocid}-fedcba9876543210fedcba9876543210`,
    date: '2026-01-12T02:00:00Z',
    initiationType: 'tender',
    language: 'EN',
    tag: ['contract'],
    parties: [
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', name: ' Department of  Finance ', roles: ['procuringEntity'] },
      {
        id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        name: 'Wattle Cleaning Co Pty Ltd',
        additionalIdentifiers: [{ id: '83 127 449 291', scheme: 'AU-ABN' }],
        roles: ['supplier'],
      },
    ],
    awards: [{ id: 'CN5000001', suppliers: [{ id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', name: 'Wattle Cleaning Co Pty Ltd' }] }],
    contracts: [
      {
        id: 'CN5000001',
        awardID: 'CN5000001',
        dateSigned: '2025-12-21T13:00:00Z',
        title: 'Cleaning services',
        description: 'Office cleaning, Canberra',
        items: [
          { id: '1', classification: { scheme: 'UNSPSC', id: '76111500', description: 'General building and office cleaning and maintenance services' } },
          { id: '2', classification: { scheme: 'CPV', id: '90910000', description: 'Cleaning services' } },
        ],
        period: { startDate: '2025-12-31T13:00:00Z', endDate: '2026-06-30T14:00:00Z' },
        value: { currency: 'AUD', amount: '14487.00' },
        status: 'active',
      },
    ],
    tender: { id: 'CN5000001', procurementMethod: 'limited', procurementMethodDetails: 'Limited tender' },
  };
}

describe('OCDS family mapping', () => {
  test('maps an AusTender release with the calendar dates of Canberra midnights, across a year boundary', () => {
    const { records, warnings } = mapOcdsRelease(austenderRelease(), austenderOcdsOptions);
    assert.deepEqual(warnings, []);
    assert.deepEqual(records, [
      {
        record_type: 'award',
        ocid: 'prod-0123456789abcdef0123456789abcdef',
        release_id: 'prod-0123456789abcdef0123456789abcdef-fedcba9876543210fedcba9876543210',
        release_date: '2026-01-12T02:00:00Z',
        release_tag: 'contract',
        contract_id: 'CN5000001',
        amendment_id: null,
        amends_release_id: null,
        jurisdiction: 'AU',
        buyer: 'Department of Finance',
        buyer_id: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        supplier: 'Wattle Cleaning Co Pty Ltd',
        supplier_abn: '83127449291',
        supplier_id: 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        title: 'Cleaning services',
        description: 'Office cleaning, Canberra',
        value_amount: '14487.00',
        value_currency: 'AUD',
        awarded_date: '2025-12-22',
        start_date: '2026-01-01', // 2025-12-31T13:00:00Z: the UTC date would file it under the wrong year
        end_date: '2026-07-01',
        categories: ['76111500'],
        procurement_method: 'limited',
        url: 'https://api.tenders.gov.au/ocds/findById/CN5000001',
      },
    ]);
    assert.equal(AwardRecord.safeParse(records[0]).success, true);
  });

  test("a supplier carrying the buyer's own ABN is recorded without one", () => {
    const release = austenderRelease();
    release.parties[0] = { ...release.parties[0]!, additionalIdentifiers: [{ id: '83127449291', scheme: 'AU-ABN' }] } as (typeof release.parties)[0];
    const { records, warnings } = mapOcdsRelease(release, austenderOcdsOptions);
    assert.equal(records[0]?.supplier_abn, null);
    assert.equal(records[0]?.supplier, 'Wattle Cleaning Co Pty Ltd');
    assert.deepEqual(warnings, [`release ${release.id}: supplier Wattle Cleaning Co Pty Ltd carries agency ABN 83127449291; recorded without an ABN`]);
  });

  test('an ABN that is not 11 digits is dropped with a warning', () => {
    const release = austenderRelease();
    release.parties[1]!.additionalIdentifiers = [{ id: '83 127 449', scheme: 'AU-ABN' }];
    const { records, warnings } = mapOcdsRelease(release, austenderOcdsOptions);
    assert.equal(records[0]?.supplier_abn, null);
    assert.match(warnings[0] ?? '', /ABN "83 127 449", which is not 11 digits/);
  });

  test('an amendment release takes the amendment whose releaseID is its own, else the latest listed', () => {
    const release = { ...austenderRelease(), tag: ['contractAmendment'] };
    const amendments = [
      { id: 'CN5000001-A1', releaseID: 'r-a1', amendsReleaseID: 'r-original' },
      { id: 'CN5000001-A2', releaseID: release.id, amendsReleaseID: 'r-a1' },
      { id: 'CN5000001-A3', releaseID: 'r-a3', amendsReleaseID: release.id },
    ];
    const own = mapOcdsRelease({ ...release, contracts: [{ ...release.contracts[0]!, amendments }] }, austenderOcdsOptions).records[0];
    assert.deepEqual([own?.amendment_id, own?.amends_release_id, own?.release_tag], ['CN5000001-A2', 'r-a1', 'contractAmendment']);
    const unlinked = amendments.map(({ id, amendsReleaseID }) => ({ id, amendsReleaseID }));
    const latest = mapOcdsRelease({ ...release, contracts: [{ ...release.contracts[0]!, amendments: unlinked }] }, austenderOcdsOptions).records[0];
    assert.deepEqual([latest?.amendment_id, latest?.amends_release_id], ['CN5000001-A3', release.id]);
  });

  test('a release without the buyer role yields a record the schema rejects, so it is counted as invalid', () => {
    const release = austenderRelease();
    release.parties[0]!.roles = ['tenderer'];
    const [record] = mapOcdsRelease(release, austenderOcdsOptions).records;
    const parsed = AwardRecord.safeParse(record);
    assert.equal(parsed.success, false);
    assert.deepEqual(parsed.error?.issues.map((issue) => issue.path.join('.')), ['buyer']);
  });

  test('a standard OCDS publisher: buyer role, numeric amount, award date, no ABN scheme', () => {
    const standard: OcdsReleaseOptions = {
      jurisdiction: 'NZ',
      buyerRole: 'buyer',
      timeZone: 'Pacific/Auckland',
      supplierAbnScheme: null,
      agencyAbns: [],
      categoryScheme: 'UNSPSC',
      contractUrl: (contractId) => `https://ocds.example.org/contracts/${contractId}`,
    };
    const release = austenderRelease();
    release.parties[0]!.roles = ['buyer'];
    const { dateSigned: _dateSigned, ...unsigned } = release.contracts[0]!;
    const [record] = mapOcdsRelease(
      {
        ...release,
        awards: [{ ...release.awards[0]!, date: '2026-02-10T11:30:00Z' }],
        contracts: [{ ...unsigned, id: 42, awardID: 'CN5000001', value: { currency: 'NZD', amount: 9800.5 } }],
      },
      standard,
    ).records;
    assert.deepEqual(
      [record?.buyer, record?.contract_id, record?.value_amount, record?.value_currency, record?.awarded_date, record?.supplier_abn, record?.url],
      ['Department of Finance', '42', '9800.5', 'NZD', '2026-02-11', null, 'https://ocds.example.org/contracts/42'],
    );
  });

  test('an unreadable release is reported as invalid, not a crash', () => {
    const { records, warnings, unreadable } = mapOcdsRelease({ id: 'prod-x-y', tag: ['contract'] }, austenderOcdsOptions);
    assert.deepEqual(records, []);
    assert.deepEqual(warnings, []);
    assert.match(unreadable ?? '', /^unreadable OCDS release prod-x-y: ocid: /);
  });

  test('the next page is absent, null, empty or an empty cursor at the end', () => {
    const base = 'https://api.tenders.gov.au/ocds/findByDates/contractLastModified/2026-09-11T01:00:00Z/2026-09-25T01:00:00Z';
    assert.equal(nextPageUrl({}, 'cursor'), null);
    assert.equal(nextPageUrl({ links: null }, 'cursor'), null);
    assert.equal(nextPageUrl({ links: { next: null } }, 'cursor'), null);
    assert.equal(nextPageUrl({ links: { next: '' } }, 'cursor'), null);
    assert.equal(nextPageUrl({ links: { next: `${base}?cursor=` } }, 'cursor'), null);
    assert.equal(nextPageUrl({ links: { next: `${base}?cursor=abc` } }, 'cursor'), `${base}?cursor=abc`);
  });

  test('a page answering with an API error body or no releases fails with a readable message', async () => {
    const route = ocdsReleasePackageRoute(austenderOcdsOptions);
    const pageAnswering = (body: unknown) =>
      ({ json: async () => body, emit: () => assert.fail('nothing to emit'), warn: () => {}, enqueue: async () => assert.fail('nothing to enqueue') }) as unknown as Fetched;
    await assert.rejects(route(pageAnswering({ errorCode: 404, message: 'Not Found' })), { message: 'OCDS API error 404: Not Found' });
    await assert.rejects(route(pageAnswering({ uri: 'x', links: {} })), { message: 'not an OCDS release package: releases: Invalid input: expected array, received undefined' });
  });
});
