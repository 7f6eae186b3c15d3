import { AsyncLocalStorage } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import pg from 'pg';
import { schedstat } from './schedstat.ts';

/**
 * Loaded into an API process with `--import` by bench/state-trace.ts, never by the service itself: times each HTTP
 * request inside the server (its pool waits and statement round trips by `pg`, the rest in the handler), the
 * process's garbage collections and the stalls of its event loop, on one clock shared by every process on the machine
 * (epoch milliseconds), and writes them to `BENCH_TRACE_FILE` when the process exits. The bench joins them with the
 * load generator's own timings by the `x-trace-seq` header.
 */

export interface TracedRequest {
  seq: string | undefined;
  /** The 'request' event: headers parsed, before any middleware. */
  startMs: number;
  /** The reply's last byte handed to the socket. */
  finishMs: number;
  poolWaitMs: number;
  /** From sending a statement to its result, each one. */
  statementMs: number[];
  /** Clients the pool had handed out, and callers waiting, when this request first asked for one. */
  poolTotal: number;
  poolWaiting: number;
  /** The main thread's time on a core, and runnable but waiting for one (Linux schedstat), from start to finish. */
  cpuMs: number;
  runQueueMs: number;
  /** The PostgreSQL backends' time on a core and waiting for one while they ran this request's statements. */
  backendCpuMs: number;
  backendRunQueueMs: number;
}

export interface Trace {
  requests: TracedRequest[];
  gc: { startMs: number; durationMs: number; kind: string }[];
  /** Spans in which a 1 ms timer ran late by more than `STALL_MS`: the loop was busy or the process had no core. */
  stalls: { startMs: number; durationMs: number }[];
}

const STALL_MS = 3;
const file = process.env.BENCH_TRACE_FILE;
if (file === undefined) throw new Error('bench/request-trace.ts: BENCH_TRACE_FILE is not set');

const epochMs = () => performance.timeOrigin + performance.now();

const trace: Trace = { requests: [], gc: [], stalls: [] };
const scope = new AsyncLocalStorage<TracedRequest>();
let lastPool: pg.Pool | undefined;

const originalEmit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
Server.prototype.emit = function emit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
  if (event !== 'request') return originalEmit.call(this, event, ...args);
  const [incoming, outgoing] = args as [import('node:http').IncomingMessage, import('node:http').ServerResponse];
  const seq = incoming.headers['x-trace-seq'];
  const traced: TracedRequest = { seq: typeof seq === 'string' ? seq : undefined, startMs: epochMs(), finishMs: 0, poolWaitMs: 0, statementMs: [], poolTotal: -1, poolWaiting: -1, cpuMs: 0, runQueueMs: 0, backendCpuMs: 0, backendRunQueueMs: 0 };
  const before = schedstat();
  outgoing.once('finish', () => {
    traced.finishMs = epochMs();
    const after = schedstat();
    traced.cpuMs = after.cpuMs - before.cpuMs;
    traced.runQueueMs = after.runQueueMs - before.runQueueMs;
    trace.requests.push(traced);
  });
  return scope.run(traced, () => originalEmit.call(this, event, ...args));
};

type Callback = (...results: unknown[]) => void;

/** `method` of `prototype` timed into the request in scope when it is called: by callback or by promise, as pg allows both. */
function timed<Before = void>(prototype: object, method: string, record: (traced: TracedRequest, ms: number, self: unknown, before: Before) => void, before?: (traced: TracedRequest, self: unknown) => Before): void {
  const original = (prototype as Record<string, (...args: unknown[]) => unknown>)[method]!;
  (prototype as Record<string, unknown>)[method] = function traced(this: unknown, ...args: unknown[]) {
    const current = scope.getStore();
    if (current === undefined) return original.apply(this, args);
    const noted = before?.(current, this) as Before;
    const started = performance.now();
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = (...results: unknown[]) => {
        record(current, performance.now() - started, this, noted);
        callback(...results);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) void result.then(() => record(current, performance.now() - started, this, noted), () => record(current, performance.now() - started, this, noted));
    return result;
  };
}

timed(pg.Pool.prototype, 'connect', (traced, ms) => (traced.poolWaitMs += ms), (traced, pool) => {
  lastPool = pool as pg.Pool;
  if (traced.poolTotal < 0) {
    traced.poolTotal = lastPool.totalCount - lastPool.idleCount;
    traced.poolWaiting = lastPool.waitingCount;
  }
});
timed<ReturnType<typeof schedstat> | undefined>(pg.Client.prototype, 'query', (traced, ms, client, backendBefore) => {
  traced.statementMs.push(ms);
  if (backendBefore === undefined) return;
  const backendAfter = schedstat((client as { processID: number }).processID);
  traced.backendCpuMs += backendAfter.cpuMs - backendBefore.cpuMs;
  traced.backendRunQueueMs += backendAfter.runQueueMs - backendBefore.runQueueMs;
}, (_traced, client) => {
  const backend = (client as { processID?: number | null }).processID;
  return typeof backend === 'number' ? schedstat(backend) : undefined;
});

const kinds: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind ?? -1;
    trace.gc.push({ startMs: performance.timeOrigin + entry.startTime, durationMs: entry.duration, kind: kinds[kind] ?? String(kind) });
  }
}).observe({ entryTypes: ['gc'] });

let expected = performance.now() + 1;
setInterval(() => {
  const now = performance.now();
  const late = now - expected;
  if (late > STALL_MS) trace.stalls.push({ startMs: performance.timeOrigin + expected, durationMs: late });
  expected = now + 1;
}, 1).unref();

process.on('exit', () => writeFileSync(file, JSON.stringify(trace)));
