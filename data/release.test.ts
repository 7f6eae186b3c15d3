import assert from 'node:assert/strict';
import { open, readdir, readFile, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../test/helpers/temp-dir.ts';
import { Pointer, pointCurrentAt, type Manifest, type PointerFiles } from './release.ts';

const manifest: Manifest = {
  release_id: '20260925T010000000Z',
  computed_at: '2026-09-25T01:00:00.000Z',
  clock: { now: '2026-09-25T01:00:00.000Z', pinned: true, basis: 'fixtures' },
  started_at: '2026-09-25T01:00:00.000Z',
  finished_at: '2026-09-25T01:05:00.000Z',
  schema_version: 1,
  mode: 'fixtures',
  sources: [],
  counts: {},
  stage_timings_ms: {},
  browser: null,
  data_quality: [],
};

/** A file's name, with this process's id in the temporary pointer's name written as PID. */
const nameOf = (path: string) => basename(path).replace(`.tmp-${process.pid}`, '.tmp-PID');

/** The real calls, each recorded as `<call> <file name>` in the order they finish. */
function recordingFiles(calls: string[]): PointerFiles {
  return {
    rename: (async (from: string, to: string) => {
      await rename(from, to);
      calls.push(`rename ${nameOf(from)} -> ${nameOf(to)}`);
    }) as PointerFiles['rename'],
    open: (async (path: string, flags: string) => {
      const handle = await open(path, flags);
      const name = nameOf(path);
      calls.push(`open ${name} ${flags}`);
      return {
        writeFile: async (data: string) => {
          await handle.writeFile(data);
          calls.push(`write ${name}`);
        },
        sync: async () => {
          await handle.sync();
          calls.push(`sync ${name}`);
        },
        close: async () => {
          await handle.close();
          calls.push(`close ${name}`);
        },
      };
    }) as unknown as PointerFiles['open'],
  };
}

describe('pointCurrentAt', () => {
  it('syncs the temporary file before the rename and its folder after, so a power loss cannot leave an empty pointer', async () => {
    const dataDir = await tempDir('pointer-');
    const calls: string[] = [];
    const pointer = await pointCurrentAt(dataDir, manifest, new Date('2026-09-25T01:06:00.000Z'), recordingFiles(calls));
    const folder = basename(dataDir);
    assert.deepEqual(calls, [
      'open current.json.tmp-PID w',
      'write current.json.tmp-PID',
      'sync current.json.tmp-PID',
      'close current.json.tmp-PID',
      'rename current.json.tmp-PID -> current.json',
      `open ${folder} r`,
      `sync ${folder}`,
      `close ${folder}`,
    ]);
    assert.deepEqual(Pointer.parse(JSON.parse(await readFile(join(dataDir, 'current.json'), 'utf8'))), pointer);
    assert.equal(pointer.path, `releases/${manifest.release_id}`);
    assert.deepEqual(await readdir(dataDir), ['current.json'], 'no temporary file is left');
  });

  it('writes the pointer with the real file system by default', async () => {
    const dataDir = await tempDir('pointer-');
    const pointer = await pointCurrentAt(dataDir, manifest, new Date('2026-09-25T01:06:00.000Z'));
    assert.equal(pointer.switched_at, '2026-09-25T01:06:00.000Z');
    assert.deepEqual(Pointer.parse(JSON.parse(await readFile(join(dataDir, 'current.json'), 'utf8'))), pointer);
  });
});
