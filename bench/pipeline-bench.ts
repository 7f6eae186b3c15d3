import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { dropWorkingTables, exportParquet, loadStaging, prepareWorkingTables, runModels, type SourceRun } from '../data/build.ts';
import { openStore, type Store } from '../data/store.ts';
import { generateStaging, type SyntheticScale } from './generate.ts';

export interface PipelineBenchResult {
  oursMs: number;
  rawMs: number;
  stageMs: Record<string, number>;
  /** The raw replay's time per stage (the same statements our stage issued). */
  rawStageMs: Record<string, number>;
  rows: Record<string, number>;
}

const BENCH_SOURCES: SourceRun[] = ['bench_source_0', 'bench_source_1', 'bench_source_2', 'bench_awards', 'bench_plans'].map((id) => ({
  id, tag: id, name: id, jurisdiction: 'AU', tier: 'state', kinds: [id === 'bench_awards' ? 'award' : id === 'bench_plans' ? 'plan' : 'tender'], mode: 'html',
  homepage: 'https://example.gov.au', licence: 'synthetic', attribution: 'synthetic', caveats: [],
  attempted: true, failed: false, refused: null, diagnosis: null, records: 1, invalid: 0, pages: 1, errors: 0, duration_ms: 0,
}));

/**
 * (a) load + model + export through the pipeline's own code, against raw DuckDB replaying exactly the SQL
 * the pipeline issued (recorded during our run) on a fresh database: the ratio is our overhead.
 */
export async function benchPipeline(workDir: string, scale: SyntheticScale): Promise<PipelineBenchResult> {
  await rm(workDir, { recursive: true, force: true });
  const stagingDir = join(workDir, 'staging');
  await generateStaging(stagingDir, scale);

  const ourDir = join(workDir, 'ours');
  await mkdir(ourDir, { recursive: true });
  const inner = await openStore(join(ourDir, 'store.duckdb'));
  const recorded: { stage: string; sql: string }[] = [];
  let stage = 'load';
  const store: Store = { ...inner, exec: async (sql) => { recorded.push({ stage, sql }); await inner.exec(sql); } };
  const stageMs: Record<string, number> = {};
  const ourStart = performance.now();
  let mark = ourStart;
  const lap = (name: string, next: string) => { const now = performance.now(); stageMs[name] = Math.round(now - mark); mark = now; stage = next; };
  await prepareWorkingTables(store, { runAt: new Date('2026-09-25T01:00:00Z'), releaseId: 'bench', previousRunAt: null }, BENCH_SOURCES);
  await loadStaging(store, stagingDir);
  lap('load', 'model');
  await runModels(store);
  await dropWorkingTables(store);
  lap('model', 'export');
  await exportParquet(store, join(ourDir, 'parquet'));
  await store.exec('CHECKPOINT');
  lap('export', 'done');
  const oursMs = performance.now() - ourStart;
  const [rows] = await inner.all<Record<string, number>>(
    `SELECT (SELECT count(*) FROM tenders)::INTEGER AS tenders, (SELECT count(*) FROM award_releases)::INTEGER AS award_releases, (SELECT count(*) FROM awards)::INTEGER AS awards, (SELECT count(*) FROM plans)::INTEGER AS plans`,
  );
  inner.close();

  const rawDir = join(workDir, 'raw');
  await mkdir(join(rawDir, 'parquet'), { recursive: true });
  const instance = await DuckDBInstance.create(join(rawDir, 'store.duckdb'), { autoinstall_known_extensions: 'false' });
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  const rawStageMs: Record<string, number> = {};
  const rawStart = performance.now();
  for (const statement of recorded) {
    const started = performance.now();
    await connection.run(statement.sql.replaceAll(join(ourDir, 'parquet'), join(rawDir, 'parquet')));
    rawStageMs[statement.stage] = (rawStageMs[statement.stage] ?? 0) + performance.now() - started;
  }
  const rawMs = performance.now() - rawStart;
  connection.closeSync();
  instance.closeSync();
  return { oursMs, rawMs, stageMs, rawStageMs, rows: rows ?? {} };
}
