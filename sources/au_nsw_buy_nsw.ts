import { defineSource } from './_contract/define-source.ts';
import { BUY_NSW_ATTRIBUTION, BUY_NSW_LICENCE, BUY_NSW_ORIGIN, definitionList, nextPageUrl, parseBuyNswDate } from './_platforms/buy_nsw.ts';
import type { Tier } from '../lib/jurisdictions.ts';
import { cleanText } from '../lib/text.ts';

/**
 * One result card of the opportunity search. The server sends the list as `ul.cards.profiles`, but a script right
 * after it renames the classes to `cards opps …` as soon as a browser runs it, so only `cards` is relied on.
 */
const CARD = '#search-results ul.cards > li';

export default defineSource({
  id: 'au_nsw_buy_nsw',
  tag: 'NSW',
  name: 'buy.nsw opportunities',
  jurisdiction: 'AU-NSW',
  tier: 'state',
  kinds: ['tender'],
  mode: 'browser',
  origin: BUY_NSW_ORIGIN,
  homepage: 'https://buy.nsw.gov.au/opportunity/search',
  licence: BUY_NSW_LICENCE,
  attribution: BUY_NSW_ATTRIBUTION,
  caveats: [
    'The opportunity list is read with headless Chromium because buy.nsw answers plain HTTP clients with an AWS WAF challenge (status 202) that only a browser clears; a night when the challenge does not clear leaves the source failed, not empty.',
    'Records come from the result cards alone (no detail page per opportunity): the cards carry no published date and no estimated value, so both are null.',
    'The summary is the card\'s excerpt, which buy.nsw cuts off (sometimes mid-sentence); the full text is on the linked page.',
    'buy.nsw categories are its own names, not UNSPSC: category is null and category_name lists the card\'s subcategories.',
    'Close times are Sydney time as printed; closing_at is that instant in UTC.',
    'Tier is inferred from the agency name (council, university, health, otherwise state).',
  ],
  politeness: {
    maxConcurrency: 1, // why: each page is a full Chromium load behind a WAF that rate-limits per client; one page at a time
    delayMs: 3000, // why: opencontractau and whatnick pace buy.nsw at one request per 3 s to stay under the WAF's limit; 14 list pages take under a minute
    maxRetries: 2, // why: the WAF challenge clears on a second load more often than not; more tries only provoke it
    timeoutSecs: 45, // why: the challenge script plus the results render take several seconds in headless Chromium
  },
  start: (ctx) => [{ url: ctx.url('/opportunity/search?page=1'), label: 'LIST' }],
  routes: {
    LIST: async ({ dom, request, ctx, emit, invalid, enqueue }) => {
      const $ = await dom({ waitFor: CARD });
      const listingUrl = ctx.publicUrl(request.url);
      for (const element of $(CARD).toArray()) {
        const card = $(element);
        const title = cleanText(card.children('h3').first().text());
        const href = card.find('a[href*="/prcOpportunity/"]').first().attr('href');
        if (!title || !href) {
          invalid(title ? `result card "${title}" has no link to its opportunity page` : 'a result card without a title');
          continue;
        }
        const fields = definitionList($, card.find('dl').first());
        const closesLine = card.children('p').filter((_, p) => cleanText($(p).children('b').first().text()) === 'Closes:');
        const closes = parseBuyNswDate(closesLine.first().text().replace('Closes:', ''));
        const subcategories = card
          .children('p.subcat')
          .toArray()
          .map((p) => cleanText($(p).text()))
          .filter((name) => name !== null);
        const agency = fields.get('Agency') ?? null;
        emit({
          record_type: 'tender',
          kind: 'tender',
          title,
          buyer: agency,
          reference: cleanText(card.find('ul.pills > li').first().text()),
          jurisdiction: 'AU-NSW',
          tier: tierOf(agency),
          summary: cleanText(card.children('p.limit').first().text()),
          category: null,
          category_name: subcategories.length ? subcategories.join('; ') : null,
          notice_type: fields.get('Opportunity type') ?? null,
          published_date: null,
          closing_date: closes?.date ?? null,
          closing_at: closes?.at ?? null,
          value_text: null,
          url: new URL(href, listingUrl).href,
          listing_url: listingUrl,
        });
      }
      const next = nextPageUrl($, listingUrl);
      if (next) await enqueue({ url: ctx.url(next), label: 'LIST' });
    },
  },
});

/**
 * buy.nsw lists state agencies, councils, health services and universities side by side; the agency's
 * name says which. Health regulators and departments (e.g. the Health Care Complaints Commission) are state.
 */
function tierOf(agency: string | null): Tier {
  if (!agency) return 'state';
  if (/\b(Council|Shire)\b|^City of\b/i.test(agency)) return 'council';
  if (/\bUniversity\b/i.test(agency)) return 'university';
  if (/\b(Local Health District|Specialty Health Network|HealthShare|Health Infrastructure|Health Pathology|eHealth|Hospital|Ambulance)\b/i.test(agency)) return 'health';
  return 'state';
}
