import type { CheerioAPI } from 'cheerio';
import type { Jurisdiction, Tier } from '../../lib/jurisdictions.ts';
import type { SourceRecord } from './records.ts';

export type SourceMode = 'rss' | 'json-api' | 'csv' | 'xml' | 'html' | 'browser';
export type SourceKind = 'tender' | 'grant' | 'award' | 'plan' | 'company' | 'abn' | 'sanction';

/**
 * How tonight's rows relate to the last release's. `incremental` (the default): rows are merged by key across
 * nights, so first_seen survives and a row that leaves the listing stays readable. `snapshot`: the source
 * publishes its whole register as files replaced on a schedule (the company registers); a successful run
 * replaces the source's rows, a 304 on every file it downloads carries them forward as they are, and a
 * failed run carries them forward marked stale. Any failed request fails a snapshot source, since half a
 * register would replace a whole one.
 */
export type RefreshMode = 'incremental' | 'snapshot';

/** What a source may know about the run. It never learns whether it runs live or on fixtures. */
export interface SourceContext {
  /** Resolves a path, or an absolute URL on the source's origin, to the address to fetch tonight. */
  url(pathOrUrl: string): string;
  /** The public address of a fetched URL, for record links (undoes `url()` in fixture mode). */
  publicUrl(fetchedUrl: string): string;
  /** The run's clock. */
  now: Date;
  /** When this source last completed successfully, from the previous release; null on a first run. */
  lastSuccessAt: Date | null;
}

/** The outcome of `Fetched.download()`. */
export type Download =
  | {
      status: 'fetched';
      /** A temporary file holding the body; it is deleted when the source's crawl ends. */
      path: string;
      bytes: number;
      /** The response's Last-Modified, as a Date; null when the server sent none. */
      lastModified: Date | null;
    }
  | {
      /** The server answered 304 to the validators remembered from the last run: the file has not changed. */
      status: 'not_modified';
      lastModified: Date | null;
    };

export interface CrawlRequest {
  url: string;
  label: string;
  method?: 'GET' | 'POST';
  payload?: string;
  headers?: Record<string, string>;
  userData?: Record<string, unknown>;
}

/** One fetched response, the same shape whether Cheerio or Chromium fetched it. */
export interface Fetched {
  request: { url: string; label: string; userData: Record<string, unknown> };
  statusCode: number;
  ctx: SourceContext;
  /**
   * The parsed document. In browser mode `waitFor` waits for a selector to appear first. `xml` forces XML
   * parsing (feeds are sometimes served as text/html, where `<link>` would parse as an empty element).
   */
  dom(options?: { waitFor?: string; xml?: boolean }): Promise<CheerioAPI>;
  /** The body parsed as JSON. */
  json(): Promise<unknown>;
  /** The body as text, unparsed: for CSV, TSV and other formats no parser here understands. */
  text(): Promise<string>;
  enqueue(requests: CrawlRequest | CrawlRequest[]): Promise<void>;
  /**
   * Streams a (large) file to a temporary file instead of holding it in memory: same User-Agent, robots.txt
   * rules, per-host spacing, retries with backoff, and `timeoutSecs` as the longest wait for the next bytes.
   * For a `snapshot` source the request is conditional: it sends the ETag and Last-Modified remembered from
   * the last successful run, and a 304 comes back as `not_modified`. `url` is what `ctx.url()` returned.
   */
  download(url: string): Promise<Download>;
  /** Validates the record and hands it on at once (the nightly run stages it to disk), so a handler may emit millions. */
  emit(record: SourceRecord): void;
  /** Counts an item the source published but that cannot be read into a record (reported, never silent). */
  invalid(problem: string): void;
  /** Records a problem with this response that is not worth failing the request for. */
  warn(message: string): void;
}

export type RouteHandler = (fetched: Fetched) => Promise<void>;

/** Per-host manners. Every value carries a `why` at the source that sets it. */
export interface Politeness {
  maxConcurrency: number;
  /** Minimum gap between two requests to the same host, in milliseconds. */
  delayMs: number;
  maxRetries: number;
  timeoutSecs: number;
  /** How long one handler may run, a bulk download and its parsing included; twice `timeoutSecs` when unset. */
  handlerTimeoutSecs?: number;
}

export interface SourceDefinition {
  id: string;
  tag: string;
  name: string;
  jurisdiction: Jurisdiction;
  tier: Tier;
  kinds: SourceKind[];
  mode: SourceMode;
  /** The live origin every `ctx.url(path)` resolves against. */
  origin: string;
  homepage: string;
  licence: string;
  attribution: string;
  caveats: string[];
  /**
   * How the listings can be reached. `login_walled`: they sit behind a login, so the source is registered
   * (status `login_walled` with this reason) and never crawled.
   */
  access?: { kind: 'open' } | { kind: 'login_walled'; why: string };
  /** `incremental` when unset. */
  refresh?: RefreshMode;
  politeness: Politeness;
  start(ctx: SourceContext): CrawlRequest[];
  routes: Record<string, RouteHandler>;
  /** A source whose history can be walked by date: what `npm run backfill` asks for each window (pipeline/backfill.ts). */
  historic?: HistoricWalk;
}

/** How a source's history is reached window by window, through the same routes the nightly crawl uses. */
export interface HistoricWalk {
  /** The earliest day (`YYYY-MM-DD`, UTC) the publisher holds; a backfill asked for earlier starts here. */
  earliest: string;
  /** The requests that read one window, `from` to `to` inclusive (`to` is the second before the next window). */
  start(ctx: SourceContext, window: { from: Date; to: Date }): CrawlRequest[];
}

export const DEFAULT_POLITENESS: Politeness = {
  maxConcurrency: 2, // why: government portals are small sites; two at a time is what a person with two tabs does
  delayMs: 500, // why: spreads a nightly crawl over seconds rather than hammering in bursts
  maxRetries: 3, // why: transient 5xx and resets are common on these portals; three tries rides them out
  timeoutSecs: 30, // why: a healthy page answers in a few seconds; longer means the host is struggling
};

export function defineSource(definition: SourceDefinition): SourceDefinition {
  if (!/^[a-z]+(_[a-z0-9]+)+$/.test(definition.id)) throw new Error(`source id ${definition.id} is not lower snake case with a jurisdiction first`);
  if (Object.keys(definition.routes).length === 0 && definition.access?.kind !== 'login_walled') {
    throw new Error(`source ${definition.id} has no route handlers`);
  }
  return definition;
}
