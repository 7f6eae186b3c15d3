import type { HttpValidator } from '../../data/build.ts';
import type { Chromium } from '../../lib/chromium.ts';
import { SourceRecord } from '../../sources/_contract/records.ts';

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

/**
 * One crawl's running count: the result as it fills, the failure lines in order, and the progress display,
 * which a register emitting millions of records refreshes a few times a second, not per record.
 */
export class CrawlTally {
  readonly result = emptyCrawlResult();
  /** Every failed request's line, start requests' included, in the order they failed. */
  readonly failures: string[] = [];
  readonly #sink: RecordSink | undefined;
  readonly #onProgress: ((progress: CrawlProgress) => void) | undefined;
  #lastReport = 0;

  constructor(options: { sink?: RecordSink; onProgress?: (progress: CrawlProgress) => void }) {
    this.#sink = options.sink;
    this.#onProgress = options.onProgress;
  }

  report(force = false): void {
    const now = performance.now();
    if (!force && now - this.#lastReport < 250) return;
    this.#lastReport = now;
    this.#onProgress?.({ pages: this.result.pages, records: this.result.recordCount, errors: this.result.errors });
  }

  /** A page or a download was fetched. */
  fetched(): void {
    this.result.pages++;
    this.report(true);
  }

  /** Validates a record a route emitted from `publicUrl` and holds or sinks it; an invalid one is counted. */
  emit(record: SourceRecord, publicUrl: string): void {
    const parsed = SourceRecord.safeParse(record);
    if (parsed.success) {
      this.result.recordCount++;
      if (this.#sink) this.#sink.write(parsed.data);
      else this.result.records.push(parsed.data);
    } else {
      this.result.invalid.push({ url: publicUrl, problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
    }
    this.report();
  }

  invalid(publicUrl: string, problem: string): void {
    this.result.invalid.push({ url: publicUrl, problem });
    this.report();
  }

  /** A request failed for good: a start request fails the source, any other is a warning. */
  failed(line: string, isStart: boolean): void {
    this.result.errors++;
    this.failures.push(line);
    if (isStart) {
      this.result.failed = true;
      this.result.diagnosis ??= line;
    } else {
      this.result.warnings.push(line);
    }
    this.report(true);
  }
}
