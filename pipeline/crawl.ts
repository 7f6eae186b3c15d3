import type { HttpValidator } from '../data/build.ts';
import { resolveChromium, type Chromium } from '../lib/chromium.ts';
import type { HostGate } from '../lib/host-gate.ts';
import { readRobots } from '../lib/robots.ts';
import type { Politeness, SourceContext, SourceDefinition } from '../sources/_contract/define-source.ts';
import { createCrawler } from './crawl/crawler-factory.ts';
import { snapshotDownloads, type SnapshotDownloads } from './crawl/downloads.ts';
import { sourceFailureHandler } from './crawl/failure-handler.ts';
import { USER_AGENT } from './crawl/http.ts';
import { toCrawleeRequest } from './crawl/request-meta.ts';
import { sourceRequestHandler } from './crawl/request-handler.ts';
import { CrawlTally, type CrawlProgress, type RecordSink, type SourceCrawlResult } from './crawl/result.ts';

export interface CrawlSourceOptions {
  source: SourceDefinition;
  /** The base `ctx.url()` resolves against: the live origin, or the fixture server's folder for the source. */
  base: string;
  now: Date;
  lastSuccessAt: Date | null;
  gate: HostGate;
  /** Overrides for tests that need a short timeout or no retries. */
  politeness?: Partial<Politeness>;
  offline: boolean;
  onProgress?: (progress: CrawlProgress) => void;
  /** Receives validated records as they are emitted; without one they are held in `result.records`. */
  sink?: RecordSink;
  /** Validators the last release remembered for this source's downloads. */
  validators?: HttpValidator[];
  /** The run's work folder; downloads go to `downloads/<source>/` under it (a temporary folder when unset). */
  workDir?: string;
  /** Finds the browser for a browser-mode source (lib/chromium.ts). */
  chromium?: (options: { offline: boolean }) => Promise<Chromium>;
}

export function sourceContext(source: SourceDefinition, base: string, now: Date, lastSuccessAt: Date | null): SourceContext {
  const liveOrigin = new URL(source.origin).origin;
  const trimmedBase = base.replace(/\/$/, '');
  return {
    now,
    lastSuccessAt,
    url(pathOrUrl) {
      if (/^https?:\/\//i.test(pathOrUrl)) {
        const url = new URL(pathOrUrl);
        return url.origin === liveOrigin ? `${trimmedBase}${url.pathname}${url.search}` : pathOrUrl;
      }
      return `${trimmedBase}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
    },
    publicUrl(fetchedUrl) {
      return fetchedUrl.startsWith(trimmedBase) ? `${liveOrigin}${fetchedUrl.slice(trimmedBase.length)}` : fetchedUrl;
    },
  };
}

/** Crawls one source with Crawlee and returns its validated records. Never throws for a source's failure. */
export async function crawlSource(options: CrawlSourceOptions): Promise<SourceCrawlResult> {
  const started = performance.now();
  const { source, gate } = options;
  const tally = new CrawlTally(options);
  const { result } = tally;
  if (source.access?.kind === 'login_walled') {
    result.refused = 'login_walled';
    result.diagnosis = source.access.why;
    return result;
  }
  const politeness = { ...source.politeness, ...options.politeness };
  const ctx = sourceContext(source, options.base, options.now, options.lastSuccessAt);
  const robots = await robotsGate(source, ctx, politeness);
  const downloads = snapshotDownloads({ source, validators: options.validators, workDir: options.workDir, politeness, gate, ctx });
  const startRequests = source.start(ctx).filter((r) => robots.permitted(r.url)).map((r) => toCrawleeRequest(r, { start: true, unconditional: false }));
  if (startRequests.length === 0) {
    result.refused = 'robots_refused';
    result.diagnosis = `robots.txt disallows ${[...new Set(robots.disallowed)].join(', ')} for crawlers; not fetched`;
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }
  try {
    const handlers = {
      onPage: sourceRequestHandler({ source, ctx, tally, downloads, permitted: robots.permitted }),
      onFailure: sourceFailureHandler({ ctx, tally, timeoutSecs: politeness.timeoutSecs }),
    };
    const { crawler, browser } = await createCrawler(source.mode, { politeness, gate, handlers }, () => (options.chromium ?? resolveChromium)({ offline: options.offline }));
    result.browser = browser;
    await crawler.run(startRequests);
  } finally {
    await downloads.cleanUp();
  }
  settle(tally, source, downloads, robots.disallowed);
  result.durationMs = Math.round(performance.now() - started);
  tally.report(true);
  return result;
}

/** The host's robots.txt as the crawl applies it; the paths it refused are kept for the diagnosis and warning. */
async function robotsGate(source: SourceDefinition, ctx: SourceContext, politeness: Politeness) {
  const robots = await readRobots(`${new URL(source.origin).origin}/robots.txt`, ctx.url('/robots.txt'), USER_AGENT, politeness.timeoutSecs * 1000);
  // why: a host's own Crawl-delay outranks our default spacing when it asks for more
  if (robots.crawlDelayMs !== null) politeness.delayMs = Math.max(politeness.delayMs, robots.crawlDelayMs);
  const disallowed: string[] = [];
  const permitted = (url: string) => {
    const publicUrl = ctx.publicUrl(url);
    if (robots.allows(publicUrl)) return true;
    disallowed.push(new URL(publicUrl).pathname);
    return false;
  };
  return { permitted, disallowed };
}

/** Judges a finished crawl: whether its failures fail the source, and what it remembers for next time. */
function settle(tally: CrawlTally, source: SourceDefinition, downloads: SnapshotDownloads, disallowed: string[]): void {
  const { result, failures } = tally;
  if (disallowed.length) result.warnings.push(`robots.txt disallows ${disallowed.length} linked page(s), not fetched, e.g. ${disallowed[0]}`);
  if (!result.failed && source.refresh === 'snapshot' && result.errors > 0) {
    // Half a register would replace the whole one: keep the last release's rows (stale) instead.
    result.failed = true;
    result.diagnosis = `${failures[0]}; a snapshot is replaced only when every file is read`;
  }
  if (!result.failed && result.recordCount === 0 && result.errors > 0) {
    result.failed = true;
    result.diagnosis = `every request failed; first: ${failures[0]}`;
  }
  if (!result.failed) {
    result.validators = downloads.validators();
    if (result.recordCount === 0) result.notModifiedSince = downloads.notModifiedSince();
  }
}
