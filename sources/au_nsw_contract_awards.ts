import { defineSource, type SourceContext } from './_contract/define-source.ts';
import { BUY_NSW_ATTRIBUTION, BUY_NSW_LICENCE, BUY_NSW_ORIGIN, NSW_TIME_ZONE, definitionList, isWafChallenge, nextPageUrl, parseBuyNswDate } from './_platforms/buy_nsw.ts';
import { localDate, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { cleanText, moneyAmount } from '../lib/text.ts';

const SOURCE_ID = 'au_nsw_contract_awards';

/**
 * A first run reaches back two weeks of publish dates: some 600 notices a month are published (about 15,650
 * in all), so about 30 list pages and 300 notices, enough for the recent-awards views on the first night.
 */
const FIRST_RUN_BACKFILL_DAYS = 14;

/** Notices published on the day of the last run may have appeared after it finished; re-reading a day catches them. */
const OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The labels of a notice's `dl.details`, as buy.nsw prints them. */
const FIELD = {
  canId: 'CAN ID',
  agency: 'Agency',
  published: 'Publish date',
  period: 'Contract period',
  value: 'Estimated amount payable to the contractor (including GST)',
  contractor: 'Contractor name',
  abn: 'Contractor ABN',
  updated: 'Last updated',
} as const;

/** The first day (Sydney calendar) of tonight's publish-date window. */
function dateFrom(ctx: SourceContext): string {
  const from = ctx.lastSuccessAt ? new Date(ctx.lastSuccessAt.getTime() - OVERLAP_MS) : new Date(ctx.now.getTime() - FIRST_RUN_BACKFILL_DAYS * 86_400_000);
  return localDate(from, NSW_TIME_ZONE);
}

export default defineSource({
  id: SOURCE_ID,
  tag: 'NSW-CAN',
  name: 'buy.nsw contract award notices',
  jurisdiction: 'AU-NSW',
  tier: 'state',
  kinds: ['award'],
  mode: 'html',
  origin: BUY_NSW_ORIGIN,
  homepage: 'https://buy.nsw.gov.au/notices/search?noticeTypes=can',
  licence: BUY_NSW_LICENCE,
  attribution: BUY_NSW_ATTRIBUTION,
  caveats: [
    'Contract award notices (CANs) are read from server-rendered HTML; when buy.nsw answers with its AWS WAF challenge instead, a plain HTTP client cannot pass it, so that list page fails the source and a challenged notice is missing for the night.',
    'Each night reads the notices published since the day before the last successful run (two weeks on a first run); older notices are not revisited, so a notice edited long after publication keeps its earlier state.',
    'buy.nsw prints a publish date, not an award date: awarded_date is null and release_date is the notice\'s last-updated (else publish) date at midnight in Sydney.',
    'The value is the "estimated amount payable to the contractor (including GST)" as published; categories are buy.nsw\'s own names, not UNSPSC, so categories is empty.',
    'The notice page\'s markup is unverified: no public capture of one was found, so it is read as the list card\'s dt/dd pairs plus a "Contractor ABN" row (the list cards follow a real capture).',
    'The contractor\'s ABN is printed only on the notice page; an ABN that is not 11 digits is dropped with a warning and the contractor kept by name.',
    'Council and other non-state notices appear only where the agency published them on buy.nsw.',
  ],
  politeness: {
    maxConcurrency: 1, // why: buy.nsw's WAF rate-limits per client and challenges bursts; one request at a time
    delayMs: 3000, // why: opencontractau paces buy.nsw at one request per 3 s after hitting the WAF; ~330 requests on a first run take about 17 minutes
    maxRetries: 2, // why: a WAF challenge or a 5xx is often gone on the next try; more tries only provoke the WAF
    timeoutSecs: 30, // why: a notice page is a few kilobytes of server-rendered HTML; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url(`/notices/search?noticeTypes=can&mode=advanced&dateFrom=${dateFrom(ctx)}&page=1`), label: 'LIST' }],
  routes: {
    LIST: async ({ dom, request, statusCode, ctx, enqueue, invalid }) => {
      const $ = await dom();
      if (isWafChallenge(statusCode, $.html())) throw new Error(`buy.nsw answered with its WAF challenge (HTTP ${statusCode}) instead of the notice list`);
      const listingUrl = ctx.publicUrl(request.url);
      const cards = $('ul.cards.profiles > li');
      if (cards.length === 0 && $('.nsw-sidenav__heading').length === 0) throw new Error('the page is not a buy.nsw notice search result (no result heading or cards)');
      for (const element of cards.toArray()) {
        const link = $(element).find('h3 a[href*="/notices/"]').first();
        const href = link.attr('href');
        if (!href) {
          invalid(`a notice card without a link to its notice ("${cleanText($(element).find('h3').text()) ?? 'untitled'}")`);
          continue;
        }
        await enqueue({ url: ctx.url(new URL(href, listingUrl).href), label: 'NOTICE' });
      }
      const next = nextPageUrl($, listingUrl);
      if (next) await enqueue({ url: ctx.url(next), label: 'LIST' });
    },
    NOTICE: async ({ dom, request, statusCode, ctx, emit, invalid, warn }) => {
      const $ = await dom();
      if (isWafChallenge(statusCode, $.html())) throw new Error(`buy.nsw answered with its WAF challenge (HTTP ${statusCode}) instead of the notice`);
      const fields = definitionList($, $('dl.details').first());
      const title = cleanText($('h1').first().text());
      const canId = fields.get(FIELD.canId);
      if (!title || !canId) {
        invalid(`a contract award notice without ${title ? 'a CAN ID' : 'a title'}`);
        return;
      }
      const period = /^(.*?)\s+to\s+(.*)$/i.exec(fields.get(FIELD.period) ?? '');
      const stamp = parseBuyNswDate(fields.get(FIELD.updated)) ?? parseBuyNswDate(fields.get(FIELD.published));
      const ocid = `${SOURCE_ID}:${canId}`;
      const publishedFields = JSON.stringify([title, ...[...fields].sort(([a], [b]) => a.localeCompare(b))]);
      emit({
        record_type: 'award',
        ocid,
        release_id: `${ocid}:${sha256Hex(publishedFields).slice(0, 16)}`,
        release_date: stamp?.at ?? (stamp ? zonedTimeToUtc(stamp.date, '00:00', NSW_TIME_ZONE) : ctx.now).toISOString(),
        release_tag: 'contract',
        contract_id: canId,
        amendment_id: null,
        amends_release_id: null,
        jurisdiction: 'AU-NSW',
        // An empty buyer fails validation, so a notice without an agency is counted as invalid rather than guessed at.
        buyer: fields.get(FIELD.agency) ?? '',
        buyer_id: null,
        supplier: fields.get(FIELD.contractor) ?? null,
        supplier_abn: abnOf(fields.get(FIELD.abn), (message) => warn(`${canId}: ${message}`)),
        supplier_id: null,
        title,
        description: null,
        value_amount: moneyAmount(fields.get(FIELD.value)),
        value_currency: fields.has(FIELD.value) ? 'AUD' : null,
        awarded_date: null,
        start_date: parseBuyNswDate(period?.[1])?.date ?? null,
        end_date: parseBuyNswDate(period?.[2])?.date ?? null,
        categories: [],
        procurement_method: null,
        url: ctx.publicUrl(request.url),
      });
    },
  },
});


/** buy.nsw prints ABNs with spaces ("51 824 753 556"); anything but 11 digits is reported and dropped. */
function abnOf(text: string | undefined, warn: (message: string) => void): string | null {
  if (!text) return null;
  const digits = text.replace(/\s+/g, '');
  if (/^\d{11}$/.test(digits)) return digits;
  warn(`contractor ABN "${text}" is not 11 digits; recorded without an ABN`);
  return null;
}
