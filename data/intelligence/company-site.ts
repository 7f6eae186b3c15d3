import { load, loadBuffer, type CheerioAPI } from 'cheerio';
import { checkedUrl, type SafeFetcher, type SafeResponse } from '../../lib/safe-fetch.ts';

/**
 * Reading a company's website for the tender match: the home page plus a few pages of the same site whose
 * links look like services, capabilities or about pages, through the SSRF-safe fetcher. Only the text is
 * kept. The home page must be read (its failure is the caller's error); the other pages are extras, so one
 * that fails is left out.
 */

export interface CompanySite {
  /** The home page's address after redirects. */
  url: string;
  /** Every page read, home first. */
  pages: { url: string; text: string }[];
}

/** Pages read besides the home page: enough to reach a services page and an about page, few enough to stay quick. */
export const MOST_EXTRA_PAGES = 4;

/** Links worth following: what a company does is usually on pages named like these. */
const DESCRIBING_LINK = /servic|capabilit|about|what[\s_-]*we[\s_-]*do|expertise|solution|sector|speciali|our[\s_-]*work|industr|offer/i;

/**
 * The site's home page address: a bare domain (`example.com.au`, `example.com.au/about`) is read over
 * https; anything that names a scheme is taken as given, and the fetcher refuses what is not http(s).
 */
export function siteAddress(input: string): string {
  const trimmed = input.trim();
  // "scheme:" with no dot before the colon names a scheme (https:, ftp:, javascript:); "example.com:8443" does not.
  return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^[^:/]*\.[^:/]*:\d*(?:\/|$)/.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/**
 * Reads the site at `input` (a URL or bare domain). Rejects with the fetcher's `SafeFetchError` when the
 * home page is refused, too large or unreachable.
 */
export async function readCompanySite(input: string, fetchPage: SafeFetcher): Promise<CompanySite> {
  const home = await fetchPage(checkedUrl(siteAddress(input)).href, { accept: 'text/html,application/xhtml+xml,text/plain;q=0.8' });
  const $ = pageDocument(home);
  const extras = $ ? describingLinks($, new URL(home.url)).slice(0, MOST_EXTRA_PAGES) : [];
  const read = await Promise.allSettled(extras.map((url) => fetchPage(url, { accept: 'text/html,application/xhtml+xml' })));
  const pages = [{ url: home.url, text: $ ? documentText($) : plainText(home) }];
  for (const outcome of read) {
    if (outcome.status !== 'fulfilled') continue;
    const document = pageDocument(outcome.value);
    pages.push({ url: outcome.value.url, text: document ? documentText(document) : plainText(outcome.value) });
  }
  return { url: home.url, pages };
}

/** The text a person reads on an HTML page: its title, description and body, scripts and styles left out. */
export function htmlText(html: string): string {
  return documentText(load(html));
}

function pageDocument(response: SafeResponse): CheerioAPI | null {
  const type = response.contentType;
  // A server that names no type is most often sending HTML.
  if (type !== null && type !== 'text/html' && type !== 'application/xhtml+xml') return null;
  return loadBuffer(response.body);
}

function plainText(response: SafeResponse): string {
  return response.contentType?.startsWith('text/') ? response.body.toString('utf8') : '';
}

function documentText($: CheerioAPI): string {
  $('script, style, noscript, template, svg, iframe').remove();
  const parts = [$('title').text(), $('meta[name="description"]').attr('content') ?? ''];
  // Text nodes one by one: `.text()` would run "Roads</li><li>Bridges" together into one word.
  $('body')
    .find('*')
    .addBack()
    .contents()
    .each((_, node) => {
      if (node.type === 'text') parts.push(node.data);
    });
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Same-site links that look like they describe the company, in page order, each once. */
function describingLinks($: CheerioAPI, home: URL): string[] {
  const site = siteName(home.hostname);
  const seen = new Set([withoutFragment(home)]);
  const links: string[] = [];
  $('a[href]').each((_, anchor) => {
    let target: URL;
    try {
      target = new URL($(anchor).attr('href')!, home);
    } catch {
      return;
    }
    if ((target.protocol !== 'http:' && target.protocol !== 'https:') || siteName(target.hostname) !== site) return;
    const address = withoutFragment(target);
    if (seen.has(address)) return;
    if (!DESCRIBING_LINK.test(target.pathname) && !DESCRIBING_LINK.test($(anchor).text())) return;
    seen.add(address);
    links.push(address);
  });
  return links;
}

function siteName(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '').replace(/\.$/, '');
}

function withoutFragment(url: URL): string {
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
}
