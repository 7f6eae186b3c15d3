import { MAX_DOCUMENT_BYTES } from '../documents/intake.ts';
import type { SafeFetcher } from '../../lib/safe-fetch.ts';
import type { ContentCache } from '../documents/content-cache.ts';
import type { AnalysisPool } from '../documents/pool.ts';
import type { Services } from '../providers/index.ts';
import type { Sandbox } from '../middleware/sandbox.ts';
import type { Meter } from '../usage/meter.ts';

/** What every document checker route is built over (api/routes/warrants.ts, extract.ts, identity-check.ts, check-pack.ts). */
export interface CheckerDeps {
  meter: Meter;
  /** The app's sandbox registry; each checker registers its fixture in it. */
  sandbox: Sandbox;
  /** The analysis threads (api/documents/pool.ts). */
  pool: AnalysisPool;
  /** Results by content hash (api/documents/content-cache.ts). */
  cache: ContentCache;
  /** Reads `{url}` documents: the SSRF-safe fetcher. */
  fetchDocument: SafeFetcher;
  /** Outside clients (api/providers/) for the checkers that judge a document's text against the outside world. */
  services: Services;
  /** The service clock: the analyses' `now`. */
  now: () => Date;
  /** Milliseconds between streamed heartbeats (default 5 s). */
  heartbeatMs?: number;
}

/**
 * The largest request body a checker route takes: its documents as base64 (a third larger than the 25 MB
 * each may be) plus 1 MB for the rest of the body. A request of several documents is bounded at three
 * full-size documents' worth, so one request never holds more than about 100 MB.
 */
export function checkerBodyLimit(maxDocuments: number): number {
  const base64Document = Math.ceil(MAX_DOCUMENT_BYTES / 3) * 4;
  return Math.min(maxDocuments, 3) * base64Document + 1024 * 1024;
}
