import type { CheerioAPI } from 'cheerio';
import { timeZoneOf, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../../lib/text.ts';

/** buy.nsw serves opportunities and notices from one site, behind one WAF. */
export const BUY_NSW_ORIGIN = 'https://buy.nsw.gov.au';

export const NSW_TIME_ZONE = timeZoneOf('AU-NSW');

export const BUY_NSW_LICENCE =
  'No open licence is stated for buy.nsw listings; the NSW Government website copyright notice applies (© State of New South Wales). Notices are public so that suppliers can find them: link to each notice and do not republish them in bulk.';

export const BUY_NSW_ATTRIBUTION = 'buy.nsw (buy.nsw.gov.au), NSW Procurement, © State of New South Wales.';

/**
 * Markers of the AWS WAF challenge page buy.nsw sometimes answers with (status 202 or 200) instead of
 * the page asked for; the page only turns into content after a browser runs its script.
 */
const WAF_MARKERS = ['awswafcookiedomainlist', 'gokuprops', 'awswafintegration'];

export function isWafChallenge(statusCode: number, html: string): boolean {
  const lower = html.toLowerCase();
  return statusCode === 202 || WAF_MARKERS.some((marker) => lower.includes(marker));
}

/**
 * The next result page, or null on the last. The pager's links are driven by the page's script
 * (`choose-page`) and print only `?page=N`, which would drop the search filters; so the next page is
 * the current address with `page` advanced, asked for only while the pager's "Next" link is live. The pager
 * prints a direction link it cannot follow disabled (`aria-disabled="true"`, class `disabled`) rather than
 * leaving it out, as the real first page does with "Back".
 */
export function nextPageUrl($: CheerioAPI, currentPublicUrl: string): string | null {
  if ($('.nsw-pagination__item--next-page a:not(.disabled):not([aria-disabled="true"])').length === 0) return null;
  const url = new URL(currentPublicUrl);
  const page = Number(url.searchParams.get('page') ?? '1');
  url.searchParams.set('page', String(page + 1));
  return url.href;
}

/** The dt/dd pairs of a `<dl>`, by the dt's text; values as clean text (absent or blank dd are left out). */
export function definitionList($: CheerioAPI, list: ReturnType<CheerioAPI>): Map<string, string> {
  const fields = new Map<string, string>();
  let label: string | null = null;
  for (const element of list.children().toArray()) {
    const child = $(element);
    if (child.is('dt')) label = cleanText(child.text());
    else if (child.is('dd') && label) {
      const value = cleanText(child.text());
      if (value) fields.set(label, value);
      label = null;
    }
  }
  return fields;
}

/** A buy.nsw date ("2-Jan-2006", "15-Oct-2026 15:00") as a calendar date and, with a time, the UTC instant in Sydney. */
export function parseBuyNswDate(text: string | null | undefined): { date: string; at: string | null } | null {
  const wall = parseDayMonthYear(text);
  if (!wall) return null;
  return { date: wall.date, at: wall.time ? zonedTimeToUtc(wall.date, wall.time, NSW_TIME_ZONE).toISOString() : null };
}
