import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import source, { austenderOcdsOptions } from './au_federal_austender_ocds.ts';
import { isBareReference, mapOcdsRelease, nextPageUrl, ocdsReleasePackageRoute, type OcdsReleaseOptions } from './_platforms/ocds.ts';
import type { Fetched } from './_contract/define-source.ts';
import { AwardRecord } from './_contract/records.ts';
import { FIXTURES_ROOT, readFixtureMeta } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const WINDOW_PATH = '/ocds/findByDates/contractLastModified/2026-09-11T01:00:00Z/2026-09-25T01:00:00Z';
// The cursors the captured pages link to: a window of 2025-06-20, whatever window the crawl asked for first.
const CAPTURED_WINDOW = '/ocds/findByDates/contractLastModified/2025-06-20T00:00:00Z/2025-06-20T23:59:59Z';
const PAGE_2_PATH = `${CAPTURED_WINDOW}?cursor=VeJZTMsoQW9ONHJKajh4WmNES1VOT05ERTJNVEkyTVNsRFRqUXhOakV5TmpFPWQ&prevcursor=initial&lastcursor=initial`;
const PAGE_3_PATH =
  `${CAPTURED_WINDOW}?cursor=VbwPGeYoQW9ONDZZS3BpYjhDS1VOT01UUTBOVEV6TWlsRFRqRTBORFV4TXpJPcAM` +
  '&prevcursor=VV9DtTg0QW9Od3E0TGIvZlFDTFVOT016Y3lNVFEzT0MxQk1UQXRRMDR6TnpJeE5EYzRMVUV4TUE9PdwL' +
  '&lastcursor=VZi0XiEwQW9Od3diL3YxLzhDTEVOT016ZzFOell4TVMxQk15eERUak00TlRjMk1URXRRVE09-Ao';

let firstRun: Promise<FixtureCrawl> | undefined;
/** One crawl of the fixtures as a first run (no previous success), shared by the tests that read its records. */
function crawlFirstRun(): Promise<FixtureCrawl> {
  firstRun ??= crawlOnFixtures(source);
  return firstRun;
}

function recordsOf(crawl: FixtureCrawl, contractId: string): AwardRecord[] {
  return crawl.records.filter((record): record is AwardRecord => record.record_type === 'award' && record.contract_id === contractId);
}

describe('au_federal_austender_ocds on its fixtures (real release packages)', () => {
  test('a first run asks for the last 14 days up to the clock, follows every cursor and stops at the empty next link', async () => {
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

  test('the last page ends with an empty next link, and the empty cursor the adapter never asks for answers 502', async () => {
    const lastPage = JSON.parse(await readFile(join(FIXTURES_ROOT, source.id, 'page-3.json'), 'utf8')) as { links: { next: string } };
    assert.equal(lastPage.links.next, '');
    const meta = await readFixtureMeta(source.id);
    const trap = meta.files.find((file) => file.url === `https://api.tenders.gov.au${CAPTURED_WINDOW}?cursor=`);
    assert.equal(trap?.status, 502);
    assert.deepEqual(JSON.parse(await readFile(join(FIXTURES_ROOT, source.id, trap.file ?? ''), 'utf8')), { message: 'Internal server error' });
  });

  test('a later run reaches back 24 hours before the last success', async () => {
    const crawl = await crawlOnFixtures(source, { lastSuccessAt: new Date('2026-09-24T01:30:12.345Z') });
    assert.equal(crawl.requests[1]?.path, '/ocds/findByDates/contractLastModified/2026-09-23T01:30:12Z/2026-09-25T01:00:00Z');
    assert.equal(crawl.requests.length, 4, 'robots.txt and three pages');
    assert.equal(crawl.records.length, 45);
  });

  test('every release becomes a valid award record', async () => {
    const crawl = await crawlFirstRun();
    assert.deepEqual(crawl.invalid, []);
    assert.equal(crawl.records.length, 45);
    for (const record of crawl.records) AwardRecord.parse(record);
  });

  test('a release maps to an exact record: procuringEntity buyer, ABN, string amount, AEST midnights as Sydney dates, the subject as title', async () => {
    const [record] = recordsOf(await crawlFirstRun(), 'CN4161551');
    assert.deepEqual(record, {
      record_type: 'award',
      ocid: 'prod-538a2b76057c4ceb835c9fa989056b98',
      release_id: 'prod-538a2b76057c4ceb835c9fa989056b98-6469ecac884f3aefacbd2830332ba26f',
      release_date: '2025-06-20T08:27:34Z',
      release_tag: 'contract',
      contract_id: 'CN4161551',
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU',
      buyer: 'Department of Foreign Affairs and Trade',
      buyer_id: '0eca64a1a9598906e1643767589ebde7',
      supplier: 'CyberCx Pty Ltd',
      supplier_abn: '90629363328',
      supplier_id: '3bfec5f8f8a24dec88fc5594fb3da009',
      title: 'Temporary Personnel Services', // contract.description; contract.title is the purchase-order number
      reference: '4600022869',
      description: 'Temporary Personnel Services',
      value_amount: '346856.40',
      value_currency: 'AUD',
      awarded_date: '2025-06-20', // dateSigned 2025-06-20T08:27:34Z, 18:27 in Canberra
      start_date: '2025-05-02', // 2025-05-01T14:00:00Z, AEST midnight
      end_date: '2025-06-30',
      categories: ['80111600'],
      procurement_method: 'open',
      url: 'https://api.tenders.gov.au/ocds/findById/CN4161551',
    });
  });

  test('a bare reference title gives way to the description; a title with words, or none, does not need to', async () => {
    const crawl = await crawlFirstRun();
    const titles = (contractId: string) => recordsOf(crawl, contractId).map((record) => [record.title, record.reference ?? null])[0];
    assert.deepEqual(titles('CN4161550'), ['General Waste Machinery', '4600023005']);
    assert.deepEqual(titles('CN4161304'), ['General building and office cleaning and maintenance service', 'CON/GAUCON/C05264/1']);
    assert.deepEqual(titles('CN4124169'), ['Cyber security risk assessment - M365', 'P0201519 - DM-21042-CTO - PA-2025-0140']);
    assert.deepEqual(titles('CN4124394'), ['Watersports Equipment', 'DNOMVU']);
    assert.deepEqual(titles('CN3629817'), ['AWM000076 (formerly 2019/0195)', null]);
    assert.deepEqual(titles('CN4124460'), ['Research - Project 15: Compliance of Mandatory and Voluntary Climate Disclosure Regime', null]);
  });

  test('amendment releases are all kept, each naming its number and the original it amends, at the value the contract then stood at', async () => {
    const crawl = await crawlFirstRun();
    const hitachi = 'prod-396a1b158bed4a1db78716632a4783fb';
    const original = `${hitachi}-4f8991c33c9d3fae97a3e59f5ca569d4`;
    assert.deepEqual(
      recordsOf(crawl, 'CN3707521').map((record) => [record.release_tag, record.release_id, record.release_date, record.amendment_id, record.amends_release_id, record.value_amount]),
      [
        ['contract', original, '2020-08-05T06:28:40Z', null, null, '4518226.69'],
        ['contractAmendment', `${hitachi}-fcbbab0e4cd3363e8c02cff9ec782903`, '2025-06-20T03:46:47Z', 'CN3707521-A1', original, '4615727.10'],
        ['contractAmendment', `${hitachi}-d537c83afe603fb4b5a3fe3ed3b691ec`, '2025-06-20T03:46:47Z', 'CN3707521-A2', original, '8702207.59'],
        ['contractAmendment', `${hitachi}-5f77198f45e036528e6f38ff9baf234d`, '2025-06-20T03:46:47Z', 'CN3707521-A3', original, '11534505.55'],
        ['contractAmendment', `${hitachi}-16ca96969d92307780bba652edc7a919`, '2025-06-20T03:46:47Z', 'CN3707521-A4', original, '13421890.34'],
        ['contractAmendment', `${hitachi}-5702d381cab73af69d3ee47296db8ee8`, '2025-06-20T03:46:47Z', 'CN3707521-A5', original, '17839422.35'],
        ['contractAmendment', `${hitachi}-ba0ecaccfd003756bb48869c15e6a279`, '2025-06-20T03:46:47Z', 'CN3707521-A6', original, '23605015.37'],
      ],
    );
  });

  test('an EXEMPTUUID supplier has its party id and no ABN', async () => {
    const [record] = recordsOf(await crawlFirstRun(), 'CN4161550');
    assert.equal(record?.supplier, 'TECRAM SARL');
    assert.equal(record?.supplier_id, 'EXEMPTUUID-3A2FD6DA967E3229A236E281A5DD03A0');
    assert.equal(record?.supplier_abn, null);
  });

  test("Defence's own ABN in the supplier field is dropped with a warning, the supplier kept by name", async () => {
    const crawl = await crawlFirstRun();
    const [record] = recordsOf(crawl, 'CN4124416');
    assert.equal(record?.buyer, 'Department of Defence');
    assert.equal(record?.supplier, 'AERO DEFENCE PTY LTD');
    assert.equal(record?.supplier_abn, null);
    assert.equal(crawl.warnings.length, 1);
    assert.match(crawl.warnings[0] ?? '', /^https:\/\/api\.tenders\.gov\.au\/ocds\/.*AERO DEFENCE PTY LTD carries agency ABN 68706814312/);
  });

  test('awarded dates reach back to 2013: a modified contract arrives with its whole chain, original included', async () => {
    const crawl = await crawlFirstRun();
    const years = new Set(crawl.records.map((record) => (record.record_type === 'award' ? record.awarded_date?.slice(0, 4) : undefined)));
    assert.deepEqual([...years].sort(), ['2013', '2019', '2020', '2025']);
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
        reference: null,
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
        reference: null,
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

  test('a title that is only a purchase-order number becomes the reference, and the description the title', () => {
    const release = austenderRelease();
    release.contracts[0] = { ...release.contracts[0]!, title: '4600023005', description: 'General Waste Machinery' };
    const [record] = mapOcdsRelease(release, austenderOcdsOptions).records;
    assert.deepEqual([record?.title, record?.reference, record?.description], ['General Waste Machinery', '4600023005', 'General Waste Machinery']);
  });

  test('a bare reference without a description stays the title', () => {
    const release = austenderRelease();
    const { description: _description, ...undescribed } = release.contracts[0]!;
    const [record] = mapOcdsRelease({ ...release, contracts: [{ ...undescribed, title: 'CON009228' }] }, austenderOcdsOptions).records;
    assert.deepEqual([record?.title, record?.reference, record?.description], ['CON009228', 'CON009228', null]);
  });

  test('bare references are digits, punctuation and capital codes; a title with a word is not one', () => {
    const bare = ['4600023005', '0000000100480', 'D366031187', 'CONTRACTS-005741-6', 'CON/GAUCON/C05264/1', '2024-25RFQ006', 'ABS2025.023', 'NACC_357',
      'STS2412-003CAX', 'DNOMVU', 'RFP-65MP-PM', 'P0201519 - DM-21042-CTO - PA-2025-0140'];
    assert.deepEqual(bare.filter((title) => !isBareReference(title)), []);
    const titles = ['AWM000076 (formerly 2019/0195)', 'Cleaning services', 'CHANCERY ELECTRICITY', 'ICT Hardware Maintenance', 'Hardware'];
    assert.deepEqual(titles.filter((title) => isBareReference(title)), []);
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
