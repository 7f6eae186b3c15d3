import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWARD_SEED, createAllTables, seedAwardModels } from '../test/helpers/award-seed.ts';
import { ocdsPackageValidator } from '../test/helpers/ocds-validator.ts';
import { exportOcds } from './export-ocds.ts';
import { openStore } from './store.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('every line of the OCDS export is a release package valid against the official OCDS 1.1 schemas', async () => {
  const validate = ocdsPackageValidator();
  const dir = await mkdtemp(join(tmpdir(), 'ocds-'));
  const store = await openStore(':memory:');
  try {
    await createAllTables(store, ['award_releases', 'tenders', 'plans', 'abn_entities', 'companies', 'sources']);
    await seedAwardModels(store, []);
    // a purchase-order number published as the title: the store shows the subject, the export the title as published
    await store.exec(`UPDATE award_releases SET reference = '4600093125', description = title WHERE contract_id = 'CN-D2'`);
    // identifiers as registers publish them, with spaces and slashes (NSW: "CAN-LAHC 2026/176"), in the URIs the export mints
    await store.exec(`UPDATE award_releases SET release_id = 'rel CN-D2 2026/176' WHERE contract_id = 'CN-D2'`);
    const file = await exportOcds(store, dir);
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const held = AWARD_SEED.award_releases ?? [];
    assert.equal(lines.length, held.length, 'one package per release');

    const ids: string[] = [];
    for (const line of lines) {
      const pack = JSON.parse(line) as Json;
      assert.deepEqual(validate(pack).errors, [], `valid: ${line.slice(0, 120)}`);
      assert.ok(!line.includes(':null'), 'no field is written null');
      for (const release of pack.releases as Json[]) ids.push(`${release.ocid}|${release.id}`);
    }
    assert.equal(new Set(ids).size, held.length, 'every release held, each once');

    const processOrder = lines.map((line) => {
      const pack = JSON.parse(line) as Json;
      return `${(pack.uri as string).split(':')[2]}\u0000${pack.releases[0].ocid}`;
    });
    assert.deepEqual(processOrder, [...processOrder].sort(), 'packages come in contracting-process order (source, then ocid)');
    const amended = lines.map((line) => JSON.parse(line) as Json).filter((pack) => pack.releases[0].ocid === 'ocid-CN-D1').map((pack) => pack.releases[0]);
    assert.deepEqual(amended.map((r: Json) => r.tag), [['award', 'contract'], ['award', 'contractAmendment']], 'an amendment chain shares its ocid, in release order');
    const amendment = amended[1].contracts[0];
    assert.equal(amendment.id, 'CN-D1', 'a contract keeps its id across its amendments');
    assert.deepEqual(amendment.value, { amount: 150, currency: 'AUD' });
    assert.deepEqual(amendment.amendments, [{ id: 'CN-D1-A1', amendsReleaseID: 'rel-CN-D1', releaseID: 'rel-CN-D1-A1' }]);
    assert.equal(amendment.dateSigned, '2026-01-15T00:00:00+11:00', 'a day is written as it starts in the buyer\'s time zone (Canberra, in summer)');
    assert.deepEqual(amended[0].parties[1].identifier, { scheme: 'AU-ABN', id: '53004085616' });
    assert.deepEqual(amendment.items.map((item: Json) => item.classification), [{ scheme: 'UNSPSC', id: '72141000' }, { scheme: 'UNSPSC', id: '72101500' }]);
    const referenced = lines.map((line) => JSON.parse(line) as Json).find((pack) => pack.releases[0].ocid === 'ocid-CN-D2')!.releases[0].contracts[0];
    assert.deepEqual([referenced.title, referenced.description], ['4600093125', 'Road maintenance']);
    const spaced = lines.map((line) => JSON.parse(line) as Json).find((pack) => pack.releases[0].ocid === 'ocid-CN-D2')!;
    assert.equal(spaced.releases[0].id, 'rel CN-D2 2026/176', 'the release keeps its id as published');
    assert.match(spaced.uri, /:rel%20CN-D2%202026%2F176$/, 'its package URI holds it percent-encoded');
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
