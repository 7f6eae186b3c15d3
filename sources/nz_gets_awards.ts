import { canonicalDetailUrl, cellList, cellText, organisationFromPageTitle, overview } from './_platforms/gets.ts';
import { defineSource, type SourceContext } from './_contract/define-source.ts';
import type { AwardRecord } from './_contract/records.ts';
import { localDate, timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { cleanText, moneyAmount, parseDayMonthYear } from '../lib/text.ts';

const SOURCE_ID = 'nz_gets_awards';
const NZ_TIME_ZONE = timeZoneOf('NZ');

/** A first run reads the last quarter's awards: the list's recent pages, not its years of history. */
const FIRST_RUN_LOOKBACK_MS = 90 * 24 * 60 * 60 * 1000;

/** Award notices are often posted days after the award date they print; re-reading two weeks catches them. */
const OVERLAP_MS = 14 * 24 * 60 * 60 * 1000;

/** What the awarded list says about one notice, carried to its detail request. */
interface ListedAward {
  rfxId: string | null;
  reference: string | null;
  title: string | null;
  awardedDate: string | null;
  organisation: string | null;
}

export default defineSource({
  id: SOURCE_ID,
  tag: 'GETS-AW',
  name: 'GETS award notices',
  jurisdiction: 'NZ',
  tier: 'national',
  kinds: ['award'],
  mode: 'html',
  origin: 'https://www.gets.govt.nz',
  homepage: 'https://www.gets.govt.nz/ExternalAwardedTenderList.htm',
  licence:
    'CC BY 3.0 NZ (GETS copyright page). Republishing tender documents is allowed only free of charge, with the correct RFx ID, title, buyer and closing date, without Crown purchaser contact details, directing suppliers to GETS, and where the use is non-commercial or does not create a competing product.',
  attribution: 'Award notices from the New Zealand Government Electronic Tenders Service (www.gets.govt.nz), Ministry of Business, Innovation and Employment, licensed under CC BY 3.0 NZ.',
  caveats: [
    'The list and award-notice markup is unverified: no capture of either exists, so the parser follows the label-cell tables of GETS tender pages and must be checked against a live capture.',
    'GETS forbids republishing for commercial use or in a competing product: get legal sign-off before any commercial use of these notices.',
    'A successful supplier can be a sole trader, whose name is a person\'s: only the name is kept, never an address or contact.',
    'A panel award lists all its suppliers in one record, separated by "; ", at the one value the notice publishes.',
    'Tenders completed without an award produce no record. Values are kept as published, and GETS notices mix GST-inclusive and exclusive amounts; MBIE\'s quarterly award-notice open data is the authoritative set.',
    'Each night reads the list back to two weeks before the last successful run (90 days on a first run), stopping at the first page whose awards are all older.',
  ],
  politeness: {
    maxConcurrency: 2, // why: one MBIE-run site shared with the tender feed source; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads a night's few dozen list and notice pages over a minute rather than a burst
    maxRetries: 3, // why: transient 5xx and resets ride out on retry; a 404 (a notice taken down) is final and not retried
    timeoutSecs: 30, // why: a page is a few kilobytes; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/ExternalAwardedTenderList.htm'), label: 'LIST', userData: { cutoff: cutoffDate(ctx) } }],
  routes: {
    LIST: async ({ dom, enqueue, invalid, ctx, request }) => {
      const $ = await dom();
      const rows = $('tr[id^="tender-"]').toArray();
      // A login page or WAF challenge answered with 200 must fail the list rather than report zero awards.
      if (rows.length === 0 && !/Award/i.test($('h1').first().text())) throw new Error('the response is not the GETS awarded tender list (no award rows or heading)');
      const cutoff = request.userData.cutoff as string;
      const listingUrl = ctx.publicUrl(request.url);
      let recentRows = 0;
      for (const element of rows) {
        const cells = $(element).children('td').toArray().map((cell) => cleanText($(cell).text()));
        const award: ListedAward = {
          rfxId: cells[0] ?? null,
          reference: cells[1] === '[None]' ? null : (cells[1] ?? null),
          title: cells[2] ?? null,
          awardedDate: parseDayMonthYear(cells[4])?.date ?? null,
          organisation: cells[5] ?? null,
        };
        if (award.awardedDate && award.awardedDate < cutoff) continue;
        recentRows++;
        const href = $(element).find('a[href*="ExternalTenderDetails.htm"]').first().attr('href');
        if (!href) {
          invalid(`awarded list row ${award.rfxId ?? award.title ?? '(unnamed)'} has no link to its notice`);
          continue;
        }
        await enqueue({ url: ctx.url(canonicalDetailUrl(new URL(href, listingUrl).href)), label: 'DETAIL', userData: { award } });
      }
      // The list runs newest first; a page with nothing recent means every later page is older still.
      const next = $('a[href]').filter((_, link) => /^Next\b/i.test(cleanText($(link).text()) ?? '')).first().attr('href');
      if (next && recentRows > 0) await enqueue({ url: ctx.url(new URL(next, listingUrl).href), label: 'LIST', userData: { cutoff } });
    },
    DETAIL: async ({ dom, emit, invalid, warn, ctx, request }) => {
      const listed = request.userData.award as ListedAward;
      const $ = await dom();
      const status = cellText($, 'Award status');
      if (/not\s+awarded|cancel|no\s+award/i.test(status ?? '')) return; // completed without an award: nothing to record
      const contractId = cellText($, 'RFx ID') ?? listed.rfxId;
      const title = cellText($, 'Tender name') ?? listed.title;
      const buyer = listed.organisation ?? organisationFromPageTitle($, title);
      if (!contractId || !title || !buyer) {
        invalid('no RFx ID, tender name or organisation: not a GETS award notice');
        return;
      }
      const valueText = cellText($, 'Contract value');
      const valueAmount = moneyAmount(valueText, { rangeIsNull: true });
      if (valueText && valueAmount === null) warn(`contract value "${valueText}" is not one amount; recorded without a value`);
      const suppliers = cellList($, 'Successful supplier(s)');
      const awarded = parseGetsDate(cellText($, 'Date of award'))?.date ?? listed.awardedDate;
      const completed = parseGetsDate(cellText($, 'Date RFx was completed/updated'));
      const published = {
        contract_id: contractId,
        jurisdiction: 'NZ' as const,
        buyer,
        supplier: suppliers.length ? suppliers.join('; ') : cellText($, 'Successful supplier(s)'),
        title,
        description: overview($),
        value_amount: valueAmount,
        value_currency: valueAmount === null ? null : 'NZD',
        awarded_date: awarded,
        start_date: parseGetsDate(cellText($, 'Contract start date'))?.date ?? null,
        end_date: parseGetsDate(cellText($, 'Contract end date'))?.date ?? null,
        categories: cellList($, 'Categories').flatMap((entry) => /^(\d{8})\b/.exec(entry)?.[1] ?? []),
        procurement_method: cellText($, 'Tender type'),
      };
      const ocid = `${SOURCE_ID}:${contractId}`;
      const record: AwardRecord = {
        record_type: 'award',
        ocid,
        release_id: `${ocid}:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`,
        release_date: completed?.at ?? (awarded ? zonedTimeToUtc(awarded, '00:00', NZ_TIME_ZONE).toISOString() : ctx.now.toISOString()),
        release_tag: 'contract',
        amendment_id: null,
        amends_release_id: null,
        buyer_id: null,
        supplier_abn: null,
        supplier_id: null,
        url: ctx.publicUrl(request.url),
        ...published,
      };
      emit(record);
    },
  },
});

/** The oldest award date tonight's crawl reads, as a New Zealand calendar date. */
function cutoffDate(ctx: SourceContext): string {
  const from = ctx.lastSuccessAt ? ctx.lastSuccessAt.getTime() - OVERLAP_MS : ctx.now.getTime() - FIRST_RUN_LOOKBACK_MS;
  return localDate(new Date(from), NZ_TIME_ZONE);
}

/** GETS pages print "3:15 PM 21 Sep 2026" (time first) or a bare "18 Sep 2026", in New Zealand time. */
function parseGetsDate(text: string | null): { date: string; at: string | null } | null {
  const timeFirst = /^(\d{1,2}:\d{2}\s*[ap]\.?m\.?)\s+(.+)$/i.exec(text ?? '');
  const wall = parseDayMonthYear(timeFirst ? `${timeFirst[2]} ${timeFirst[1]}` : text);
  if (!wall) return null;
  return { date: wall.date, at: wall.time ? zonedTimeToUtc(wall.date, wall.time, NZ_TIME_ZONE).toISOString() : null };
}

