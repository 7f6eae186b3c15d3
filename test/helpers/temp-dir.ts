import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

const made: string[] = [];
// Registered when a test file imports this module, at the file's top level: it runs once the file's tests
// are done. Pipeline tests leave whole data folders (DuckDB stores, Parquet, sites), gigabytes over many runs.
after(() => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A new folder in the system temp folder, removed when the test file finishes. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
