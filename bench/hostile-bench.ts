import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { mintKey } from '../api/accounts/keys.ts';
import { accountFor } from '../api/accounts/sign-in.ts';
import { openStateDb } from '../data/state/db.ts';
import { Manifest, pointCurrentAt, releasesDir } from '../data/release.ts';
import { hostileFiles } from '../test/helpers/hostile-files.ts';
import { tinyPdf } from '../test/helpers/checker-app.ts';
import { DEFAULT_GRACE_MS } from '../api/release-store.ts';
import { residentBytes } from './intelligence-bench.ts';
import { startChild, stopChild } from './search-bench.ts';

/**
 * Issue 24's standing figures: (n) the hostile-file set sent to every checker through a server of its own
 * while its memory and `/livez` are sampled; (o) a mixed load of 200 connections with 50 distinct API keys for a
 * minute over reads, MCP tool calls and checker calls answered from the content cache, with the server's memory
 * sampled, and (p) the same load while a nightly run publishes a new release under it.
 */

/** The value at quantile `q` of the numbers. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Every process's resident bytes: the server and its analysis processes (children listed by /proc). */
async function treeResident(pid: number): Promise<{ own: number; children: number }> {
  const own = await residentBytes(pid).catch(() => 0);
  let children = 0;
  try {
    const tasks = (await readFile(`/proc/${pid}/task/${pid}/children`, 'latin1')).trim();
    for (const child of tasks === '' ? [] : tasks.split(/\s+/)) children += await residentBytes(Number(child)).catch(() => 0);
  } catch {
    // No children listed.
  }
  return { own, children };
}

export interface HostileFigures {
  replies: number;
  fiveHundreds: string[];
  slowestMs: number;
  peakOwnBytes: number;
  peakChildrenBytes: number;
  livezP99Ms: number;
  livezMaxMs: number;
  livezProbes: number;
}

const CHECKERS: { path: string; field: string; reads: readonly string[] }[] = [
  { path: '/v1/warrants', field: 'file', reads: ['pdf', 'png'] },
  { path: '/v1/extract', field: 'file', reads: ['pdf', 'png', 'docx'] },
  { path: '/v1/identity-check', field: 'files', reads: ['pdf', 'png'] },
  { path: '/v1/verify-references', field: 'file', reads: ['pdf'] },
  { path: '/v1/check-source-overlap', field: 'file', reads: ['pdf', 'docx'] },
];

/** (n): the hostile set, one file after another, on a server started for it. */
export async function benchHostile(launch: { dataDir: string; env: Record<string, string>; nodeArgs: string[]; headers: Record<string, string> }): Promise<HostileFigures> {
  const server = await startChild('../api/server.ts', ['--data-dir', launch.dataDir, '--port', '0'], launch.env, launch.nodeArgs);
  const figures: HostileFigures = { replies: 0, fiveHundreds: [], slowestMs: 0, peakOwnBytes: 0, peakChildrenBytes: 0, livezP99Ms: 0, livezMaxMs: 0, livezProbes: 0 };
  const livez: number[] = [];
  let running = true;
  const sampler = setInterval(() => {
    void treeResident(server.child.pid!).then((rss) => {
      figures.peakOwnBytes = Math.max(figures.peakOwnBytes, rss.own);
      figures.peakChildrenBytes = Math.max(figures.peakChildrenBytes, rss.children);
    });
  }, 25);
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${server.origin}/livez`)).arrayBuffer();
      livez.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    for (const checker of CHECKERS) {
      for (const file of hostileFiles()) {
        if (!checker.reads.includes(file.filename.split('.').pop()!)) continue;
        const form = new FormData();
        form.append(checker.field, new Blob([file.bytes as Uint8Array<ArrayBuffer>]), file.filename);
        const started = performance.now();
        const reply = await fetch(`${server.origin}${checker.path}`, { method: 'POST', body: form, headers: launch.headers });
        await reply.arrayBuffer();
        figures.replies += 1;
        figures.slowestMs = Math.max(figures.slowestMs, performance.now() - started);
        if (reply.status >= 500) figures.fiveHundreds.push(`${checker.path} ${file.name} ${reply.status}`);
      }
    }
  } finally {
    running = false;
    clearInterval(sampler);
    await probing;
    await stopChild(server.child);
  }
  figures.livezP99Ms = quantile(livez, 0.99);
  figures.livezMaxMs = Math.max(...livez);
  figures.livezProbes = livez.length;
  return figures;
}

/** 50 API keys of ten accounts (five each, the cap), minted in the state store before the server starts. */
export async function mintBenchKeys(dataDir: string): Promise<string[]> {
  const state = await openStateDb(dataDir);
  try {
    const keys: string[] = [];
    for (let account = 0; account < 10; account++) {
      const accountId = await accountFor(state, `load-${account}@example.com`, new Date());
      for (let n = 0; n < 5; n++) {
        const minted = await mintKey(state, { accountId, scope: 'api', now: new Date() });
        if (!minted.minted) throw new Error('bench: could not mint a load key');
        keys.push(minted.apiKey);
      }
    }
    return keys;
  } finally {
    await state.close();
  }
}

export interface MixedLoadFigures {
  requests: number;
  requestsPerSecond: number;
  byStatus: Record<string, number>;
  p99Ms: number;
  startBytes: number;
  peakBytes: number;
  endBytes: number;
  /**
   * After a swap: memory once the replaced release's grace period (api/release-store.ts) has passed under a light
   * load, so the old release is closed and collected. At the load's end it is still open by design: a request that
   * started on it may still be reading it.
   */
  afterGraceBytes?: number;
}

/** A release published during the load, by `publish`, which the server then serves as `releaseId`. */
export interface LoadSwap {
  releaseId: string;
  publish: () => Promise<void>;
}

/**
 * (o)/(p): 200 connections over `seconds`, each request with one of `keys` in turn: searches and single
 * tenders, MCP `tools/call` of search_tenders, and POST /v1/extract of one small PDF (a content-cache hit after
 * the first). `during` runs once the load is under way (the release swap of (p)).
 */
export async function benchMixedLoad(origin: string, pid: number, keys: string[], tenderKeys: string[], seconds: number, swap?: LoadSwap): Promise<MixedLoadFigures> {
  const pdf = Buffer.from(tinyPdf('mixed-load')).toString('base64');
  const requests: autocannon.Request[] = [];
  for (const [n, key] of keys.entries()) {
    const auth = { authorization: `Bearer ${key}` };
    requests.push(
      { method: 'GET', path: `/v1/tenders?q=${['road', 'cleaning', 'software', 'water', 'audit'][n % 5]}`, headers: auth },
      { method: 'GET', path: `/v1/tenders/${tenderKeys[n % Math.max(1, tenderKeys.length)] ?? ''}`, headers: auth },
      {
        method: 'POST', path: '/mcp', headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'search_tenders', arguments: { q: 'maintenance', limit: 5 } } }),
      },
      { method: 'POST', path: '/v1/extract', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ bytes_b64: pdf, filename: 'small.pdf', template: 'tax_invoice' }) },
    );
  }
  // "Cached checker calls": the one document's extraction is stored before the load, as it would be after its first caller.
  const warm = await fetch(`${origin}/v1/extract`, { method: 'POST', headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' }, body: JSON.stringify({ bytes_b64: pdf, filename: 'small.pdf', template: 'tax_invoice' }) });
  if (warm.status !== 200) throw new Error(`bench: the extraction to cache answered ${warm.status}: ${await warm.text()}`);
  const startBytes = await residentBytes(pid);
  let peakBytes = startBytes;
  const sampler = setInterval(() => void residentBytes(pid).then((bytes) => (peakBytes = Math.max(peakBytes, bytes)), () => undefined), 1000);
  const byStatus: Record<string, number> = {};
  let instance: autocannon.Instance | undefined;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url: origin, connections: 200, duration: seconds, requests }, (error, result) => (error ? reject(error) : resolve(result)));
  });
  instance!.on('response', (_client: unknown, statusCode: number) => {
    byStatus[statusCode] = (byStatus[statusCode] ?? 0) + 1;
  });
  const published = swap ? new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 3)).then(swap.publish) : Promise.resolve();
  const result = await finished;
  await published;
  const endBytes = await residentBytes(pid);
  clearInterval(sampler);
  const figures = { requests: result.requests.total, requestsPerSecond: result.requests.average, byStatus, p99Ms: result.latency.p99, startBytes, peakBytes: Math.max(peakBytes, endBytes), endBytes };
  if (!swap) return figures;
  await throughGrace(origin, swap.releaseId, requests);
  return { ...figures, afterGraceBytes: await residentBytes(pid) };
}

/**
 * Waits until the server serves `releaseId`, then through the replaced release's grace period and 10 s more under
 * 10 connections of the same requests: an idle server would not collect what the closed release held.
 */
async function throughGrace(origin: string, releaseId: string, requests: autocannon.Request[]): Promise<void> {
  const waitingSince = Date.now();
  while (((await (await fetch(`${origin}/health`)).json()) as { release_id?: string }).release_id !== releaseId) {
    if (Date.now() - waitingSince > 10 * 60_000) throw new Error(`bench: release ${releaseId} was not served within 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await autocannon({ url: origin, connections: 10, duration: (DEFAULT_GRACE_MS + 10_000) / 1000, requests });
}

/** What (p) does under load: a copy of the served release (hard links) published as a new release, as a nightly run does. */
export async function publishCopy(dataDir: string, releaseDir: string, releaseId: string): Promise<void> {
  const copyDir = join(releasesDir(dataDir), releaseId);
  // Hard links: a release is immutable once published, and a production-scale one is gigabytes.
  await promisify(execFile)('cp', ['-al', releaseDir, copyDir]);
  await promisify(execFile)('rm', ['-f', join(copyDir, 'manifest.json')]);
  const manifest = Manifest.parse(JSON.parse(await readFile(join(releaseDir, 'manifest.json'), 'utf8')));
  const next = { ...manifest, release_id: releaseId };
  await writeFile(join(copyDir, 'manifest.json'), JSON.stringify(next));
  await pointCurrentAt(dataDir, next, new Date());
}

