import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSafeFetcher, type SafeFetcher } from '../../lib/safe-fetch.ts';
import { servicesFromEnv, type Services } from '../../api/providers/index.ts';

/**
 * One local server on 127.0.0.1 playing the outside world for the reference checker's tests, speaking each
 * provider's real wire format:
 * - Crossref REST under `/crossref` (CrossRef/rest-api-doc rest_api.md: the `{status, message-type,
 *   message-version, message}` envelope; `/works/{doi}` 404 "Resource not found." for a DOI Crossref does
 *   not hold; `/works/{doi}/agency`; `/works?query.bibliographic=…&rows=n` with `message.items[]`);
 * - the Wayback availability API under `/wayback-api` (archive.org/help/wayback_api.php:
 *   `{"archived_snapshots": {"closest": {available, url, timestamp, status}}}` or `{"archived_snapshots": {}}`);
 * - the cited web under `/<host>/<path>`: `webFetcher` maps `https://host/path` there and back, so labelled
 *   documents keep real-looking addresses and still go through the SSRF-safe fetcher (with the test-only
 *   loopback allowance).
 */

/** A work as Crossref's `message` carries it (only the fields the client reads, plus a few it ignores). */
export interface WireWork {
  DOI: string;
  title: string[];
  subtitle?: string[];
  'container-title'?: string[];
  issued?: { 'date-parts': number[][] };
  author?: { family?: string; given?: string; name?: string }[];
  type?: string;
}

/** A cited page: its status, type and body, or a redirect, or silence (a server that never answers). */
export type FakePage =
  | { status: number; type?: string; body?: string; headStatus?: number }
  | { redirect: string; status?: 301 | 302 }
  | { silent: true };

export interface FakeWorld {
  works?: Record<string, WireWork>;
  /** Agencies of DOIs Crossref does not hold (`datacite`, `medra`…); unknown DOIs answer 404. */
  agencies?: Record<string, string>;
  /** Captures by the cited URL. */
  snapshots?: Record<string, { timestamp: string; status: string }>;
  /** Pages by `host/path` (no scheme), robots.txt included (`host/robots.txt`); missing ones answer 404. */
  pages?: Record<string, FakePage>;
  /** Provider paths that answer 503 (e.g. `/crossref/works/10.1/x`), to test outages. */
  failing?: string[];
}

export interface FakeProviders {
  port: number;
  /** Calls as `METHOD path`, in order. */
  asked: string[];
  world: Required<FakeWorld>;
  /** The SSRF-safe fetcher, loopback allowed for this test only, with `https://host/path` mapped to the fake web. */
  webFetcher: SafeFetcher;
  /** Services with Crossref and Wayback configured to the fake (or left unconfigured as asked). */
  services(options?: { crossref?: boolean; wayback?: boolean; timeoutMs?: number }): Services;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' }).end(JSON.stringify(body));

export async function startFakeProviders(world: FakeWorld): Promise<FakeProviders> {
  const full: Required<FakeWorld> = { works: {}, agencies: {}, snapshots: {}, pages: {}, failing: [], ...world };
  const asked: string[] = [];
  const server: Server = createServer((req, res) => answer(full, asked, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const local = `http://127.0.0.1:${port}`;
  const safe = createSafeFetcher({ resolve: async () => [{ address: '127.0.0.1', family: 4 }], testOnlyPermittedAddresses: ['127.0.0.1'], timeoutMs: 1_500 });
  const toLocal = (url: string) => {
    const parsed = new URL(url);
    return `${local}/${parsed.host}${parsed.pathname}${parsed.search}`;
  };
  const fromLocal = (url: string, original: string) => {
    if (!url.startsWith(`${local}/`)) return url;
    const rest = url.slice(local.length + 1);
    return `${new URL(original).protocol}//${rest}`;
  };
  const webFetcher: SafeFetcher = async (url, init) => {
    const response = await safe(toLocal(url), init);
    return { ...response, url: fromLocal(response.url, url) };
  };
  return {
    port,
    asked,
    world: full,
    webFetcher,
    services: (options = {}) =>
      servicesFromEnv(
        {
          ...(options.crossref === false ? {} : { SVC_CROSSREF_MAILTO: 'checks@example.com', SVC_CROSSREF_URL: `${local}/crossref` }),
          ...(options.wayback === false ? {} : { SVC_WAYBACK_URL: `${local}/wayback-api` }),
          SVC_PROVIDER_TIMEOUT_SECONDS: String((options.timeoutMs ?? 1_500) / 1000),
        },
        webFetcher,
        { minIntervalMs: 0 },
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(world: Required<FakeWorld>, asked: string[], req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fake.local');
  asked.push(`${req.method} ${decodeURIComponent(url.pathname)}${url.search}`);
  if (world.failing.includes(decodeURIComponent(url.pathname))) return void res.writeHead(503).end();
  if (url.pathname.startsWith('/crossref/')) return crossref(world, url, res);
  if (url.pathname === '/wayback-api/wayback/available') return wayback(world, url, res);
  const key = decodeURIComponent(url.pathname.slice(1)) + url.search;
  const page = world.pages[key];
  if (page === undefined) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<html><head><title>404 Not Found</title></head><body>Not Found</body></html>');
  if ('silent' in page) return;
  if ('redirect' in page) {
    const target = new URL(page.redirect);
    return void res.writeHead(page.status ?? 301, { location: `/${target.host}${target.pathname}${target.search}` }).end();
  }
  const status = req.method === 'HEAD' ? (page.headStatus ?? page.status) : page.status;
  res.writeHead(status, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(req.method === 'HEAD' ? undefined : (page.body ?? ''));
}

function crossref(world: Required<FakeWorld>, url: URL, res: ServerResponse): void {
  const path = decodeURIComponent(url.pathname.slice('/crossref'.length));
  if (path === '/works') {
    const query = url.searchParams.get('query.bibliographic') ?? '';
    const rows = Number(url.searchParams.get('rows') ?? 20);
    const items = rankWorks(Object.values(world.works), query).slice(0, rows);
    return json(res, 200, { status: 'ok', 'message-type': 'work-list', 'message-version': '1.0.0', message: { facets: {}, 'total-results': items.length, items, 'items-per-page': rows, query: { 'start-index': 0, 'search-terms': query } } });
  }
  const agency = /^\/works\/(.+)\/agency$/.exec(path);
  if (agency) {
    const doi = agency[1]!.toLowerCase();
    const id = world.works[doi] !== undefined ? 'crossref' : world.agencies[doi];
    if (id === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Resource not found.');
    return json(res, 200, { status: 'ok', 'message-type': 'work-agency', 'message-version': '1.0.0', message: { DOI: doi, agency: { id, label: id === 'crossref' ? 'Crossref' : id.toUpperCase() } } });
  }
  const work = /^\/works\/(.+)$/.exec(path);
  const found = work ? world.works[work[1]!.toLowerCase()] : undefined;
  if (found === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Resource not found.');
  return json(res, 200, { status: 'ok', 'message-type': 'work', 'message-version': '1.0.0', message: { ...found, 'reference-count': 0, publisher: 'Fake Publisher', prefix: found.DOI.split('/')[0], member: '1', score: 1 } });
}

/** Relevance as a search backend gives it, roughly: the works sharing the most words with the query, best first. */
function rankWorks(works: WireWork[], query: string): (WireWork & { score: number })[] {
  const words = new Set(query.toLowerCase().split(/\W+/).filter((word) => word.length > 3));
  return works
    .map((work) => ({ ...work, score: [...new Set(`${work.title.join(' ')} ${(work.author ?? []).map((a) => a.family ?? '').join(' ')}`.toLowerCase().split(/\W+/))].filter((word) => words.has(word)).length }))
    .filter((work) => work.score > 0)
    .sort((a, b) => b.score - a.score);
}

function wayback(world: Required<FakeWorld>, url: URL, res: ServerResponse): void {
  const cited = url.searchParams.get('url') ?? '';
  const snapshot = world.snapshots[cited];
  if (snapshot === undefined) return json(res, 200, { url: cited, archived_snapshots: {} });
  return json(res, 200, {
    url: cited,
    archived_snapshots: { closest: { status: snapshot.status, available: true, url: `http://web.archive.org/web/${snapshot.timestamp}/${cited}`, timestamp: snapshot.timestamp } },
  });
}
