import type { z } from 'zod';

/**
 * The one way the checkers' outside clients (api/providers/*) call a provider's API: one attempt, never
 * retried (a checker reports a failed call per item as `unreachable now`, it does not hammer a provider), a
 * time limit, a User-Agent that says who is asking and how to reach the operator, and a minimum interval
 * between calls to the same host so a document with forty DOIs does not flood Crossref.
 *
 * Provider base URLs come from the operator's configuration, never from a caller, so these calls use the
 * platform fetch; pages a caller cites go through page-fetch.ts and the SSRF-safe fetcher instead.
 */

/** Why a provider gave no answer: not configured (no key or base URL), no usable answer, or it refused the request. */
export type ProviderFailureReason = 'not_configured' | 'unreachable' | 'refused';

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; reason: ProviderFailureReason; detail: string };

/** The contact address bots of this service give when the operator has not set `SVC_CONTACT_URL` (as the crawler does). */
export const DEFAULT_CONTACT_URL = 'https://github.com/tender-intel/tender-intel#contact';

/** `TenderIntelBot/0.6 (+contact)`, the crawler's form, with optional extra parts (Crossref asks for `mailto:`). */
export function botUserAgent(contactUrl: string | undefined, ...extra: string[]): string {
  return `TenderIntelBot/0.6 (+${[contactUrl || DEFAULT_CONTACT_URL, ...extra].join('; ')})`;
}

export interface ProviderTransportOptions {
  userAgent: string;
  /** Per call. Default 10 s. */
  timeoutMs?: number;
  /** Least time between the starts of two calls to the same host. Default 250 ms. */
  minIntervalMs?: number;
  /** Default: the platform fetch. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch; injectable so pacing tests need no real waiting. Default `Date.now`. */
  clock?: () => number;
  /** Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** Shared by every client of one `Services`: the pacing is per host across all of them. */
export interface ProviderTransport {
  userAgent: string;
  timeoutMs: number;
  fetch: typeof fetch;
  /** Resolves when a call to `host` may start, and books that start. */
  turn(host: string): Promise<void>;
}

export function createProviderTransport(options: ProviderTransportOptions): ProviderTransport {
  const minIntervalMs = options.minIntervalMs ?? 250;
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // The earliest start of the next call per host; booked before waiting, so concurrent callers queue in order.
  const nextStart = new Map<string, number>();
  return {
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs ?? 10_000,
    fetch: options.fetch ?? fetch,
    async turn(host) {
      const now = clock();
      const start = Math.max(now, nextStart.get(host) ?? 0);
      nextStart.set(host, start + minIntervalMs);
      if (start > now) await sleep(start - now);
    },
  };
}

export interface ProviderResponse {
  status: number;
  headers: Headers;
  body: string;
}

export interface ProviderRequest {
  accept?: string;
  headers?: Record<string, string>;
  /** Overrides the transport's User-Agent (Crossref's carries a `mailto:`). */
  userAgent?: string;
  /** A body makes the call a POST (a chat completion); without one it is a GET. */
  body?: string;
}

/**
 * One GET, or one POST when the request carries a body. Any HTTP answer below 500 except 429 is `ok` with its status for the client to judge (a 404 from
 * Crossref is a finding: the DOI is not registered); a network error, the time limit, a 5xx or 429 is
 * `unreachable`.
 */
export async function providerGet(transport: ProviderTransport, url: URL, request: ProviderRequest = {}): Promise<ProviderResult<ProviderResponse>> {
  await transport.turn(url.host);
  const provider = url.host;
  try {
    const response = await transport.fetch(url, {
      ...(request.body === undefined ? {} : { method: 'POST', body: request.body }),
      headers: { accept: request.accept ?? 'application/json', 'user-agent': request.userAgent ?? transport.userAgent, ...request.headers },
      redirect: 'follow',
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
    const body = await response.text();
    if (response.status >= 500 || response.status === 429) {
      return { ok: false, reason: 'unreachable', detail: `${provider} answered HTTP ${response.status}; try again later.` };
    }
    return { ok: true, value: { status: response.status, headers: response.headers, body } };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      reason: 'unreachable',
      detail: timedOut ? `${provider} did not answer within ${Number((transport.timeoutMs / 1000).toFixed(1))} s; try again later.` : `${provider} could not be reached; try again later.`,
    };
  }
}

/**
 * One GET (or POST, as `providerGet`) of a JSON resource, checked against `schema`: the value on 2xx, null on 404 (the resource does not
 * exist), `refused` on any other 4xx (a rejected key or request), `unreachable` when the body is not the
 * documented shape or `providerGet` says so.
 */
export async function providerJson<T>(transport: ProviderTransport, url: URL, schema: z.ZodType<T>, request: ProviderRequest = {}): Promise<ProviderResult<T | null>> {
  const answered = await providerGet(transport, url, request);
  if (!answered.ok) return answered;
  const { status, body } = answered.value;
  if (status === 404) return { ok: true, value: null };
  if (status < 200 || status >= 300) return { ok: false, reason: 'refused', detail: `${url.host} refused the request with HTTP ${status}.` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'unreachable', detail: `${url.host} answered with something other than JSON.` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'unreachable', detail: `${url.host} answered in a shape this service does not read (${parsed.error.issues[0]?.message ?? 'invalid'}).` };
  return { ok: true, value: parsed.data };
}

/** The answer of a client whose provider is not configured: says which variable turns it on. */
export function notConfigured(provider: string, variable: string): { ok: false; reason: 'not_configured'; detail: string } {
  return { ok: false, reason: 'not_configured', detail: `${provider} is not configured on this server (${variable} is unset), so it was not consulted.` };
}
