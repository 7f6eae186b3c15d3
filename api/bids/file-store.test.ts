import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { tempDir } from '../../test/helpers/temp-dir.ts';
import { BidFileStore } from './file-store.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('bytes are kept once under their SHA-256, renders beside them, nothing half-written left behind', async () => {
  const dir = await tempDir('bid-file-store-');
  const store = new BidFileStore(dir);
  const bytes = new TextEncoder().encode('Schedule 1: pricing');
  const hash = sha256(bytes);
  await Promise.all([store.put(hash, bytes), store.put(hash, bytes)]);
  await store.put(hash, bytes);
  assert.deepEqual(readdirSync(dir, { recursive: true }).sort(), [hash.slice(0, 2), `${hash.slice(0, 2)}/${hash}`]);
  assert.deepEqual(await store.read(hash), Buffer.from(bytes));
  assert.equal(await store.render(hash, 1), null);
  await store.putRender(hash, 1, new Uint8Array([137, 80, 78, 71]));
  assert.deepEqual(await store.render(hash, 1), Buffer.from([137, 80, 78, 71]));
});

test('only a SHA-256 names a file, so no name can reach outside the folder', async () => {
  const store = new BidFileStore(await tempDir('bid-file-store-'));
  await assert.rejects(store.put('../../etc/passwd', new Uint8Array([1])), /lowercase hex SHA-256/);
  await assert.rejects(store.render('a'.repeat(64), 0), /page numbers start at 1/);
});
