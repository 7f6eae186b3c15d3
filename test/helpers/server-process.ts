import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testDatabaseEnv } from './state.ts';

/** The real server (`npm run serve`) as a child process on a free loopback port, for end-to-end, load and crash tests. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not gone within five seconds. */
  stop(): Promise<void>;
}

const SERVER = join(import.meta.dirname, '..', '..', 'api', 'server.ts');

export async function startServer(options: { dataDir: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER, '--data-dir', options.dataDir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...(await testDatabaseEnv(options.dataDir)), ...options.env } });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        resolve(listening[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident bytes of a process (Linux /proc), and of its children (the analysis processes), or null once it is gone. */
export function residentOf(pid: number): { own: number; children: number } | null {
  const own = statusRss(pid);
  if (own === null) return null;
  let children = 0;
  for (const child of childPids(pid)) children += statusRss(child) ?? 0;
  return { own, children };
}

function statusRss(pid: number): number | null {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

function childPids(pid: number): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').trim();
      if (listed !== '') pids.push(...listed.split(/\s+/).map(Number));
    }
  } catch {
    // The process is gone, or the kernel does not list children: nothing to add.
  }
  return pids;
}

/** Samples a server's memory and `/livez` latency every `everyMs` until stopped: what a probe of the running service records. */
export function watchServer(server: ServerProcess, everyMs = 25): { stop(): Promise<{ peakOwn: number; peakChildren: number; peakTotal: number; livezMs: number[] }> } {
  let peakOwn = 0;
  let peakChildren = 0;
  let peakTotal = 0;
  const livezMs: number[] = [];
  let running = true;
  const sampler = setInterval(() => {
    const rss = residentOf(server.child.pid!);
    if (rss === null) return;
    peakOwn = Math.max(peakOwn, rss.own);
    peakChildren = Math.max(peakChildren, rss.children);
    peakTotal = Math.max(peakTotal, rss.own + rss.children);
  }, everyMs);
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await (await fetch(`${server.url}/livez`)).arrayBuffer();
        livezMs.push(performance.now() - started);
      } catch {
        livezMs.push(Number.POSITIVE_INFINITY);
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      clearInterval(sampler);
      await probing;
      return { peakOwn, peakChildren, peakTotal, livezMs };
    },
  };
}

/** The value at quantile `q` (0..1) of the numbers. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
