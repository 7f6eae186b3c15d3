import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as cheerio from 'cheerio';

const PAGES_DIR = join(import.meta.dirname, '..', '..', 'site', 'pages');

/** One page route of the site (a file under site/pages) and the built addresses it renders. */
export interface PageRoute {
  /** The route's file below site/pages without `.astro` (`tenders/[key]/index`). */
  route: string;
  /** Matches the site paths the route renders (`/tenders/abc/`); the 404 route matches none. */
  pattern: RegExp;
}

/**
 * Every page route in site/pages (files and folders named with `_` are parts, not routes), read from the
 * folder so that a page kind added later is covered without naming it here.
 */
export async function pageRoutes(): Promise<PageRoute[]> {
  const files = (await readdir(PAGES_DIR, { recursive: true }))
    .filter((file) => file.endsWith('.astro') && !file.split('/').some((part) => part.startsWith('_')))
    .sort();
  return files.map((file) => {
    const route = file.replace(/\.astro$/, '');
    const segments = route.split('/').filter((segment, i, all) => !(segment === 'index' && i === all.length - 1));
    const pattern = segments.map((segment) => {
      if (/^\[\.\.\.[^\]]+\]$/.test(segment)) return '(?:.+/)?';
      if (/^\[[^\]]+\]$/.test(segment)) return '[^/]+/';
      return `${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`;
    }).join('');
    return { route, pattern: new RegExp(`^/${pattern}$`) };
  });
}

/** The site paths a sitemap names (`/states/nsw/`), following a sitemap index to its parts. */
export async function sitemapPaths(read: (path: string) => Promise<string>): Promise<string[]> {
  const $ = cheerio.load(await read('/sitemap.xml'), { xml: true });
  const parts = $('sitemapindex > sitemap > loc').map((_, loc) => new URL($(loc).text()).pathname).get();
  const sitemaps = parts.length > 0 ? await Promise.all(parts.map(async (part) => cheerio.load(await read(part), { xml: true }))) : [$];
  return sitemaps.flatMap((sitemap) => sitemap('urlset > url > loc').map((_, loc) => new URL(sitemap(loc).text()).pathname).get());
}

/** What a crawl found: every internal address linked, the pages read, and each link to nothing. */
export interface Crawl {
  /** Every internal address reached (pages, JSON twins, stylesheets, scripts). */
  reached: Set<string>;
  pages: number;
  links: number;
  broken: string[];
  /** The largest HTML page read, in bytes of UTF-8. */
  largest: { path: string; bytes: number };
}

/**
 * Follows every internal link, `<link>` (stylesheets, JSON twins, canonical addresses) and script from `/`,
 * reading HTML pages on. `fetchPath` answers a path's HTML, `''` for a file that is not HTML, or null for
 * nothing there; each path is asked once. The API's own routes beside the site (the footer's /openapi.json,
 * /v1/...) are not followed.
 */
export async function crawlSite(origin: string, fetchPath: (path: string) => Promise<string | null>): Promise<Crawl> {
  const reached = new Set<string>(['/']);
  const waiting = new Map<string, string>([['/', (await fetchPath('/')) ?? '']]);
  const broken: string[] = [];
  let pages = 0;
  let links = 0;
  let largest = { path: '', bytes: 0 };
  for (const [from, body] of waiting) {
    waiting.delete(from);
    if (!body) continue;
    pages += 1;
    const bytes = Buffer.byteLength(body);
    if (bytes > largest.bytes) largest = { path: from, bytes };
    const $ = cheerio.load(body);
    const refs = [...$('a[href]').map((_, a) => $(a).attr('href')), ...$('link[href]').map((_, l) => $(l).attr('href')), ...$('script[src]').map((_, s) => $(s).attr('src'))];
    for (const ref of refs) {
      if (!ref || ref.startsWith('#') || /^(mailto:|data:)/.test(ref)) continue;
      const url = new URL(ref, `${origin}${from}`);
      if (url.origin !== origin || url.pathname === '/openapi.json' || url.pathname.startsWith('/v1/')) continue;
      links += 1;
      if (reached.has(url.pathname)) continue;
      reached.add(url.pathname);
      const found = await fetchPath(url.pathname);
      if (found === null) broken.push(`${from} → ${ref}`);
      else if (found) waiting.set(url.pathname, found);
    }
  }
  return { reached, pages, links, broken, largest };
}
