import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUYER_KEY_PATTERN, buyerKey } from '../lib/keys.ts';
import { readMacros } from './build.ts';
import { openStore } from './store.ts';

const spellings: Array<[string, string]> = [
  ['AU-NSW', 'Transport for NSW'],
  ['AU-NSW', '  transport   FOR\tnsw \n'],
  ['AU', 'Department of Defence'],
  ['AU', 'Dept of Defence'],
  ['NZ', 'Te Whatu Ora – Health New Zealand'],
  ['NZ', 'MĀORI HERITAGE COUNCIL'],
  ['AU-VIC', 'City of Ballarat\r\n(Infrastructure)'],
  ['AU-QLD', '   '],
];

test('the SQL macro buyer_key and lib/keys.ts buyerKey() give the same key for every spelling', async () => {
  const store = await openStore(':memory:');
  try {
    await store.exec(await readMacros());
    for (const [jurisdiction, name] of spellings) {
      const [row] = await store.all<{ key: string | null }>('SELECT buyer_key($1, $2) AS key', [jurisdiction, name]);
      assert.equal(row!.key, buyerKey(jurisdiction, name), `${jurisdiction} ${JSON.stringify(name)}`);
    }
    const [nulls] = await store.all<{ key: string | null }>('SELECT buyer_key(NULL, NULL) AS key');
    assert.equal(nulls!.key, null);
  } finally {
    store.close();
  }
});

test('a buyer key is the lower-cased jurisdiction and 12 hex; case and whitespace are not spellings, words are', () => {
  const key = buyerKey('AU-NSW', 'Transport for NSW');
  assert.match(key!, /^au-nsw-[0-9a-f]{12}$/);
  assert.match(key!, BUYER_KEY_PATTERN);
  assert.equal(buyerKey('AU-NSW', '  transport   FOR\tnsw \n'), key);
  assert.notEqual(buyerKey('AU-VIC', 'Transport for NSW'), key, 'another jurisdiction is another buyer');
  assert.notEqual(buyerKey('AU', 'Department of Defence'), buyerKey('AU', 'Dept of Defence'), 'no alias merging');
  assert.equal(buyerKey('AU', '   '), null);
  // Pinned value: the key is a permalink, so a change of the formula must fail here.
  // (printf 'AU|department of defence' | sha256sum | cut -c1-12)
  assert.equal(buyerKey('AU', 'Department of Defence'), 'au-193a9830879c');
});
