import type { CheerioAPI } from 'cheerio';
import { defineSource } from './_contract/define-source.ts';
import { rssItemOf, rssListRoute } from './_platforms/rss.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

// AusTender prints every close time in "ACT Local Time"; Canberra keeps Sydney's daylight-saving rules.
const ACT_TIME_ZONE = timeZoneOf('AU-ACT');

export default defineSource({
  id: 'au_federal_austender_atm',
  tag: 'ATM',
  name: 'AusTender approaches to market',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['tender'],
  mode: 'rss',
  origin: 'https://www.tenders.gov.au',
  homepage: 'https://www.tenders.gov.au/atm',
  licence:
    'AusTender site content is CC BY 3.0 AU, but the page footer excludes Approach to Market (ATM) material from that licence, so ATM text is not openly licensed.',
  attribution: 'AusTender (www.tenders.gov.au), Department of Finance; ATM text © Commonwealth of Australia (the issuing agency).',
  caveats: [
    'ATM titles, descriptions and values are excluded from the CC BY 3.0 AU licence: show them with a link to the notice and do not republish them in bulk.',
    'ATM documents need an AusTender login and are not collected.',
    'The RSS feed carries no agency, category, close date or ATM type, so every ATM costs one detail page; an ATM whose detail page fails is missing for that night.',
    'Close times are ACT local time (Australia/Sydney) as AusTender prints them; closing_at is that instant in UTC.',
    'The feed\'s markup is unverified: no public capture of the live RSS feed was found, so its fixture follows the item shape other projects document (the full-details page follows a real capture).',
  ],
  politeness: {
    // The pipeline sends a named User-Agent on every request: tenders.gov.au answers 403 to bare or unknown ones.
    maxConcurrency: 2, // why: one feed then ~500 detail pages from a single departmental site; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads the ~500 detail fetches over minutes rather than a burst
    maxRetries: 3, // why: the site has brief 5xx spells during its own releases; a 403 or 404 is not retried (the runner treats 4xx as final)
    timeoutSecs: 30, // why: a detail page answers in about a second; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/public_data/rss/rss.xml'), label: 'LIST' }],
  routes: {
    LIST: rssListRoute({ detailLabel: 'DETAIL' }),
    DETAIL: async (fetched) => {
      const { request, ctx, emit, invalid } = fetched;
      const { listingUrl } = rssItemOf(fetched);
      const $ = await fetched.dom();
      const title = cleanText($('p.lead').first().text());
      if (!title) {
        invalid('no ATM title (p.lead): not an ATM full-details page');
        return;
      }
      const category = /^(\d{8})\s*-\s*(.+)$/.exec(fieldText($, 'Category') ?? '');
      const closing = parseDayMonthYear(fieldText($, 'CloseDate'));
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer: fieldText($, 'Agency'),
        reference: fieldText($, 'AtmId'),
        jurisdiction: 'AU',
        tier: 'federal',
        summary: fieldText($, 'Description'),
        category: category?.[1] ?? null,
        category_name: category?.[2] ?? fieldText($, 'Category'),
        notice_type: fieldText($, 'Type'),
        published_date: parseDayMonthYear(fieldText($, 'PublishDate'))?.date ?? null,
        closing_date: closing?.date ?? null,
        closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, ACT_TIME_ZONE).toISOString() : null,
        value_text: estimatedValue($),
        url: ctx.publicUrl(request.url),
        listing_url: listingUrl,
      });
    },
  },
});

/** The value of one `<label for=…>` row of the full-details page, as text; block boundaries become spaces so paragraphs do not run together. */
function fieldText($: CheerioAPI, labelFor: string): string | null {
  const value = $(`.list-desc label[for="${labelFor}"]`).first().closest('.list-desc').children('.list-desc-inner').first().clone();
  value.find('p, li, br').after(' ');
  return cleanText(value.text());
}

/**
 * "Estimated Value (AUD)" as published. The page prints `<strong>From</strong> x <strong>to</strong> y`
 * with either bound possibly blank (the DFAT-1110 capture gives only the upper one).
 */
function estimatedValue($: CheerioAPI): string | null {
  const row = $('.list-desc').filter((_, element) => /^Estimated Value/i.test($(element).children('span').first().text().trim()));
  const value = row.first().children('.list-desc-inner').first();
  if (value.find('strong').length === 0) return cleanText(value.text());
  const bounds = { from: '', to: '' };
  let bound: keyof typeof bounds | null = null;
  for (const node of value.contents().toArray()) {
    const part = $(node);
    const word = part.is('strong') ? part.text().trim().toLowerCase() : null;
    if (word === 'from' || word === 'to') bound = word;
    else if (bound) bounds[bound] += ` ${part.text()}`;
  }
  const from = cleanText(bounds.from);
  const to = cleanText(bounds.to);
  if (from && to) return `From ${from} to ${to}`;
  return to ?? from;
}
