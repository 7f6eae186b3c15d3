import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched, type SourceContext } from './_contract/define-source.ts';
import { localDate, timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { cleanText, moneyAmount, parseDayMonthYear } from '../lib/text.ts';

const SOURCE_ID = 'au_nt_qtol';
const DARWIN = timeZoneOf('AU-NT');
const DAY_MS = 86_400_000;

/**
 * The awarded register goes back to 2012, newest award first, so the crawl stops paging once a page
 * reaches awards older than its window: 90 days on a first run, else 30 days before the last success
 * (awards are sometimes entered weeks after their award date, so they land below newer ones).
 */
const FIRST_RUN_AWARD_DAYS = 90;
const AWARD_OVERLAP_DAYS = 30;

function awardWindowStart(ctx: SourceContext): string {
  const from = ctx.lastSuccessAt ? ctx.lastSuccessAt.getTime() - AWARD_OVERLAP_DAYS * DAY_MS : ctx.now.getTime() - FIRST_RUN_AWARD_DAYS * DAY_MS;
  return localDate(new Date(from), DARWIN);
}

export default defineSource({
  id: SOURCE_ID,
  tag: 'QTOL',
  name: 'NT Quotations and Tenders Online',
  jurisdiction: 'AU-NT',
  tier: 'state',
  kinds: ['tender', 'award'],
  mode: 'html',
  origin: 'https://tendersonline.nt.gov.au',
  homepage: 'https://tendersonline.nt.gov.au/Tender/Search/Current',
  licence: 'No licence statement was found for tendersonline.nt.gov.au; the Northern Territory Government website copyright notice applies (© Northern Territory Government). Link to each tender page and do not republish in bulk.',
  attribution: 'Quotations and Tenders Online (tendersonline.nt.gov.au), Northern Territory Government.',
  caveats: [
    'Current tenders and awarded tenders are read from QTOL\'s HTML pages; the list pages\' markup is inferred (only an awarded detail page was ever captured), so a change in the lists shows as an empty night.',
    'Period contracts publish an estimated value from unit rates, which QTOL itself calls indicative only; it is kept as value_amount as published. Where only unit rates are published, with no estimated total, value_amount is null.',
    'QTOL publishes no supplier ABN; suppliers are named only. Its closing list of every tenderer and the supplier flags (Territory Enterprise, Aboriginal Enterprise, Women Owned) have no field in the award record, so they are not kept.',
    'The awarded register is paged newest first and read back 90 days on a first run, then 30 days before the last successful run; an award entered later than that is missed.',
    'QTOL prints no contract start or end dates, so start_date and end_date are null; awarded_date is the Award step of the tender\'s progress.',
    'Close times are Darwin time (no daylight saving); closing_at is that instant in UTC.',
    'robots.txt could not be fetched when researched (connection refused), which the robots convention reads as no restrictions.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a single NT Government web server; one request at a time
    delayMs: 3000, // why: opencontractau's three seconds between requests; ~60 tender and award pages a night take three minutes
    maxRetries: 3, // why: transient 5xx and resets ride out on retry with backoff; a 404 is final
    timeoutSecs: 30, // why: an awarded page with its closing list is ~50 kB of server-rendered HTML; half a minute means trouble
  },
  start: (ctx) => [
    { url: ctx.url('/Tender/Search/Current?page=1'), label: 'CURRENT_LIST' },
    { url: ctx.url('/Tender/Search/Awarded?page=1'), label: 'AWARDED_LIST', userData: { since: awardWindowStart(ctx) } },
  ],
  routes: {
    CURRENT_LIST: async (fetched) => {
      const $ = await fetched.dom();
      await enqueueDetails(fetched, $, 'TENDER');
      await enqueueNextPage(fetched, $);
    },
    AWARDED_LIST: async (fetched) => {
      const $ = await fetched.dom();
      await enqueueDetails(fetched, $, 'AWARD');
      const since = String(fetched.request.userData.since);
      const awardDates = $('.tender-card__date')
        .toArray()
        .map((element) => parseDayMonthYear($(element).text())?.date)
        .filter((date) => date !== undefined);
      // Newest first: once a page reaches past the window, every later page is older still.
      if (awardDates.some((date) => date < since)) return;
      await enqueueNextPage(fetched, $, { since });
    },
    TENDER: async ({ dom, request, ctx, emit, invalid }) => {
      const $ = await dom();
      const title = cleanText($('#tenderTitle h1').first().text());
      if (!title) {
        invalid('a tender page without a title (#tenderTitle h1)');
        return;
      }
      const steps = progressSteps($);
      const closing = parseDayMonthYear(steps.get('Close'));
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer: listedBy($),
        reference: tenderNumber($),
        jurisdiction: 'AU-NT',
        tier: 'state',
        summary: blockText($, $('#tenderDescription').first()),
        category: null,
        category_name: badgeAfter($, 'Category:'),
        notice_type: noticeType($),
        published_date: parseDayMonthYear(steps.get('Release'))?.date ?? null,
        closing_date: closing?.date ?? null,
        closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, DARWIN).toISOString() : null,
        value_text: null,
        url: ctx.publicUrl(request.url),
        listing_url: typeof request.userData.listingUrl === 'string' ? request.userData.listingUrl : null,
      });
    },
    AWARD: async ({ dom, request, ctx, emit, invalid }) => {
      const $ = await dom();
      const url = ctx.publicUrl(request.url);
      const pageId = /\/Tender\/Details\/(\d+)/.exec(new URL(url).pathname)?.[1] ?? '';
      const title = cleanText($('#tenderTitle h1').first().text());
      const buyer = listedBy($);
      if (!title || !buyer) {
        invalid(`awarded tender ${pageId} has no ${title ? 'agency (Listed by)' : 'title (#tenderTitle h1)'}`);
        return;
      }
      const awarded = parseDayMonthYear(progressSteps($).get('Award'));
      const contractors = awardedContractors($);
      const common = {
        record_type: 'award' as const,
        release_date: awarded ? zonedTimeToUtc(awarded.date, '00:00', DARWIN).toISOString() : ctx.now.toISOString(),
        release_tag: 'contract',
        amendment_id: null,
        amends_release_id: null,
        jurisdiction: 'AU-NT' as const,
        buyer,
        buyer_id: null,
        supplier_abn: null,
        supplier_id: null,
        title,
        description: blockText($, $('#tenderDescription').first()),
        awarded_date: awarded?.date ?? null,
        start_date: null,
        end_date: null,
        categories: [],
        procurement_method: badgeAfter($, 'Procurement method:'),
        url,
      };
      // An awarded tender that names no contractor is still an award; it is kept without a supplier.
      const awards = contractors.length === 0 ? [{ name: null, terms: null, amount: null }] : contractors;
      awards.forEach((contractor, index) => {
        const contractId = awards.length === 1 ? pageId : `${pageId}-${index + 1}`;
        const ocid = `${SOURCE_ID}:${contractId}`;
        const amount = moneyAmount(contractor.amount);
        const published = JSON.stringify([title, buyer, tenderNumber($), common.awarded_date, common.description, common.procurement_method, contractor.name, contractor.terms, contractor.amount]);
        emit({
          ...common,
          ocid,
          release_id: `${ocid}:${sha256Hex(published).slice(0, 16)}`,
          contract_id: contractId,
          supplier: contractor.name,
          value_amount: amount,
          value_currency: amount === null ? null : 'AUD',
        });
      });
    },
  },
});

/** Every tender a list page links to, once each, carrying the list's public address for `listing_url`. */
async function enqueueDetails({ request, ctx, enqueue }: Fetched, $: CheerioAPI, label: string): Promise<void> {
  if ($('#searchResults').length === 0) throw new Error('the page is not a QTOL search result (no #searchResults)');
  const listingUrl = ctx.publicUrl(request.url);
  const details = new Set<string>();
  for (const link of $('#searchResults a[href*="/Tender/Details/"]').toArray()) details.add(new URL($(link).attr('href') ?? '', listingUrl).href);
  await enqueue([...details].map((url) => ({ url: ctx.url(url), label, userData: { listingUrl } })));
}

async function enqueueNextPage({ request, ctx, enqueue }: Fetched, $: CheerioAPI, userData: Record<string, unknown> = {}): Promise<void> {
  const next = $('ul.pagination a.page-link[aria-label="Next"]').first().attr('href');
  if (next) await enqueue({ url: ctx.url(new URL(next, ctx.publicUrl(request.url)).href), label: request.label, userData });
}

/** "Tender number RFT0661" → "RFT0661". */
function tenderNumber($: CheerioAPI): string | null {
  return cleanText($('p.leader').first().text().replace(/^\s*Tender number/i, ''));
}

/** The agency in the "Listed by" box. */
function listedBy($: CheerioAPI): string | null {
  return cleanText($('.light-border h3').first().text());
}

/** The badge beside a label such as "Category:" in the tender's facts grid. */
function badgeAfter($: CheerioAPI, label: string): string | null {
  const cell = $('p').filter((_, p) => cleanText($(p).text()) === label).first().parent();
  return cleanText(cell.next().find('.general-badge').first().text());
}

/** The heading above the progress stepper names the kind of request ("Request For Tender"). */
function noticeType($: CheerioAPI): string | null {
  return cleanText($('.tender-progress-info').first().closest('.row').children('h2').first().text());
}

/** The tender's progress steps (Release, Close, Award) and the date printed under each. */
function progressSteps($: CheerioAPI): Map<string, string> {
  const steps = new Map<string, string>();
  for (const cell of $('.tender-progress-info .stepper-info-cell').toArray()) {
    const [name, value] = $(cell).children('p').toArray().map((p) => cleanText($(p).text()));
    if (name && value) steps.set(name, value);
  }
  return steps;
}

interface Contractor {
  name: string | null;
  /** The terms line above the contractor, e.g. "Period contract - estimated unit rates of $446,425.94". */
  terms: string | null;
  /** The amount printed beside "Awarded", as published ("$446,425.94", or words when there is none). */
  amount: string | null;
}

/**
 * The awarded contractors, in page order. The block prints, per contractor, an optional terms line, an
 * "Awarded" row with the amount, then the contractor's name in bold and its address and flags.
 */
function awardedContractors($: CheerioAPI): Contractor[] {
  const contractors: Contractor[] = [];
  let terms: string | null = null;
  for (const element of $('#accordionAwardedListBody > div').first().children().toArray()) {
    const child = $(element);
    if (child.is('div.w-100')) {
      contractors.push({ name: null, terms, amount: cleanText(child.find('p.text-end > span').first().text()) });
      terms = null;
    } else if (child.is('p.fw-bold.m-0')) {
      const current = contractors.at(-1);
      if (current && current.name === null) current.name = cleanText(child.text());
    } else if (child.is('p') && !child.hasClass('m-0')) {
      terms = cleanText(child.text());
    }
  }
  return contractors;
}


/** An element's text with a space after each paragraph, item and line break, so blocks do not run together. */
function blockText($: CheerioAPI, element: ReturnType<CheerioAPI>): string | null {
  const copy = element.clone();
  copy.find('p, li, br').after(' ');
  return cleanText(copy.text());
}
