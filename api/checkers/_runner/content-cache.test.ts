import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson } from '../../../lib/canonical-json.ts';
import { cacheKey, createContentCache } from './content-cache.ts';
import { openTestState } from '../../../test/helpers/state.ts';

const sha = (digit: string) => digit.repeat(64);

describe('content cache', () => {
  it('keys equal options alike whatever their key order, and tells engines, documents, order and shown names apart', () => {
    const base = { checker: 'extract_document', documents: [{ sha256: sha('a') }], options: { template: 'payslip', options: { tables: true, flag_below: 0.5 } }, engineVersion: '1' };
    const key = cacheKey(base);
    assert.deepEqual(cacheKey({ ...base, options: { options: { flag_below: 0.5, tables: true }, template: 'payslip', country: undefined } }), key);
    assert.notDeepEqual(cacheKey({ ...base, engineVersion: '2' }), key);
    assert.notDeepEqual(cacheKey({ ...base, options: { template: 'receipt' } }), key);
    const two = { ...base, documents: [{ sha256: sha('a'), filename: 'a.pdf' }, { sha256: sha('b'), filename: 'b.pdf' }] };
    assert.notDeepEqual(cacheKey(two).contentKey, cacheKey({ ...two, documents: [...two.documents].reverse() }).contentKey);
    assert.notDeepEqual(cacheKey(two).contentKey, cacheKey({ ...two, documents: [{ sha256: sha('a'), filename: 'x.pdf' }, two.documents[1]!] }).contentKey);
    assert.equal(canonicalJson({ b: [{ d: 1, c: 2 }], a: null }), '{"a":null,"b":[{"c":2,"d":1}]}');
  });

  it('stores a result and replaces it', async () => {
    const cache = createContentCache(await openTestState());
    const key = cacheKey({ checker: 'check_pack', documents: [{ sha256: sha('c') }], options: { scheme: 'income_proof' }, engineVersion: '1' });
    assert.equal(await cache.get(key), undefined);
    await cache.put(key, { complete: false }, new Date('2026-06-10T00:00:00Z'));
    assert.deepEqual(await cache.get(key), { complete: false });
    await cache.put(key, { complete: true }, new Date('2026-06-11T00:00:00Z'));
    assert.deepEqual(await cache.get(key), { complete: true });
  });
});
