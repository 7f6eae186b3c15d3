import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the GDELT DOC 2.0 API on 127.0.0.1, speaking its article-list wire format (see
 * api/providers/news.ts for the documented shape): `GET /api/v2/doc/doc?query=…&mode=ArtList&format=json`
 * answers `{"articles": [...]}` for the quoted names it holds (in any case), `{}` when none match, a line of text/html for
 * a phrase GDELT finds too short, HTTP 503 for a name listed in `failing`, and no answer at all for a
 * name listed in `silent` (to test the time limit).
 */

export interface FakeGdeltArticle {
  url: string;
  title: string;
  /** `20261120T031500Z`, as GDELT writes it. */
  seendate: string;
  domain: string;
  language?: string;
  sourcecountry?: string;
}

export interface FakeGdeltOptions {
  /** Articles by the exact phrase a query quotes. */
  articles: Record<string, FakeGdeltArticle[]>;
  failing?: string[];
  silent?: string[];
}

export interface FakeGdelt {
  /** The endpoint to set as `SVC_NEWS_GDELT_URL`. */
  url: string;
  /** The query strings asked, in order. */
  queries: URLSearchParams[];
  close(): Promise<void>;
}

export async function startFakeGdelt(options: FakeGdeltOptions): Promise<FakeGdelt> {
  const queries: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const asked = new URL(req.url ?? '/', 'http://fake');
    queries.push(asked.searchParams);
    if (asked.pathname !== '/api/v2/doc/doc') return void res.writeHead(404, { 'content-type': 'text/html' }).end('Not found');
    // The quoted phrases of the query, less the adverse term GDELT is also asked for as a phrase.
    const names = [...(asked.searchParams.get('query') ?? '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!).filter((phrase) => phrase !== 'money laundering');
    if (names.some((name) => options.silent?.includes(name))) return;
    if (names.some((name) => options.failing?.includes(name))) return void res.writeHead(503, { 'content-type': 'text/html' }).end('Service Unavailable');
    if (names.some((name) => name.length < 3)) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('The specified phrase is too short.\n');
    // GDELT matches phrases without regard to case.
    const found = names.flatMap((name) => Object.entries(options.articles).filter(([phrase]) => phrase.toLowerCase() === name.toLowerCase()).flatMap(([, articles]) => articles));
    const body = found.length === 0 ? {} : { articles: found.map((article) => ({ url: article.url, url_mobile: '', title: article.title, seendate: article.seendate, socialimage: '', domain: article.domain, language: article.language ?? 'English', sourcecountry: article.sourcecountry ?? 'Australia' })) };
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/api/v2/doc/doc`,
    queries,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
