import * as cheerio from 'cheerio';
import { CheerioCrawler, Configuration, log as crawleeLog, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { PlaywrightCrawler, type PlaywrightCrawlingContext } from '@crawlee/playwright';
import { chromium } from 'playwright';
import type { Chromium } from '../../lib/chromium.ts';
import type { HostGate } from '../../lib/host-gate.ts';
import type { Fetched, Politeness, SourceMode } from '../../sources/_contract/define-source.ts';
import { retryAfterMs, sleep, USER_AGENT } from './http.ts';
import { queuedRequest, type CrawleeRequest, type CrawleeRequestOptions, type QueuedRequest } from './request-meta.ts';
import type { BrowserUsed } from './result.ts';

// Crawlee's own log would interleave with the progress display; failures reach us through the handlers.
crawleeLog.setLevel(crawleeLog.LEVELS.OFF);

/** One fetched response as either crawler hands it on: the request handler cannot tell them apart. */
export interface CrawledPage {
  request: QueuedRequest;
  statusCode: number;
  dom: Fetched['dom'];
  text: () => Promise<string>;
  enqueue(requests: CrawleeRequestOptions[]): Promise<unknown>;
}

/** A request that failed for good, as the failure handler reads it. */
export interface FailedRequest extends QueuedRequest {
  retryCount: number;
}

export interface CrawlHandlers {
  onPage(page: CrawledPage): Promise<void>;
  /** Called once a request has failed its last attempt (Crawlee's `failedRequestHandler`). */
  onFailure(request: FailedRequest, error: Error): void;
}

/** A Cheerio or a Playwright crawler, run the same way. */
export interface SourceCrawler {
  run(startRequests: CrawleeRequestOptions[]): Promise<void>;
}

export interface CrawlerSettings {
  politeness: Politeness;
  gate: HostGate;
  handlers: CrawlHandlers;
}

/**
 * The crawler for a source's mode, with the browser it launches (found only for a `browser`-mode source).
 * Both crawlers keep the same manners and hand their pages and failures to the same handlers.
 */
export async function createCrawler(mode: SourceMode, settings: CrawlerSettings, findBrowser: () => Promise<Chromium>): Promise<{ crawler: SourceCrawler; browser: BrowserUsed | null }> {
  if (mode !== 'browser') return { crawler: cheerioCrawler(settings), browser: null };
  const browser = await findBrowser();
  return { crawler: playwrightCrawler(settings, browser), browser: { executablePath: browser.executablePath, which: browser.which, version: browser.version } };
}

// One polite bot, not a rotating farm: no session pool, no blocking detection.
function commonOptions({ politeness, handlers }: CrawlerSettings) {
  return {
    maxConcurrency: politeness.maxConcurrency,
    maxRequestRetries: politeness.maxRetries,
    navigationTimeoutSecs: politeness.timeoutSecs,
    requestHandlerTimeoutSecs: politeness.handlerTimeoutSecs ?? politeness.timeoutSecs * 2,
    useSessionPool: false,
    retryOnBlocked: false,
    failedRequestHandler: async ({ request }: { request: CrawleeRequest }, error: Error) => handlers.onFailure({ ...queuedRequest(request), retryCount: request.retryCount }, error),
  };
}

function storage(): Configuration {
  return new Configuration({ persistStorage: false, purgeOnStart: true });
}

/** Plain HTTP: every mode but `browser`. */
function cheerioCrawler(settings: CrawlerSettings): SourceCrawler {
  const { politeness, gate, handlers } = settings;
  const crawler: CheerioCrawler = new CheerioCrawler(
    {
      ...commonOptions(settings),
      additionalMimeTypes: ['application/rss+xml', 'application/atom+xml', 'application/json', 'text/csv', 'text/plain', 'text/tab-separated-values', 'application/octet-stream'],
      preNavigationHooks: [
        async ({ request }, gotOptions) => {
          gotOptions.headers = { ...gotOptions.headers, 'user-agent': USER_AGENT };
          await gate.wait(request.url, politeness.delayMs);
        },
      ],
      errorHandler: async ({ request, response }) => sleep(gate.backoffMs(request.retryCount + 1, retryAfterMs(response?.headers['retry-after']))),
      requestHandler: async ({ request, response, body }: CheerioCrawlingContext) => {
        const text = () => Promise.resolve(typeof body === 'string' ? body : body.toString('utf8'));
        // Parsed with our own cheerio (Crawlee bundles an older one) so adapters see one API in every mode.
        const isXml = /xml/.test(String(response.headers['content-type']));
        await handlers.onPage({
          request: queuedRequest(request),
          statusCode: response.statusCode ?? 0,
          dom: async (opts) => cheerio.load(await text(), { xml: opts?.xml ?? isXml }),
          text,
          enqueue: (requests) => crawler.addRequests(requests),
        });
      },
    },
    storage(),
  );
  return { run: async (startRequests) => void (await crawler.run(startRequests)) };
}

/** Chromium through Playwright, for `browser`-mode sources. */
function playwrightCrawler(settings: CrawlerSettings, browser: Chromium): SourceCrawler {
  const { politeness, gate, handlers } = settings;
  const crawler: PlaywrightCrawler = new PlaywrightCrawler(
    {
      ...commonOptions(settings),
      launchContext: {
        launcher: chromium,
        userAgent: USER_AGENT,
        launchOptions: { executablePath: browser.executablePath, headless: true, args: browser.args, env: browser.env },
      },
      browserPoolOptions: { useFingerprints: false },
      preNavigationHooks: [async ({ request }) => gate.wait(request.url, politeness.delayMs)],
      errorHandler: async ({ request, response }) => sleep(gate.backoffMs(request.retryCount + 1, retryAfterMs(response?.headers()['retry-after']))),
      requestHandler: async ({ page, request, response }: PlaywrightCrawlingContext) => {
        await handlers.onPage({
          request: queuedRequest(request),
          statusCode: response?.status() ?? 0,
          dom: async (opts) => {
            if (opts?.waitFor) await page.waitForSelector(opts.waitFor, { timeout: politeness.timeoutSecs * 1000 });
            return cheerio.load(await page.content(), { xml: opts?.xml ?? false });
          },
          text: () => page.content(),
          enqueue: (requests) => crawler.addRequests(requests),
        });
      },
    },
    storage(),
  );
  return { run: async (startRequests) => void (await crawler.run(startRequests)) };
}
