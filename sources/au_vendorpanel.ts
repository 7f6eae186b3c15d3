import type { CheerioAPI } from 'cheerio';
import { defineSource } from './_contract/define-source.ts';
import { rssItemOf, rssListRoute } from './_platforms/rss.ts';
import { timeZoneOf, zonedTimeToUtc, type Jurisdiction, type Tier } from '../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

export default defineSource({
  id: 'au_vendorpanel',
  tag: 'VP',
  name: 'VendorPanel public tenders',
  jurisdiction: 'AU',
  tier: 'council',
  kinds: ['tender'],
  mode: 'rss',
  origin: 'https://www.vendorpanel.com.au',
  homepage: 'https://www.vendorpanel.com.au/PublicTenders.aspx',
  licence:
    'No licence is published for the public tender list or preview pages: VendorPanel hosts them and each notice is the issuing buyer\'s. Treated as all rights reserved: notices are summarised with a link to the preview, not republished in bulk.',
  attribution: 'VendorPanel public tenders (www.vendorpanel.com.au); notice text belongs to the issuing buyer.',
  caveats: [
    'The feed follows real captures; the preview page, from which every field is read, follows one real capture (other previews in the fixtures carry real feed values in that page\'s markup). The Estimated Value row is read where a preview prints one, but no capture shows it.',
    'Neither the feed nor the preview states a procurement class (request for tender, quote, information): notice_type is null. The feed\'s <category> elements are VendorPanel tender categories.',
    'Tender documents need a signed-in supplier who follows the tender, and are not collected; neither are buyer contact details.',
    'Tier is inferred from the buyer name (council, university, health, otherwise state), and jurisdiction from the state in the buyer\'s address on the preview, else AU.',
    'reference is the buyer\'s own reference when the preview prints one, else the VendorPanel VP number, so a notice matches the same tender on a state portal.',
    'VendorPanel categories are its own groups, not UNSPSC: category is null and category_name lists the groups.',
    'Times are read in the zone printed beside each date (a Windows zone name: "E. Australia Standard Time" is Brisbane, "AUS Eastern Standard Time" is Sydney, whose daylight time applies even where the name says Standard); an unnamed zone falls back to the buyer\'s state.',
    'New Zealand buyers publish on vendorpanel.nz, a separate feed not read here. A tender whose preview page fails is missing for that night.',
  ],
  politeness: {
    maxConcurrency: 2, // why: one feed then ~400 preview pages from one commercial host; two at a time is a reader with two tabs
    delayMs: 750, // why: a private platform serving many buyers; a slower pace than government portals keeps ~400 previews to a few minutes of light load
    maxRetries: 3, // why: transient 5xx and resets ride out on retry; a 404 (a tender withdrawn since the feed was built) is final
    timeoutSecs: 30, // why: a preview page is ~10 KB of server-rendered HTML; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/PublicTendersRssV2.aspx?mode=all'), label: 'LIST' }],
  routes: {
    LIST: rssListRoute({ detailLabel: 'DETAIL', detailUrl: previewUrl }),
    DETAIL: async (fetched) => {
      const { request, ctx, emit, invalid } = fetched;
      const { item, listingUrl } = rssItemOf(fetched);
      const $ = await fetched.dom();
      const vpReference = rowText($, 'VP Reference #');
      if (!vpReference) {
        invalid('no VP Reference # row: not a VendorPanel public preview page');
        return;
      }
      const title = cleanText($('.OpportunityPreviewNameRowTenderPublic td').first().text()) ?? item.title;
      if (!title) {
        invalid('neither the preview nor the feed item names the tender');
        return;
      }
      const buyer = rowText($, 'Business Name');
      const jurisdiction = jurisdictionOf(rowText($, 'Location'));
      const closes = zonedDate(row($, 'Closes'), jurisdiction);
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer,
        reference: rowText($, 'Buyers Reference #') ?? vpReference,
        jurisdiction,
        tier: tierOf(buyer),
        summary: sectionText($, 'What the buyer is requesting', 'Details'),
        category: null,
        category_name: categoryGroups($),
        notice_type: null, // neither the feed (whose <category> elements are tender categories) nor the preview states a procurement class
        published_date: zonedDate(row($, 'Opens'), jurisdiction)?.date ?? null,
        closing_date: closes?.date ?? null,
        closing_at: closes?.at ?? null,
        value_text: rowText($, 'Estimated Value'),
        url: ctx.publicUrl(request.url),
        listing_url: listingUrl,
      });
    },
  },
});

/**
 * Feed links open the sign-in gate (`PublicTenderAccess.aspx?id={hex}s{VP}`) or go through a click-tracking redirect
 * (`tsi.axd?id={hex}s{VP}s{hex}s{n}`); the id's first two parts open the public preview either way.
 */
function previewUrl(link: string): string {
  const url = new URL(link);
  const id = /^([0-9a-f]{32}s\d+)/i.exec(url.searchParams.get('id') ?? '')?.[1];
  if (!id || !/^\/(?:PublicTenderAccess\.aspx|tsi\.axd)$/i.test(url.pathname)) return url.href;
  return new URL(`/PublicTenderPreviewPop.aspx?id=${id}`, url.origin).href;
}

/** The content cell of the first preview row labelled `label` (trailing colon ignored). */
function row($: CheerioAPI, label: string) {
  return $('.opportunityPreviewMinHeading')
    .filter((_, heading) => cleanText($(heading).text())?.replace(/\s*:$/, '') === label)
    .first()
    .nextAll('.opportunityPreviewContent')
    .first();
}

/** A cell's text with line breaks and list items as spaces. */
function textOf(cell: ReturnType<typeof row>): string | null {
  const copy = cell.clone();
  copy.find('br, li, p, div').after(' ');
  return cleanText(copy.text());
}

function rowText($: CheerioAPI, label: string): string | null {
  return textOf(row($, label));
}

/** The `label` row inside the section headed `section` (labels such as "Details" recur in several sections). */
function sectionText($: CheerioAPI, section: string, label: string): string | null {
  const heading = $('.opportunityPreviewMaxHeading').filter((_, element) => cleanText($(element).text()) === section).first();
  const inner = heading
    .nextAll('.opportunityPreviewInnerRow')
    .filter((_, element) => cleanText($(element).children('.opportunityPreviewMinHeading').text())?.replace(/\s*:$/, '') === label)
    .first();
  return textOf(inner.children('.opportunityPreviewContent').first());
}

/** The bold group names of "Categories selected", e.g. "Building Trade & Repairs & Maintenance Services". */
function categoryGroups($: CheerioAPI): string | null {
  const groups = row($, 'Categories')
    .find('li > b')
    .toArray()
    .map((group) => cleanText($(group).text()))
    .filter((group) => group !== null);
  return groups.length ? groups.join('; ') : null;
}

const STATE_IN_ADDRESS: [RegExp, Jurisdiction][] = [
  [/\b(?:Queensland|QLD)\s+\d{4}\b/, 'AU-QLD'],
  [/\b(?:New South Wales|NSW)\s+\d{4}\b/, 'AU-NSW'],
  [/\b(?:Victoria|VIC)\s+\d{4}\b/, 'AU-VIC'],
  [/\b(?:Western Australia|WA)\s+\d{4}\b/, 'AU-WA'],
  [/\b(?:South Australia|SA)\s+\d{4}\b/, 'AU-SA'],
  [/\b(?:Tasmania|TAS)\s+\d{4}\b/, 'AU-TAS'],
  [/\b(?:Northern Territory|NT)\s+\d{4}\b/, 'AU-NT'],
  [/\b(?:Australian Capital Territory|ACT)\s+\d{4}\b/, 'AU-ACT'],
];

/** The state of the buyer's address ("Darling Heights, Queensland 4350"): a state name or code before a postcode. */
function jurisdictionOf(address: string | null): Jurisdiction {
  return STATE_IN_ADDRESS.find(([pattern]) => pattern.test(address ?? ''))?.[1] ?? 'AU';
}

/** VendorPanel's buyers, by what their names say. Departments are state government even when their portfolio is health. */
function tierOf(buyer: string | null): Tier {
  const name = buyer ?? '';
  if (/\b(?:Council|Shire)\b|^(?:City|Town|Municipality) of\b/i.test(name)) return 'council';
  if (/\b(?:University|TAFE)\b/i.test(name)) return 'university';
  if (/^(?:Department|Dept)\b/i.test(name)) return 'state';
  if (/\b(?:Health|Hospital|Ambulance)\b/i.test(name)) return 'health';
  return 'state';
}

/** The zones VendorPanel prints beside dates: Windows zone names ("E. Australia Standard Time" is Brisbane's). */
const ZONES: [RegExp, string][] = [
  [/E\. Australia/i, 'Australia/Brisbane'],
  [/AUS Eastern/i, 'Australia/Sydney'],
  [/Cen\. Australia/i, 'Australia/Adelaide'],
  [/AUS Central/i, 'Australia/Darwin'],
  [/W\. Australia/i, 'Australia/Perth'],
  [/Tasmania/i, 'Australia/Hobart'],
];

function zoneOf(label: string, jurisdiction: Jurisdiction): string {
  return ZONES.find(([pattern]) => pattern.test(label))?.[1] ?? timeZoneOf(jurisdiction);
}

/** "Thursday 22 October 2026 02:00 PM <span>(E. Australia Standard Time)</span>": the date, and the instant when a time is given. */
function zonedDate(cell: ReturnType<typeof row>, jurisdiction: Jurisdiction): { date: string; at: string | null } | null {
  const zone = cleanText(cell.find('span').text()) ?? '';
  const copy = cell.clone();
  copy.find('span').remove();
  return atZone(copy.text(), zoneOf(zone, jurisdiction));
}

function atZone(text: string, timeZone: string): { date: string; at: string | null } | null {
  const wall = parseDayMonthYear(text);
  if (!wall) return null;
  return { date: wall.date, at: wall.time ? zonedTimeToUtc(wall.date, wall.time, timeZone).toISOString() : null };
}
