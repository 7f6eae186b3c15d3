import { NonRetryableError } from '@crawlee/cheerio';
import type { HttpValidator } from '../../data/build.ts';
import type { Fetched, SourceContext, SourceDefinition } from '../../sources/_contract/define-source.ts';
import type { CrawledPage } from './crawler-factory.ts';
import type { SnapshotDownloads } from './downloads.ts';
import { toCrawleeRequest, unconditionalCopy } from './request-meta.ts';
import type { CrawlTally } from './result.ts';

export interface RequestHandlerOptions {
  source: SourceDefinition;
  ctx: SourceContext;
  tally: CrawlTally;
  downloads: SnapshotDownloads;
  /** Whether robots.txt lets the crawler fetch a URL (`ctx.url()` form); a refusal is noted for the run's warning. */
  permitted(url: string): boolean;
}

/**
 * Hands each fetched page to the source's route for its label. An HTTP error status fails the request
 * (429 may be retried; any other is final), and a file that downloaded but could not be read fails for good.
 */
export function sourceRequestHandler(options: RequestHandlerOptions): (page: CrawledPage) => Promise<void> {
  const { source, tally, downloads } = options;
  return async (page) => {
    tally.fetched();
    const label = page.request.label ?? '';
    if (page.statusCode === 429) throw new Error(`HTTP 429 (rate limited)`);
    if (page.statusCode >= 400) throw new NonRetryableError(`HTTP ${page.statusCode}`);
    const route = source.routes[label];
    if (!route) throw new NonRetryableError(`source ${source.id} has no handler for label ${label}`);
    const validatorsOfThisRequest: HttpValidator[] = [];
    try {
      await route(fetchedOf(page, label, validatorsOfThisRequest, options));
    } catch (error) {
      // A file that downloaded but could not be read would read no better downloaded again tonight.
      if (validatorsOfThisRequest.length && !(error instanceof NonRetryableError)) throw new NonRetryableError((error as Error).message);
      throw error;
    }
    // Remembered only once the handler has read the file: a file that failed half-way is asked for whole next time.
    downloads.remember(validatorsOfThisRequest);
  };
}

/** What a source's route sees of one page; the validators of its downloads are collected into `validators`. */
function fetchedOf(page: CrawledPage, label: string, validators: HttpValidator[], options: RequestHandlerOptions): Fetched {
  const { ctx, tally, downloads, permitted } = options;
  const { request } = page;
  const publicUrl = ctx.publicUrl(request.url);
  return {
    request: { url: request.url, label, userData: request.userData.source },
    statusCode: page.statusCode,
    ctx,
    dom: page.dom,
    json: async () => JSON.parse(await page.text()) as unknown,
    text: page.text,
    enqueue: async (requests) => {
      const allowed = (Array.isArray(requests) ? requests : [requests]).filter((r) => permitted(r.url));
      if (allowed.length) await page.enqueue(allowed.map((r) => toCrawleeRequest(r, { start: false, unconditional: false })));
    },
    download: async (url) => {
      if (!permitted(url)) throw new NonRetryableError(`robots.txt disallows ${new URL(ctx.publicUrl(url)).pathname}; not fetched`);
      tally.fetched();
      const outcome = await downloads.fetch(url, request, validators);
      // Files of this snapshot that answered 304 earlier tonight are fetched again whole: a snapshot is replaced whole.
      if (outcome.refetch.length) await page.enqueue(outcome.refetch.map(unconditionalCopy));
      return outcome.download;
    },
    emit: (record) => tally.emit(record, publicUrl),
    invalid: (problem) => tally.invalid(publicUrl, problem),
    warn: (message) => {
      tally.result.warnings.push(`${publicUrl}: ${message}`);
    },
  };
}
