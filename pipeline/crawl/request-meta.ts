import { z } from 'zod';
import type { CrawlRequest } from '../../sources/_contract/define-source.ts';

/** What the crawler itself carries on a request, kept apart from the source's own `userData`. */
export const CrawlMeta = z.object({
  /** A start request (the source's list, feed or API entry): its failure fails the source. */
  start: z.boolean(),
  /** Fetched whole, without the remembered validators: another file of its snapshot changed tonight. */
  unconditional: z.boolean(),
});
export type CrawlMeta = z.infer<typeof CrawlMeta>;

/**
 * A Crawlee request's `userData` as this crawler writes it (Crawlee keeps `label` and its own keys beside
 * these). Crawlee types it as a loose dictionary, so it is read back through this schema.
 */
export const CrawlUserData = z.object({
  /** The source adapter's own data, handed back to its route as `request.userData`. */
  source: z.record(z.string(), z.unknown()),
  crawl: CrawlMeta,
});
export type CrawlUserData = z.infer<typeof CrawlUserData>;

/** The request fields the handlers read back from Crawlee, whichever crawler fetched it. */
export interface QueuedRequest {
  url: string;
  label?: string;
  method?: string;
  payload?: string;
  headers?: Record<string, string>;
  userData: CrawlUserData;
}

/** The fields of a Crawlee `Request` read here, from either crawler. */
export interface CrawleeRequest {
  url: string;
  label?: string;
  method: string;
  payload?: string;
  headers?: Record<string, string>;
  retryCount: number;
  userData: unknown;
}

/** A request as Crawlee hands it back, its `userData` read through the schema. */
export function queuedRequest(request: CrawleeRequest): QueuedRequest {
  const { url, label, method, payload, headers } = request;
  return { url, label, method, payload, headers, userData: CrawlUserData.parse(request.userData) };
}

/** The options a request is added to Crawlee's queue with. */
export interface CrawleeRequestOptions {
  url: string;
  label: string;
  method: 'GET' | 'POST';
  payload?: string;
  headers?: Record<string, string>;
  uniqueKey: string;
  userData: CrawlUserData;
}

export function toCrawleeRequest(request: CrawlRequest, crawl: CrawlMeta): CrawleeRequestOptions {
  const method = request.method ?? 'GET';
  return {
    url: request.url,
    label: request.label,
    method,
    payload: request.payload,
    headers: request.headers,
    uniqueKey: `${crawl.unconditional ? 'unconditional ' : ''}${method} ${request.url} ${request.payload ?? ''}`,
    userData: { source: request.userData ?? {}, crawl },
  };
}

/** The same request again, to be fetched whole: its own key, so the queue does not take it for the one already done. */
export function unconditionalCopy(request: QueuedRequest): CrawleeRequestOptions {
  const method = request.method === 'POST' ? 'POST' : 'GET';
  return toCrawleeRequest(
    { url: request.url, label: request.label ?? '', method, payload: request.payload, headers: request.headers, userData: request.userData.source },
    { start: request.userData.crawl.start, unconditional: true },
  );
}
