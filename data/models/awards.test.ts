import { test } from 'node:test';
import assert from 'node:assert/strict';
import { award, createAllTables, seedModels, type Row } from '../../test/helpers/award-seed.ts';
import { openStore } from '../store.ts';

/**
 * The awards model's choice of a chain's latest release, on chains as AusTender publishes them: every amendment
 * of a chain carries the same release date and a random hex release id, so only the amendment's number orders it.
 */

/** One release of an AusTender chain: the contract id is the bare CN number, the amendment id carries `-A<n>`. */
function austenderRelease(contractId: string, ocid: string, hex: string, date: string, value: string, amendment: string | null): Row {
  return award({
    source: 'au_federal_austender_ocds', ocid, release_id: `${ocid}-${hex}`, release_date: date, contract_id: contractId,
    release_tag: amendment ? 'contractAmendment' : 'contract', amendment_id: amendment, amends_release_id: null,
    jurisdiction: 'AU', buyer: 'Services Australia', value_amount: value, value_currency: 'AUD', url: `https://api.tenders.gov.au/ocds/findById/${contractId}`,
  });
}

// CN3707521 as the API served it on 2025-06-20 (johnofsydney/lester spec/fixtures/contract_last_modified_subsequent_page.json)
const HITACHI = 'prod-396a1b158bed4a1db78716632a4783fb';
const CN3707521 = [
  austenderRelease('CN3707521', HITACHI, '4f8991c33c9d3fae97a3e59f5ca569d4', '2020-08-05T06:28:40Z', '4518226.69', null),
  austenderRelease('CN3707521', HITACHI, 'fcbbab0e4cd3363e8c02cff9ec782903', '2025-06-20T03:46:47Z', '4615727.10', 'CN3707521-A1'),
  austenderRelease('CN3707521', HITACHI, 'd537c83afe603fb4b5a3fe3ed3b691ec', '2025-06-20T03:46:47Z', '8702207.59', 'CN3707521-A2'),
  austenderRelease('CN3707521', HITACHI, '5f77198f45e036528e6f38ff9baf234d', '2025-06-20T03:46:47Z', '11534505.55', 'CN3707521-A3'),
  austenderRelease('CN3707521', HITACHI, '16ca96969d92307780bba652edc7a919', '2025-06-20T03:46:47Z', '13421890.34', 'CN3707521-A4'),
  austenderRelease('CN3707521', HITACHI, '5702d381cab73af69d3ee47296db8ee8', '2025-06-20T03:46:47Z', '17839422.35', 'CN3707521-A5'),
  austenderRelease('CN3707521', HITACHI, 'ba0ecaccfd003756bb48869c15e6a279', '2025-06-20T03:46:47Z', '23605015.37', 'CN3707521-A6'),
];

// Five of CN3721478's amendments, without its original (the same capture): A31 is worth less than A30, and
// "CN3721478-A9" sorts after "CN3721478-A31" as text.
const OPTUS = 'prod-3ce6dbe57bf0445baaa938361f2d2c7d';
const CN3721478 = [
  ['A29', 'ca3084b69e5a32b58881a9838d416b11', '137603567.06'],
  ['A3', 'e9b12cf6cac43d3e8712e128e308532c', '47595790.52'],
  ['A30', '086f7d19ddcd3da08f6f425b732fc3b0', '137627915.80'],
  ['A31', '269856d820a03fce97c433d3d789ea42', '137571795.74'],
  ['A9', '85c9a6a94c1e3e91b1a479e42eda674f', '66295063.80'],
].map(([number, hex, value]) => austenderRelease('CN3721478', OPTUS, hex!, '2025-06-20T05:49:30Z', value!, `CN3721478-${number}`));

async function awardsOf(releases: Row[]) {
  const store = await openStore(':memory:');
  try {
    await createAllTables(store, ['award_releases', 'awards']);
    await seedModels(store, { award_releases: releases }, ['awards']);
    return await store.all<{ contract_id: string; latest_release_id: string; value_amount: string; original_value_amount: string; amendment_count: number }>(
      `SELECT contract_id, latest_release_id, value_amount::VARCHAR AS value_amount, original_value_amount::VARCHAR AS original_value_amount, amendment_count
       FROM awards ORDER BY contract_id`,
    );
  } finally {
    store.close();
  }
}

test('a chain whose amendments share one date and carry random hex ids keeps its highest amendment (CN3707521)', async () => {
  assert.deepEqual(await awardsOf(CN3707521), [
    { contract_id: 'CN3707521', latest_release_id: `${HITACHI}-ba0ecaccfd003756bb48869c15e6a279`, value_amount: '23605015.37', original_value_amount: '4518226.69', amendment_count: 6 },
  ]);
});

test('amendments are ordered by number, not as text, and the lowest held gives the original value', async () => {
  assert.deepEqual(await awardsOf(CN3721478), [
    { contract_id: 'CN3721478', latest_release_id: `${OPTUS}-269856d820a03fce97c433d3d789ea42`, value_amount: '137571795.74', original_value_amount: '47595790.52', amendment_count: 5 },
  ]);
});

test('amendments without a number are later than the original and ordered by release date, then release id', async () => {
  const ocid = 'ocid-VAR';
  const releases = [
    award({ contract_id: 'VAR-1', ocid, release_id: 'r-original', release_date: '2026-03-01T00:00:00Z', value_amount: 100, value_currency: 'AUD' }),
    award({ contract_id: 'VAR-1', ocid, release_id: 'r-b', amendment_id: 'variation', release_date: '2026-02-01T00:00:00Z', value_amount: 200, value_currency: 'AUD' }),
    award({ contract_id: 'VAR-1', ocid, release_id: 'r-c', amendment_id: 'variation', release_date: '2026-04-01T00:00:00Z', value_amount: 300, value_currency: 'AUD' }),
  ];
  assert.deepEqual(await awardsOf(releases), [
    { contract_id: 'VAR-1', latest_release_id: 'r-c', value_amount: '300.00', original_value_amount: '100.00', amendment_count: 2 },
  ]);
});
