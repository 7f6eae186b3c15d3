import { z } from 'zod';
import { createProviderTransport, notConfigured, providerJson, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * Web search for the checkers that look for a document's text, or a person's name, on the public web
 * (source overlap, adverse media). One interface, one real client: the Brave Search API. Brave because it
 * answers from an independent web index of its own through a plain REST call with the key in a header, and
 * has a free plan; the other general index sold this way, Bing Web Search, was retired by Microsoft on
 * 11 August 2025.
 *
 * Wire format (Brave Web Search API documentation, read for this client:
 * https://api-dashboard.search.brave.com/api-reference/web/search/get and
 * https://api.search.brave.com/app/documentation/web-search/responses):
 * `GET https://api.search.brave.com/res/v1/web/search?q=…&count=…` with headers `Accept: application/json`
 * and `X-Subscription-Token: <key>`; `q` is at most 400 characters and 50 words, `count` 1 to 20. A success is
 * a `WebSearchApiResponse`: `{type: "search", query: {original, …}, web?: {type: "search", results: [{title,
 * url, description, …}]}, …}`; `web` is absent when nothing matched. `description` may carry `<strong>`
 * highlighting, which is stripped here. `test/helpers/fake-brave-search.ts` speaks the same format.
 */

export interface WebSearchHit {
  url: string;
  title: string;
  /** The snippet the provider shows, plain text. */
  description: string;
}

export interface WebSearchOptions {
  /** Results wanted (the provider may give fewer). Default 10. */
  count?: number;
}

export interface WebSearch {
  /** The provider's name as replies cite it. */
  readonly provider: string;
  /**
   * Pages the provider ranks for `query`. `not_configured`: no key is set; `refused`: the provider rejected
   * the key or the query; `unreachable`: no usable answer (time limit, 5xx, rate limit, an unknown shape).
   */
  search(query: string, options?: WebSearchOptions): Promise<ProviderResult<WebSearchHit[]>>;
}

export const BRAVE_PROVIDER = 'Brave Search API';
export const BRAVE_DEFAULT_URL = 'https://api.search.brave.com/res/v1/web/search';
/** The documented ceiling of `count`. */
const BRAVE_MAX_COUNT = 20;

const braveResponse = z.object({
  type: z.literal('search'),
  web: z
    .object({
      results: z.array(z.object({ url: z.string(), title: z.string(), description: z.string().optional() })),
    })
    .optional(),
});

const MARKUP = /<[^>]*>/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

function plainText(html: string): string {
  return html.replace(MARKUP, '').replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES[entity]!);
}

export interface BraveSearchOptions {
  apiKey: string;
  /** The endpoint; tests point it at a local fake. Default the public one. */
  url?: string;
  transport: ProviderTransport;
}

export function createBraveSearch(options: BraveSearchOptions): WebSearch {
  const endpoint = options.url ?? BRAVE_DEFAULT_URL;
  return {
    provider: BRAVE_PROVIDER,
    async search(query, searchOptions = {}) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(BRAVE_MAX_COUNT, Math.max(1, searchOptions.count ?? 10))));
      const answered = await providerJson(options.transport, url, braveResponse, { headers: { 'x-subscription-token': options.apiKey } });
      if (!answered.ok) return answered;
      if (answered.value === null) return { ok: false, reason: 'refused', detail: `${url.host} has no search endpoint at ${url.pathname} (HTTP 404); check SVC_BRAVE_SEARCH_URL.` };
      const hits = (answered.value.web?.results ?? []).map((result) => ({ url: result.url, title: plainText(result.title), description: plainText(result.description ?? '') }));
      return { ok: true, value: hits };
    },
  };
}

/** The client of a server with no search provider: every search says so, and nothing is searched. */
export const unconfiguredWebSearch: WebSearch = {
  provider: BRAVE_PROVIDER,
  search: async () => notConfigured(BRAVE_PROVIDER, 'SVC_BRAVE_SEARCH_KEY'),
};

/**
 * Least milliseconds between two searches by default. Brave's rate-limit documentation gives a plan of one
 * request a second as its example (`X-RateLimit-Limit: 1, 15000`), and a search sent faster than the plan
 * allows is answered 429, which would turn a check into an outage; a plan allowing more sets it lower.
 */
export const BRAVE_DEFAULT_INTERVAL_MS = 1_000;

/**
 * `SVC_BRAVE_SEARCH_KEY` (unset: not configured), `SVC_BRAVE_SEARCH_URL` (default the public endpoint) and
 * `SVC_BRAVE_SEARCH_INTERVAL_MS` (least time between two searches, default 1 s). Searches are paced on their
 * own, at the plan's rate, with the shared transport's User-Agent, time limit and fetch.
 */
export function webSearchFromEnv(env: Readonly<Record<string, string | undefined>>, transport: ProviderTransport): WebSearch {
  const apiKey = env['SVC_BRAVE_SEARCH_KEY'];
  if (!apiKey) return unconfiguredWebSearch;
  const url = env['SVC_BRAVE_SEARCH_URL'] || undefined;
  const interval = Number(env['SVC_BRAVE_SEARCH_INTERVAL_MS'] || BRAVE_DEFAULT_INTERVAL_MS);
  if (!Number.isFinite(interval) || interval < 0) throw new Error(`SVC_BRAVE_SEARCH_INTERVAL_MS must be a number of milliseconds, got ${env['SVC_BRAVE_SEARCH_INTERVAL_MS']}`);
  const paced = createProviderTransport({ userAgent: transport.userAgent, timeoutMs: transport.timeoutMs, fetch: transport.fetch, minIntervalMs: interval });
  return createBraveSearch({ apiKey, transport: paced, ...(url === undefined ? {} : { url }) });
}
