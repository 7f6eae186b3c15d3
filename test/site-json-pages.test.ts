// The site's loader of site JSON reads a folder of a file per tender (50,000 at production scale) without
// running past the limit on open files, in a child process whose limit is far below the folder's size.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const FILES = 600;
const OPEN_FILES_LIMIT = 200;

test(`a collection of ${FILES} files loads in a process that may open only ${OPEN_FILES_LIMIT} files`, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'json-pages-'));
  try {
    await mkdir(join(dir, 'tenders'));
    for (let i = 0; i < FILES; i += 1) await writeFile(join(dir, 'tenders', `t${String(i).padStart(4, '0')}.json`), JSON.stringify({ n: i }));
    const loader = join(import.meta.dirname, '..', 'site', 'lib', 'json-pages.ts');
    const script = `const { jsonPages } = await import(${JSON.stringify(loader)});
const { entries } = await jsonPages('tenders/', '*.json').loadCollection({});
process.stdout.write(JSON.stringify({ count: entries.length, first: entries[0], last: entries.at(-1) }));`;
    const child = spawnSync('bash', ['-c', `ulimit -n ${OPEN_FILES_LIMIT} && exec "$0" --input-type=module -e "$1"`, process.execPath, script], {
      env: { ...process.env, SITE_JSON_DIR: dir }, encoding: 'utf8',
    });
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), { count: FILES, first: { id: 't0000', data: { n: 0 } }, last: { id: `t0${FILES - 1}`, data: { n: FILES - 1 } } });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
