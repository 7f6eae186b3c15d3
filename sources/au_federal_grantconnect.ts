import type { CheerioAPI } from 'cheerio';
import { defineSource } from './_contract/define-source.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

// GrantConnect prints every close time in "ACT Local Time"; Canberra keeps Sydney's daylight-saving rules.
const ACT_TIME_ZONE = timeZoneOf('AU-ACT');

/** A cheerio selection of page elements. */
type Selection = ReturnType<CheerioAPI>;

/** What the list page says about one grant opportunity, carried to its detail request. */
interface ListedRound {
  title: string | null;
  goId: string | null;
  closes: string | null;
  agency: string | null;
  category: string | null;
  description: string | null;
  listingUrl: string;
}

export default defineSource({
  id: 'au_federal_grantconnect',
  tag: 'GC',
  name: 'GrantConnect grant opportunities',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['grant'],
  mode: 'html',
  origin: 'https://www.grants.gov.au',
  homepage: 'https://www.grants.gov.au/Go/List',
  licence:
    'CC BY 3.0 AU (https://creativecommons.org/licenses/by/3.0/au/): the GrantConnect footer licenses the site under CC BY 3.0 AU with the exception of the Commonwealth Coat of Arms.',
  attribution: 'GrantConnect (www.grants.gov.au), Department of Finance, licensed under CC BY 3.0 AU.',
  caveats: [
    'Grant guidelines and other documents need a GrantConnect login and are not collected.',
    'GrantConnect files each round under its own six-digit category scheme, not UNSPSC: category is null and category_name carries the name.',
    'value_text is the "Total Amount Available (AUD)" as published; rounds that state none have no value (the per-grant "Estimated Grant Value" range is not taken in its place).',
    'Ongoing rounds publish no close date. Close times are ACT local time (Australia/Sydney); closing_at is that instant in UTC.',
    'Every round costs one detail page; a round whose detail page fails is missing for that night.',
  ],
  politeness: {
    maxConcurrency: 2, // why: about nine list pages then ~130 detail pages from one departmental site; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads the ~140 fetches over a couple of minutes rather than a burst
    maxRetries: 3, // why: brief 5xx spells during the site's own releases pass on retry; a 404 (a withdrawn round) is final
    timeoutSecs: 30, // why: pages carry a ~100 KB inlined monitoring script, still a second or two; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/Go/List'), label: 'LIST' }],
  routes: {
    LIST: async ({ dom, enqueue, invalid, ctx, request }) => {
      const $ = await dom();
      // A login page or WAF challenge answered with 200 must fail the list rather than report zero rounds.
      if (!/Grant Opportunity List/i.test($('h1').first().text())) throw new Error('the response is not a GrantConnect grant opportunity list (no "Grant Opportunity List" heading)');
      const listingUrl = ctx.publicUrl(request.url);
      for (const article of $('article').toArray()) {
        const entry = $(article);
        const round: ListedRound = {
          title: cleanText(entry.find('p.font20').first().text()),
          goId: rowText($, entry, 'GO ID'),
          closes: rowText($, entry, 'Close Date & Time'),
          agency: rowText($, entry, 'Agency'),
          category: rowText($, entry, 'Primary Category'),
          description: rowText($, entry, 'Description'),
          listingUrl,
        };
        const href = row($, entry, 'GO ID')?.find('a[href]').first().attr('href');
        if (!href) {
          invalid(`list entry "${round.title ?? round.goId ?? '(untitled)'}" has no link to its full details`);
          continue;
        }
        await enqueue({ url: ctx.url(new URL(href, listingUrl).href), label: 'DETAIL', userData: { round } });
      }
      // The pager is printed twice (wide and narrow screens); both point at the same next page.
      const next = $('ul.pagination li.next a[href]').first().attr('href');
      if (next) await enqueue({ url: ctx.url(new URL(next, listingUrl).href), label: 'LIST' });
    },
    DETAIL: async ({ dom, emit, invalid, ctx, request }) => {
      const listed = request.userData.round as ListedRound;
      const $ = await dom();
      const page = $('.listInner').first();
      const title = cleanText($('p.font20').first().text()) ?? listed.title;
      const goId = rowText($, page, 'GO ID') ?? listed.goId;
      if (!title || !goId) {
        invalid('no grant opportunity title or GO ID: not a GrantConnect full-details page');
        return;
      }
      const closing = parseDayMonthYear(rowText($, page, 'Close Date & Time', { dropLinks: true }) ?? listed.closes);
      emit({
        record_type: 'tender',
        kind: 'grant',
        title,
        buyer: rowText($, page, 'Agency') ?? listed.agency,
        reference: goId,
        jurisdiction: 'AU',
        tier: 'federal',
        summary: rowText($, page, 'Description') ?? listed.description,
        category: null,
        category_name: categoryName(rowText($, page, 'Primary Category') ?? listed.category),
        notice_type: rowText($, page, 'Selection Process'),
        published_date: parseDayMonthYear(rowText($, page, 'Publish Date'))?.date ?? null,
        closing_date: closing?.date ?? null,
        closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, ACT_TIME_ZONE).toISOString() : null,
        value_text: rowText($, page, 'Total Amount Available (AUD)'),
        url: ctx.publicUrl(request.url),
        listing_url: listed.listingUrl,
      });
    },
  },
});

/** The `.list-desc` row whose `<span>` label reads `label` (with or without its colon), within `scope`. */
function row($: CheerioAPI, scope: Selection, label: string): Selection | null {
  const match = scope
    .find('.list-desc')
    .filter((_, element) => cleanText($(element).children('span').first().text())?.replace(/\s*:$/, '') === label)
    .first();
  return match.length ? match.children('.list-desc-inner').first() : null;
}

/**
 * A row's value as text; block boundaries become spaces so paragraphs and list items do not run together.
 * `dropLinks` removes the "Show close time for other time zones" link printed under the close date.
 */
function rowText($: CheerioAPI, scope: Selection, label: string, options: { dropLinks?: boolean } = {}): string | null {
  const value = row($, scope, label)?.clone();
  if (!value) return null;
  if (options.dropLinks) value.find('a').remove();
  value.find('p, li, br').after(' ');
  return cleanText(value.text());
}

/** The detail page prints "231013 - Medical Research" (GrantConnect's own code), the list the name alone. */
function categoryName(text: string | null): string | null {
  return cleanText(text?.replace(/^\d{6}\s*-\s*/, ''));
}
