import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Politeness, SourceDefinition } from '../../sources/_contract/define-source.ts';
import { crawlSource } from '../../pipeline/crawl.ts';
import type { SourceCrawlResult } from '../../pipeline/crawl/result.ts';
import { FIXTURES_ROOT, FixtureMeta, readFixtureMeta } from '../../pipeline/fixture-meta.ts';
import { FixtureServer, type Fault, type ServedRequest } from '../../pipeline/fixture-server.ts';
import { HostGate } from '../../lib/host-gate.ts';

export interface FixtureCrawl extends SourceCrawlResult {
  requests: ServedRequest[];
  now: Date;
}

/**
 * Crawls one source against its recorded fixtures over real loopback HTTP, with the clock frozen at the
 * fixtures' capture date (or `now`).
 */
export async function crawlOnFixtures(
  source: SourceDefinition,
  options: { fault?: Fault; now?: Date; lastSuccessAt?: Date | null; politeness?: Partial<Politeness>; root?: string } = {},
): Promise<FixtureCrawl> {
  const server = new FixtureServer({ root: options.root, faults: options.fault ? { [source.id]: options.fault } : {} });
  await server.start();
  try {
    const now = options.now ?? new Date((await readFixtureMeta(source.id, options.root)).captured_at);
    const result = await crawlSource({
      source,
      base: server.baseFor(source.id),
      now,
      lastSuccessAt: options.lastSuccessAt ?? null,
      gate: new HostGate({ scale: 0 }),
      politeness: { maxRetries: 0, timeoutSecs: 5, ...options.politeness },
      offline: true,
    });
    return { ...result, requests: server.requests, now };
  } finally {
    await server.stop();
  }
}

/**
 * A copy of one source's fixtures in a temporary root (removed after the test), with `edit` applied to the
 * copy's folder; pass the root to `crawlOnFixtures` to crawl the edited set.
 */
export async function editedFixtures(
  t: { after: (fn: () => Promise<void>) => void },
  sourceId: string,
  edit: (dir: string) => Promise<void>,
): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), `${sourceId}-`));
  t.after(() => rm(root, { recursive: true, force: true }));
  await cp(join(FIXTURES_ROOT, sourceId), join(root, sourceId), { recursive: true });
  await edit(join(root, sourceId));
  return root;
}

/** Replaces the first `from` in a fixture file, asserting it is there so a stale edit cannot pass unnoticed. */
export async function replaceIn(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  assert.ok(typeof from === 'string' ? text.includes(from) : from.test(text), `${file} contains ${from}`);
  await writeFile(file, text.replace(from, to));
}

/** Rewrites a fixture folder's `_meta.json` (say, to widen a URL with `*`). */
export async function editMeta(dir: string, edit: (meta: FixtureMeta) => void): Promise<void> {
  const file = join(dir, '_meta.json');
  const meta = FixtureMeta.parse(JSON.parse(await readFile(file, 'utf8')));
  edit(meta);
  await writeFile(file, JSON.stringify(meta));
}
