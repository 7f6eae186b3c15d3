import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { USAGE_WEEKS_KEPT, weekOf } from '../api/usage/meter.ts';
import { startPostgresCluster } from '../test/helpers/postgres-cluster.ts';
import { startChild, stopChild, type BenchRequest } from './search-bench.ts';

/**
 * (r) Issue 30 §3: the state store at scale on PostgreSQL. 100k accounts each with a key (stored as its hash),
 * 1M meter rows (usage_weeks: every account's last four weeks, and 600k anonymous addresses this week) and 10k bids,
 * seeded with SQL in the app's shapes; two API instances on that database; 200 connections spread over both.
 */
export const STATE_SCALE = { accounts: 100_000, anonymousSubjects: 600_000, bids: 10_000 };
const CONNECTIONS = 200;
// Keys the load draws on: many different accounts, so neither the pool nor a cache sees one hot row.
const LOAD_KEYS = 5_000;

export interface StateLoadResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** Transactions PostgreSQL committed or rolled back per request (pg_stat_database): each autocommit statement is one. */
  transactionsPerRequest: number;
}

export interface StateBenchFigures {
  seedMs: number;
  counts: Record<string, number>;
  anonymousUsage: StateLoadResult;
  keyCheck: StateLoadResult;
  metered: StateLoadResult;
}

/** The key of bench account `n`: the `svc_` prefix and 32 base64url characters, as newSecret makes. */
const benchKey = (n: number): string => `svc_${createHash('md5').update(`bench-key-${n}`).digest('hex')}`;

export async function benchStateScale(options: { seconds: number; env: Record<string, string>; nodeArgs: string[] }): Promise<StateBenchFigures> {
  const cluster = await startPostgresCluster();
  const dataDir = await mkdtemp(join(tmpdir(), 'state-bench-'));
  try {
    const databaseUrl = await cluster.freshDatabase();
    const seedStarted = performance.now();
    const counts = await seed(databaseUrl, new Date());
    const seedMs = performance.now() - seedStarted;
    const env = { ...options.env, DATABASE_URL: databaseUrl };
    const instances = [
      await startChild('../api/server.ts', ['--data-dir', join(dataDir, 'a'), '--port', '0'], env, options.nodeArgs),
      await startChild('../api/server.ts', ['--data-dir', join(dataDir, 'b'), '--port', '0'], env, options.nodeArgs),
    ];
    try {
      const keys = Array.from({ length: LOAD_KEYS }, (_, i) => benchKey(1 + Math.floor((i * STATE_SCALE.accounts) / LOAD_KEYS)));
      const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
      const anonymous: BenchRequest[] = [{ method: 'GET', path: '/v1/usage' }];
      const keyCheck: BenchRequest[] = keys.map((key) => ({ method: 'GET', path: '/v1/usage', headers: bearer(key) }));
      // Texts under 150 words: the estimate abstains, so the call reserves a unit and settles it without a model
      // in the way; each text differs, so no call is answered from a stored estimate.
      const metered: BenchRequest[] = Array.from({ length: 50_000 }, (_, i) => ({
        method: 'POST', path: '/v1/detect-ai-text', headers: { ...bearer(keys[i % keys.length]!), 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Bench paragraph ${i}: the footpath renewal is due before the wet season.` }),
      }));
      const origins = instances.map((instance) => instance.origin);
      await loadBoth(databaseUrl, origins, keyCheck, 2);
      return {
        seedMs,
        counts,
        anonymousUsage: await loadBoth(databaseUrl, origins, anonymous, options.seconds),
        keyCheck: await loadBoth(databaseUrl, origins, keyCheck, options.seconds),
        metered: await loadBoth(databaseUrl, origins, metered, options.seconds),
      };
    } finally {
      for (const instance of instances) await stopChild(instance.child);
    }
  } finally {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `CONNECTIONS` spread evenly over the instances for `seconds`; the latencies of all of them together. */
async function loadBoth(databaseUrl: string, origins: string[], requests: BenchRequest[], seconds: number): Promise<StateLoadResult> {
  const before = await transactionCount(databaseUrl);
  const results = await Promise.all(origins.map((url, i) => autocannon({
    url, connections: CONNECTIONS / origins.length, duration: seconds,
    // Each instance starts at a different place in the list, so the two do not send the same key at the same moment.
    requests: [...requests.slice((i * requests.length) / origins.length), ...requests.slice(0, (i * requests.length) / origins.length)],
  })));
  const after = await transactionCount(databaseUrl);
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  // autocannon keeps a histogram per run, not the samples: the slower instance's percentile bounds the pair's.
  return {
    requests: total,
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
    transactionsPerRequest: total === 0 ? Number.NaN : (after - before) / total,
  };
}

async function transactionCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // The statistics collector reports with a delay: clear the snapshot so this read sees the latest counts.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const row = (await client.query<{ count: string }>('SELECT xact_commit + xact_rollback AS count FROM pg_stat_database WHERE datname = current_database()')).rows[0]!;
    return Number(row.count);
  } finally {
    await client.end();
  }
}

/** Seeds the migrated database with SQL, in the shapes api/accounts, api/usage/meter.ts and api/bids write. */
async function seed(databaseUrl: string, now: Date): Promise<Record<string, number>> {
  const weeks: string[] = [];
  for (let start = weekOf(now).start; weeks.length < USAGE_WEEKS_KEPT; start = weekOf(new Date(start.getTime() - 1)).start) weeks.push(start.toISOString());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const id = (prefix: string, column: string) => `'${prefix}' || lpad(to_hex(${column}), 16, '0')`;
  try {
    const at = now.toISOString();
    await client.query(`INSERT INTO accounts (account_id, email, created_at)
      SELECT ${id('acct_', 'n')}, 'bench-' || n || '@example.com', $1 FROM generate_series(1, $2::int) AS n`, [at, STATE_SCALE.accounts]);
    await client.query(`INSERT INTO api_keys (key_id, key_hash, account_id, scope, prefix, created_at)
      SELECT ${id('key_', 'n')}, encode(sha256(convert_to(k, 'UTF8')), 'hex'), ${id('acct_', 'n')}, 'api', left(k, 12), $1
      FROM (SELECT n, 'svc_' || md5('bench-key-' || n) AS k FROM generate_series(1, $2::int) AS n) AS minted`, [at, STATE_SCALE.accounts]);
    await client.query(`INSERT INTO usage_weeks (subject, week_start, used)
      SELECT 'account:' || ${id('acct_', 'n')}, week, n % 100 FROM generate_series(1, $1::int) AS n, unnest($2::text[]) AS week`, [STATE_SCALE.accounts, weeks]);
    await client.query(`INSERT INTO usage_weeks (subject, week_start, used)
      SELECT 'ip:10.' || (n >> 16) || '.' || ((n >> 8) & 255) || '.' || (n & 255), $1, 1 + n % 20 FROM generate_series(1, $2::int) AS n`, [weeks[0], STATE_SCALE.anonymousSubjects]);
    await client.query(`INSERT INTO orgs (org_id, company_name, created_by, created_at, updated_at)
      SELECT ${id('org_', 'n')}, 'Bench Civil ' || n || ' Pty Ltd', ${id('acct_', 'n')}, $1, $1 FROM generate_series(1, $2::int) AS n`, [at, STATE_SCALE.bids]);
    await client.query(`INSERT INTO memberships (org_id, account_id, role, joined_at)
      SELECT ${id('org_', 'n')}, ${id('acct_', 'n')}, 'owner', $1 FROM generate_series(1, $2::int) AS n`, [at, STATE_SCALE.bids]);
    await client.query(`INSERT INTO bids (bid_id, org_id, title, stage, owner_id, due_date, created_by, created_at, updated_at)
      SELECT ${id('bid_', 'n')}, ${id('org_', 'n')}, 'Footpath renewal ' || n, 'qualifying', ${id('acct_', 'n')}, '2099-06-30', ${id('acct_', 'n')}, $1, $1
      FROM generate_series(1, $2::int) AS n`, [at, STATE_SCALE.bids]);
    await client.query('ANALYZE');
    const counts: Record<string, number> = {};
    for (const table of ['accounts', 'api_keys', 'usage_weeks', 'bids']) {
      counts[table] = Number((await client.query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`)).rows[0]!.count);
    }
    return counts;
  } finally {
    await client.end();
  }
}
