import robotsParserModule from 'robots-parser';

// The package is CommonJS with an ES-style declaration file: at run time the default import is the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

export interface RobotsRules {
  allows(publicUrl: string): boolean;
  /** The host's Crawl-delay for us, in milliseconds, when it sets one. */
  crawlDelayMs: number | null;
}

/** The User-Agent token robots.txt groups are matched against. */
export const ROBOTS_AGENT = 'TenderIntelBot';

const ALLOW_ALL: RobotsRules = { allows: () => true, crawlDelayMs: null };

/**
 * Reads a host's robots.txt through `fetchUrl` (the fixture server's copy in fixture mode) and answers for
 * public URLs. A missing file (404) or one that cannot be fetched allows everything, as the robots
 * convention says; a 401/403 for robots.txt itself is taken as "disallow all", as search engines do.
 */
export async function readRobots(publicRobotsUrl: string, fetchUrl: string, userAgent: string, timeoutMs: number): Promise<RobotsRules> {
  let response: Response;
  try {
    response = await fetch(fetchUrl, { headers: { 'user-agent': userAgent }, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch {
    return ALLOW_ALL;
  }
  return robotsRules(publicRobotsUrl, response.status, response.ok ? await response.text() : '');
}

/**
 * The rules of a robots.txt answer, however it was fetched (the API's pack fetch reads it through the SSRF-safe
 * fetcher): 401/403 disallow all, any other failure allows all, a 2xx body is parsed for our agent.
 */
export function robotsRules(publicRobotsUrl: string, status: number, body: string): RobotsRules {
  if (status === 401 || status === 403) return { allows: () => false, crawlDelayMs: null };
  if (status < 200 || status > 299) return ALLOW_ALL;
  const robots = robotsParser(publicRobotsUrl, body);
  const delay = robots.getCrawlDelay(ROBOTS_AGENT);
  return {
    allows: (publicUrl) => robots.isAllowed(publicUrl, ROBOTS_AGENT) !== false,
    crawlDelayMs: typeof delay === 'number' ? delay * 1000 : null,
  };
}
