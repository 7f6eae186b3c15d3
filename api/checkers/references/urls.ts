import type { Services } from '../../providers/index.ts';
import type { PageAnswer } from '../../providers/page-fetch.ts';

/**
 * Classifies a cited web address as `live`, `archived` (dead now, and the Wayback Machine holds a copy) or
 * `dead`, with the evidence, the way Wikimedia's DeadlinkChecker (the library behind InternetArchiveBot)
 * does: HEAD then GET; a 4xx other than an access refusal is dead; a redirect that ends at the site's root
 * or at an address naming a 404 is dead ("REDIRECT TO ROOT", "REDIRECT TO 404"); a page that answers 200 but
 * says it was not found is a soft 404. One attempt that fails (no answer, 5xx, 429, an access refusal) is
 * `unreachable_now`, never `dead`: InternetArchiveBot retests twice, days apart, before it calls a link dead.
 * Pages whose robots.txt asks bots to stay away, and addresses that are not public, are `not_checked`.
 */

export type LinkStatus = 'live' | 'archived' | 'dead' | 'unreachable_now' | 'not_checked';

export interface LinkCheck {
  status: LinkStatus;
  /** Sentences saying what was seen: the status code, where a redirect ended, what a soft 404 page says. */
  evidence: string[];
  http_status: number | null;
  /** Where the address led after redirects, when it answered. */
  final_url: string | null;
  /** The archived copy, looked up for dead and unreachable addresses. */
  archived_copy: { url: string; captured_at: string } | null;
}

export interface CheckedLink {
  check: LinkCheck;
  /** The page as read, for deep mode (null when it did not answer or was dead). */
  page: PageAnswer | null;
}

/** What a "not found" page says of itself (English): in its title, alone or beside the site's name ("Page not found | Council"). */
const SOFT_404_TITLE = /(?:^|[|:–—-]\s*)(?:error\s*)?(?:404(?=\s*(?:$|[|:–—-]|error\b|not\s+found|page\b))|(?:page|file|document)\s+not\s+found|not\s+found)\b|\b(?:page|file|document)\s+(?:(?:cannot|can't|could\s+not|couldn't)\s+be\s+found|does(?:n't|\s+not)\s+exist|(?:is\s+)?no\s+longer\s+available)\b/i;
/** …or at the start of its first line of text ("404", "Sorry, that page cannot be found", "Oops! Page not found"). */
const SOFT_404_HEADING = /^\s*(?:(?:sorry|oops)[,!.]?\s*)?(?:error\s*)?(?:404\b|(?:the\s+|that\s+|this\s+)?(?:page|file|document)\s+(?:you\s+\w+\s+(?:looking\s+for|requested)\s+)?(?:was\s+|is\s+)?(?:not\s+found|(?:cannot|can't|could\s+not|couldn't)\s+be\s+found|(?:no\s+longer|is\s+not|isn't)\s+available|does(?:n't|\s+not)\s+exist|has\s+been\s+(?:re)?moved)|not\s+found\b)/i;
/** Final addresses that name an error page. */
const ERROR_PATH = /(?:\/404(?:\.html?)?(?:[/?#]|$)|notfound|not-found|page-not-found|error-?404|\/error(?:[/?#.]|$))/i;

export async function checkLink(url: string, services: Pick<Services, 'pages' | 'wayback'>): Promise<CheckedLink> {
  const read = await services.pages.read(url);
  if (!read.ok) {
    if (read.reason === 'refused') return { check: { status: 'not_checked', evidence: [read.detail], http_status: null, final_url: null, archived_copy: null }, page: null };
    return withArchive(url, services, { status: 'unreachable_now', evidence: [`No answer on one attempt: ${read.detail} One failed attempt is not proof the page is gone.`], http_status: null, final_url: null, archived_copy: null });
  }
  const page = read.value;
  const base = { http_status: page.status, final_url: page.finalUrl, archived_copy: null };
  const via = page.method === 'HEAD' ? 'HEAD' : 'GET';
  if (page.status === 401 || page.status === 403 || page.status === 407 || page.status === 429 || page.status >= 500) {
    const why = page.status >= 500 ? 'a server error' : page.status === 429 ? 'too many requests' : 'access refused to this bot';
    return withArchive(url, services, { status: 'unreachable_now', evidence: [`${via} answered HTTP ${page.status} (${why}); a person may still reach it, so it is not called dead.`], ...base });
  }
  if (page.status >= 400) return withArchive(url, services, { status: 'dead', evidence: [`${via} answered HTTP ${page.status}.`], ...base });

  const dead = deadSignal(url, page);
  if (dead !== null) return withArchive(url, services, { status: 'dead', evidence: [dead], ...base });
  const redirected = page.finalUrl !== url ? [`Redirected to ${page.finalUrl}.`] : [];
  return { check: { status: 'live', evidence: [`${via} answered HTTP ${page.status}${page.title === null ? '' : `, titled “${page.title}”`}.`, ...redirected], ...base }, page };
}

/** Why a 2xx answer is really a missing page (a redirect to the root or to an error page, a soft 404), or null. */
export function deadSignal(url: string, page: Pick<PageAnswer, 'finalUrl' | 'title' | 'text'>): string | null {
  const asked = new URL(url);
  const landed = new URL(page.finalUrl);
  const askedRoot = asked.pathname === '/' && asked.search === '';
  if (!askedRoot && landed.pathname === '/' && landed.search === '') return `Redirected to the site's home page (${landed.href}), as sites do for a page that was moved or removed.`;
  if (page.finalUrl !== url && ERROR_PATH.test(landed.pathname + landed.search) && !ERROR_PATH.test(asked.pathname + asked.search)) return `Redirected to an error page (${landed.href}).`;
  const firstLine = (page.text ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  const says = SOFT_404_TITLE.test(page.title ?? '') ? page.title! : SOFT_404_HEADING.test(firstLine) ? firstLine : undefined;
  if (says !== undefined && (page.text ?? '').length < 3_000) return `Answered HTTP 200 but the page says “${says.trim().slice(0, 120)}” (a soft 404).`;
  return null;
}

/** Looks the address up in the archive: a dead one with a copy becomes `archived`; an unreachable one keeps its status and gains the copy. */
async function withArchive(url: string, services: Pick<Services, 'wayback'>, check: LinkCheck): Promise<CheckedLink> {
  const snapshot = await services.wayback.closest(url);
  if (!snapshot.ok) return { check: { ...check, evidence: [...check.evidence, `Archive not consulted: ${snapshot.detail}`] }, page: null };
  if (snapshot.value === null) return { check: { ...check, evidence: [...check.evidence, 'The Wayback Machine holds no copy that answered HTTP 200.'] }, page: null };
  const archivedCopy = { url: snapshot.value.url, captured_at: snapshot.value.capturedAt };
  const evidence = [...check.evidence, `The Wayback Machine holds a copy captured ${snapshot.value.capturedAt.slice(0, 10)}.`];
  return { check: { ...check, status: check.status === 'dead' ? 'archived' : check.status, evidence, archived_copy: archivedCopy }, page: null };
}
