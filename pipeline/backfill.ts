import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { HostGate } from '../lib/host-gate.ts';
import type { HistoricWalk, Politeness, SourceDefinition } from '../sources/_contract/define-source.ts';
import { loadRegistry } from '../sources/_contract/registry.ts';
import { crawlSource } from './crawl.ts';
import { readFixtureMeta } from './fixture-meta.ts';
import { FixtureServer } from './fixture-server.ts';
import { runNightly, type NightlyResult } from './nightly.ts';
import { backfillDir } from './backfill-staging.ts';
import { acquireRunLock } from './run-lock.ts';
import { StagingWriter, stagingPath, STAGING_SUFFIX } from './staging.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** kingfisher-collect walks AusTender in 7-day windows: about 1,300 releases, some 13 pages of 100, a window. */
export const DEFAULT_WINDOW_DAYS = 7;

/** One window walked to its end, as the checkpoint keeps it. */
const CompletedWindow = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  records: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  finished_at: z.iso.datetime(),
});
type CompletedWindow = z.infer<typeof CompletedWindow>;

/** `backfill/<source>/checkpoint.json`: the windows walked to their end, oldest first. */
const Checkpoint = z.object({ source: z.string(), completed: z.array(CompletedWindow) });
type Checkpoint = z.infer<typeof Checkpoint>;

export interface Window {
  from: Date;
  /** Inclusive: the second before the next window starts. */
  to: Date;
}

export interface BackfillOptions {
  dataDir: string;
  sourceId: string;
  /** The first day walked (UTC midnight); the source's earliest day when earlier. */
  from: Date;
  /** The walk ends just before this instant. */
  to: Date;
  windowDays?: number;
  /** Crawl the recorded fixtures on a loopback server instead of the live source. */
  fixtures: boolean;
  fixturesRoot?: string;
  /** The run's clock: a window not yet over by then is walked but not recorded as complete. Fixtures' capture date, else the system clock. */
  now?: Date;
  registry?: SourceDefinition[];
  politeness?: Partial<Politeness>;
  /** Publish a release holding the walked windows once the walk ends (the nightly's build, for this source); else the next nightly loads them. */
  publish: boolean;
  onWindow?: (report: WindowReport) => void;
}

export interface WindowReport {
  window: Window;
  outcome: 'skipped' | 'complete' | 'open';
  records: number;
  pages: number;
}

export interface BackfillResult {
  windows: number;
  skipped: number;
  crawled: number;
  records: number;
  /** The window the walk stopped at, when one could not be read to its end; the windows before it are kept. */
  stopped: { window: Window; diagnosis: string } | null;
  published: NightlyResult | null;
}

/**
 * Walks a source's history window by window through the crawler (the source's politeness, robots.txt and
 * retries), stages each window in the nightly's staging format, and records it in the checkpoint once it has
 * been read to its end. A re-run skips the windows the checkpoint holds, so an interrupted walk resumes where
 * it stopped and a later range fetches only what is new. Rows are never duplicated: a window is staged under
 * one file name (a re-read replaces it) and the award model keeps one row per release id.
 */
export async function runBackfill(options: BackfillOptions): Promise<BackfillResult> {
  const registry = options.registry ?? (await loadRegistry());
  const source = registry.find((s) => s.id === options.sourceId);
  if (!source) throw new Error(`unknown source id ${options.sourceId}; known: ${registry.map((s) => s.id).join(', ')}`);
  const historic = source.historic;
  if (!historic) throw new Error(`source ${source.id} has no historic walk; sources with one: ${registry.filter((s) => s.historic).map((s) => s.id).join(', ') || 'none'}`);
  const dir = backfillDir(options.dataDir, source.id);
  await mkdir(join(dir, 'pending'), { recursive: true });
  const releaseLock = await acquireRunLock(dir, 'backfill');
  const fixtureServer = options.fixtures ? new FixtureServer({ root: options.fixturesRoot }) : null;
  try {
    await fixtureServer?.start();
    const now = options.now ?? (options.fixtures ? new Date((await readFixtureMeta(source.id, options.fixturesRoot)).captured_at) : new Date());
    const from = new Date(Math.max(options.from.getTime(), Date.parse(`${historic.earliest}T00:00:00Z`)));
    const windows = backfillWindows(from, new Date(Math.min(options.to.getTime(), now.getTime())), options.windowDays ?? DEFAULT_WINDOW_DAYS);
    const walk = await walkWindows(windows, {
      source, historic, dir, now, options,
      base: fixtureServer ? fixtureServer.baseFor(source.id) : new URL(source.origin).origin,
      gate: new HostGate({ scale: options.fixtures ? 0 : 1 }),
    });
    const published = options.publish && walk.crawled > 0 && !walk.stopped
      ? await runNightly({ dataDir: options.dataDir, fixtures: options.fixtures, fixturesRoot: options.fixturesRoot, now: options.now, sourceIds: [source.id], registry, politeness: options.politeness, digests: false })
      : null;
    return { windows: windows.length, ...walk, published };
  } finally {
    await fixtureServer?.stop();
    await releaseLock();
  }
}

/** Windows of `windowDays` from `from` up to just before `to`; the last one ends at `to`. */
export function backfillWindows(from: Date, to: Date, windowDays: number): Window[] {
  if (!Number.isInteger(windowDays) || windowDays < 1) throw new Error(`the window must be a whole number of days, at least 1; got ${windowDays}`);
  const windows: Window[] = [];
  for (let start = from.getTime(); start < to.getTime(); start += windowDays * DAY_MS) {
    const end = Math.min(start + windowDays * DAY_MS, to.getTime());
    windows.push({ from: new Date(start), to: new Date(end - 1000) });
  }
  return windows;
}

interface WalkContext {
  source: SourceDefinition;
  historic: HistoricWalk;
  dir: string;
  now: Date;
  base: string;
  gate: HostGate;
  options: BackfillOptions;
}

/** Reads each window the checkpoint does not hold, in order, stopping at the first that cannot be read to its end. */
async function walkWindows(windows: Window[], walk: WalkContext): Promise<Omit<BackfillResult, 'windows' | 'published'>> {
  const checkpoint = await readCheckpoint(walk.dir, walk.source.id);
  const tally = { skipped: 0, crawled: 0, records: 0 };
  for (const window of windows) {
    if (covered(window, checkpoint.completed)) {
      tally.skipped += 1;
      walk.options.onWindow?.({ window, outcome: 'skipped', records: 0, pages: 0 });
      continue;
    }
    const read = await readWindow(window, walk);
    if ('diagnosis' in read) return { ...tally, stopped: { window, diagnosis: read.diagnosis } };
    tally.crawled += 1;
    tally.records += read.records;
    // A window not yet over is staged (its rows are real) but read again next time, when it may hold more.
    const over = window.to.getTime() < walk.now.getTime() - 1000;
    if (over) {
      checkpoint.completed.push({ from: window.from.toISOString(), to: window.to.toISOString(), records: read.records, pages: read.pages, finished_at: new Date().toISOString() });
      await writeCheckpoint(walk.dir, checkpoint);
    }
    walk.options.onWindow?.({ window, outcome: over ? 'complete' : 'open', records: read.records, pages: read.pages });
  }
  return { ...tally, stopped: null };
}

/**
 * Crawls one window into a work folder of its own, then moves its staging file into `pending/` under the
 * window's name: a crash before the move leaves nothing behind but the work folder (removed on the next try),
 * a crash after it but before the checkpoint re-reads the window into the same name.
 */
async function readWindow(window: Window, walk: WalkContext): Promise<{ records: number; pages: number } | { diagnosis: string }> {
  const { source, historic } = walk;
  const workDir = join(walk.dir, `.window-${stamp(window.from)}`);
  await rm(workDir, { recursive: true, force: true });
  await mkdir(join(workDir, 'staging'), { recursive: true });
  const staging = new StagingWriter(workDir, source);
  try {
    const result = await crawlSource({
      source: { ...source, start: (ctx) => historic.start(ctx, window) },
      base: walk.base, now: walk.now, lastSuccessAt: null, gate: walk.gate, politeness: walk.options.politeness, offline: walk.options.fixtures, sink: staging, workDir,
    });
    // why: a cursor walk that lost a page has lost every page after it, so a window with any error is not complete
    const problem = result.refused ? `${result.refused}: ${result.diagnosis}` : result.failed ? result.diagnosis : result.errors > 0 ? `${result.errors} request(s) failed` : null;
    if (problem !== null) {
      staging.discard();
      return { diagnosis: problem };
    }
    staging.close();
    for (const type of source.kinds.map(recordTypeOf)) {
      const staged = stagingPath(workDir, source.id, type);
      if (existsSync(staged)) await rename(staged, join(walk.dir, 'pending', `${source.id}.backfill-${stamp(window.from)}.${STAGING_SUFFIX[type]}`));
    }
    return { records: result.recordCount, pages: result.pages };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function recordTypeOf(kind: SourceDefinition['kinds'][number]): keyof typeof STAGING_SUFFIX {
  return kind === 'grant' ? 'tender' : kind;
}

/** True when the completed windows, joined where they meet, hold all of `window`. */
function covered(window: Window, completed: CompletedWindow[]): boolean {
  const spans = completed.map((c) => [Date.parse(c.from), Date.parse(c.to)] as const).sort((a, b) => a[0] - b[0]);
  let reach = window.from.getTime() - 1000;
  for (const [from, to] of spans) {
    if (from > reach + 1000) continue;
    reach = Math.max(reach, to);
    if (reach >= window.to.getTime()) return true;
  }
  return false;
}

async function readCheckpoint(dir: string, sourceId: string): Promise<Checkpoint> {
  const path = join(dir, 'checkpoint.json');
  if (!existsSync(path)) return { source: sourceId, completed: [] };
  return Checkpoint.parse(JSON.parse(await readFile(path, 'utf8')));
}

/** Written aside and renamed: a crash mid-write leaves the previous checkpoint whole. */
async function writeCheckpoint(dir: string, checkpoint: Checkpoint): Promise<void> {
  const path = join(dir, 'checkpoint.json');
  await writeFile(`${path}.tmp`, `${JSON.stringify(checkpoint, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

/** `2007-01-01T000000Z`: sortable and safe in a file name. */
function stamp(instant: Date): string {
  return instant.toISOString().slice(0, 19).replaceAll(':', '').concat('Z');
}
