import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { launchPostgresCluster } from '../test/helpers/postgres-server.ts';
import type { Trace, TracedRequest } from './request-trace.ts';
import { machineCpuSeconds } from './process-cpu.ts';
import { schedstat } from './schedstat.ts';
import { serveLaunch, startChild, stopChild } from './search-bench.ts';
import { requestsByKind, seedStateScale, STATE_OFFERED_RATE, type StateRequestKind } from './state-bench.ts';

/**
 * Where the slowest 1% of (r)'s paced requests spend their time: `node bench/state-trace.ts [kind…] [--seconds N]`.
 * The (r) set-up (a seeded PostgreSQL, two API instances as `npm run serve` starts them, the paced load), with
 * bench/request-trace.ts loaded into each instance. Every request carries a sequence number, so each of the load's
 * slowest requests is joined with the server's timing of it (pool waits, statement round trips, the rest in the
 * process) and with the garbage collections and event-loop stalls that overlapped it, in the server that answered
 * it and in this process. Figures depend on no one else's use of the machine: a stall is time a timer ran late,
 * whatever took the core.
 */

const CONNECTIONS = 200;
const LOAD_LIMITS = { SVC_BURST_CAPACITY: '1000000000', SVC_BURST_REFILL_PER_MIN: '1000000000000', SVC_WEEKLY_CAP_IDENTIFIED: '1000000000' };

interface ClientTiming {
  seq: number;
  instance: number;
  dueMs: number;
  sentMs: number;
  endMs: number;
  /** This process's main thread waiting for a core between the request falling due and its reply's end. */
  runQueueMs: number;
}

const epochMs = () => performance.timeOrigin + performance.now();

const args = process.argv.slice(2);
const secondsAt = args.indexOf('--seconds');
const seconds = secondsAt === -1 ? 20 : Number(args.splice(secondsAt, 2)[1]);
const kinds = (args.length > 0 ? args : ['keyCheck', 'metered']) as StateRequestKind[];

const clientStalls: Trace['stalls'] = [];
const clientGc: Trace['gc'] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) clientGc.push({ startMs: performance.timeOrigin + entry.startTime, durationMs: entry.duration, kind: entry.name });
}).observe({ entryTypes: ['gc'] });
let expected = performance.now() + 1;
setInterval(() => {
  const now = performance.now();
  if (now - expected > 3) clientStalls.push({ startMs: performance.timeOrigin + expected, durationMs: now - expected });
  expected = now + 1;
}, 1).unref();

/** (r)'s paced load, each request numbered and timed from when it was due, when it was sent and when its reply ended. */
async function pacedTrace(origins: string[], request: autocannon.Request, seconds: number): Promise<ClientTiming[]> {
  const agents = Array.from({ length: CONNECTIONS }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const timings: ClientTiming[] = [];
  const replies: Promise<void>[] = [];
  const started = performance.now();
  try {
    for (let seq = 0; seq < STATE_OFFERED_RATE * seconds; seq++) {
      const due = started + (seq * 1000) / STATE_OFFERED_RATE;
      if (due > performance.now()) await sleep(due - performance.now());
      const prepared = typeof request.setupRequest === 'function' ? request.setupRequest({ ...request }, {}) : request;
      const timing: ClientTiming = { seq, instance: seq % origins.length, dueMs: performance.timeOrigin + due, sentMs: epochMs(), endMs: 0, runQueueMs: -schedstat().runQueueMs };
      replies.push(new Promise<void>((resolve, reject) => {
        const outgoing = httpRequest(new URL(prepared.path ?? '/', origins[timing.instance]), {
          method: prepared.method ?? 'GET', agent: agents[seq % CONNECTIONS], headers: { ...prepared.headers, 'x-trace-seq': String(seq) },
        }, (reply) => {
          reply.resume();
          reply.on('end', () => {
            timing.endMs = epochMs();
            timing.runQueueMs += schedstat().runQueueMs;
            timings.push(timing);
            resolve();
          });
        });
        outgoing.on('error', reject);
        outgoing.end(prepared.body);
      }));
    }
    await Promise.all(replies);
  } finally {
    for (const agent of agents) agent.destroy();
  }
  return timings;
}

const overlapMs = (spans: { startMs: number; durationMs: number }[], from: number, to: number) =>
  spans.reduce((sum, span) => sum + Math.max(0, Math.min(to, span.startMs + span.durationMs) - Math.max(from, span.startMs)), 0);
const round = (value: number) => Math.round(value * 10) / 10;
const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function report(kind: StateRequestKind, timings: ClientTiming[], traces: Trace[], busyShare: number): void {
  const served = traces.map((trace) => new Map(trace.requests.filter((r) => r.seq !== undefined).map((r) => [Number(r.seq), r])));
  const latency = (timing: ClientTiming) => timing.endMs - timing.dueMs;
  const sorted = [...timings].sort((a, b) => latency(a) - latency(b));
  const latencies = sorted.map(latency);
  const slowest = sorted.slice(Math.floor(sorted.length * 0.99));
  const median = sorted.slice(Math.floor(sorted.length * 0.45), Math.ceil(sorted.length * 0.55));
  process.stdout.write(`\n${kind}: ${timings.length} requests at ${STATE_OFFERED_RATE}/s, p50 ${round(percentile(latencies, 0.5))} ms, p99 ${round(percentile(latencies, 0.99))} ms; cores ${Math.round(100 * busyShare)}% busy, load average ${loadavg()[0]!.toFixed(2)}\n`);
  const breakdown = (group: ClientTiming[]) => {
    const parts = group.map((timing) => {
      const traced = served[timing.instance]!.get(timing.seq) as TracedRequest | undefined;
      const trace = traces[timing.instance]!;
      if (!traced) return undefined;
      const statements = sum(traced.statementMs);
      const inServer = traced.finishMs - traced.startMs;
      return {
        total: latency(timing),
        sendLate: timing.sentMs - timing.dueMs,
        toServer: traced.startMs - timing.sentMs,
        inServer,
        poolWait: traced.poolWaitMs,
        statements,
        statementCount: traced.statementMs.length,
        slowestStatement: Math.max(0, ...traced.statementMs),
        rest: inServer - statements - traced.poolWaitMs,
        fromServer: timing.endMs - traced.finishMs,
        serverCpu: traced.cpuMs,
        backendCpu: traced.backendCpuMs,
        backendRunQueue: traced.backendRunQueueMs,
        serverRunQueue: traced.runQueueMs,
        clientRunQueue: timing.runQueueMs,
        serverGc: overlapMs(trace.gc, timing.sentMs, traced.finishMs),
        serverStall: overlapMs(trace.stalls, timing.sentMs, traced.finishMs),
        clientStall: overlapMs(clientStalls, timing.dueMs, timing.endMs),
        clientGc: overlapMs(clientGc, timing.dueMs, timing.endMs),
        poolBusy: traced.poolTotal,
        poolWaiting: traced.poolWaiting,
      };
    }).filter((part) => part !== undefined);
    const mean = (key: keyof (typeof parts)[number]) => round(sum(parts.map((part) => part[key])) / Math.max(1, parts.length));
    return { mean, parts };
  };
  for (const [name, group] of [['median 10%', median], ['slowest 1%', slowest]] as const) {
    const { mean } = breakdown(group);
    process.stdout.write(`  ${name} (${group.length}), mean ms: total ${mean('total')} = sent late ${mean('sendLate')} + to server ${mean('toServer')} + in server ${mean('inServer')} ` +
      `(pool wait ${mean('poolWait')}, ${mean('statementCount')} statements ${mean('statements')} (slowest ${mean('slowestStatement')}), rest ${mean('rest')}) + reply ${mean('fromServer')}; ` +
      `server main thread on a core ${mean('serverCpu')}, waiting for one ${mean('serverRunQueue')}; client waiting for a core ${mean('clientRunQueue')}; ` +
      `PostgreSQL backends on a core ${mean('backendCpu')}, waiting for one ${mean('backendRunQueue')}; ` +
      `overlapping: server GC ${mean('serverGc')}, server stalls ${mean('serverStall')}, client stalls ${mean('clientStall')}, client GC ${mean('clientGc')}; pool clients busy ${mean('poolBusy')}, waiting ${mean('poolWaiting')}\n`);
  }
  for (const part of breakdown(slowest).parts) process.stdout.write(`    ${JSON.stringify(Object.fromEntries(Object.entries(part).map(([key, value]) => [key, round(value)])))}\n`);
  for (const [n, trace] of traces.entries()) {
    const gcMs = trace.gc.map((entry) => entry.durationMs).sort((a, b) => a - b);
    const byKind = Object.entries(Object.groupBy(trace.gc, (entry) => entry.kind)).map(([gcKind, entries]) => `${entries!.length} ${gcKind} (max ${round(Math.max(...entries!.map((e) => e.durationMs)))} ms)`).join(', ');
    const stallMs = trace.stalls.map((stall) => stall.durationMs).sort((a, b) => a - b);
    process.stdout.write(`  instance ${n}: ${trace.requests.length} requests; GC ${byKind}, p99 ${round(percentile(gcMs, 0.99))} ms; stalls > 3 ms: ${stallMs.length}, max ${round(stallMs.at(-1) ?? 0)} ms\n`);
  }
  process.stdout.write(`  client stalls > 3 ms: ${clientStalls.length}, max ${round(Math.max(0, ...clientStalls.map((stall) => stall.durationMs)))} ms; ` +
    `client GC ${clientGc.length}, max ${round(Math.max(0, ...clientGc.map((entry) => entry.durationMs)))} ms\n`);
}

/** BENCH_TRACE_NODE_ARGS: Node flags added to the instances' own (`npm run serve`'s), to compare runtime settings. */
const extraNodeArgs = (process.env.BENCH_TRACE_NODE_ARGS ?? '').split(/\s+/).filter((word) => word !== '');
/** With BENCH_TRACE_CPU_PROF set to a folder, each instance writes a CPU profile there (`--cpu-prof`). */
const profileArgs = (kind: string, n: number) =>
  process.env.BENCH_TRACE_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_TRACE_CPU_PROF, '--cpu-prof-name', `${kind}-${n}.cpuprofile`] : [];

async function main(): Promise<void> {
  const serve = await serveLaunch();
  // The seed creates pg_stat_statements, as (r) counts statements with it.
  const cluster = await launchPostgresCluster({ settings: { shared_preload_libraries: 'pg_stat_statements' } });
  const work = await mkdtemp(join(tmpdir(), 'state-trace-'));
  try {
    const databaseUrl = await cluster.freshDatabase();
    await seedStateScale(databaseUrl, new Date());
    const requests = requestsByKind();
    for (const kind of kinds) {
      const traceFiles = [join(work, `${kind}-a.json`), join(work, `${kind}-b.json`)];
      const instances = await Promise.all(traceFiles.map((file, n) =>
        startChild('../api/server.ts', ['--data-dir', join(work, `${kind}-${n}`), '--port', '0'],
          { ...serve.env, ...LOAD_LIMITS, DATABASE_URL: databaseUrl, BENCH_TRACE_FILE: file }, [...serve.nodeArgs, ...extraNodeArgs, ...profileArgs(kind, n), '--import', './bench/request-trace.ts'])));
      const origins = instances.map((instance) => instance.origin);
      let timings: ClientTiming[];
    let busyShare = Number.NaN;
      try {
        await Promise.all(origins.map((url) => autocannon({ url, connections: CONNECTIONS / 2, duration: 2, requests: [requests[kind]] })));
        await sleep(3_000);
        clientStalls.length = 0;
      clientGc.length = 0;
        const machineBefore = machineCpuSeconds();
      timings = await pacedTrace(origins, requests[kind], seconds);
      const machineAfter = machineCpuSeconds();
      busyShare = (machineAfter.busy - machineBefore.busy) / Math.max(1e-9, machineAfter.total - machineBefore.total);
      } finally {
        for (const instance of instances) await stopChild(instance.child);
      }
      const traces = await Promise.all(traceFiles.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as Trace));
      report(kind, timings, traces, busyShare);
    }
  } finally {
    await cluster.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
