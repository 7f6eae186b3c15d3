import * as cheerio from 'cheerio';
import robotsParserModule from 'robots-parser';
import { SafeFetchError, type SafeFetcher, type SafeResponse } from '../../lib/safe-fetch.ts';
import { htmlText, textPage } from '../documents/plain-text.ts';
import type { ProviderResult, ProviderTransport } from './http.ts';

/**
 * Reads a page a document cites (or a candidate source page) the polite way: through the SSRF-safe fetcher
 * (a caller's document can name any address), only where the host's robots.txt lets this bot read it, paced
 * per host like every provider call, HEAD first (a 404 or 410 needs no body) and GET when the body matters.
 * HTML becomes text with cheerio; plain text is kept; other types (PDF, images) are answered without text.
 */

// The package is CommonJS with an ES-style declaration file: at run time the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** The product token robots.txt groups are matched against (RFC 9309 §2.2.1). */
export const ROBOTS_AGENT = 'TenderIntelBot';
/** RFC 9309 §2.4: a robots.txt may be cached for up to 24 hours. */
const ROBOTS_TTL_MS = 24 * 60 * 60 * 1000;
/** Text kept of a page: enough for the sentences a claim is judged against, bounded for memory. */
const MAX_TEXT_CHARACTERS = 400_000;

export interface PageAnswer {
  /** The URL asked for. */
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  status: number;
  /** Which request gave the status: HEAD when it alone was enough to judge (a 404 or 410). */
  method: 'HEAD' | 'GET';
  contentType: string | null;
  /** The page's `<title>`, for HTML. */
  title: string | null;
  /** Visible text for HTML and plain text; null for other types and HEAD-only answers. */
  text: string | null;
}

export interface PageFetch {
  /**
   * The page's status and text. `refused`: robots.txt disallows it, or the address is not a public host;
   * `unreachable`: no answer (one attempt, as every provider call).
   */
  read(url: string): Promise<ProviderResult<PageAnswer>>;
}

export interface PageFetchOptions {
  /** The SSRF-safe fetcher (lib/safe-fetch.ts) pages are read through. */
  fetcher: SafeFetcher;
  /** Per-host pacing shared with the other providers. */
  transport: Pick<ProviderTransport, 'turn'>;
  /** Milliseconds since the epoch, for robots.txt expiry. Default `Date.now`. */
  clock?: () => number;
}

type RobotsRule = { allows(url: string): boolean } | { unreadable: string } | { refused: string };

export function createPageFetch(options: PageFetchOptions): PageFetch {
  const clock = options.clock ?? Date.now;
  const robotsByOrigin = new Map<string, { rule: Promise<RobotsRule>; expires: number }>();

  async function fetchOnce(url: string, method: 'HEAD' | 'GET', accept: string): Promise<SafeResponse> {
    await options.transport.turn(new URL(url).host);
    return options.fetcher(url, { method, accept, anyStatus: true });
  }

  function robotsFor(origin: string): Promise<RobotsRule> {
    const cached = robotsByOrigin.get(origin);
    if (cached !== undefined && cached.expires > clock()) return cached.rule;
    const rule = readRobots(origin);
    robotsByOrigin.set(origin, { rule, expires: clock() + ROBOTS_TTL_MS });
    return rule;
  }

  async function readRobots(origin: string): Promise<RobotsRule> {
    const robotsUrl = `${origin}/robots.txt`;
    let response: SafeResponse;
    try {
      response = await fetchOnce(robotsUrl, 'GET', 'text/plain');
    } catch (error) {
      if (!(error instanceof SafeFetchError)) throw error;
      return error.kind === 'refused' ? { refused: error.message } : { unreadable: error.message };
    }
    // RFC 9309 §2.3.1.3: a robots.txt that is missing (4xx) allows everything; §2.3.1.4: a server error means
    // assume everything is disallowed until it can be read.
    if (response.status >= 400 && response.status < 500) return { allows: () => true };
    if (response.status >= 500) return { unreadable: `${robotsUrl} answered HTTP ${response.status}, so the site's crawling rules are unknown.` };
    const robots = robotsParser(robotsUrl, response.body.toString('utf8'));
    return { allows: (url) => robots.isAllowed(url, ROBOTS_AGENT) !== false };
  }

  return {
    async read(url) {
      let origin: string;
      try {
        origin = new URL(url).origin;
      } catch {
        return { ok: false, reason: 'refused', detail: `${url} is not a URL.` };
      }
      const robots = await robotsFor(origin);
      if ('refused' in robots) return { ok: false, reason: 'refused', detail: robots.refused };
      if ('unreadable' in robots) return { ok: false, reason: 'unreachable', detail: `Not read: ${robots.unreadable}` };
      if (!robots.allows(url)) return { ok: false, reason: 'refused', detail: `Not read: the site's robots.txt asks bots not to fetch ${url}.` };
      try {
        const head = await fetchOnce(url, 'HEAD', 'text/html, text/plain;q=0.9, */*;q=0.5');
        if (head.status === 404 || head.status === 410) return { ok: true, value: answer(url, head, 'HEAD') };
      } catch (error) {
        // Many servers refuse or mishandle HEAD: the GET below is the real attempt; only a refusal ends here.
        if (error instanceof SafeFetchError && error.kind === 'refused') return { ok: false, reason: 'refused', detail: error.message };
      }
      try {
        return { ok: true, value: answer(url, await fetchOnce(url, 'GET', 'text/html, text/plain;q=0.9, */*;q=0.5'), 'GET') };
      } catch (error) {
        if (!(error instanceof SafeFetchError)) throw error;
        return { ok: false, reason: error.kind === 'refused' ? 'refused' : 'unreachable', detail: error.message };
      }
    },
  };
}

function answer(url: string, response: SafeResponse, method: 'HEAD' | 'GET'): PageAnswer {
  const base = { url, finalUrl: response.url, status: response.status, method, contentType: response.contentType };
  if (method === 'HEAD') return { ...base, title: null, text: null };
  const body = response.body.toString('utf8');
  if (response.contentType === 'text/html' || response.contentType === 'application/xhtml+xml') {
    const title = cheerio.load(body)('title').first().text().replace(/\s+/g, ' ').trim();
    return { ...base, title: title === '' ? null : title, text: textPage(htmlText(body)).text.slice(0, MAX_TEXT_CHARACTERS) };
  }
  if (response.contentType === 'text/plain') return { ...base, title: null, text: textPage(body).text.slice(0, MAX_TEXT_CHARACTERS) };
  return { ...base, title: null, text: null };
}
