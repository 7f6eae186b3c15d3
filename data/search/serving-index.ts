import { execFile } from 'node:child_process';
import { access, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openStore } from '../store.ts';
import { AwardIndex, AwardIndexParts, readAwardIndex } from './award-index.ts';
import { readIndexFile, writeIndexFile, type IndexFileHandle } from './index-file.ts';
import { readTenderIndex } from './read-tenders.ts';
import { TenderIndex, TenderIndexParts } from './tender-index.ts';

/**
 * The serving index of a release: its tenders' search index and its awards' list index, built by the nightly
 * run from the release's store and saved beside it in `index/`. The API loads these files (typed arrays used
 * in place, the bulky text left on disk) instead of reading a million rows out of DuckDB into JS objects,
 * which left the API process holding about a gigabyte.
 */

const INDEX_DIR = 'index';
// The layout version is in the names: an API meeting a release indexed by an older layout builds the current
// one for it (see hasServingIndex) rather than misreading it. v3: award page fields in the blocks, uncompressed;
// tenders v4: the trade's name is a searched field.
const TENDERS_FILE = 'tenders.v4.idx';
const AWARDS_FILE = 'awards.v3.idx';

export interface ServingIndexSummary {
  tenders: number;
  awards: number;
  bytes: number;
}

/** Builds both indexes from `<releaseDir>/store.duckdb` and writes `<releaseDir>/index/` (whole or not at all). */
export async function writeServingIndex(releaseDir: string): Promise<ServingIndexSummary> {
  const storePath = join(releaseDir, 'store.duckdb');
  const store = await openStore(storePath, { readOnly: true });
  const building = join(releaseDir, `${INDEX_DIR}.building-${process.pid}`);
  try {
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { recursive: true });
    const tenders = await readTenderIndex(store);
    let bytes = await writeIndexFile(join(building, TENDERS_FILE), tenders.parts);
    const awards = await readAwardIndex(store, storePath);
    bytes += await writeIndexFile(join(building, AWARDS_FILE), awards.parts);
    await rm(join(releaseDir, INDEX_DIR), { recursive: true, force: true });
    await rename(building, join(releaseDir, INDEX_DIR));
    return { tenders: tenders.size, awards: awards.size, bytes };
  } finally {
    store.close();
    await rm(building, { recursive: true, force: true });
  }
}

/** Whether the release holds its serving index in the current layout (releases published before it do not). */
export async function hasServingIndex(releaseDir: string): Promise<boolean> {
  const present = (file: string) => access(join(releaseDir, INDEX_DIR, file)).then(() => true, () => false);
  return (await present(TENDERS_FILE)) && (await present(AWARDS_FILE));
}

/**
 * The release's tender index. The rows' JSON stays in the file, read by range as replies need them (the
 * OS page cache keeps the busy ones): it is the largest part, and a reply reads twenty rows of it. Close
 * the index when the release is retired.
 */
export async function readServingTenders(releaseDir: string): Promise<TenderIndex> {
  return readServing(join(releaseDir, INDEX_DIR, TENDERS_FILE), ['rowText'], (value, handle) => TenderIndex.fromParts(TenderIndexParts.parse(value), handle));
}

/**
 * The release's award index. Its blocks of page fields and its postings lists stay in the file likewise:
 * a query reads the few lists it filters on and a page reads a block or two. Close it when the release is retired.
 */
export async function readServingAwards(releaseDir: string): Promise<AwardIndex> {
  return readServing(join(releaseDir, INDEX_DIR, AWARDS_FILE), ['blocks', 'positions'], (value, handle) => AwardIndex.fromParts(AwardIndexParts.parse(value), handle));
}

/** An index from its file, the named parts left on disk; the file is closed again if the index cannot be made. */
async function readServing<T>(path: string, leaveOnDisk: string[], build: (value: unknown, handle: IndexFileHandle | null) => T): Promise<T> {
  const { value, handle } = await readIndexFile(path, { leaveOnDisk });
  try {
    return build(value, handle);
  } catch (error) {
    handle?.close();
    throw error;
  }
}

/**
 * Writes a release's serving index in a child process, so the caller (the API, given a release from before
 * serving indexes) never holds the rows the build reads.
 */
export async function writeServingIndexApart(releaseDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), releaseDir], { maxBuffer: 1 << 20 });
}

if (import.meta.main) {
  const releaseDir = process.argv[2];
  if (!releaseDir) {
    console.error('usage: node data/search/serving-index.ts <release-dir>');
    process.exit(2);
  }
  const summary = await writeServingIndex(releaseDir);
  console.log(`serving index: ${summary.tenders} tenders, ${summary.awards} awards, ${(summary.bytes / 2 ** 20).toFixed(1)} MB`);
}
