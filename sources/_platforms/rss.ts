import type { CheerioAPI } from 'cheerio';
import type { CrawlRequest, Fetched, RouteHandler } from '../_contract/define-source.ts';
import { cleanText } from '../../lib/text.ts';

/** One `<item>` of an RSS 2.0 feed, as text. Absent or blank elements are null. */
export interface RssItem {
  title: string | null;
  link: string | null;
  guid: string | null;
  /** The description's text after XML decoding: often itself HTML, which the source parses further. */
  description: string | null;
  /** As published (RFC 822 in well-formed feeds; some portals print their own form). */
  pubDate: string | null;
  categories: string[];
  /** `dc:creator`, which portals use for the publishing organisation. */
  creator: string | null;
}

/**
 * The items of an RSS 2.0 document parsed in XML mode. Throws when the document is not RSS (a login
 * page or a WAF challenge served with status 200), so the feed request fails with a diagnosis
 * instead of the source silently reporting zero tenders.
 */
export function readRssItems($: CheerioAPI): RssItem[] {
  if ($('rss > channel').length === 0) throw new Error('the response is not an RSS 2.0 feed (no <rss><channel>)');
  return $('rss > channel > item')
    .toArray()
    .map((element) => {
      const item = $(element);
      const child = (name: string) => cleanText(item.children(name).first().text());
      return {
        title: child('title'),
        link: child('link'),
        guid: child('guid'),
        // Not cleanText: the description's line breaks and markup are the source's to interpret.
        description: item.children('description').first().text().trim() || null,
        pubDate: child('pubDate'),
        categories: item
          .children('category')
          .toArray()
          .map((category) => cleanText($(category).text()))
          .filter((category) => category !== null),
        creator: child('dc\\:creator'),
      };
    });
}

/** What a feed item's detail request carries, so the detail handler can use the feed's facts too. */
export interface RssItemContext {
  item: RssItem;
  /** The public address of the feed the item came from, for `listing_url`. */
  listingUrl: string;
}

/**
 * A list handler for a feed whose items each link to a detail page: it enqueues one `detailLabel`
 * request per item link (through `ctx.url`, so fixtures serve it), carrying the item in `userData`.
 * `detailUrl` rewrites a link first, for portals that publish cosmetic variants of one address.
 */
export function rssListRoute(options: { detailLabel: string; detailUrl?: (link: string) => string }): RouteHandler {
  return async ({ dom, enqueue, invalid, ctx, request }) => {
    const items = readRssItems(await dom({ xml: true }));
    const listingUrl = ctx.publicUrl(request.url);
    const details: CrawlRequest[] = [];
    for (const item of items) {
      if (!item.link) {
        invalid(`feed item "${item.title ?? item.guid ?? '(untitled)'}" has no link`);
        continue;
      }
      const context: RssItemContext = { item, listingUrl };
      const link = options.detailUrl ? options.detailUrl(item.link) : item.link;
      details.push({ url: ctx.url(link), label: options.detailLabel, userData: { rss: context } });
    }
    await enqueue(details);
  };
}

/** The feed item a detail request was enqueued for by `rssListRoute`. */
export function rssItemOf(fetched: Pick<Fetched, 'request'>): RssItemContext {
  const context = fetched.request.userData.rss as RssItemContext | undefined;
  if (!context) throw new Error(`request ${fetched.request.url} was not enqueued from an RSS item`);
  return context;
}
