import type { SafeFetcher } from '../../lib/safe-fetch.ts';
import { createAbnLookup, type AbnLookup } from './abn-lookup.ts';
import { createCrossref, unconfiguredCrossref, type Crossref } from './crossref.ts';
import { botUserAgent, createProviderTransport, type ProviderTransport } from './http.ts';
import { newsFromEnv, type NewsSearch } from './news.ts';
import { createPageFetch, type PageFetch } from './page-fetch.ts';
import { createWayback, unconfiguredWayback, type Wayback } from './wayback.ts';
import { webSearchFromEnv, type WebSearch } from './web-search.ts';

/**
 * The outside world as the judging step of a checker sees it (DESIGN §10): every client a checker's
 * `analyse.ts` may call, handed in so tests hand in clients pointed at local fakes. A provider the operator
 * has not configured is still present: its client answers `{ok: false, reason: 'not_configured'}`.
 */
export interface Services {
  /** Cited and candidate pages, through the SSRF-safe fetcher, robots.txt respected. */
  pages: PageFetch;
  /** Crossref REST: registered works by DOI, citation look-up (`SVC_CROSSREF_MAILTO`, `SVC_CROSSREF_URL`). */
  crossref: Crossref;
  /** Wayback Machine availability (`SVC_WAYBACK_URL`). */
  wayback: Wayback;
  /** News search (adverse media): GDELT DOC 2.0, `SVC_NEWS_GDELT_URL`. */
  news: NewsSearch;
  /** The ABR's ABN Lookup web services (`SVC_ABN_LOOKUP_GUID`, `SVC_ABN_LOOKUP_URL`). */
  abnLookup: AbnLookup;
  /** Web search (source overlap, adverse media): `SVC_BRAVE_SEARCH_KEY`, `SVC_BRAVE_SEARCH_URL`. */
  webSearch: WebSearch;
}

/** The environment variables `servicesFromEnv` reads (each is a row of the README's configuration table). */
export type ServicesEnv = Readonly<Record<string, string | undefined>>;

export interface ServicesOptions {
  /** Default: the platform fetch (provider APIs are operator-configured addresses). */
  fetch?: typeof fetch;
  /** Least milliseconds between two calls to the same host (default 250). */
  minIntervalMs?: number;
}

/**
 * Every client built from `SVC_*` variables: `SVC_CONTACT_URL` (the contact in every User-Agent),
 * `SVC_PROVIDER_TIMEOUT_SECONDS` (per call, default 10), `SVC_CROSSREF_MAILTO` (turns Crossref on; its polite
 * pool wants an address) with `SVC_CROSSREF_URL` (default the public API), and `SVC_WAYBACK_URL` (turns the
 * archive look-up on). `fetcher` reads pages a document names: the SSRF-safe fetcher in production.
 */
export function servicesFromEnv(env: ServicesEnv, fetcher: SafeFetcher, options: ServicesOptions = {}): Services {
  const transport = providerTransportFromEnv(env, options);
  return {
    pages: createPageFetch({ fetcher, transport }),
    crossref: env['SVC_CROSSREF_MAILTO']
      ? createCrossref({ baseUrl: httpUrl(env, 'SVC_CROSSREF_URL') ?? 'https://api.crossref.org', mailto: env['SVC_CROSSREF_MAILTO'], contactUrl: env['SVC_CONTACT_URL'], transport })
      : unconfiguredCrossref(),
    wayback: env['SVC_WAYBACK_URL'] ? createWayback({ baseUrl: httpUrl(env, 'SVC_WAYBACK_URL')!, transport }) : unconfiguredWayback(),
    news: newsFromEnv(env, transport),
    abnLookup: createAbnLookup({ guid: env['SVC_ABN_LOOKUP_GUID'], transport, ...(env['SVC_ABN_LOOKUP_URL'] ? { baseUrl: env['SVC_ABN_LOOKUP_URL'] } : {}) }),
    webSearch: webSearchFromEnv(env, transport),
  };
}

/** A provider's base URL from the environment, checked at start-up rather than on the first call; undefined when unset. */
function httpUrl(env: ServicesEnv, variable: string): string | undefined {
  const raw = env[variable];
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') throw new Error(`${variable} must be an http or https URL such as https://archive.org, got ${raw}`);
  return raw;
}

export function providerTransportFromEnv(env: ServicesEnv, options: ServicesOptions = {}): ProviderTransport {
  const timeoutSeconds = Number(env['SVC_PROVIDER_TIMEOUT_SECONDS'] || 10);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error(`SVC_PROVIDER_TIMEOUT_SECONDS must be a positive number, got ${env['SVC_PROVIDER_TIMEOUT_SECONDS']}`);
  return createProviderTransport({
    userAgent: botUserAgent(env['SVC_CONTACT_URL']),
    timeoutMs: timeoutSeconds * 1000,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.minIntervalMs === undefined ? {} : { minIntervalMs: options.minIntervalMs }),
  });
}
