import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openStore } from '../../../data/store.ts';
import { tempDir } from '../../../test/helpers/temp-dir.ts';
import { blockKeys, buildSanctionsIndex, loadSanctionsIndex, sanctionsIndexOf, screenName, type SanctionsEntry } from './sanctions.ts';

const entry = (fields: Partial<SanctionsEntry> & Pick<SanctionsEntry, 'source' | 'entry_id' | 'name'>): SanctionsEntry => ({
  list_name: fields.source,
  entity_type: 'person',
  aliases: [],
  weak_aliases: [],
  dates_of_birth: [],
  nationalities: [],
  countries: [],
  programmes: [],
  ...fields,
});

// Real listings (OFAC sdn.csv rows 2674 and 2686; UN CDi.030) with their published fields.
const ENTRIES: SanctionsEntry[] = [
  entry({ source: 'us_ofac_sdn', entry_id: '2674', name: 'ABBAS, Abu', dates_of_birth: ['1948-12-10'], programmes: ['SDGT'] }),
  entry({
    source: 'us_ofac_sdn', entry_id: '2686', name: 'NASRALLAH, Hasan', dates_of_birth: ['1960-08-31', '1953-08-31', '1955-08-31', '1958-08-31'],
    countries: ['Lebanon'], programmes: ['SDGT', 'SYRIA'],
  }),
  entry({
    source: 'un_sc_sanctions', entry_id: 'CDi.030', name: 'BOSCO TAGANDA', aliases: ['Bosco Ntaganda', 'Bosco Ntagenda', 'General Taganda'],
    weak_aliases: ['Terminator', 'Major'], dates_of_birth: ['1973', '1974'], nationalities: ['Democratic Republic of the Congo'],
    countries: ['Belgium', 'Rwanda'], programmes: ['DRC'],
  }),
  entry({ source: 'au_dfat_sanctions', entry_id: '9001', name: 'Bosco Ntaganda', nationalities: ['Democratic Republic of the Congo'], programmes: ['1533 (Democratic Republic of the Congo)'] }),
  entry({ source: 'us_ofac_sdn', entry_id: '306', name: 'BANCO NACIONAL DE CUBA', entity_type: 'organisation', aliases: ['NATIONAL BANK OF CUBA'], programmes: ['CUBA'] }),
];
const index = buildSanctionsIndex(ENTRIES);

describe('screenName', () => {
  test('a name-only exact hit is possible, with the topics of its programme and no corroboration', () => {
    const block = screenName(index, { name: 'Abu Abbas' });
    assert.deepEqual(block, {
      candidates: [{ name: 'ABBAS, Abu', score: 1, strength: 'possible', corroboration: [], topics: ['crime.terror', 'sanction'], datasets: 1 }],
      strong_matches: 0,
      possible_matches: 1,
      common_name_ambiguity: false,
    });
  });

  test('a date of birth that agrees makes a close name strong', () => {
    const block = screenName(index, { name: 'Hassan Nasrallah', dob: '1960-08-31', country: 'LB' });
    assert.equal(block.strong_matches, 1);
    assert.deepEqual(block.candidates[0]?.corroboration, ['date_of_birth', 'country']);
    assert.equal(block.candidates[0]?.strength, 'strong');
  });

  test('a date of birth that differs leaves the listing as a weak candidate, counted as neither', () => {
    const block = screenName(index, { name: 'Abu Abbas', dob: '1990-02-01' });
    assert.deepEqual([block.candidates[0]?.strength, block.candidates[0]?.score, block.strong_matches, block.possible_matches], ['weak', 0.85, 0, 0]);
  });

  test('one party on two lists is one candidate counting two datasets', () => {
    const block = screenName(index, { name: 'Bosco Ntaganda', country: 'CD' });
    assert.equal(block.candidates.length, 2, 'the UN lists him under his primary name BOSCO TAGANDA, DFAT under Ntaganda');
    const grouped = screenName(buildSanctionsIndex([ENTRIES[3]!, { ...ENTRIES[3]!, source: 'un_sc_sanctions', entry_id: 'CDi.030' }]), { name: 'Bosco Ntaganda' });
    assert.deepEqual(grouped.candidates.map((c) => [c.name, c.datasets]), [['Bosco Ntaganda', 2]]);
  });

  test('weak aliases are not screened', () => {
    assert.deepEqual(screenName(index, { name: 'Terminator' }).candidates, []);
  });

  test('an alias of the subject is screened too, and a company name through its legal form', () => {
    assert.equal(screenName(index, { name: 'Unrelated Person', aliases: ['Abbas Abu'] }).candidates[0]?.name, 'ABBAS, Abu');
    assert.equal(screenName(index, { name: 'National Bank of Cuba S.A.' }).candidates[0]?.name, 'BANCO NACIONAL DE CUBA');
  });

  test('a one-part name, or several parties matching the name alone, is flagged as ambiguous', () => {
    assert.equal(screenName(index, { name: 'Bosco' }).common_name_ambiguity, true);
    assert.equal(screenName(index, { name: 'Bosco Ntaganda' }).common_name_ambiguity, true);
    assert.equal(screenName(index, { name: 'Abu Abbas' }).common_name_ambiguity, false);
  });

  test('nothing alike gives an empty block', () => {
    assert.deepEqual(screenName(index, { name: 'Jane Citizen' }), { candidates: [], strong_matches: 0, possible_matches: 0, common_name_ambiguity: false });
  });
});

describe('blockKeys', () => {
  test('files Osama and Usama, Mohammed and Muhammad, Ntaganda and Taganda under a shared key', () => {
    const shares = (a: string, b: string) => blockKeys(a).some((key) => blockKeys(b).includes(key));
    assert.ok(shares('osama', 'usama'));
    assert.ok(shares('mohammed', 'muhammad'));
    assert.ok(shares('ntaganda', 'taganda'));
  });
});

describe('loading from a release', () => {
  test('reads the sanctions_entries table once per store, and an older release without it gives an empty index', async () => {
    const dir = await tempDir('sanctions-index-');
    const store = await openStore(join(dir, 'store.duckdb'));
    try {
      assert.equal((await loadSanctionsIndex(store)).parties, 0);
      await store.exec(`CREATE TABLE sanctions_entries (source VARCHAR, list_name VARCHAR, entry_id VARCHAR, entity_type VARCHAR, name VARCHAR,
        aliases VARCHAR[], weak_aliases VARCHAR[], dates_of_birth VARCHAR[], nationalities VARCHAR[], countries VARCHAR[], programmes VARCHAR[], as_of DATE);
        INSERT INTO sanctions_entries VALUES ('us_ofac_sdn', 'OFAC SDN List', '2674', 'person', 'ABBAS, Abu', [], [], ['1948-12-10'], [], [], ['SDGT'], DATE '2026-09-10')`);
      const first = sanctionsIndexOf(store);
      assert.equal(sanctionsIndexOf(store), first, 'the second screening reuses the first load');
      const loaded = await first;
      assert.deepEqual(loaded.lists, [{ source: 'us_ofac_sdn', list_name: 'OFAC SDN List', entries: 1, as_of: '2026-09-10' }]);
      assert.equal(screenName(loaded, { name: 'Abu Abbas', dob: '1948' }).strong_matches, 1);
    } finally {
      store.close();
    }
  });
});
