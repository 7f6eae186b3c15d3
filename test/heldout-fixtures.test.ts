import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

/**
 * Files kept back for an independent check of this project's checkers must never be used here: their hashes
 * (`heldout-sha256.txt`, copied beside this test from the shared corpora so a bare clone checks too) must match
 * no file under fixtures/.
 */
const root = path.resolve(import.meta.dirname, '..');
const hashesOf = (file: string) => new Set(readFileSync(file, 'utf8').split('\n').map((line) => line.trim().split(/\s+/)[0]!.toLowerCase()).filter((hash) => /^[0-9a-f]{64}$/.test(hash)));
const heldOut = hashesOf(path.join(import.meta.dirname, 'heldout-sha256.txt'));
const shared = path.resolve(root, '../shared/corpora/heldout-sha256.txt');

test('the copied list of held-out hashes is whole', () => {
  assert.ok(heldOut.size > 0);
  if (existsSync(shared)) assert.deepEqual([...hashesOf(shared)].filter((hash) => !heldOut.has(hash)), [], 'the shared list has hashes the copy lacks: copy it again');
});

test('no file under fixtures/ is one of the held-out files', () => {
  const files = globSync('fixtures/**/*', { cwd: root, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  assert.ok(files.length > 100);
  const found = files.filter((file) => heldOut.has(createHash('sha256').update(readFileSync(file)).digest('hex')));
  assert.deepEqual(found.map((file) => path.relative(root, file)), []);
});
