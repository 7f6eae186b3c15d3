import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildCorpus, corpusFolder, manifestOf } from './helpers/warrant-corpus/build.ts';

const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

test('the committed warrant corpus is exactly what the builder makes', async () => {
  const files = await buildCorpus();
  assert.equal(readFileSync(join(corpusFolder, 'manifest.json'), 'utf8'), manifestOf(files));
  const committed = ['clean', 'edited'].flatMap((folder) => readdirSync(join(corpusFolder, folder)).map((name) => `${folder}/${name}`)).sort();
  assert.deepEqual(committed, files.map((file) => file.entry.file).sort());
  const differing = files.filter((file) => digest(readFileSync(join(corpusFolder, file.entry.file))) !== digest(file.bytes)).map((file) => file.entry.file);
  assert.deepEqual(differing, [], 'rebuild with: node test/helpers/warrant-corpus/build.ts --write');
  // The sizes the issue asks for: 60 clean originals and 60 edited copies over at least 12 kinds of edit.
  const clean = files.filter((file) => file.entry.status === 'clean');
  const edited = files.filter((file) => file.entry.status === 'edited');
  assert.ok(clean.length >= 60 && edited.length >= 60, `${clean.length} clean, ${edited.length} edited`);
  assert.ok(new Set(edited.map((file) => file.entry.edit_kind)).size >= 12);
  assert.ok(new Set(clean.map((file) => file.entry.producer)).size >= 6);
});
