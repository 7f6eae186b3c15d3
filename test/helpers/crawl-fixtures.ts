import type { Politeness, SourceDefinition } from '../../sources/_contract/define-source.ts';
import { crawlSource, type SourceCrawlResult } from '../../pipeline/crawl.ts';
import { readFixtureMeta } from '../../pipeline/fixture-meta.ts';
import { FixtureServer, type Fault, type ServedRequest } from '../../pipeline/fixture-server.ts';
import { HostGate } from '../../pipeline/politeness.ts';

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
