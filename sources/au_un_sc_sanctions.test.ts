import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import source from './au_un_sc_sanctions.ts';
import { SanctionRecord } from './_contract/records.ts';
import { crawlOnFixtures, type FixtureCrawl } from '../test/helpers/crawl-fixtures.ts';

let crawl: FixtureCrawl;
let rows: SanctionRecord[];

before(async () => {
  crawl = await crawlOnFixtures(source);
  rows = crawl.records.filter((record): record is SanctionRecord => record.record_type === 'sanction');
});

const of = (entryId: string) => rows.filter((row) => row.entry_id === entryId);

describe('au_un_sc_sanctions on the real consolidated.xml', () => {
  test('reads robots.txt and the one XML file; seven parties become primary rows, none invalid', () => {
    assert.equal(crawl.failed, false, crawl.diagnosis ?? '');
    assert.deepEqual(crawl.requests.map((request) => [request.path, request.status]), [['/robots.txt', 404], ['/resources/xml/en/consolidated.xml', 200]]);
    assert.deepEqual(crawl.invalid, []);
    assert.deepEqual(rows.filter((row) => row.name_type === 'primary').map((row) => row.entry_id), ['CDi.001', 'IQi.002', 'CDi.030', 'QDi.426', 'CDi.049', 'CDe.001', 'CDe.002']);
    for (const row of rows) SanctionRecord.parse(row);
  });

  test('an individual maps to an exact primary row: four name parts, two nationalities, a dated listing', () => {
    assert.deepEqual(of('CDi.049')[0], {
      record_type: 'sanction',
      list_name: 'United Nations Security Council Consolidated List',
      entry_id: 'CDi.049',
      name_type: 'primary',
      entity_type: 'person',
      name: 'JOHN IMANI NZENZE',
      dates_of_birth: ['1978-08-06'],
      nationalities: ['Democratic Republic of the Congo', 'Rwanda'],
      countries: ['Democratic Republic of the Congo'],
      programmes: ['DRC'],
      listed_on: '2026-07-14',
      as_of: '2026-08-29',
      url: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml',
    });
  });

  test('dates of birth as a year, two years and a BETWEEN range; birth and address countries', () => {
    assert.deepEqual(of('CDi.001')[0]?.dates_of_birth, ['1971']);
    assert.deepEqual(of('IQi.002')[0]?.dates_of_birth, ['1965', '1966']);
    assert.deepEqual(of('CDi.030')[0]?.dates_of_birth, ['1973', '1974']);
    assert.deepEqual(of('CDi.030')[0]?.countries, ['Belgium', 'Rwanda']);
    assert.deepEqual(of('QDi.426')[0]?.dates_of_birth, ['1976-10-05', '1976-10-01', '1976-01-06']);
  });

  test('aliases graded Good are aliases, Low ones weak; the name in original script is an alias', () => {
    const bosco = of('CDi.030');
    assert.deepEqual(bosco.filter((row) => row.name_type === 'alias').map((row) => row.name), ['Bosco Ntaganda', 'Bosco Ntagenda', 'General Taganda']);
    assert.deepEqual(bosco.filter((row) => row.name_type === 'weak_alias').map((row) => row.name), ['Lydia', 'Terminator', 'Tango Romeo', 'Romeo', 'Major']);
    assert.deepEqual(of('IQi.002').filter((row) => row.name_type === 'alias').map((row) => row.name), ['قصي صدام حسين التكريتي']);
    assert.ok(of('QDi.426').some((row) => row.name === 'أمیر محمد سعید عبد الرحمن السلبي'), 'a name spread over two lines reads as one');
  });

  test('an entity is an organisation, its a.k.a. and f.k.a. names aliases; empty alias elements make no row', () => {
    assert.deepEqual(of('CDe.001').map((row) => [row.name_type, row.entity_type, row.name]), [
      ['primary', 'organisation', 'ADF'],
      ['alias', 'organisation', 'Allied Democratic Forces'],
      ['alias', 'organisation', 'Forces Démocratiques Alliées-Armée Nationale de Libération de l’Ouganda'],
      ['alias', 'organisation', 'ADF/NALU'],
      ['alias', 'organisation', 'NALU'],
    ]);
    assert.equal(of('CDe.002').length, 1);
  });

  test('a failing server fails the source with a diagnosis naming the public URL', async () => {
    const failed = await crawlOnFixtures(source, { fault: 'http500' });
    assert.equal(failed.failed, true);
    assert.match(failed.diagnosis ?? '', /^HTTP 500 from GET https:\/\/scsanctions\.un\.org\/resources\/xml\/en\/consolidated\.xml/);
  });
});
