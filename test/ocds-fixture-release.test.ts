import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OCDS_AWARDS_FILE, OCDS_OCID_PREFIX } from '../data/export-ocds.ts';
import { openStore } from '../data/store.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { compileRecords } from './helpers/ocds-compile.ts';
import { ocdsPackageValidator } from './helpers/ocds-validator.ts';
import { tempDir } from './helpers/temp-dir.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };

test('the fixture release\'s OCDS export validates against the official OCDS 1.1 schemas and compiles one contract per chain', async (t) => {
  const night = await runNightly({ dataDir: await tempDir('ocds-release-'), fixtures: true, progress: quiet });
  const lines = (await readFile(join(night.releaseDir, 'ocds', OCDS_AWARDS_FILE), 'utf8')).split('\n').filter(Boolean);
  const packages = lines.map((line) => JSON.parse(line) as Json);

  const validate = ocdsPackageValidator();
  const invalid = packages.map((pack) => ({ pack, ...validate(pack) })).filter((result) => !result.valid);
  t.diagnostic(`OCDS release packages valid against the 1.1 schemas: ${packages.length - invalid.length}/${packages.length}`);
  assert.deepEqual(invalid.slice(0, 3).map(({ pack, errors }) => [pack.uri, errors]), [], 'every package is valid');

  const store = await openStore(join(night.releaseDir, 'store.duckdb'), { readOnly: true });
  const awards = await store.all<{ source: string; contract_id: string; value_amount: number | null }>(
    'SELECT source, contract_id, value_amount::DOUBLE AS value_amount FROM awards ORDER BY source, contract_id');
  const methods = await store.all<{ procurement_method: string | null; procurement_method_details: string | null }>(
    'SELECT DISTINCT procurement_method, procurement_method_details FROM award_releases');
  store.close();
  assert.deepEqual([...new Set(methods.map((row) => row.procurement_method))].toSorted(), ['direct', 'limited', null, 'open', 'selective'],
    'the published methods are coded in the OCDS method codelist');
  assert.ok(methods.some((row) => row.procurement_method === 'selective' && row.procurement_method_details === 'Select Tender'), 'the published text is kept');
  assert.equal(packages.length > awards.length, true, 'amendments and variations are releases of their contracts');

  const records = compileRecords(packages as { releases: Json[] }[]);
  const contracts = [...records.values()].flatMap((record) => (record.contracts as Json[]).map((contract) => ({ record, contract })));
  assert.deepEqual(contracts.map(({ contract }) => contract.id).toSorted(), awards.map((award) => award.contract_id).toSorted(),
    'merging gives one contract per chain, named by its chain id');
  for (const award of awards) {
    const { contract } = contracts.find(({ contract }) => contract.id === award.contract_id)!;
    assert.equal(contract.value?.amount ?? null, award.value_amount, `${award.contract_id} merges to the value it now stands at`);
  }

  const ocidOf = (contractId: string) => contracts.find(({ contract }) => contract.id === contractId)!.record.ocid as string;
  assert.match(ocidOf('CN3707521'), /^prod-[0-9a-f]{32}$/, 'AusTender\'s own ocids stay as published');
  assert.equal(ocidOf('33943523'), `${OCDS_OCID_PREFIX}nz_gets_awards-33943523`, 'the ocids the project mints carry its prefix');
  const panel = records.get(`${OCDS_OCID_PREFIX}au_nt_qtol-26033`)!;
  assert.deepEqual((panel.awards as Json[]).map((award) => award.id), ['26033-1', '26033-2'], 'a panel tender is one process with an award per contractor');
  const variation = records.get(`${OCDS_OCID_PREFIX}au_qld_contract_disclosure-TMR-SWD-2025-0310`)!;
  assert.equal((variation.contracts as Json[]).length, 1, 'a QLD variation is an amendment of its contract');
  assert.equal((variation.contracts as Json[])[0]!.amendments.length, 1);

  const release = (contractId: string) => packages.flatMap((pack) => pack.releases as Json[]).find((r) => r.contracts[0].id === contractId)!;
  assert.equal(release('33943523').contracts[0].dateSigned, '2026-08-31T00:00:00+12:00', 'a NZ day starts at Wellington midnight');
  assert.deepEqual(release('33943523').tag, ['award', 'contract']);
  assert.deepEqual(release('33943523').tender, { id: `${OCDS_OCID_PREFIX}nz_gets_awards-33943523`, procurementMethod: 'open', procurementMethodDetails: 'Request for Tenders (RFT)' });
  for (const pack of packages) assert.ok(pack.license && pack.publicationPolicy, 'every package names its licence and publication policy');
});
