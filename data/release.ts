import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DataQualityFinding } from './quality.ts';
import { SOURCE_STATUSES } from './schema.ts';

export const SourceRunSummary = z.object({
  id: z.string(),
  status: z.enum(SOURCE_STATUSES),
  why: z.string().nullable(),
  records: z.number().int(),
  invalid: z.number().int(),
  new: z.number().int(),
  updated: z.number().int(),
  closed: z.number().int(),
  pages: z.number().int(),
  errors: z.number().int(),
  duration_ms: z.number().int(),
  /** What the crawl reported without failing: a page it could not fetch, a list it could not read to the end. */
  warnings: z.array(z.string()).default([]),
});
export type SourceRunSummary = z.infer<typeof SourceRunSummary>;

export const Manifest = z.object({
  release_id: z.string(),
  computed_at: z.iso.datetime({ offset: true }),
  clock: z.object({ now: z.iso.datetime({ offset: true }), pinned: z.boolean(), basis: z.string() }),
  started_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }),
  schema_version: z.number().int(),
  /** `synthetic`: built by the benchmark from generated data. */
  mode: z.enum(['live', 'fixtures', 'synthetic']),
  sources: z.array(SourceRunSummary),
  counts: z.record(z.string(), z.number().int()),
  stage_timings_ms: z.record(z.string(), z.number().int()),
  /** The browser the browser-mode sources were crawled with; null when none was launched (or an older release). */
  browser: z.object({
    which: z.enum(['configured', 'system', 'bundled']),
    version: z.string().nullable(),
    executable_path: z.string(),
  }).nullable().default(null),
  /** Release-level data-quality findings (data/quality.ts): cross-source oddities no one source's warnings show. */
  data_quality: z.array(DataQualityFinding).default([]),
});
export type Manifest = z.infer<typeof Manifest>;

export const Pointer = z.object({
  release_id: z.string(),
  path: z.string(),
  computed_at: z.iso.datetime({ offset: true }),
  switched_at: z.iso.datetime({ offset: true }),
});
export type Pointer = z.infer<typeof Pointer>;

export const KEEP_RELEASES = 7;

export function releasesDir(dataDir: string): string {
  return join(dataDir, 'releases');
}

export function currentPointerPath(dataDir: string): string {
  return join(dataDir, 'current.json');
}

export interface CurrentRelease {
  pointer: Pointer;
  manifest: Manifest;
  dir: string;
  storePath: string;
}

/** The release `current.json` points at, or null before the first complete run. */
export async function readCurrentRelease(dataDir: string): Promise<CurrentRelease | null> {
  let text: string;
  try {
    text = await readFile(currentPointerPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const pointer = Pointer.parse(JSON.parse(text));
  const dir = join(dataDir, pointer.path);
  const manifest = Manifest.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
  return { pointer, manifest, dir, storePath: join(dir, 'store.duckdb') };
}

/** The file system calls `pointCurrentAt` makes: the real ones by default, a recording fake in tests. */
export interface PointerFiles {
  open: typeof open;
  rename: typeof rename;
}

/**
 * Moves `current.json` to a complete release: write a temp file, then rename (atomic on one filesystem).
 * The temp file is synced before the rename and the folder after it, so a power loss leaves either the old
 * pointer or the new one, never an empty file or a rename the disk never recorded.
 */
export async function pointCurrentAt(dataDir: string, manifest: Manifest, switchedAt: Date, files: PointerFiles = { open, rename }): Promise<Pointer> {
  const pointer: Pointer = {
    release_id: manifest.release_id,
    path: `releases/${manifest.release_id}`,
    computed_at: manifest.computed_at,
    switched_at: switchedAt.toISOString(),
  };
  const target = currentPointerPath(dataDir);
  const temp = `${target}.tmp-${process.pid}`;
  const file = await files.open(temp, 'w');
  try {
    await file.writeFile(`${JSON.stringify(pointer, null, 2)}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  await files.rename(temp, target);
  const folder = await files.open(dataDir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
  return pointer;
}

/** Release ids sort by creation: UTC wall-clock time to the millisecond. */
export function newReleaseId(wallClock: Date): string {
  return wallClock.toISOString().replace(/[-:]/g, '').replace('.', '');
}

export async function listReleaseIds(dataDir: string): Promise<string[]> {
  try {
    const entries = await readdir(releasesDir(dataDir), { withFileTypes: true });
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Deletes all but the newest `keep` complete releases, never the one `current.json` points at. */
export async function pruneReleases(dataDir: string, currentId: string, keep = KEEP_RELEASES): Promise<string[]> {
  const ids = await listReleaseIds(dataDir);
  const doomed = ids.slice(0, Math.max(0, ids.length - keep)).filter((id) => id !== currentId);
  for (const id of doomed) await rm(join(releasesDir(dataDir), id), { recursive: true, force: true });
  return doomed;
}

/** Removes the work folders of runs that died before publishing (they start with a dot). */
export async function removeAbandonedWork(dataDir: string): Promise<string[]> {
  await mkdir(releasesDir(dataDir), { recursive: true });
  const entries = await readdir(releasesDir(dataDir), { withFileTypes: true });
  const abandoned = entries.filter((e) => e.isDirectory() && e.name.startsWith('.work-')).map((e) => e.name);
  for (const name of abandoned) await rm(join(releasesDir(dataDir), name), { recursive: true, force: true });
  return abandoned;
}
