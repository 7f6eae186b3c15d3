import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import PQueue from 'p-queue';
import { dropWorkingTables, exportParquet, loadPrevious, loadStaging, prepareWorkingTables, runModels, type HttpValidator, type SourceRun } from '../data/build.ts';
import { publishDictionary } from '../data/dictionary.ts';
import { dataQualityFindings } from '../data/quality.ts';
import { writeServingIndex } from '../data/search/serving-index.ts';
import {
  Manifest, newReleaseId, pointCurrentAt, pruneReleases, readCurrentRelease, releasesDir, removeAbandonedWork,
  type CurrentRelease,
} from '../data/release.ts';
import { SCHEMA_VERSION } from '../data/schema.ts';
import { openStore } from '../data/store.ts';
import type { Politeness, SourceDefinition } from '../sources/_contract/define-source.ts';
import { loadRegistry } from '../sources/_contract/registry.ts';
import { clearLoadedBackfill, stagePendingBackfill } from './backfill-staging.ts';
import { crawlSource } from './crawl.ts';
import { emptyCrawlResult, type SourceCrawlResult } from './crawl/result.ts';
import { sendDigests, type DigestOptions, type DigestSummary } from './digests.ts';
import { readFixtureMeta } from './fixture-meta.ts';
import { FixtureServer, type Fault } from './fixture-server.ts';
import { HostGate } from '../lib/host-gate.ts';
import { progressReporter, type ProgressReporter } from './progress.ts';
import { publishSite, type SiteOutcome } from './site-build.ts';
import { writeSiteJson } from './site-json.ts';
import { acquireRunLock, holdPublishLock } from './run-lock.ts';
import { databaseUrl } from '../lib/config.ts';
import { StagingWriter } from './staging.ts';

export interface NightlyOptions {
  dataDir: string;
  /** Crawl the recorded fixtures on a loopback server instead of the live sources. */
  fixtures: boolean;
  /** The run's clock; defaults to the fixtures' capture date in fixture mode, the system clock live. */
  now?: Date;
  sourceIds?: string[];
  /** Fixture mode only: make a source fail (HTTP 500 or a hang). */
  faults?: Record<string, Fault>;
  /** Fixture mode only: the recorded night to serve (`night-2`); sources without one serve their base recording. */
  night?: string;
  politeness?: Partial<Politeness>;
  /** How many sources are crawled at once. */
  concurrency?: number;
  progress?: ProgressReporter;
  registry?: SourceDefinition[];
  fixturesRoot?: string;
  /**
   * The state store's PostgreSQL (default `DATABASE_URL`): when set, the run holds its publish lock there, so two cron
   * hosts sharing one release folder never run at once (pipeline/run-lock.ts).
   */
  databaseUrl?: string | undefined;
  /** Watch emails once the release is out (pipeline/digests.ts): where mail goes and links point, or false for none. */
  digests?: Pick<DigestOptions, 'mailer' | 'publicUrl' | 'log'> | false;
}

export interface NightlyResult {
  /** Watch emails sent after publishing; null when turned off or when the step failed (it never fails the run). */
  digests: DigestSummary | null;
  /**
   * The release's manifest as written, with the publish stage's time added: that is known only once the
   * release is out, and a published release's manifest is never rewritten.
   */
  manifest: Manifest;
  releaseDir: string;
  /** The static site's build: a failed build still publishes the release (see pipeline/site-build.ts). */
  site: SiteOutcome;
}

/** One nightly run: crawl → load → model → export → index → site → publish. Throws only when no release could be produced. */
export async function runNightly(options: NightlyOptions): Promise<NightlyResult> {
  const startedAt = new Date();
  const progress = options.progress ?? progressReporter();
  const releases = releasesDir(options.dataDir);
  await mkdir(releases, { recursive: true });
  // PostgreSQL's lock first: the folder's lock tells a live process only from this host's pids.
  const publishLock = await holdPublishLock('databaseUrl' in options ? options.databaseUrl : databaseUrl());
  const releaseLock = await acquireRunLock(releases).catch(async (error: unknown) => {
    await publishLock?.release();
    throw error;
  });
  const releaseId = newReleaseId(startedAt);
  const workDir = join(releases, `.work-${releaseId}`);
  let published = false;
  try {
    await removeAbandonedWork(options.dataDir);
    const registry = options.registry ?? (await loadRegistry());
    const selected = selectSources(registry, options.sourceIds);
    const previous = await readCurrentRelease(options.dataDir);
    const clock = await runClock(options, selected);
    const stages = stageTimer(progress);
    await mkdir(join(workDir, 'staging'), { recursive: true });
    const results = await crawlStage(selected, { options, previous, now: clock.now, workDir, progress, stages });
    // Windows `npm run backfill` walked since the last release load with tonight's crawl (pipeline/backfill.ts).
    const backfilled = await stagePendingBackfill(options.dataDir, join(workDir, 'staging'));
    const built = await buildStore(registry, results, { previous, now: clock.now, releaseId, workDir, stages });
    await stages.time('index', () => writeServingIndex(workDir));
    const site = await stages.time('site', () => publishSite(workDir));
    const manifest = Manifest.parse({
      release_id: releaseId,
      computed_at: clock.now.toISOString(),
      clock: { now: clock.now.toISOString(), pinned: clock.pinned, basis: clock.basis },
      started_at: startedAt.toISOString(),
      finished_at: built.finishedAt.toISOString(),
      schema_version: SCHEMA_VERSION,
      mode: options.fixtures ? 'fixtures' : 'live',
      sources: built.summaries.sources.filter((s) => results.has(s.id)).map((s) => ({ ...s, records: results.get(s.id)!.recordCount, warnings: results.get(s.id)!.warnings })),
      counts: built.summaries.counts,
      stage_timings_ms: { ...stages.timings },
      browser: browserUsed(results),
      data_quality: built.dataQuality,
    });
    const releaseDir = join(releases, releaseId);
    await publishLock?.confirmHeld();
    await stages.time('publish', () => publishRelease(options.dataDir, workDir, releaseDir, manifest));
    published = true;
    await clearLoadedBackfill(backfilled);
    const digests = await emailDigests(options, progress, join(releaseDir, 'store.duckdb'), clock.now);
    progress.done();
    return { manifest: { ...manifest, stage_timings_ms: { ...manifest.stage_timings_ms, publish: stages.timings.publish! } }, releaseDir, site, digests };
  } finally {
    if (!published) await rm(workDir, { recursive: true, force: true });
    await releaseLock();
    await publishLock?.release();
  }
}

/** Runs each stage under its name on the progress display and keeps how long it took. */
function stageTimer(progress: ProgressReporter) {
  const timings: Record<string, number> = {};
  return {
    timings,
    async time<T>(stage: string, work: () => Promise<T>): Promise<T> {
      progress.stage(stage);
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[stage] = Math.round(performance.now() - started);
      }
    },
  };
}
type StageTimer = ReturnType<typeof stageTimer>;

/** Crawls the selected sources, from the fixture server in fixture mode, staging their records under the work folder. */
async function crawlStage(
  selected: SourceDefinition[],
  run: { options: NightlyOptions; previous: CurrentRelease | null; now: Date; workDir: string; progress: ProgressReporter; stages: StageTimer },
): Promise<Map<string, SourceCrawlResult>> {
  const { options, previous, workDir } = run;
  const remembered = previous ? await rememberedBySource(previous) : { lastSuccess: new Map<string, Date>(), validators: new Map<string, HttpValidator[]>() };
  const fixtureServer = options.fixtures ? new FixtureServer({ root: options.fixturesRoot, faults: options.faults, night: options.night }) : null;
  await fixtureServer?.start();
  try {
    return await run.stages.time('crawl', () =>
      crawlAll(selected, {
        baseFor: (source) => (fixtureServer ? fixtureServer.baseFor(source.id) : new URL(source.origin).origin),
        now: run.now,
        lastSuccess: remembered.lastSuccess,
        validators: remembered.validators,
        gate: new HostGate({ scale: options.fixtures ? 0 : 1 }),
        politeness: options.politeness,
        offline: options.fixtures,
        concurrency: options.concurrency ?? 4,
        progress: run.progress,
        workDir,
      }),
    );
  } finally {
    await fixtureServer?.stop();
  }
}

/** Load, model and export: the release's store, Parquet, dictionary and site JSON, built in the work folder. */
async function buildStore(
  registry: SourceDefinition[],
  results: Map<string, SourceCrawlResult>,
  run: { previous: CurrentRelease | null; now: Date; releaseId: string; workDir: string; stages: StageTimer },
) {
  const { previous, now, workDir, stages } = run;
  const store = await openStore(join(workDir, 'store.duckdb'));
  try {
    const sourceRuns = registry.map((source) => sourceRun(source, results.get(source.id)));
    await stages.time('load', async () => {
      await prepareWorkingTables(store, { runAt: now, releaseId: run.releaseId, previousRunAt: previous ? new Date(previous.manifest.computed_at) : null }, sourceRuns);
      await loadStaging(store, join(workDir, 'staging'));
      if (previous) await loadPrevious(store, previous.storePath);
    });
    const dataQuality = await stages.time('model', async () => {
      await runModels(store);
      await dropWorkingTables(store);
      return dataQualityFindings(store);
    });
    const summaries = await stages.time('export', async () => {
      await exportParquet(store, join(workDir, 'parquet'));
      await publishDictionary(store, workDir);
      return writeSiteJson(store, join(workDir, 'site-json'), { computedAt: now.toISOString(), now });
    });
    // finished_at marks the end of the export; the stages after it are timed in stage_timings_ms.
    const finishedAt = new Date();
    await store.exec('CHECKPOINT');
    return { dataQuality, summaries, finishedAt };
  } finally {
    store.close();
    await rm(join(workDir, 'staging'), { recursive: true, force: true });
  }
}

/**
 * Writes the manifest, the release's last file, then moves the finished folder into place and points
 * current.json at it: the manifest is written once, and a release is complete before anyone can see it.
 */
async function publishRelease(dataDir: string, workDir: string, releaseDir: string, manifest: Manifest): Promise<void> {
  await writeFile(join(workDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(workDir, releaseDir);
  await pointCurrentAt(dataDir, manifest, new Date());
  await pruneReleases(dataDir, manifest.release_id);
}

/** Watch emails for the release just published. The release is out whatever happens here, so a failure is logged, never thrown. */
async function emailDigests(options: NightlyOptions, progress: ProgressReporter, storePath: string, now: Date): Promise<DigestSummary | null> {
  if (options.digests === false) return null;
  progress.stage('digests');
  const log = options.digests?.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  try {
    return await sendDigests({ ...options.digests, log, dataDir: options.dataDir, release: { storePath, computedAt: now.toISOString(), now } });
  } catch (error) {
    log(`digests: no watch emails were sent tonight: ${(error as Error).message}`);
    return null;
  }
}

function selectSources(registry: SourceDefinition[], ids: string[] | undefined): SourceDefinition[] {
  if (!ids || ids.length === 0) return registry;
  const unknown = ids.filter((id) => !registry.some((s) => s.id === id));
  if (unknown.length) throw new Error(`unknown source id(s): ${unknown.join(', ')}; known: ${registry.map((s) => s.id).join(', ')}`);
  return registry.filter((s) => ids.includes(s.id));
}

async function runClock(options: NightlyOptions, selected: SourceDefinition[]): Promise<{ now: Date; pinned: boolean; basis: string }> {
  if (options.now) return { now: options.now, pinned: true, basis: '--now' };
  if (!options.fixtures) return { now: new Date(), pinned: false, basis: 'system clock' };
  // Fixture mode pins the clock to the capture date, so "open" and "closing soon" mean what they meant then.
  const captured = await Promise.all(selected.map(async (s) => Date.parse((await readFixtureMeta(s.id, options.fixturesRoot, options.night)).captured_at)));
  return { now: new Date(Math.max(...captured)), pinned: true, basis: options.night ? `fixtures capture date (${options.night})` : 'fixtures capture date' };
}

/** What the previous release remembers per source: its last good run, and the validators of its snapshot files. */
async function rememberedBySource(previous: CurrentRelease): Promise<{ lastSuccess: Map<string, Date>; validators: Map<string, HttpValidator[]> }> {
  const store = await openStore(previous.storePath, { readOnly: true });
  try {
    const rows = await store.all<{ id: string; last_success_at: string | null }>(
      `SELECT id, strftime(last_success_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS last_success_at FROM sources`,
    );
    const lastSuccess = new Map(rows.filter((r) => r.last_success_at).map((r) => [r.id, new Date(r.last_success_at!)]));
    const validators = new Map<string, HttpValidator[]>();
    // A release written before validators were kept has no such table: everything is fetched whole.
    const [kept] = await store.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM information_schema.tables WHERE table_name = 'http_validators'`);
    if (kept && kept.n > 0) {
      const saved = await store.all<HttpValidator & { source: string }>(
        `SELECT source, url, etag, last_modified, strftime(fetched_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS fetched_at FROM http_validators ORDER BY source, url`,
      );
      for (const { source, ...validator } of saved) validators.set(source, [...(validators.get(source) ?? []), validator]);
    }
    return { lastSuccess, validators };
  } finally {
    store.close();
  }
}

interface CrawlAllOptions {
  baseFor(source: SourceDefinition): string;
  now: Date;
  lastSuccess: Map<string, Date>;
  validators: Map<string, HttpValidator[]>;
  gate: HostGate;
  politeness?: Partial<Politeness>;
  offline: boolean;
  concurrency: number;
  progress: ProgressReporter;
  workDir: string;
}

/**
 * Crawls sources concurrently; a failing source is recorded, never fatal. Records are staged as they are
 * emitted, and a source that fails or is refused has what it staged removed: only good crawls load.
 */
async function crawlAll(sources: SourceDefinition[], options: CrawlAllOptions): Promise<Map<string, SourceCrawlResult>> {
  const queue = new PQueue({ concurrency: options.concurrency });
  const results = new Map<string, SourceCrawlResult>();
  await Promise.all(
    sources.map((source) =>
      queue.add(async () => {
        options.progress.sourceStarted(source.id);
        let result: SourceCrawlResult;
        const staging = new StagingWriter(options.workDir, source);
        try {
          result = await crawlSource({
            source,
            base: options.baseFor(source),
            now: options.now,
            lastSuccessAt: options.lastSuccess.get(source.id) ?? null,
            gate: options.gate,
            politeness: options.politeness,
            offline: options.offline,
            onProgress: (p) => options.progress.sourceProgress(source.id, p),
            sink: staging,
            validators: options.validators.get(source.id) ?? [],
            workDir: options.workDir,
          });
        } catch (error) {
          // An adapter that throws outside a request (a bad start(), say) fails its source, not the run.
          result = { ...emptyCrawlResult(), errors: 1, failed: true, diagnosis: `crawler error: ${(error as Error).message.split('\n')[0]}` };
        }
        if (result.failed || result.refused) staging.discard();
        else staging.close();
        results.set(source.id, result);
        options.progress.sourceFinished(
          source.id,
          result.refused ? `${result.refused}: ${result.diagnosis}`
            : result.failed ? `failed: ${result.diagnosis}`
            : result.notModifiedSince ? `not modified since ${result.notModifiedSince.toISOString()}, ${result.errors} errors`
            : `${result.recordCount} records, ${result.invalid.length} invalid, ${result.errors} errors, ${result.warnings.length} warnings`,
        );
      }),
    ),
  );
  return results;
}

/** The browser of tonight's browser-mode sources (one resolution rule, so one browser). */
function browserUsed(results: Map<string, SourceCrawlResult>): Manifest['browser'] {
  const browser = [...results.values()].find((result) => result.browser)?.browser;
  return browser ? { which: browser.which, version: browser.version ?? null, executable_path: browser.executablePath } : null;
}

function sourceRun(source: SourceDefinition, result: SourceCrawlResult | undefined): SourceRun {
  const invalidNote = result && result.invalid.length ? `${result.invalid.length} invalid record(s), first: ${result.invalid[0]!.problem}` : null;
  return {
    id: source.id,
    tag: source.tag,
    name: source.name,
    jurisdiction: source.jurisdiction,
    tier: source.tier,
    kinds: source.kinds,
    mode: source.mode,
    refresh: source.refresh ?? 'incremental',
    homepage: source.homepage,
    licence: source.licence,
    attribution: source.attribution,
    caveats: source.caveats,
    attempted: result !== undefined,
    failed: result?.failed ?? false,
    refused: result?.refused ?? null,
    diagnosis: result?.diagnosis ?? invalidNote,
    records: result?.recordCount ?? 0,
    invalid: result?.invalid.length ?? 0,
    pages: result?.pages ?? 0,
    errors: result?.errors ?? 0,
    duration_ms: result?.durationMs ?? 0,
    not_modified_since: result?.notModifiedSince?.toISOString() ?? null,
    validators: result?.validators ?? [],
  };
}
