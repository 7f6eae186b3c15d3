import { z } from 'zod';
import { notConfigured, providerGet, type ProviderResult, type ProviderTransport } from './http.ts';

/**
 * News search for adverse-media screening: the GDELT DOC 2.0 API (keyless), article-list mode.
 *
 * Wire format, from GDELT's announcement of the API (https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/)
 * as clients read it (alex9smith/gdelt-doc-api gdeltdoc/api_client.py @ 12a3c925; the Rust crate
 * finance-query 3.0.0 src/adapters/gdelt/models.rs):
 *   GET {base}?query=<terms>&mode=ArtList&format=json&maxrecords=<1..250>
 *   200 application/json  {"articles": [{"url", "url_mobile", "title", "seendate": "20261120T031500Z",
 *                          "socialimage", "domain", "language": "English", "sourcecountry": "Australia"}]}
 *   200 application/json  {} when nothing matched
 *   200 text/html         a one-line message when the query is rejected ("The specified phrase is too short.")
 *   429                   more than one request every 5 seconds from one address
 * Fields other than `url` may be missing for thinly indexed sources. The index covers a rolling three months.
 */

/** GDELT's public endpoint: the value of `SVC_NEWS_GDELT_URL` that turns news search on (tests set a local fake). */
export const GDELT_DOC_URL = 'https://api.gdeltproject.org/api/v2/doc/doc';
export const GDELT_ENV = 'SVC_NEWS_GDELT_URL';
/** GDELT asks for at most one request every 5 seconds per address. */
const GDELT_INTERVAL_MS = 5_000;
/** Longer than this in GDELT's queue and the call is answered unreachable at once rather than held. */
const GDELT_MAX_WAIT_MS = 20_000;
const MAX_RECORDS = 75;

/** Words that make an article adverse, searched beside the name (a Boolean string as screening vendors use, checkers-research §8.3). */
const ADVERSE_TERMS = ['fraud', 'corruption', 'bribery', '"money laundering"', 'sanctions', 'charged', 'convicted', 'arrested', 'fined', 'banned', 'court', 'scam'];

export interface NewsQuery {
  /** The subject's name and aliases; each searched as an exact phrase. */
  names: string[];
}

export interface NewsArticleRef {
  url: string;
  title: string;
  domain: string;
  /** ISO date the index first saw the article, or null. */
  seen: string | null;
  language: string | null;
  source_country: string | null;
}

export interface NewsSearch {
  /** The provider's name as the reply's limitations give it. */
  readonly provider: string;
  /** Articles naming one of the names beside an adverse term. */
  search(query: NewsQuery): Promise<ProviderResult<NewsArticleRef[]>>;
}

const GdeltArticle = z.object({
  url: z.string(),
  title: z.string().optional(),
  seendate: z.string().optional(),
  domain: z.string().optional(),
  language: z.string().optional(),
  sourcecountry: z.string().optional(),
});
const GdeltArtList = z.object({ articles: z.array(GdeltArticle).optional() });

export interface GdeltOptions {
  transport: ProviderTransport;
  baseUrl: string;
  /** Least time between two GDELT calls (default 5 s, GDELT's published rate). */
  intervalMs?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function createGdeltNews(options: GdeltOptions): NewsSearch {
  const intervalMs = options.intervalMs ?? GDELT_INTERVAL_MS;
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let nextStart = 0;
  const provider = 'GDELT DOC 2.0';
  return {
    provider,
    async search(query) {
      const now = clock();
      const start = Math.max(now, nextStart);
      if (start - now > GDELT_MAX_WAIT_MS) {
        return { ok: false, reason: 'unreachable', detail: `${provider} takes one request every ${intervalMs / 1000} s and this server's queue for it is full; try again in a minute.` };
      }
      nextStart = start + intervalMs;
      if (start > now) await sleep(start - now);

      const url = new URL(options.baseUrl);
      url.searchParams.set('query', gdeltQuery(query.names));
      url.searchParams.set('mode', 'ArtList');
      url.searchParams.set('format', 'json');
      url.searchParams.set('maxrecords', String(MAX_RECORDS));
      const answered = await providerGet(options.transport, url);
      if (!answered.ok) return answered;
      const { status, body } = answered.value;
      if (status < 200 || status >= 300) return { ok: false, reason: 'refused', detail: `${provider} refused the search with HTTP ${status}.` };
      const json = parseLenient(body);
      // GDELT answers a query it will not run with a line of text, not an error status.
      if (json === undefined) return { ok: false, reason: 'refused', detail: `${provider} did not run the search: ${body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 200)}` };
      const parsed = GdeltArtList.safeParse(json);
      if (!parsed.success) return { ok: false, reason: 'unreachable', detail: `${provider} answered in a shape this service does not read.` };
      return { ok: true, value: (parsed.data.articles ?? []).map(articleRef) };
    },
  };
}

/**
 * The news client `SVC_NEWS_GDELT_URL` asks for. Unset, news search is off like every other outside service
 * until the operator configures it: the client answers not configured, so the reply says news was not searched.
 */
export function newsFromEnv(env: Readonly<Record<string, string | undefined>>, transport: ProviderTransport): NewsSearch {
  const configured = env[GDELT_ENV]?.trim();
  if (!configured) return { provider: 'GDELT DOC 2.0', search: async () => notConfigured('News search (GDELT DOC 2.0)', GDELT_ENV) };
  if (!/^https?:$/.test(URL.parse(configured)?.protocol ?? '')) throw new Error(`${GDELT_ENV} must be an http(s) URL, such as GDELT's ${GDELT_DOC_URL}; got ${configured}`);
  return createGdeltNews({ transport, baseUrl: configured });
}

/** `("John Smith" OR "Smith John") (fraud OR corruption OR …) sourcelang:english`: the reading is in English. */
export function gdeltQuery(names: string[]): string {
  const phrases = [...new Set(names.map((name) => name.replace(/["()]/g, ' ').replace(/\s+/g, ' ').trim()).filter((name) => name !== ''))].map((name) => `"${name}"`);
  const nameClause = phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`;
  return `${nameClause} (${ADVERSE_TERMS.join(' OR ')}) sourcelang:english`;
}

function articleRef(article: z.infer<typeof GdeltArticle>): NewsArticleRef {
  return {
    url: article.url,
    title: article.title?.trim() || article.url,
    domain: article.domain || hostOf(article.url),
    seen: seenDate(article.seendate),
    language: article.language ?? null,
    source_country: article.sourcecountry ?? null,
  };
}

/** `20261120T031500Z` → `2026-11-20`. */
function seenDate(value: string | undefined): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})/.exec(value ?? '');
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** JSON, or JSON once stray control characters in titles are dropped (GDELT sends some); undefined when neither. */
function parseLenient(body: string): unknown {
  for (const candidate of [body, body.replace(/[\u0000-\u001f]/g, ' ')]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the cleaned body next
    }
  }
  return undefined;
}
