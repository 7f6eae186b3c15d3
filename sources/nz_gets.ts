import { canonicalDetailUrl, cellList, cellText, organisationFromPageTitle, overview, parseGetsDate } from './_platforms/gets.ts';
import { load } from 'cheerio';
import { defineSource } from './_contract/define-source.ts';
import { rssItemOf, rssListRoute } from './_platforms/rss.ts';
import type { Tier } from '../lib/jurisdictions.ts';
import { cleanText } from '../lib/text.ts';

export default defineSource({
  id: 'nz_gets',
  tag: 'GETS',
  name: 'New Zealand Government Electronic Tenders Service',
  jurisdiction: 'NZ',
  tier: 'national',
  kinds: ['tender'],
  mode: 'rss',
  origin: 'https://www.gets.govt.nz',
  homepage: 'https://www.gets.govt.nz/ExternalIndex.htm',
  licence:
    'CC BY 3.0 NZ (GETS copyright page). Republishing tender documents is allowed only free of charge, with the correct RFx ID, title, buyer and closing date, without Crown purchaser contact details, directing suppliers to GETS, and where the use is non-commercial or does not create a competing product.',
  attribution: 'New Zealand Government Electronic Tenders Service (www.gets.govt.nz), Ministry of Business, Innovation and Employment, licensed under CC BY 3.0 NZ.',
  caveats: [
    'GETS forbids republishing tender documents for commercial use or in a competing product: get legal sign-off before any commercial use of these notices.',
    'Tender documents need a GETS login and are not collected; neither are buyer contact details, which the republishing conditions exclude.',
    'GETS publishes no estimated value, so value_text is always null; amounts written into an overview stay in the summary.',
    'Tier is inferred from the organisation name (council, university, health provider, otherwise national).',
    'A tender whose detail page fails is missing for that night.',
    'No verbatim capture of a GETS page or feed is public: the fixtures follow third-party reproductions of the live feed items and detail-table rows, and should be checked against a live capture.',
  ],
  politeness: {
    maxConcurrency: 2, // why: one feed then ~300 detail pages from a single MBIE-run site; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads the ~300 detail fetches over a few minutes rather than a burst
    maxRetries: 3, // why: transient 5xx and resets ride out on retry; a 404 (a withdrawn tender) is final and not retried
    timeoutSecs: 30, // why: a detail page is a few kilobytes; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/ExternalRSSFeed.htm?rss=1'), label: 'LIST' }],
  routes: {
    LIST: rssListRoute({ detailLabel: 'DETAIL', detailUrl: canonicalDetailUrl }),
    DETAIL: async (fetched) => {
      const { request, ctx, emit, invalid } = fetched;
      const { item, listingUrl } = rssItemOf(fetched);
      const $ = await fetched.dom();
      const feed = descriptionRows(item.description);
      const title = cellText($, 'Tender name') ?? item.title;
      if (!title) {
        invalid('neither the feed item nor the detail page names the tender');
        return;
      }
      // The detail page shows the organisation only inside <title>, so the feed's own fields come first.
      const organisation = feed.get('organisation') ?? item.creator ?? organisationFromPageTitle($, title);
      const categories = cellList($, 'Categories');
      const category = /^(\d{8})\s*-\s*(.+)$/.exec(categories[0] ?? item.categories[0] ?? '');
      // Dates come from the feed, whose form ends in the UTC offset (the detail page names the zone instead: "(Pacific/Auckland UTC+13:00)").
      const opens = parseGetsDate(feed.get('open date'));
      const closes = parseGetsDate(feed.get('close date'));
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer: organisation,
        reference: cellText($, 'RFx ID') ?? feed.get('rfx id') ?? null,
        jurisdiction: 'NZ',
        tier: tierOf(organisation),
        summary: overview($) ?? feed.get('overview') ?? null,
        category: category?.[1] ?? null,
        category_name: category?.[2] ?? null,
        notice_type: cellText($, 'Tender type'),
        published_date: opens?.date ?? null,
        closing_date: closes?.date ?? null,
        closing_at: closes?.at ?? null,
        value_text: null,
        url: ctx.publicUrl(request.url),
        listing_url: listingUrl,
      });
    },
  },
});

/**
 * The rows of the entity-encoded table in an item's description, by lower-case label. Parsed as HTML,
 * which tolerates the feed's "Close date" row that never closes its `<b>`.
 */
function descriptionRows(description: string | null): Map<string, string> {
  const rows = new Map<string, string>();
  if (!description) return rows;
  const $ = load(description);
  for (const row of $('tr').toArray()) {
    const cells = $(row).children('td');
    const label = cleanText(cells.first().text())?.replace(/\s*:$/, '').toLowerCase();
    const value = cleanText(cells.eq(1).text());
    if (label && value) rows.set(label, value);
  }
  return rows;
}

/**
 * GETS carries every New Zealand public buyer; its tier shows in the organisation's name. A ministry is
 * central government even when its portfolio is health.
 */
function tierOf(organisation: string | null): Tier {
  if (!organisation) return 'national';
  if (/\bCouncil\b/i.test(organisation)) return 'council';
  if (/\b(University|Polytechnic|Wānanga|Te Pūkenga)\b/i.test(organisation)) return 'university';
  if (/^Ministry\b/i.test(organisation)) return 'national';
  if (/\b(Te Whatu Ora|Health|Hospital)\b/i.test(organisation)) return 'health';
  return 'national';
}
