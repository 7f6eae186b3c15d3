import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { NT_QTOL } from '../lib/nt-qtol.ts';
import { cleanText, moneyAmount, parseDayMonthYear, type WallClock } from '../lib/text.ts';

const SOURCE_ID = NT_QTOL.id;
const DARWIN = timeZoneOf('AU-NT');

/**
 * Cards per results page. QTOL's page-size select offers 5, 10, 15 and 20 and answers any other size with 5, so
 * 20 is the largest page it honours (UtkristaUwa/CITS3200_57 web_scrapers/nt_qtol).
 */
const PAGE_SIZE = 20;
/** Current-tender pages read at most: 200 tenders, several times the ~35 QTOL lists open at once. */
const MAX_CURRENT_PAGES = 10;
/** Awarded pages read per night: the 100 newest awards, each of which costs a detail page at three seconds. */
const MAX_AWARDED_PAGES = 5;

/**
 * The results fragment the list page's own script fills itself from. The current address is seen in a scraper
 * that reads the live site; the awarded one follows it by analogy with `/Tender/Search/{Current,Awarded}`.
 */
function resultsPath(status: 'Current' | 'Awarded', page: number): string {
  return `/Tender/SearchResults/${status}?page=${page}&size=${PAGE_SIZE}`;
}

export default defineSource({
  id: SOURCE_ID,
  tag: 'QTOL',
  name: NT_QTOL.name,
  jurisdiction: 'AU-NT',
  tier: 'state',
  kinds: ['tender', 'award'],
  mode: 'html',
  origin: NT_QTOL.origin,
  homepage: 'https://tendersonline.nt.gov.au/Tender/Search/Current',
  licence: 'No licence statement was found for tendersonline.nt.gov.au; the Northern Territory Government website copyright notice applies (© Northern Territory Government). Link to each tender page and do not republish in bulk.',
  attribution: 'Quotations and Tenders Online (tendersonline.nt.gov.au), Northern Territory Government.',
  caveats: [
    'Tenders are listed from the results fragment the QTOL search page fills itself from (/Tender/SearchResults/Current, 20 cards a page, paged by its data-total-records count); its markup and a current tender page follow public captures of the live site.',
    'The awarded list is read from /Tender/SearchResults/Awarded by analogy with the current one: that address and its card markup were never captured, so a wrong guess shows as a warning and a night without awards, while current tenders are still read.',
    'Period contracts publish an estimated value from unit rates, which QTOL itself calls indicative only; it is kept as value_amount as published. Where only unit rates are published, with no estimated total, value_amount is null.',
    'QTOL publishes no supplier ABN; suppliers are named only. Its closing list of every tenderer and the supplier flags (Territory Enterprise, Aboriginal Enterprise, Women Owned) have no field in the award record, so they are not kept.',
    'The awarded list is read 100 awards deep a night (five pages), assuming it lists the newest first (unverified); a longer list is reported as a warning and its older awards are not read that night.',
    'QTOL prints no contract start or end dates, so start_date and end_date are null; awarded_date is the Award step of the tender\'s progress.',
    'Close times are Darwin time, printed as ACST (no daylight saving); closing_at is that instant in UTC.',
    'robots.txt could not be fetched when researched (connection refused), which the robots convention reads as no restrictions.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a single NT Government web server; one request at a time
    delayMs: NT_QTOL.delayMs, // why: opencontractau's three seconds between requests; ~35 current and at most 100 awarded pages a night take under eight minutes
    maxRetries: 3, // why: transient 5xx and resets ride out on retry with backoff; a 404 is final
    timeoutSecs: NT_QTOL.timeoutSecs, // why: an awarded page with its closing list is ~50 kB of server-rendered HTML; half a minute means trouble
  },
  start: (ctx) => [{ url: ctx.url(resultsPath('Current', 1)), label: 'CURRENT_LIST' }],
  routes: {
    CURRENT_LIST: async (fetched) => {
      const results = await searchResults(fetched);
      const cards = await enqueueCards(fetched, results, 'TENDER');
      await enqueueNextPage(fetched, results, cards, MAX_CURRENT_PAGES);
      // Started from the first current page rather than as a start request: the awarded address is inferred, and a
      // wrong guess should cost the night's awards (a warning), not the current tenders (a failed source).
      if (pageOf(fetched) === 1) await fetched.enqueue({ url: fetched.ctx.url(resultsPath('Awarded', 1)), label: 'AWARDED_LIST' });
    },
    AWARDED_LIST: async (fetched) => {
      const results = await searchResults(fetched);
      const cards = await enqueueCards(fetched, results, 'AWARD');
      await enqueueNextPage(fetched, results, cards, MAX_AWARDED_PAGES);
    },
    TENDER: async ({ dom, request, ctx, emit, invalid }) => {
      const $ = await dom();
      const card = request.userData.card as QtolCard;
      const title = cleanText($('#tenderTitle h1').first().text()) ?? card.title;
      if (!title) {
        invalid('a tender page without a title (#tenderTitle h1)');
        return;
      }
      const steps = progressSteps($);
      const closing = parseDayMonthYear(steps.get('Close')) ?? card.closing;
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer: listedBy($) ?? card.agency,
        reference: tenderNumber($) ?? card.reference,
        jurisdiction: 'AU-NT',
        tier: 'state',
        summary: blockText($, $('#tenderDescription').first()) ?? card.description,
        category: null,
        category_name: badgeAfter($, 'Category:') ?? card.category,
        notice_type: noticeType($) ?? card.requestType,
        published_date: parseDayMonthYear(steps.get('Release'))?.date ?? null,
        closing_date: closing?.date ?? null,
        closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, DARWIN).toISOString() : null,
        value_text: null,
        url: ctx.publicUrl(request.url),
        listing_url: card.listingUrl,
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
      // One contracting process per tender page, however many contractors it awards (OCDS: one ocid, several awards)
      const ocid = `${SOURCE_ID}:${pageId}`;
      awards.forEach((contractor, index) => {
        const contractId = awards.length === 1 ? pageId : `${pageId}-${index + 1}`;
        const amount = moneyAmount(contractor.amount);
        const published = JSON.stringify([title, buyer, tenderNumber($), common.awarded_date, common.description, common.procurement_method, contractor.name, contractor.terms, contractor.amount]);
        emit({
          ...common,
          ocid,
          release_id: `${SOURCE_ID}:${contractId}:${sha256Hex(published).slice(0, 16)}`,
          contract_id: contractId,
          supplier: contractor.name,
          value_amount: amount,
          value_currency: amount === null ? null : 'AUD',
        });
      });
    },
  },
});

/** What a results card prints, carried to the tender's page: its fallbacks, and the list it was found on. */
interface QtolCard {
  /** "Quote RFF26-0130" split: the request type word ("Quote", "Tender") and the reference. */
  requestType: string | null;
  reference: string | null;
  title: string | null;
  agency: string | null;
  description: string | null;
  category: string | null;
  /** "Closing 09/10/2026 02:00 PM ACST": Darwin wall-clock time. */
  closing: WallClock | null;
  listingUrl: string;
}

interface SearchResults {
  $: CheerioAPI;
  /** The fragment's `#tender-search-results` element. */
  results: ReturnType<CheerioAPI>;
}

/** The results fragment; anything else (an error or login page) fails the request. */
async function searchResults(fetched: Fetched): Promise<SearchResults> {
  const $ = await fetched.dom();
  const results = $('#tender-search-results').first();
  if (results.length === 0) throw new Error('not a QTOL search-results fragment (no #tender-search-results)');
  return { $, results };
}

function pageOf(fetched: Fetched): number {
  return Number(new URL(fetched.request.url).searchParams.get('page') ?? '1');
}

/** Enqueues the page of every card on a results page, once each, with the card's facts; returns the card count. */
async function enqueueCards(fetched: Fetched, { $, results }: SearchResults, label: 'TENDER' | 'AWARD'): Promise<number> {
  const { ctx, request } = fetched;
  const listingUrl = ctx.publicUrl(request.url);
  const cards = new Map<string, QtolCard>();
  for (const element of results.find('.tender-card').toArray()) {
    const card = $(element);
    const link = card.find('.tender-card__title a[href*="/Tender/Details/"]').first();
    const id = /\/Tender\/Details\/(\d+)/.exec(link.attr('href') ?? '')?.[1];
    if (!id || cards.has(id)) continue;
    const number = cleanText(card.find('p.tender-card__tender-number').first().text());
    const [requestType, reference] = number?.includes(' ') ? [number.slice(0, number.indexOf(' ')), number.slice(number.indexOf(' ') + 1)] : [null, number];
    cards.set(id, {
      requestType,
      reference,
      title: cleanText(link.text()),
      agency: cleanText(card.find('p.tender-card__agency-text').first().text()),
      description: cleanText(card.find('.tender-card__description-text').first().text()),
      category: cleanText(card.find('.tender-card__info-badges .general-badge').not('.green-badge').first().text()),
      closing: parseDayMonthYear(card.find('p.tender-card__closing-date').first().text()),
      listingUrl,
    });
  }
  // A tender's page is addressed by its id alone: the list's "?status=Current" would change the link the day it
  // closes. Awarded pages keep "?status=Awarded", the address their award records have always linked to.
  await fetched.enqueue([...cards].map(([id, card]) => ({
    url: ctx.url(label === 'TENDER' ? `/Tender/Details/${id}` : `/Tender/Details/${id}?status=Awarded`),
    label,
    userData: { card },
  })));
  return cards.size;
}

/**
 * Enqueues the next results page while `data-total-records` says there is one. A fragment without the count is
 * read on until a page comes back empty (with a warning), and never past `maxPages`.
 */
async function enqueueNextPage(fetched: Fetched, { results }: SearchResults, cardsOnPage: number, maxPages: number): Promise<void> {
  const page = pageOf(fetched);
  const count = results.attr('data-total-records')?.trim() ?? '';
  const total = /^\d+$/.test(count) ? Number(count) : null;
  if (total === null) {
    if (page === 1) fetched.warn('the results print no data-total-records count; pages are read until one comes back empty');
    if (cardsOnPage === 0) return;
  } else if (page * PAGE_SIZE >= total) {
    return;
  }
  if (page >= maxPages) {
    fetched.warn(`the list holds ${total ?? 'an unknown number of'} records; only the first ${maxPages} pages (${maxPages * PAGE_SIZE}) are read per night`);
    return;
  }
  const next = new URL(fetched.request.url);
  next.searchParams.set('page', String(page + 1));
  await fetched.enqueue({ url: next.href, label: fetched.request.label });
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
