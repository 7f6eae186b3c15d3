import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Requests that got no reply: timeouts (autocannon's 10 s) and dropped connections. */
  errors: number;
}

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * How `npm run serve` starts the API: the environment and Node flags of package.json's serve script (the
 * young generation's size, no allocation-site pretenuring, two malloc arenas), so the benchmark measures the
 * process users run, not a bare `node api/server.ts`.
 */
export async function serveLaunch(): Promise<{ env: Record<string, string>; nodeArgs: string[] }> {
  const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const words = manifest.scripts.serve!.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  if (words.shift() !== 'node') throw new Error('bench: the serve script does not start with node');
  const nodeArgs = words.slice(0, words.findIndex((word) => word.endsWith('.ts')));
  return { env, nodeArgs };
}

/** Starts an entry point as a child process (from the repository's root) and resolves with the address it prints. */
export async function startChild(entry: string, args: string[], env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(new URL(entry, import.meta.url)), ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${entry} did not start: ${output}`)), 120_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/i.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${output}`)));
  });
  return { child, origin };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** 20 connections for `seconds`, cycling through `paths`, each request carrying `headers`. */
export async function load(origin: string, paths: string[], seconds: number, connections = 20, headers: Record<string, string> = {}): Promise<LoadResult> {
  return loadRequests(origin, paths.map((path) => ({ method: 'GET', path, headers })), seconds, connections);
}

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** 20 connections for `seconds`, cycling through `requests`. */
export async function loadRequests(origin: string, requests: BenchRequest[], seconds: number, connections = 20): Promise<LoadResult> {
  const result = await autocannon({ url: origin, connections, duration: seconds, requests });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** A realistic mix: default listing, paging, states, free text, filters; 60 distinct queries. */
export function searchPaths(): string[] {
  const words = ['road', 'bridge maintenance', 'software', 'cleaning services', 'audit', 'water', 'security', 'training', 'fleet', 'waste'];
  const paths = ['/v1/tenders', '/v1/tenders?offset=20', '/v1/tenders?jurisdiction=AU-NSW', '/v1/tenders?jurisdiction=NZ', '/v1/tenders?closing_within_days=7', '/v1/tenders?kind=grant'];
  for (const word of words) {
    const q = encodeURIComponent(word);
    paths.push(`/v1/tenders?q=${q}`, `/v1/tenders?q=${q}&jurisdiction=AU-VIC`, `/v1/tenders?q=${q}&closing_within_days=30`, `/v1/tenders?q=${q}&offset=20`, `/v1/tenders?q=${q}&kind=tender`);
  }
  return paths;
}
