import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tokenise } from '../../api/checkers/overlap/tokens.ts';
import { createSafeFetcher, type SafeFetcher } from '../../lib/safe-fetch.ts';

/**
 * A small public web on 127.0.0.1 for tests: web pages under invented host names (`http://<host>:<port>/…`,
 * every host resolving to 127.0.0.1 through the fetcher this helper builds), and a search API speaking the
 * Brave Web Search API's wire format (api/providers/web-search.ts cites the documentation):
 * `GET /res/v1/web/search?q=…&count=…` with `X-Subscription-Token`, answering
 * `{type: "search", query: {original}, web: {type: "search", results: [{type: "search_result", title, url,
 * description}]}}`, `web` left out when nothing matched, as the API does. A query in double quotes matches
 * the pages holding that phrase word for word (the search engine's exact-phrase operator); other queries
 * match pages holding every word.
 */

export interface FakePage {
  /** Host name (no port) and path, e.g. `news.example` and `/2026/bridge`. */
  host: string;
  path: string;
  title: string;
  /** The page's text; blank lines separate paragraphs. */
  text: string;
}

export type SearchMode = 'ok' | 'server_error' | 'rate_limited' | 'hang';

export interface FakeWeb {
  origin: string;
  /** The search endpoint to configure as `SVC_BRAVE_SEARCH_URL`. */
  searchUrl: string;
  apiKey: string;
  /** A page's address on this web. */
  urlOf(page: Pick<FakePage, 'host' | 'path'>): string;
  /** Safe fetcher that reaches this web: every host is 127.0.0.1, let through by the test-only allowance. */
  fetcher: SafeFetcher;
  /** How the search API answers from now on. */
  setSearchMode(mode: SearchMode): void;
  /** Paths a host's robots.txt disallows to every bot. */
  disallow(host: string, path: string): void;
  /** Queries the search API received, in order. */
  queries: string[];
  /** Page paths fetched with GET, as `host/path`. */
  pagesRead: string[];
  close(): Promise<void>;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function pageHtml(page: FakePage): string {
  const paragraphs = page.text.split(/\n\s*\n/).map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n');
  return `<!doctype html><html><head><title>${escapeHtml(page.title)}</title><script>var tracking = "not page text";</script></head><body><nav>Home | News | Contact</nav><main>${paragraphs}</main></body></html>`;
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return false;
  outer: for (let start = 0; start + needle.length <= haystack.length; start++) {
    for (let i = 0; i < needle.length; i++) if (haystack[start + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

export async function startFakeWeb(pages: readonly FakePage[], apiKey = 'test-brave-key'): Promise<FakeWeb> {
  let mode: SearchMode = 'ok';
  const disallowed = new Map<string, string[]>();
  const queries: string[] = [];
  const pagesRead: string[] = [];
  const pageWords = pages.map((page) => tokenise(page.text).map((token) => token.norm));
  const hanging = new Set<ServerResponse>();
  let port = 0;
  const urlOf = (page: Pick<FakePage, 'host' | 'path'>) => `http://${page.host}:${port}${page.path}`;

  function search(request: IncomingMessage, response: ServerResponse, url: URL): void {
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (request.headers['x-subscription-token'] !== apiKey) {
      json(401, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', status: 401 } });
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    queries.push(q);
    if (mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (mode === 'server_error') return json(500, { type: 'ErrorResponse', error: { code: 'INTERNAL', detail: 'Internal error', status: 500 } });
    if (mode === 'rate_limited') return json(429, { type: 'ErrorResponse', error: { code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.', status: 429 } });
    const count = Math.min(20, Number(url.searchParams.get('count') ?? 20));
    const phrase = /^"(.*)"$/.exec(q.trim());
    const wanted = tokenise(phrase ? phrase[1]! : q).map((token) => token.norm);
    const results = pages
      .filter((_, i) => (phrase ? containsRun(pageWords[i]!, wanted) : wanted.every((word) => pageWords[i]!.includes(word))))
      .slice(0, count)
      .map((page) => ({ type: 'search_result', title: page.title, url: urlOf(page), description: `${escapeHtml(page.text.slice(0, 120))} <strong>${escapeHtml(wanted.slice(0, 3).join(' '))}</strong>` }));
    json(200, { type: 'search', query: { original: q, more_results_available: false }, ...(results.length === 0 ? {} : { web: { type: 'search', results, family_friendly: true } }) });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake.invalid');
    if (url.pathname === '/res/v1/web/search') return search(request, response, url);
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (url.pathname === '/robots.txt') {
      const paths = disallowed.get(host);
      if (!paths) return response.writeHead(404).end();
      return response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\n${paths.map((path) => `Disallow: ${path}`).join('\n')}\n`);
    }
    const page = pages.find((candidate) => candidate.host === host && candidate.path === url.pathname);
    if (!page) return response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
    if (request.method === 'GET') pagesRead.push(`${host}${url.pathname}`);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(request.method === 'HEAD' ? undefined : pageHtml(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    searchUrl: `${origin}/res/v1/web/search`,
    apiKey,
    urlOf,
    fetcher: createSafeFetcher({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], testOnlyPermittedAddresses: ['127.0.0.1'], timeoutMs: 5_000 }),
    setSearchMode: (next) => {
      mode = next;
    },
    disallow: (host, path) => disallowed.set(host, [...(disallowed.get(host) ?? []), path]),
    queries,
    pagesRead,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
