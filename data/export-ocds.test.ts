import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWARD_SEED, createAllTables, seedAwardModels } from '../test/helpers/award-seed.ts';
import { exportOcds } from './export-ocds.ts';
import { openStore } from './store.ts';

interface Required {
  package: { required: string[]; version: string };
  publisher: { required: string[] };
  release: { required: string[]; initiationType: string[] };
  releaseTag: string[];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

test('every line of the OCDS export is a release package with the fields the OCDS 1.1 schemas require', async () => {
  const schema = JSON.parse(await readFile(new URL('../fixtures/ocds/release-package-required.json', import.meta.url), 'utf8')) as Required;
  const dir = await mkdtemp(join(tmpdir(), 'ocds-'));
  const store = await openStore(':memory:');
  try {
    await createAllTables(store, ['award_releases', 'tenders', 'plans', 'abn_entities', 'companies', 'sources']);
    await seedAwardModels(store, []);
    // a purchase-order number published as the title: the store shows the subject, the export the title as published
    await store.exec(`UPDATE award_releases SET reference = '4600093125', description = title WHERE contract_id = 'CN-D2'`);
    const file = await exportOcds(store, dir);
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    const held = AWARD_SEED.award_releases ?? [];
    assert.equal(lines.length, held.length, 'one package per release');

    const ids: string[] = [];
    for (const line of lines) {
      const pack = JSON.parse(line) as Json;
      for (const field of schema.package.required) assert.ok(pack[field] !== undefined && pack[field] !== null, `package lacks ${field}: ${line.slice(0, 120)}`);
      assert.equal(pack.version, schema.package.version);
      assert.doesNotThrow(() => new URL(pack.uri), 'uri is a URI');
      assert.match(pack.publishedDate, DATE_TIME);
      for (const field of schema.publisher.required) assert.equal(typeof pack.publisher[field], 'string');
      assert.ok(Array.isArray(pack.releases) && pack.releases.length === 1);
      for (const release of pack.releases as Json[]) {
        for (const field of schema.release.required) assert.ok(release[field] !== undefined && release[field] !== null, `release lacks ${field}`);
        assert.match(release.date, DATE_TIME);
        assert.ok(schema.release.initiationType.includes(release.initiationType));
        for (const tag of release.tag as string[]) assert.ok(schema.releaseTag.includes(tag), `tag ${tag} is in the codelist`);
        assert.ok(!line.includes(':null'), 'no field is written null');
        for (const contract of release.contracts as Json[]) {
          assert.ok((release.awards as Json[]).some((award) => award.id === contract.awardID), 'each contract names an award of its release');
          for (const date of [contract.dateSigned, contract.period?.startDate, contract.period?.endDate]) if (date !== undefined) assert.match(date, DATE_TIME);
        }
        ids.push(`${release.ocid}|${release.id}`);
      }
    }
    assert.equal(new Set(ids).size, held.length, 'every release held, each once');

    const processOrder = lines.map((line) => {
      const pack = JSON.parse(line) as Json;
      return `${(pack.uri as string).split(':')[2]}\u0000${pack.releases[0].ocid}`;
    });
    assert.deepEqual(processOrder, [...processOrder].sort(), 'packages come in contracting-process order (source, then ocid)');
    const amended = lines.map((line) => JSON.parse(line) as Json).filter((pack) => pack.releases[0].ocid === 'ocid-CN-D1').map((pack) => pack.releases[0]);
    assert.deepEqual(amended.map((r: Json) => r.tag[0]), ['contract', 'contractAmendment'], 'an amendment chain shares its ocid, in release order');
    const amendment = amended[1].contracts[0];
    assert.deepEqual(amendment.value, { amount: 150, currency: 'AUD' });
    assert.deepEqual(amendment.amendments, [{ id: 'CN-D1-A1', amendsReleaseID: 'rel-CN-D1', releaseID: 'rel-CN-D1-A1' }]);
    assert.equal(amendment.dateSigned, '2026-01-14T13:00:00Z', 'a Canberra day starts at 13:00 UTC the day before in summer');
    assert.deepEqual(amended[0].parties[1].identifier, { scheme: 'AU-ABN', id: '53004085616' });
    assert.deepEqual(amendment.items.map((item: Json) => item.classification), [{ scheme: 'UNSPSC', id: '72141000' }, { scheme: 'UNSPSC', id: '72101500' }]);
    const referenced = lines.map((line) => JSON.parse(line) as Json).find((pack) => pack.releases[0].ocid === 'ocid-CN-D2')!.releases[0].contracts[0];
    assert.deepEqual([referenced.title, referenced.description], ['4600093125', 'Road maintenance']);
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
});
