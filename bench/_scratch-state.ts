import autocannon from 'autocannon';
import pg from 'pg';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchPostgresCluster } from '../test/helpers/postgres-server.ts';
import { seedStateScale, requestsByKind } from './state-bench.ts';
import { serveLaunch, startChild, stopChild } from './search-bench.ts';
const serve = await serveLaunch();
const cluster = await launchPostgresCluster({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
const url = await cluster.freshDatabase();
await seedStateScale(url, new Date());
const dir = await mkdtemp(join(tmpdir(), 'scratch-'));
const env = { ...serve.env, SVC_BURST_CAPACITY: '1000000000', SVC_BURST_REFILL_PER_MIN: '1000000000000', SVC_WEEKLY_CAP_IDENTIFIED: '1000000000', DATABASE_URL: url, ...(process.env.POOL ? {} : {}) };
const instances = [await startChild('../api/server.ts', ['--data-dir', join(dir, 'a'), '--port', '0'], env, [...serve.nodeArgs, '--cpu-prof', '--cpu-prof-dir=/tmp/b30prof']), await startChild('../api/server.ts', ['--data-dir', join(dir, 'b'), '--port', '0'], env, serve.nodeArgs)];
const client = new pg.Client({ connectionString: url }); await client.connect();
const kinds = requestsByKind();
for (const kind of (process.env.KINDS ?? 'keyCheck,metered').split(',') as (keyof typeof kinds)[]) {
  for (const rate of [undefined, Number(process.env.RATE ?? 300)]) {
    await client.query('SELECT pg_stat_statements_reset()');
    const waits: Record<string, number> = {};
    const sampler = setInterval(() => { client.query(`SELECT coalesce(wait_event_type||':'||wait_event, state) AS w, count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`).then((r) => { for (const row of r.rows) waits[row.w] = (waits[row.w] ?? 0) + Number(row.n); }, () => {}); }, 100);
    const rs = await Promise.all(instances.map((i) => autocannon({ url: i.origin, connections: 100, duration: 5, requests: [kinds[kind]], ...(rate ? { overallRate: rate / 2 } : {}) })));
    clearInterval(sampler);
    const total = rs.reduce((s, r) => s + r.requests.total, 0);
    console.log(kind, rate ?? 'flat', 'req/s', rs.reduce((s, r) => s + r.requests.average, 0), 'p50', rs.map((r) => r.latency.p50), 'p99', rs.map((r) => r.latency.p99), 'non2xx', rs.map((r) => r.non2xx));
    const st = await client.query(`SELECT calls, round(mean_exec_time::numeric, 3) AS mean_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat%' ORDER BY calls DESC LIMIT 14`);
    for (const row of st.rows) console.log('  ', (Number(row.calls) / total).toFixed(2), row.mean_ms, row.q);
    console.log('   waits', JSON.stringify(waits));
  }
}
await client.end();
for (const i of instances) await stopChild(i.child);
await cluster.stop();
