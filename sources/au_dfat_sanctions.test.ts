import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import source, { dfatDatesOfBirth } from './au_dfat_sanctions.ts';
import { SanctionRecord } from './_contract/records.ts';
import { FIXTURES_ROOT } from '../pipeline/fixture-meta.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';
import { tempDir } from '../test/helpers/temp-dir.ts';

const WORKBOOK = '/sites/default/files/Australian_Sanctions_Consolidated_List.xlsx';
let crawl: FixtureCrawl;
let rows: SanctionRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  rows = crawl.records.filter((record): record is SanctionRecord => record.record_type === 'sanction');
});

const of = (entryId: string) => rows.filter((row) => row.entry_id === entryId);

describe('au_dfat_sanctions on its workbook', () => {
  test('reads the Consolidated List page, then downloads the workbook it links; every row is a record', () => {
    assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
    assert.deepEqual(crawl.requests.map((request) => [request.path, request.status]), [
      ['/robots.txt', 404],
      ['/international-relations/security/sanctions/consolidated-list', 200],
      [WORKBOOK, 200],
    ]);
    assert.equal(rows.length, 19);
    assert.deepEqual(crawl.invalid, []);
    assert.deepEqual(crawl.warnings, []);
    for (const row of rows) SanctionRecord.parse(row);
  });

  test('a reference and its lettered aliases are one party: primary, strong alias, weak alias, original script', () => {
    assert.deepEqual(of('5').map((row) => [row.name_type, row.name]), [['primary', 'Muhammad Taher Anwari'], ['alias', 'Mohammad Taher Anwari'], ['weak_alias', 'Haji Mudir']]);
    assert.deepEqual(of('2').map((row) => [row.name_type, row.name]), [['primary', 'MOHAMMAD HASSAN AKHUND'], ['alias', 'محمد حسن أخوند']]);
    assert.deepEqual(of('300').map((row) => [row.entity_type, row.programmes]), [
      ['organisation', ["1267 (ISIL (Da'esh) and Al-Qaida)"]],
      ['organisation', ["1267 (ISIL (Da'esh) and Al-Qaida)"]],
    ]);
  });

  test('a primary row maps exactly: an Excel date serial, two citizenships, the workbook\'s Canberra date', () => {
    assert.deepEqual(of('9005')[0], {
      record_type: 'sanction',
      list_name: 'Australian Sanctions Consolidated List',
      entry_id: '9005',
      name_type: 'primary',
      entity_type: 'person',
      name: 'JOHN IMANI NZENZE',
      dates_of_birth: ['1978-08-06'],
      nationalities: ['Democratic Republic of the Congo', 'Rwanda'],
      countries: [],
      programmes: ['1533 (Democratic Republic of the Congo)'],
      listed_on: null,
      as_of: '2026-09-23',
      url: `https://www.dfat.gov.au${WORKBOOK}`,
    });
  });

  test('dates of birth in every cell form: a plain-year number, a range, _x000D_ with a non-breaking space, a list', () => {
    assert.deepEqual(of('9001')[0]?.dates_of_birth, ['1971']);
    assert.deepEqual(of('9002')[0]?.dates_of_birth, ['1973', '1974']);
    assert.deepEqual(of('9003')[0]?.dates_of_birth, ['1965', '1966']);
    assert.deepEqual(of('9004')[0]?.dates_of_birth, ['1976-10-05', '1976-10-01', '1976-01-06']);
    assert.deepEqual(of('9004').map((row) => row.countries), [['Iraq'], ['Iraq']], 'the place of birth an alias row carries is kept on that row');
  });

  test('a workbook whose header lost a column fails the night rather than loading shifted cells', async () => {
    const root = await tempDir('dfat-fixtures-');
    await cp(join(FIXTURES_ROOT, 'au_dfat_sanctions'), join(root, 'au_dfat_sanctions'), { recursive: true });
    const file = join(root, 'au_dfat_sanctions', 'Australian_Sanctions_Consolidated_List.xlsx');
    const zip = await JSZip.loadAsync(await readFile(file));
    const strings = await zip.file('xl/sharedStrings.xml')!.async('string');
    zip.file('xl/sharedStrings.xml', strings.replace('>Citizenship<', '>Nationality<'));
    await writeFile(file, await zip.generateAsync({ type: 'nodebuffer' }));
    const broken = await crawlOnFixtures(source, { root });
    assert.equal(broken.failed, true);
    assert.match(broken.diagnosis ?? '', /^the "Consolidated List" sheet's header does not name the column\(s\) Citizenship: the layout changed/);
  });
});

describe('DFAT dates of birth', () => {
  const read = (cell: string | number | null) => {
    const unread: string[] = [];
    return { dates: dfatDatesOfBirth(cell, (part) => unread.push(part)), unread };
  };

  test('text forms DFAT publishes, and a typo kept out and reported', () => {
    assert.deepEqual(read('Approximately 1968_x000D_ 28/08/1965').dates, ['1968', '1965-08-28']);
    assert.deepEqual(read('Approximately: Between 1959 and 1965').dates, ['1959', '1960', '1961', '1962', '1963', '1964', '1965']);
    assert.deepEqual(read('13/01/1992\n16/03/1993').dates, ['1992-01-13', '1993-03-16']);
    assert.deepEqual(read('1979;1980.1981;1982'), { dates: ['1979', '1982'], unread: ['1980.1981'] });
  });

  test('numbers: a plain year, or an Excel date serial (day 1 is 1900-01-01)', () => {
    assert.deepEqual(read(1958).dates, ['1958']);
    assert.deepEqual(read(22882).dates, ['1962-08-24']);
    assert.deepEqual(read(null).dates, []);
  });
});
