import * as cheerio from 'cheerio';
import { CheerioCrawler, Configuration, NonRetryableError, log as crawleeLog, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { PlaywrightCrawler, type PlaywrightCrawlingContext } from '@crawlee/playwright';
import { chromium } from 'playwright';
import { CHROMIUM_PATH, chromiumArgs } from '../lib/chromium.ts';
import { SourceRecord } from '../sources/_contract/records.ts';
import type { CrawlRequest, Fetched, Politeness, SourceContext, SourceDefinition } from '../sources/_contract/define-source.ts';
import type { HostGate } from './politeness.ts';
import { readRobots } from './robots.ts';

// Crawlee's own log would interleave with the progress display; failures reach us through the handlers.
crawleeLog.setLevel(crawleeLog.LEVELS.OFF);

export const USER_AGENT = `TenderIntelBot/0.6 (+${process.env.SVC_CONTACT_URL ?? 'https://github.com/tender-intel/tender-intel#contact'})`;

export interface CrawlProgress {
  pages: number;
  records: number;
  errors: number;
}

export interface InvalidRecord {
  url: string;
  problem: string;
}

export interface SourceCrawlResult {
  records: SourceRecord[];
  invalid: InvalidRecord[];
  warnings: string[];
  pages: number;
  errors: number;
  /** True when a start request (the source's list, feed or API entry) could not be fetched. */
  failed: boolean;
  /** Set when the source was not crawled on purpose: its listings are login-walled, or robots.txt disallows them. */
  refused: 'login_walled' | 'robots_refused' | null;
  diagnosis: string | null;
  durationMs: number;
}

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
  const politeness = { ...source.politeness, ...options.politeness };
  const ctx = sourceContext(source, options.base, options.now, options.lastSuccessAt);
  const result: SourceCrawlResult = { records: [], invalid: [], warnings: [], pages: 0, errors: 0, failed: false, refused: null, diagnosis: null, durationMs: 0 };
  if (source.access?.kind === 'login_walled') {
    result.refused = 'login_walled';
    result.diagnosis = source.access.why;
    return result;
  }
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
  const report = () => options.onProgress?.({ pages: result.pages, records: result.records.length, errors: result.errors });

  const toCrawleeRequest = (request: CrawlRequest, isStart: boolean) => ({
    url: request.url,
    label: request.label,
    method: request.method ?? 'GET',
    payload: request.payload,
    headers: request.headers,
    uniqueKey: `${request.method ?? 'GET'} ${request.url} ${request.payload ?? ''}`,
    userData: { ...request.userData, __start: isStart },
  });

  const handle = async (request: { url: string; label?: string; userData: Record<string, unknown>; loadedUrl?: string }, statusCode: number, dom: Fetched['dom'], body: () => Promise<string>, enqueue: (requests: ReturnType<typeof toCrawleeRequest>[]) => Promise<unknown>) => {
    result.pages++;
    report();
    const label = request.label ?? '';
    const publicUrl = ctx.publicUrl(request.url);
    if (statusCode === 429) throw new Error(`HTTP 429 (rate limited)`);
    if (statusCode >= 400) throw new NonRetryableError(`HTTP ${statusCode}`);
    const route = source.routes[label];
    if (!route) throw new NonRetryableError(`source ${source.id} has no handler for label ${label}`);
    const fetched: Fetched = {
      request: { url: request.url, label, userData: request.userData },
      statusCode,
      ctx,
      dom,
      json: async () => JSON.parse(await body()) as unknown,
      text: body,
      enqueue: async (requests) => {
        const allowed = (Array.isArray(requests) ? requests : [requests]).filter((r) => permitted(r.url));
        if (allowed.length) await enqueue(allowed.map((r) => toCrawleeRequest(r, false)));
      },
      emit: (record) => {
        const parsed = SourceRecord.safeParse(record);
        if (parsed.success) result.records.push(parsed.data);
        else result.invalid.push({ url: publicUrl, problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
        report();
      },
      invalid: (problem) => {
        result.invalid.push({ url: publicUrl, problem });
        report();
      },
      warn: (message) => result.warnings.push(`${publicUrl}: ${message}`),
    };
    await route(fetched);
  };

  const onFailure = (request: { userData: Record<string, unknown>; url: string; retryCount: number; method?: string }, error: Error) => {
    result.errors++;
    const attempts = request.retryCount + 1;
    const line = `${describeFailure(error, politeness.timeoutSecs)} from ${request.method ?? 'GET'} ${ctx.publicUrl(request.url)} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    if (request.userData.__start) {
      result.failed = true;
      result.diagnosis ??= line;
    } else {
      result.warnings.push(line);
    }
    report();
  };

  const common = {
    maxConcurrency: politeness.maxConcurrency,
    maxRequestRetries: politeness.maxRetries,
    navigationTimeoutSecs: politeness.timeoutSecs,
    requestHandlerTimeoutSecs: politeness.timeoutSecs * 2,
    useSessionPool: false,
    retryOnBlocked: false,
  };
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const startRequests = source.start(ctx).filter((r) => permitted(r.url)).map((r) => toCrawleeRequest(r, true));
  if (startRequests.length === 0) {
    result.refused = 'robots_refused';
    result.diagnosis = `robots.txt disallows ${[...new Set(disallowed)].join(', ')} for crawlers; not fetched`;
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }

  if (source.mode === 'browser') {
    const crawler: PlaywrightCrawler = new PlaywrightCrawler(
      {
        ...common,
        launchContext: {
          launcher: chromium,
          userAgent: USER_AGENT,
          launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs({ offline: options.offline }) },
        },
        browserPoolOptions: { useFingerprints: false },
        preNavigationHooks: [async ({ request }) => gate.wait(request.url, politeness.delayMs)],
        errorHandler: async ({ request, response }) => sleep(gate.backoffMs(request.retryCount + 1, retryAfterMs(response?.headers()['retry-after']))),
        requestHandler: async (context: PlaywrightCrawlingContext) => {
          const { page, request, response } = context;
          await handle(
            request,
            response?.status() ?? 0,
            async (opts) => {
              if (opts?.waitFor) await page.waitForSelector(opts.waitFor, { timeout: politeness.timeoutSecs * 1000 });
              return cheerio.load(await page.content(), { xml: opts?.xml ?? false });
            },
            () => page.content(),
            (requests) => crawler.addRequests(requests),
          );
        },
        failedRequestHandler: async ({ request }, error) => onFailure(request, error),
      },
      config,
    );
    await crawler.run(startRequests);
  } else {
    const crawler: CheerioCrawler = new CheerioCrawler(
      {
        ...common,
        additionalMimeTypes: ['application/rss+xml', 'application/atom+xml', 'application/json', 'text/csv', 'text/plain', 'text/tab-separated-values', 'application/octet-stream'],
        preNavigationHooks: [
          async ({ request }, gotOptions) => {
            gotOptions.headers = { ...gotOptions.headers, 'user-agent': USER_AGENT };
            await gate.wait(request.url, politeness.delayMs);
          },
        ],
        errorHandler: async ({ request, response }) => sleep(gate.backoffMs(request.retryCount + 1, retryAfterMs(response?.headers['retry-after']))),
        requestHandler: async (context: CheerioCrawlingContext) => {
          const { request, response, body } = context;
          const text = () => Promise.resolve(typeof body === 'string' ? body : body.toString('utf8'));
          // Parsed with our own cheerio (Crawlee bundles an older one) so adapters see one API in every mode.
          const isXml = /xml/.test(String(response.headers['content-type']));
          await handle(
            request,
            response.statusCode ?? 0,
            async (opts) => cheerio.load(await text(), { xml: opts?.xml ?? isXml }),
            text,
            (requests) => crawler.addRequests(requests),
          );
        },
        failedRequestHandler: async ({ request }, error) => onFailure(request, error),
      },
      config,
    );
    await crawler.run(startRequests);
  }

  if (disallowed.length) result.warnings.push(`robots.txt disallows ${disallowed.length} linked page(s), not fetched, e.g. ${disallowed[0]}`);
  if (!result.failed && result.records.length === 0 && result.errors > 0) {
    result.failed = true;
    result.diagnosis = `every request failed; first: ${result.warnings[0]}`;
  }
  result.durationMs = Math.round(performance.now() - started);
  return result;
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** One plain line for a registry diagnosis: "HTTP 500", "no answer within 30 s", or the error's first line. */
export function describeFailure(error: Error, timeoutSecs: number): string {
  const message = (error.message.split('\n')[0] ?? error.message).trim();
  const crawleeStatus = /^(\d{3}) - /.exec(message);
  if (crawleeStatus) return `HTTP ${crawleeStatus[1]}`;
  const ownStatus = /^HTTP (\d{3})/.exec(message);
  if (ownStatus) return `HTTP ${ownStatus[1]}`;
  if (/timed? ?out|timeout/i.test(message)) return `no answer within ${timeoutSecs} s`;
  return message.slice(0, 200);
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
