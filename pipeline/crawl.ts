import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import * as cheerio from 'cheerio';
import { CheerioCrawler, Configuration, NonRetryableError, log as crawleeLog, type CheerioCrawlingContext } from '@crawlee/cheerio';
import { PlaywrightCrawler, type PlaywrightCrawlingContext } from '@crawlee/playwright';
import { chromium } from 'playwright';
import type { HttpValidator } from '../data/build.ts';
import { resolveChromium, type Chromium } from '../lib/chromium.ts';
import { SourceRecord } from '../sources/_contract/records.ts';
import type { CrawlRequest, Download, Fetched, Politeness, SourceContext, SourceDefinition } from '../sources/_contract/define-source.ts';
import type { HostGate } from '../lib/host-gate.ts';
import { readRobots } from '../lib/robots.ts';

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

/** Where validated records go as they are emitted (the nightly run stages them to disk). */
export interface RecordSink {
  write(record: SourceRecord): void;
}

export interface SourceCrawlResult {
  /** The validated records, held only when the crawl was given no sink (tests); with a sink they go there. */
  records: SourceRecord[];
  /** Every validated record emitted, held or sunk. */
  recordCount: number;
  invalid: InvalidRecord[];
  warnings: string[];
  pages: number;
  errors: number;
  /** True when a start request (the source's list, feed or API entry) could not be fetched. */
  failed: boolean;
  /** Set when the source was not crawled on purpose: its listings are login-walled, or robots.txt disallows them. */
  refused: 'login_walled' | 'robots_refused' | null;
  diagnosis: string | null;
  /**
   * Set when every file a snapshot source downloaded answered 304 to the remembered validators: the rows of
   * the last release still hold. The date is the newest Last-Modified among them (else when they were fetched).
   */
  notModifiedSince: Date | null;
  /** Validators of the files downloaded (or confirmed by a 304) tonight, for the release to remember. */
  validators: HttpValidator[];
  durationMs: number;
  /** The browser a browser-mode source was crawled with; null for the others. */
  browser: BrowserUsed | null;
}

export type BrowserUsed = Pick<Chromium, 'executablePath' | 'which' | 'version'>;

export function emptyCrawlResult(): SourceCrawlResult {
  return { records: [], recordCount: 0, invalid: [], warnings: [], pages: 0, errors: 0, failed: false, refused: null, diagnosis: null, notModifiedSince: null, validators: [], durationMs: 0, browser: null };
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
  const politeness = { ...source.politeness, ...options.politeness };
  const ctx = sourceContext(source, options.base, options.now, options.lastSuccessAt);
  const result = emptyCrawlResult();
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
  let lastReport = 0;
  // A register emits millions of records: the display is refreshed a few times a second, not per record.
  const report = (force = false) => {
    const now = performance.now();
    if (!force && now - lastReport < 250) return;
    lastReport = now;
    options.onProgress?.({ pages: result.pages, records: result.recordCount, errors: result.errors });
  };
  const failures: string[] = [];

  const toCrawleeRequest = (request: CrawlRequest, isStart: boolean) => ({
    url: request.url,
    label: request.label,
    method: request.method ?? 'GET',
    payload: request.payload,
    headers: request.headers,
    uniqueKey: `${request.method ?? 'GET'} ${request.url} ${request.payload ?? ''}`,
    userData: { ...request.userData, __start: isStart },
  });

  const downloads = snapshotDownloads(source, options, politeness, gate, ctx);

  const handle = async (request: HandledRequest, statusCode: number, dom: Fetched['dom'], body: () => Promise<string>, enqueue: (requests: ReturnType<typeof toCrawleeRequest>[]) => Promise<unknown>) => {
    result.pages++;
    report(true);
    const label = request.label ?? '';
    const publicUrl = ctx.publicUrl(request.url);
    if (statusCode === 429) throw new Error(`HTTP 429 (rate limited)`);
    if (statusCode >= 400) throw new NonRetryableError(`HTTP ${statusCode}`);
    const route = source.routes[label];
    if (!route) throw new NonRetryableError(`source ${source.id} has no handler for label ${label}`);
    const validatorsOfThisRequest: HttpValidator[] = [];
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
      download: async (url) => {
        if (!permitted(url)) throw new NonRetryableError(`robots.txt disallows ${new URL(ctx.publicUrl(url)).pathname}; not fetched`);
        result.pages++;
        report(true);
        const outcome = await downloads.fetch(url, request, validatorsOfThisRequest);
        if (outcome.refetch.length) {
          // Files of this snapshot that answered 304 earlier tonight are fetched again whole: a snapshot is replaced whole.
          await enqueue(outcome.refetch.map((r) => ({
            ...toCrawleeRequest({ url: r.url, label: r.label ?? '', method: r.method === 'POST' ? 'POST' : 'GET', payload: r.payload, headers: r.headers, userData: { ...r.userData, __unconditional: true } }, r.userData.__start === true),
            uniqueKey: `unconditional ${r.method ?? 'GET'} ${r.url} ${r.payload ?? ''}`,
          })));
        }
        return outcome.download;
      },
      emit: (record) => {
        const parsed = SourceRecord.safeParse(record);
        if (parsed.success) {
          result.recordCount++;
          if (options.sink) options.sink.write(parsed.data);
          else result.records.push(parsed.data);
        } else {
          result.invalid.push({ url: publicUrl, problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
        }
        report();
      },
      invalid: (problem) => {
        result.invalid.push({ url: publicUrl, problem });
        report();
      },
      warn: (message) => result.warnings.push(`${publicUrl}: ${message}`),
    };
    try {
      await route(fetched);
    } catch (error) {
      // A file that downloaded but could not be read would read no better downloaded again tonight.
      if (validatorsOfThisRequest.length && !(error instanceof NonRetryableError)) throw new NonRetryableError((error as Error).message);
      throw error;
    }
    // Remembered only once the handler has read the file: a file that failed half-way is asked for whole next time.
    downloads.remember(validatorsOfThisRequest);
  };

  const onFailure = (request: { userData: Record<string, unknown>; url: string; retryCount: number; method?: string }, error: Error) => {
    result.errors++;
    const attempts = request.retryCount + 1;
    const line = error instanceof DownloadError
      ? error.message
      : `${describeFailure(error, politeness.timeoutSecs)} from ${request.method ?? 'GET'} ${ctx.publicUrl(request.url)} after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    failures.push(line);
    if (request.userData.__start) {
      result.failed = true;
      result.diagnosis ??= line;
    } else {
      result.warnings.push(line);
    }
    report(true);
  };

  const common = {
    maxConcurrency: politeness.maxConcurrency,
    maxRequestRetries: politeness.maxRetries,
    navigationTimeoutSecs: politeness.timeoutSecs,
    requestHandlerTimeoutSecs: politeness.handlerTimeoutSecs ?? politeness.timeoutSecs * 2,
    useSessionPool: false,
    retryOnBlocked: false,
  };
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });
  const startRequests = source.start(ctx).filter((r) => permitted(r.url)).map((r) => toCrawleeRequest(r, true));
  const runCrawler = async () => {
    if (source.mode === 'browser') {
      const browser = await (options.chromium ?? resolveChromium)({ offline: options.offline });
      result.browser = { executablePath: browser.executablePath, which: browser.which, version: browser.version };
      const crawler: PlaywrightCrawler = new PlaywrightCrawler(
        {
          ...common,
          launchContext: {
            launcher: chromium,
            userAgent: USER_AGENT,
            launchOptions: { executablePath: browser.executablePath, headless: true, args: browser.args, env: browser.env },
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
  };

  if (startRequests.length === 0) {
    result.refused = 'robots_refused';
    result.diagnosis = `robots.txt disallows ${[...new Set(disallowed)].join(', ')} for crawlers; not fetched`;
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }
  try {
    await runCrawler();
  } finally {
    await downloads.cleanUp();
  }

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
  result.durationMs = Math.round(performance.now() - started);
  report(true);
  return result;
}

interface HandledRequest {
  url: string;
  label?: string;
  method?: string;
  payload?: string;
  headers?: Record<string, string>;
  userData: Record<string, unknown>;
}

/** A download that failed for good; its message is the registry's one-line diagnosis, naming the file. */
export class DownloadError extends NonRetryableError {}

interface DownloadFetch {
  download: Download;
  /** Requests whose files answered 304 earlier tonight and must now be fetched whole, because this one changed. */
  refetch: HandledRequest[];
}

/**
 * The downloads of one source's crawl: where their files go, the validators they send and remember, and the
 * rule that keeps a snapshot whole. A snapshot source's files are asked for conditionally; when one of them
 * changed and another answered 304, the unchanged one is fetched again whole, since the source's rows are
 * replaced from tonight's files alone.
 */
function snapshotDownloads(source: SourceDefinition, options: CrawlSourceOptions, politeness: Politeness, gate: HostGate, ctx: SourceContext) {
  const conditional = source.refresh === 'snapshot';
  const previous = new Map((options.validators ?? []).map((v) => [v.url, v]));
  const remembered = new Map<string, HttpValidator>();
  let dir: string | null = null;
  let count = 0;
  let changed = false;
  let notModified: { request: HandledRequest; since: Date }[] = [];

  const folder = async () => {
    if (!dir) {
      dir = options.workDir ? join(options.workDir, 'downloads', source.id) : await mkdtemp(join(tmpdir(), `downloads-${source.id}-`));
      await mkdir(dir, { recursive: true });
    }
    return dir;
  };

  return {
    async fetch(url: string, request: HandledRequest, validators: HttpValidator[]): Promise<DownloadFetch> {
      const publicUrl = ctx.publicUrl(url);
      const sent = conditional && !request.userData.__unconditional ? (previous.get(publicUrl) ?? null) : null;
      const path = join(await folder(), `${++count}-${basename(new URL(publicUrl).pathname) || 'download'}`);
      const get = (validator: HttpValidator | null) => downloadToFile({ url, publicUrl, path, validator, politeness, gate });
      let answer = await get(sent);
      // Another file of this snapshot changed tonight, so this one is needed whole too.
      if (answer.status === 'not_modified' && changed) answer = await get(null);
      if (answer.status === 'not_modified') {
        if (!sent) throw new DownloadError(`HTTP 304 to a request that sent no validator, from GET ${publicUrl}`);
        validators.push({ ...sent, etag: answer.etag ?? sent.etag });
        const since = answer.lastModified ?? (sent.last_modified ? new Date(sent.last_modified) : new Date(sent.fetched_at));
        notModified.push({ request, since });
        return { download: { status: 'not_modified', lastModified: since }, refetch: [] };
      }
      validators.push({ url: publicUrl, etag: answer.etag, last_modified: answer.lastModifiedHeader, fetched_at: ctx.now.toISOString() });
      const refetch = conditional && !changed ? notModified.map((n) => n.request) : [];
      changed = true;
      notModified = [];
      return { download: { status: 'fetched', path, bytes: answer.bytes, lastModified: answer.lastModified }, refetch };
    },
    remember(validators: HttpValidator[]) {
      for (const validator of validators) remembered.set(validator.url, validator);
    },
    validators: () => [...remembered.values()],
    /** The newest Last-Modified when every download answered 304; null when anything was fetched. */
    notModifiedSince(): Date | null {
      if (changed || notModified.length === 0) return null;
      return new Date(Math.max(...notModified.map((n) => n.since.getTime())));
    },
    async cleanUp() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

type DownloadAnswer =
  | { status: 'fetched'; bytes: number; etag: string | null; lastModifiedHeader: string | null; lastModified: Date | null }
  | { status: 'not_modified'; etag: string | null; lastModified: Date | null };

/**
 * Streams one file to `path` with the crawler's manners: the User-Agent, the per-host gate, retries with
 * backoff on 429, 5xx and dropped connections (honouring Retry-After), and `timeoutSecs` as the longest
 * silence, so a slow but steady 400 MB download is never cut off while a stalled one is.
 */
async function downloadToFile(options: { url: string; publicUrl: string; path: string; validator: HttpValidator | null; politeness: Politeness; gate: HostGate }): Promise<DownloadAnswer> {
  const { url, publicUrl, path, validator, politeness, gate } = options;
  const headers: Record<string, string> = { 'user-agent': USER_AGENT };
  if (validator?.etag) headers['if-none-match'] = validator.etag;
  if (validator?.last_modified) headers['if-modified-since'] = validator.last_modified;
  for (let attempt = 1; ; attempt++) {
    await gate.wait(url, politeness.delayMs);
    const controller = new AbortController();
    const silence = setTimeout(() => controller.abort(new Error(`no answer within ${politeness.timeoutSecs} s`)), politeness.timeoutSecs * 1000);
    let retryAfter: number | null = null;
    try {
      const response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
      const lastModifiedHeader = response.headers.get('last-modified');
      const lastModified = lastModifiedHeader && !Number.isNaN(Date.parse(lastModifiedHeader)) ? new Date(lastModifiedHeader) : null;
      if (response.status === 304) {
        await response.body?.cancel();
        return { status: 'not_modified', etag: response.headers.get('etag'), lastModified };
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        retryAfter = retryAfterMs(response.headers.get('retry-after') ?? undefined);
        const retryable = response.status === 429 || response.status >= 500;
        throw Object.assign(new Error(`HTTP ${response.status}`), { retryable });
      }
      let bytes = 0;
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            silence.refresh();
            bytes += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(path),
      );
      return { status: 'fetched', bytes, etag: response.headers.get('etag'), lastModifiedHeader, lastModified };
    } catch (error) {
      const failure = controller.signal.aborted ? (controller.signal.reason as Error) : (error as Error & { retryable?: boolean });
      const retryable = (failure as { retryable?: boolean }).retryable ?? true;
      if (!retryable || attempt > politeness.maxRetries) {
        throw new DownloadError(`${describeFailure(failure, politeness.timeoutSecs)} from GET ${publicUrl} after ${attempt} attempt${attempt === 1 ? '' : 's'}`);
      }
      await sleep(gate.backoffMs(attempt, retryAfter));
    } finally {
      clearTimeout(silence);
    }
  }
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
