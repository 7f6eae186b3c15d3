import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { dropWorkingTables, exportParquet, loadStaging, prepareWorkingTables, runModels, type SourceRun } from '../data/build.ts';
import { openStore, type Store } from '../data/store.ts';
import { generateStaging, type SyntheticScale } from './generate.ts';

export interface PipelineBenchResult {
  /** Mean of the pipeline's two runs. */
  oursMs: number;
  /** Mean of raw DuckDB's two replays. */
  rawMs: number;
  /** Each run in the order taken: pipeline, raw, raw, pipeline. */
  runsMs: { ours: [number, number]; raw: [number, number] };
  /** The pipeline's time per stage, mean of its two runs. */
  stageMs: Record<string, number>;
  /** The raw replays' time per stage (the same statements our stage issued), mean of the two. */
  rawStageMs: Record<string, number>;
  rows: Record<string, number>;
}

interface TimedRun { ms: number; stageMs: Record<string, number> }
interface RecordedStatement { stage: string; sql: string }

const BENCH_SOURCES: SourceRun[] = ['bench_source_0', 'bench_source_1', 'bench_source_2', 'bench_awards', 'bench_plans'].map((id) => ({
  id, tag: id, name: id, jurisdiction: 'AU', tier: 'state', kinds: [id === 'bench_awards' ? 'award' : id === 'bench_plans' ? 'plan' : 'tender'], mode: 'html',
  homepage: 'https://example.gov.au', licence: 'synthetic', attribution: 'synthetic', caveats: [],
  attempted: true, failed: false, refused: null, diagnosis: null, records: 1, invalid: 0, pages: 1, errors: 0, duration_ms: 0,
}));

/**
 * (a) load + model + export through the pipeline's own code, against raw DuckDB replaying exactly the SQL
 * the pipeline issued (recorded during our first run) on a fresh database: the ratio is our overhead. The runs
 * go pipeline, raw, raw, pipeline, and each side's mean is compared, so a machine whose load or page cache
 * drifts through the minutes of the measurement weighs on both sides alike (a single run in a fixed order put
 * 7% between them at all of history, where the SQL is the same).
 */
export async function benchPipeline(workDir: string, scale: SyntheticScale): Promise<PipelineBenchResult> {
  await rm(workDir, { recursive: true, force: true });
  const stagingDir = join(workDir, 'staging');
  await generateStaging(stagingDir, scale);

  // The first pipeline run's folder stays: the bench publishes its store and checks its OCDS export.
  const ourDir = join(workDir, 'ours');
  const recorded: RecordedStatement[] = [];
  const ours1 = await runPipeline(ourDir, stagingDir, recorded);
  const rows = await countRows(join(ourDir, 'store.duckdb'));
  const raw1 = await replayRaw(join(workDir, 'raw'), recorded, ourDir);
  const raw2 = await replayRaw(join(workDir, 'raw'), recorded, ourDir);
  const ours2 = await runPipeline(join(workDir, 'ours-again'), stagingDir, []);
  await rm(join(workDir, 'ours-again'), { recursive: true, force: true });
  return {
    oursMs: (ours1.ms + ours2.ms) / 2,
    rawMs: (raw1.ms + raw2.ms) / 2,
    runsMs: { ours: [ours1.ms, ours2.ms], raw: [raw1.ms, raw2.ms] },
    stageMs: meanStages(ours1, ours2),
    rawStageMs: meanStages(raw1, raw2),
    rows,
  };
}

/**
 * Seeded data at `scale` run once through the pipeline, its store left at `<workDir>/ours/store.duckdb`: for
 * the benches and tests that need a release and no comparison.
 */
export async function runPipelineOnce(workDir: string, scale: SyntheticScale): Promise<{ stageMs: Record<string, number>; rows: Record<string, number> }> {
  await rm(workDir, { recursive: true, force: true });
  const stagingDir = join(workDir, 'staging');
  await generateStaging(stagingDir, scale);
  const ourDir = join(workDir, 'ours');
  const { stageMs } = await runPipeline(ourDir, stagingDir, []);
  return { stageMs, rows: await countRows(join(ourDir, 'store.duckdb')) };
}

/** One nightly's load, model and export through the pipeline's code; `recorded` collects the SQL it issued. */
async function runPipeline(dir: string, stagingDir: string, recorded: RecordedStatement[]): Promise<TimedRun> {
  await mkdir(dir, { recursive: true });
  const inner = await openStore(join(dir, 'store.duckdb'));
  let stage = 'load';
  const store: Store = { ...inner, exec: async (sql) => { recorded.push({ stage, sql }); await inner.exec(sql); } };
  const stageMs: Record<string, number> = {};
  const started = performance.now();
  let mark = started;
  const lap = (name: string, next: string) => { const now = performance.now(); stageMs[name] = Math.round(now - mark); mark = now; stage = next; };
  try {
    await prepareWorkingTables(store, { runAt: new Date('2026-09-25T01:00:00Z'), releaseId: 'bench', previousRunAt: null }, BENCH_SOURCES);
    await loadStaging(store, stagingDir);
    lap('load', 'model');
    await runModels(store);
    await dropWorkingTables(store);
    lap('model', 'export');
    await exportParquet(store, join(dir, 'parquet'));
    await store.exec('CHECKPOINT');
    lap('export', 'done');
    return { ms: performance.now() - started, stageMs };
  } finally {
    inner.close();
  }
}

/** The recorded statements on a fresh raw DuckDB database in `dir` (emptied first), timed per stage. */
async function replayRaw(dir: string, recorded: RecordedStatement[], ourDir: string): Promise<TimedRun> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'parquet'), { recursive: true });
  const instance = await DuckDBInstance.create(join(dir, 'store.duckdb'), { autoinstall_known_extensions: 'false' });
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const stageMs: Record<string, number> = {};
  const started = performance.now();
  for (const statement of recorded) {
    const statementStarted = performance.now();
    await connection.run(statement.sql.replaceAll(join(ourDir, 'parquet'), join(dir, 'parquet')));
    stageMs[statement.stage] = (stageMs[statement.stage] ?? 0) + performance.now() - statementStarted;
  }
  const ms = performance.now() - started;
  connection.closeSync();
  instance.closeSync();
  await rm(dir, { recursive: true, force: true });
  return { ms, stageMs };
}

async function countRows(storePath: string): Promise<Record<string, number>> {
  const store = await openStore(storePath, { readOnly: true });
  try {
    const [rows] = await store.all<Record<string, number>>(
      `SELECT (SELECT count(*) FROM tenders)::INTEGER AS tenders, (SELECT count(*) FROM award_releases)::INTEGER AS award_releases, (SELECT count(*) FROM awards)::INTEGER AS awards, (SELECT count(*) FROM plans)::INTEGER AS plans`,
    );
    return rows ?? {};
  } finally {
    store.close();
  }
}

function meanStages(first: TimedRun, second: TimedRun): Record<string, number> {
  const stages = new Set([...Object.keys(first.stageMs), ...Object.keys(second.stageMs)]);
  return Object.fromEntries([...stages].map((stage) => [stage, Math.round(((first.stageMs[stage] ?? 0) + (second.stageMs[stage] ?? 0)) / 2)]));
}
