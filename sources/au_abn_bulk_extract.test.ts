import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import source, { forEachXmlEntry, readAbrXml } from './au_abn_bulk_extract.ts';
import { ProblemTally } from './_platforms/data_gov_au.ts';
import { AbnRecord } from './_contract/records.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

const DATASET = '5bd7fcab-e315-42cb-8daf-50b7efc2027e';
const PART_1 = '0ae4d427-6fa8-4d40-8e76-c6909b5a071b';
const PART_2 = '635fcb95-7864-4509-9fa7-a62a6e32b62d';

let crawl: FixtureCrawl;
let entities: AbnRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  entities = crawl.records.filter((record): record is AbnRecord => record.record_type === 'abn');
});

const byAbn = (abn: string) => entities.find((entity) => entity.abn === abn);

describe('au_abn_bulk_extract on its fixtures', () => {
  test('reads the dataset page, then each ZIP resource\'s page and file; the readme PDF is not fetched', () => {
    assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
    assert.deepEqual(crawl.requests.map((request) => [request.path, request.status]), [
      ['/robots.txt', 200],
      [`/data/dataset/${DATASET}`, 200],
      [`/data/dataset/abn-bulk-extract/resource/${PART_1}`, 200],
      [`/data/dataset/${DATASET}/resource/${PART_1}/download/public_split_1_10.zip`, 200],
      [`/data/dataset/abn-bulk-extract/resource/${PART_2}`, 200],
      [`/data/dataset/${DATASET}/resource/${PART_2}/download/public_split_11_20.zip`, 200],
    ]);
    assert.deepEqual(crawl.validators.map((v) => v.etag), ['"0ae4d427-20260923"', '"635fcb95-20260923"']);
  });

  test('both ZIPs stream into one record per ABR element, all valid', () => {
    assert.equal(entities.length, 20);
    assert.deepEqual(crawl.invalid, []);
    assert.deepEqual(crawl.warnings, []);
    for (const entity of entities) AbnRecord.parse(entity);
  });

  test('the real extract records map as published: a public company, its trading name, the extract date', () => {
    assert.deepEqual(byAbn('11000000948'), {
      record_type: 'abn',
      abn: '11000000948',
      abn_status: 'ACT',
      abn_status_from: '1999-11-01',
      entity_type_code: 'PUB',
      entity_type: 'Australian Public Company',
      individual: false,
      name: 'QBE INSURANCE (INTERNATIONAL) LTD',
      state: 'NSW',
      postcode: '2000',
      asic_number: '000000948',
      gst_status: 'ACT',
      gst_status_from: '2000-07-01',
      trading_names: ['QBE INSURANCE (INTERNATIONAL) LIMITED'],
      business_names: [],
      other_names: [],
      record_updated: '2018-02-16',
      as_of: '2026-09-23',
      url: 'https://abr.business.gov.au/ABN/View?id=11000000948',
    });
  });

  test('real records: one name per OtherEntity, repeated business names once, DGR names apart, an escaped ampersand', () => {
    const patrol = byAbn('11000013098');
    assert.equal(patrol?.name, 'SYDNEY NIGHT PATROL & INQUIRY CO PTY LTD');
    assert.deepEqual(patrol?.trading_names, ['SNP SECURITY']);
    assert.deepEqual(patrol?.other_names, ['SECURITY NETWORK PROTECTION']);
    assert.deepEqual(patrol?.business_names, [
      'BCD SECURITY ALARM MONITORING SERVICES', 'Certis Security Australia', 'FORSTER-TUNCURRY SECURITY SERVICE', 'PSI Corporate', 'PSI Corporate Security', 'SNP SECURITY', 'STREET BEAT SECURITY', 'Z.S.S SECURITY',
    ], 'SNP SECURITY is listed twice as a business name and kept once');
    const college = byAbn('11000047950');
    assert.deepEqual([college?.trading_names, college?.business_names], [['SYDNEY MISSIONARY & BIBLE COLLEGE'], ["SMBC's The Bridge"]], 'the DGR fund is not a name it trades under');
    const steel = byAbn('11000009496');
    assert.deepEqual([steel?.abn_status, steel?.gst_status, steel?.gst_status_from, steel?.other_names], ['CAN', 'NON', null, ['PIONEER STEEL PTY LTD (IN LIQUIDATION)']]);
  });

  test('real sole traders keep ABN, state and trading names; an empty <State /> is no state; no given or family name survives', () => {
    assert.deepEqual(
      ['11001032430', '11001572575', '11003615606', '11005538314'].map((abn) => [byAbn(abn)?.individual, byAbn(abn)?.name, byAbn(abn)?.state, byAbn(abn)?.postcode, byAbn(abn)?.trading_names]),
      [[true, null, 'WA', null, []], [true, null, 'NSW', null, ['WR LITT']], [true, null, null, null, ['Murley Construction']], [true, null, null, null, []]],
    );
    const values = crawl.records.flatMap((record) => Object.values(record).flat()).filter((value): value is string => typeof value === 'string');
    assert.ok(!values.some((value) => /JOHN MCLEOD|MCLEOD DUFF|WILLIAM RICHARD|ANDREW DOUGLAS|DOUGLAS MURLEY|SIEW LAN|LAN CHONG|6084|2646/.test(value)), 'no personal name or postcode is kept');
  });

  test('a company maps to an exact record: trading and business names, ASIC number with leading zeros, GST, extract date', () => {
    assert.deepEqual(byAbn('53004085616'), {
      record_type: 'abn',
      abn: '53004085616',
      abn_status: 'ACT',
      abn_status_from: '1999-11-01',
      entity_type_code: 'PRV',
      entity_type: 'Australian Private Company',
      individual: false,
      name: 'HARBOURSIDE CIVIL PTY LTD',
      state: 'NSW',
      postcode: '2000',
      asic_number: '004085616',
      gst_status: 'ACT',
      gst_status_from: '2000-07-01',
      trading_names: ['HARBOURSIDE CIVIL'],
      business_names: ['HARBOURSIDE EARTHWORKS'],
      other_names: [],
      record_updated: '2026-08-14',
      as_of: '2026-09-23',
      url: 'https://abr.business.gov.au/ABN/View?id=53004085616',
    });
  });

  test('an individual keeps its ABN, state and business names, never its given and family names or postcode', async () => {
    const soleTrader = byAbn('64312987660');
    assert.deepEqual(
      [soleTrader?.individual, soleTrader?.name, soleTrader?.postcode, soleTrader?.state, soleTrader?.business_names, soleTrader?.trading_names],
      [true, null, null, 'VIC', ['JANES PLUMBING'], ['J A CITIZEN PLUMBING']],
    );
    // The XML gives JANE ANNE CITIZEN (VIC 3043) and PETER JONES (NSW 2750): no field holds those names or postcodes.
    const values = crawl.records.flatMap((record) => Object.values(record).flat()).filter((value): value is string => typeof value === 'string');
    for (const personal of ['JANE', 'ANNE', 'CITIZEN', 'PETER', 'JONES', 'MS', 'MR', '3043', '2750']) assert.ok(!values.includes(personal), `${personal} is not kept`);
    assert.ok(!values.some((value) => /JANE ANNE|ANNE CITIZEN|PETER JONES/.test(value)), 'no full personal name is kept');
  });

  test('the schema refuses an individual that carries a name or a postcode', () => {
    const soleTrader = byAbn('64312987660')!;
    assert.equal(AbnRecord.safeParse({ ...soleTrader, name: 'JANE ANNE CITIZEN' }).success, false);
    assert.equal(AbnRecord.safeParse({ ...soleTrader, postcode: '3043' }).success, false);
  });

  test('cancelled ABNs keep their status date; "never registered for GST" has no date', () => {
    const cancelled = byAbn('54003124507');
    assert.deepEqual([cancelled?.abn_status, cancelled?.abn_status_from, cancelled?.gst_status, cancelled?.gst_status_from, cancelled?.name],
      ['CAN', '2025-11-18', 'CAN', '2025-11-18', 'BRISBANE TRAFFIC SOLUTIONS PTY LTD']);
    const neverGst = byAbn('72109554004');
    assert.deepEqual([neverGst?.abn_status, neverGst?.gst_status, neverGst?.gst_status_from, neverGst?.individual], ['CAN', 'NON', null, true]);
  });

  test('a trust\'s trading name, an escaped ampersand, an empty ASIC number, a DGR fund name and an other name', () => {
    assert.deepEqual([byAbn('51824753281')?.entity_type_code, byAbn('51824753281')?.trading_names, byAbn('51824753281')?.asic_number], ['DIT', ['NGUYEN PROPERTY GROUP'], null]);
    assert.equal(byAbn('83450127490')?.name, 'SMITH & PATEL PARTNERS');
    const charity = byAbn('14077615233');
    assert.deepEqual([charity?.trading_names, charity?.business_names, charity?.other_names], [[], [], []], 'a DGR fund name is not a name the entity trades under');
    assert.deepEqual(byAbn('90213478029')?.other_names, ['NR BOWLS']);
  });

  test('a failing portal fails the source with a one-line diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.equal(failed.diagnosis, `HTTP 500 from GET https://data.gov.au/data/dataset/${DATASET} after 1 attempt`);
  });
});

describe('ABR XML reading', () => {
  const read = async (xml: string) => {
    const records: AbnRecord[] = [];
    const problems = new ProblemTally();
    await readAbrXml(Readable.from([xml.slice(0, 37), xml.slice(37)]), { fallbackAsOf: () => '2026-09-20', emit: (record) => records.push(record), problems });
    return { records, problems };
  };

  test('a file without TransferInfo takes the fallback date; a record split across chunks reads whole', async () => {
    const { records } = await read('<Transfer><ABR recordLastUpdatedDate="20260101" replaced="N"><ABN status="ACT" ABNStatusFromDate="20100101">53004085616</ABN>'
      + '<EntityType><EntityTypeInd>PRV</EntityTypeInd><EntityTypeText>Australian Private Company</EntityTypeText></EntityType>'
      + '<MainEntity><NonIndividualName type="MN"><NonIndividualNameText>ACME PTY LTD</NonIndividualNameText></NonIndividualName></MainEntity></ABR></Transfer>');
    assert.deepEqual([records[0]?.name, records[0]?.as_of, records[0]?.state, records[0]?.record_updated], ['ACME PTY LTD', '2026-09-20', null, '2026-01-01']);
  });

  test('an ASIC number that is not nine digits is dropped and tallied', async () => {
    const { records, problems } = await read('<Transfer><ABR><ABN status="ACT">53004085616</ABN><EntityType><EntityTypeInd>PRV</EntityTypeInd></EntityType>'
      + '<ASICNumber ASICNumberType="undetermined">4085616</ASICNumber></ABR></Transfer>');
    assert.equal(records[0]?.asic_number, null);
    const warnings: string[] = [];
    problems.report({ warn: (message: string) => warnings.push(message) } as never, 'f.xml');
    assert.deepEqual(warnings, ['f.xml: 1 ASIC numbers that are not 9 digits (kept as null), e.g. ABN 53004085616 "4085616"']);
  });

  test('only .xml entries of a ZIP are read, one after the other', async () => {
    const names: string[] = [];
    await forEachXmlEntry(join(FIXTURES_ROOT, 'au_abn_bulk_extract', 'public_split_1_10.zip'), async (stream, name) => {
      names.push(name);
      const text = await new Promise<string>((resolve) => {
        let body = '';
        stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve(body));
      });
      assert.match(text, /<RecordCount>17<\/RecordCount>/);
    });
    assert.deepEqual(names, ['20260923_Public01.xml']);
    assert.ok((await readFile(join(FIXTURES_ROOT, 'au_abn_bulk_extract', 'public_split_1_10.zip'))).subarray(0, 2).toString() === 'PK');
  });
});
