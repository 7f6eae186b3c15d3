import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import source, { mapSdnRow, parseRemarks, remarkDates } from './au_ofac_sdn.ts';
import { SanctionRecord } from './_contract/records.ts';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';

let crawl: FixtureCrawl;
let rows: SanctionRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  rows = crawl.records.filter((record): record is SanctionRecord => record.record_type === 'sanction');
});

const CONTEXT = { asOf: '2026-09-25', url: 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/SDN.CSV' };

describe('au_ofac_sdn on the real SDN.CSV and ALT.CSV rows', () => {
  test('reads both files; every SDN row is a primary row and every ALT row an alias, none invalid', () => {
    assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
    assert.deepEqual(crawl.requests.map((request) => request.path).sort(), ['/api/PublicationPreview/exports/ALT.CSV', '/api/PublicationPreview/exports/SDN.CSV', '/robots.txt']);
    assert.deepEqual(crawl.invalid, []);
    assert.equal(rows.filter((row) => row.name_type === 'primary').length, 117);
    assert.equal(rows.filter((row) => row.name_type === 'alias').length, 96);
    for (const row of rows) SanctionRecord.parse(row);
  });

  test('an individual\'s row reads its dates of birth, place of birth and programmes out of the real remarks', () => {
    assert.deepEqual(rows.find((row) => row.entry_id === '2686' && row.name_type === 'primary'), {
      record_type: 'sanction',
      list_name: 'OFAC Specially Designated Nationals and Blocked Persons List',
      entry_id: '2686',
      name_type: 'primary',
      entity_type: 'person',
      name: 'NASRALLAH, Hasan',
      dates_of_birth: ['1960-08-31', '1953-08-31', '1955-08-31', '1958-08-31'],
      nationalities: [],
      countries: ['Lebanon'],
      programmes: ['SDGT', 'SYRIA'],
      listed_on: null,
      as_of: '2026-09-25',
      url: CONTEXT.url,
    });
    const zomor = rows.find((row) => row.entry_id === '2677' && row.name_type === 'primary');
    assert.deepEqual([zomor?.dates_of_birth, zomor?.nationalities, zomor?.countries], [['1947-04-19'], ['Egypt'], ['Egypt']]);
  });

  test('a blank type is an entity, a vessel a vessel; quoted a.k.a. and f.k.a. in remarks are weak aliases', () => {
    const bnc = rows.filter((row) => row.entry_id === '306');
    assert.deepEqual(bnc.map((row) => [row.name_type, row.entity_type, row.name]), [
      ['primary', 'organisation', 'BANCO NACIONAL DE CUBA'],
      ['weak_alias', 'organisation', 'BNC'],
      ['alias', null, 'NATIONAL BANK OF CUBA'],
    ]);
    assert.deepEqual(rows.filter((row) => row.entry_id === '4243').map((row) => [row.name_type, row.entity_type, row.name]), [
      ['primary', 'vessel', 'EBANO'],
      ['weak_alias', 'vessel', 'ANA I'],
      ['weak_alias', 'vessel', 'SAND SWAN'],
    ]);
    assert.deepEqual(rows.find((row) => row.entry_id === '4702')?.programmes, ['SDNTK', 'FTO', 'SDGT']);
  });

  test('a row of the wrong width is counted invalid, and the Ctrl-Z that ends the file is not a row', async () => {
    const root = await tempDir('ofac-fixtures-');
    await cp(join(FIXTURES_ROOT, 'au_ofac_sdn'), join(root, 'au_ofac_sdn'), { recursive: true });
    const file = join(root, 'au_ofac_sdn', 'sdn.csv');
    await writeFile(file, `${await readFile(file, 'utf8')}20003,"SHORT ROW LTD"\r\n\u001a`);
    const edited = await crawlOnFixtures(source, { root });
    assert.equal(edited.failed, false, edited.diagnosis ?? '');
    assert.deepEqual(edited.invalid.map((item) => item.problem), ['row 118: 2 fields where the file has 12, or no entity number']);
    assert.equal(edited.records.filter((record) => record.record_type === 'sanction' && record.name_type === 'primary').length, 117);
  });

  test('a row without a name names nobody', () => {
    assert.deepEqual(mapSdnRow(['36', '-0- ', '-0-', 'CUBA', '', '', '', '', '', '', '', ''], CONTEXT), []);
  });
});

describe('OFAC remarks', () => {
  test('dates as day, month, year, circa and a span of years', () => {
    assert.deepEqual(remarkDates('10 Dec 1948'), ['1948-12-10']);
    assert.deepEqual(remarkDates('Dec 1948'), ['1948-12']);
    assert.deepEqual(remarkDates('circa 1958'), ['1958']);
    assert.deepEqual(remarkDates('1957 to 1959'), ['1957', '1958', '1959']);
    assert.deepEqual(remarkDates('sometime'), []);
  });

  test('nationality, citizenship, places of birth and quoted aliases, each once', () => {
    assert.deepEqual(parseRemarks("DOB 1938; alt. DOB 1936; POB Najf Al Ashraf (Najaf), Iraq; citizen Iraq; nationality Iraq; a.k.a. 'X'; a.k.a. 'X'."), {
      datesOfBirth: ['1938', '1936'], nationalities: ['Iraq'], countries: ['Iraq'], weakAliases: ['X'],
    });
  });
});
