import type { SafeFetcher } from '../../lib/safe-fetch.ts';
import { botUserAgent, createProviderTransport, type ProviderTransport } from './http.ts';
import { createPageFetch, type PageFetch } from './page-fetch.ts';

/**
 * The outside world as the judging step of a checker sees it (DESIGN §10): every client a checker's
 * `analyse.ts` may call, handed in so tests hand in clients pointed at local fakes. A provider the operator
 * has not configured is still present: its client answers `{ok: false, reason: 'not_configured'}`.
 */
export interface Services {
  /** Cited and candidate pages, through the SSRF-safe fetcher, robots.txt respected. */
  pages: PageFetch;
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
 * Every client built from `SVC_*` variables: `SVC_CONTACT_URL` (the contact in every User-Agent) and
 * `SVC_PROVIDER_TIMEOUT_SECONDS` (per call, default 10). `fetcher` reads pages a document names: the
 * SSRF-safe fetcher in production.
 */
export function servicesFromEnv(env: ServicesEnv, fetcher: SafeFetcher, options: ServicesOptions = {}): Services {
  const transport = providerTransportFromEnv(env, options);
  return {
    pages: createPageFetch({ fetcher, transport }),
  };
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
