import type { CheerioAPI } from 'cheerio';
import { defineSource } from './_contract/define-source.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

export default defineSource({
  id: 'au_federal_austender_app',
  tag: 'APP',
  name: 'AusTender annual procurement plans',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['plan'],
  mode: 'html',
  origin: 'https://www.tenders.gov.au',
  homepage: 'https://www.tenders.gov.au/app/list',
  licence:
    'CC BY 3.0 AU (https://creativecommons.org/licenses/by/3.0/au/): the AusTender footer licenses site content under CC BY 3.0 AU; its exclusion names Approach to Market (ATM) material, which planned procurements are not.',
  attribution: 'Annual procurement plans from AusTender (www.tenders.gov.au), Department of Finance, licensed under CC BY 3.0 AU.',
  caveats: [
    'The page structure is unverified: no public capture of the planned-procurement list or view pages was found, so the parser follows the AusTender ATM markup (label[for] rows) and must be checked against a live capture.',
    'An annual procurement plan is a planning document: agencies change, defer or drop planned procurements, and a plan is not an approach to market.',
    'The expected approach-to-market period is kept as published; window_start/window_end are set only for an Australian financial-year quarter ("Q3 2026-27" is January to March 2027), a month or a financial year, and are otherwise null.',
    'Plans publish no estimated value, so value_text is always null.',
    'Withdrawn plans are kept with withdrawn = true; a plan whose view page fails is missing for that night.',
  ],
  politeness: {
    maxConcurrency: 2, // why: a few list pages then one view page per plan (several hundred) from the same AusTender host as the ATM source; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads the view-page fetches over minutes rather than a burst
    maxRetries: 3, // why: the site has brief 5xx spells during its own releases; a 404 (a plan taken down) is final
    timeoutSecs: 30, // why: a view page answers in about a second; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url('/app/list'), label: 'LIST' }],
  routes: {
    LIST: async ({ dom, enqueue, invalid, ctx, request }) => {
      const $ = await dom();
      // A login page or WAF challenge answered with 200 must fail the list rather than report zero plans.
      if (!/Planned Procurements/i.test($('h1').first().text())) throw new Error('the response is not the AusTender planned procurements list (no "Planned Procurements" heading)');
      const listingUrl = ctx.publicUrl(request.url);
      for (const entry of $('.boxEQH > .row').toArray()) {
        const item = $(entry);
        const href = item.find('.list-desc a[href*="/App/Show/"]').first().attr('href');
        if (!href) {
          invalid(`list entry "${cleanText(item.find('p.lead').first().text()) ?? '(untitled)'}" has no link to its full details`);
          continue;
        }
        await enqueue({ url: ctx.url(new URL(href, listingUrl).href), label: 'DETAIL' });
      }
      const next = $('ul.pagination li.next a[href]').first().attr('href');
      if (next) await enqueue({ url: ctx.url(new URL(next, listingUrl).href), label: 'LIST' });
    },
    DETAIL: async ({ dom, emit, invalid, ctx, request }) => {
      const $ = await dom();
      const title = cleanText($('p.lead').first().text());
      const planId = fieldText($, 'AppId');
      const buyer = fieldText($, 'Agency');
      if (!title || !planId || !buyer) {
        invalid('no plan title (p.lead), APP ID or agency: not a planned procurement view page');
        return;
      }
      const category = /^(\d{8})\s*-\s*(.+)$/.exec(fieldText($, 'Category') ?? '');
      const period = fieldText($, 'EstimatedAtmPeriod');
      const window = planWindow(period);
      const status = fieldText($, 'Status');
      emit({
        record_type: 'plan',
        plan_id: planId,
        title,
        buyer,
        jurisdiction: 'AU',
        tier: 'federal',
        description: fieldText($, 'Description'),
        category: category?.[1] ?? null,
        category_name: category?.[2] ?? fieldText($, 'Category'),
        expected_period_text: period,
        window_start: window?.start ?? null,
        window_end: window?.end ?? null,
        value_text: null,
        status,
        // A plan taken to market links the ATM it became, even where the status word lags behind.
        released: /released/i.test(status ?? '') || field($, 'RelatedAtm').find('a[href]').length > 0,
        withdrawn: /withdrawn/i.test(status ?? ''),
        published_date: parseDayMonthYear(fieldText($, 'PublishDate'))?.date ?? null,
        url: ctx.publicUrl(request.url),
      });
    },
  },
});

/** The value cell of one `<label for=…>` row of a view page. */
function field($: CheerioAPI, labelFor: string) {
  return $(`.list-desc label[for="${labelFor}"]`).first().closest('.list-desc').children('.list-desc-inner').first();
}

/** A row's value as text; block boundaries become spaces so paragraphs do not run together. */
function fieldText($: CheerioAPI, labelFor: string): string | null {
  const value = field($, labelFor).clone();
  value.find('p, li, br').after(' ');
  return cleanText(value.text());
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
};

/**
 * The dates an expected approach-to-market period covers, or null when it cannot be read. Readable forms:
 * a quarter of an Australian financial year ("Q3 2026-27", "Quarter 4, 2026-2027": Q1 is July to September),
 * a month ("October 2026"), or a financial year ("2026-27", "FY2026-27": 1 July to 30 June). Anything
 * else ("Mid 2027", a calendar "Q3 2027" that could be either year) stays text only.
 */
export function planWindow(text: string | null): { start: string; end: string } | null {
  const period = cleanText(text)?.replace(/[–—]/g, '-');
  if (!period) return null;
  const quarter = /^(?:Q|Quarter)\s*([1-4])\s*,?\s*(?:FY\s*)?(\d{4})\s*[-/]\s*(\d{2}|\d{4})$/i.exec(period);
  if (quarter) {
    const startYear = financialYearStart(quarter[2]!, quarter[3]!);
    if (startYear === null) return null;
    const firstMonth = 6 + 3 * (Number(quarter[1]) - 1); // 0-based, counted from January of the year the financial year starts
    return span(startYear, firstMonth, 3);
  }
  const year = /^(?:FY\s*)?(\d{4})\s*[-/]\s*(\d{2}|\d{4})$/i.exec(period);
  if (year) {
    const startYear = financialYearStart(year[1]!, year[2]!);
    return startYear === null ? null : span(startYear, 6, 12);
  }
  const month = /^([A-Za-z]{3,9})\.?\s+(\d{4})$/.exec(period);
  const monthNumber = month ? MONTHS[month[1]!.toLowerCase()] : undefined;
  if (month && monthNumber) return span(Number(month[2]), monthNumber - 1, 1);
  return null;
}

/** "2026" and "27" (or "2027") → 2026; null when the second year does not follow the first. */
function financialYearStart(first: string, second: string): number | null {
  const start = Number(first);
  const end = second.length === 2 ? Number(second) : Number(second) % 100;
  return end === (start + 1) % 100 && (second.length === 2 || Number(second) === start + 1) ? start : null;
}

/** `months` calendar months from month index `firstMonth` (0-based, may pass December) of `year`, as ISO dates. */
function span(year: number, firstMonth: number, months: number): { start: string; end: string } {
  const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
  return { start: iso(Date.UTC(year, firstMonth, 1)), end: iso(Date.UTC(year, firstMonth + months, 0)) };
}
