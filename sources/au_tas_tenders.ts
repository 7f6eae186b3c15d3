import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { cleanText, moneyAmount, parseDayMonthYear } from '../lib/text.ts';

const SOURCE_ID = 'au_tas_tenders';
const HOBART = timeZoneOf('AU-TAS');

/** The open-tender list as the site's own menu links it (a real page's navigation); /Tender/List is not a page of the site. */
const OPEN_TENDER_LIST = '/OpenForBids/List/Public/ClosingDate';

/**
 * An open tender's link in that list. A scraper that drove the live list found each row linking the tender's
 * conditions-of-use page and read the tender at the same path with `Details` in its place; the controller
 * segment was not recorded, so any is accepted.
 */
const OPEN_TENDER_LINK = /^\/[A-Za-z]+\/(?:ConditionsOfUse|Details)\/\d+$/;

/** The site's page for a missing contract id, served with status 200 (ids are sequential, so gaps happen). */
const CONTRACT_NOT_FOUND = 'The contract has not been found';

export default defineSource({
  id: SOURCE_ID,
  tag: 'TAS',
  name: 'Tasmanian Government Tenders',
  jurisdiction: 'AU-TAS',
  tier: 'state',
  kinds: ['tender', 'award'],
  mode: 'html',
  origin: 'https://www.tenders.tas.gov.au',
  homepage: 'https://www.tenders.tas.gov.au',
  licence: 'No licence statement was found for tenders.tas.gov.au; the Tasmanian Government website copyright notice applies (© State of Tasmania). Awarded contracts over $50,000 are published as a legal disclosure; link to each page and do not republish in bulk.',
  attribution: 'Tasmanian Government Tenders (www.tenders.tas.gov.au), Department of Treasury and Finance, © State of Tasmania.',
  caveats: [
    'When researched, the site answered HTTP 500 to user agents it does not recognise (a Chrome user agent worked). This service identifies itself honestly and does not pose as a browser, so a live run may fail with HTTP 500 until the site accepts its user agent.',
    'robots.txt answered HTTP 500 when researched, which the robots convention reads as no restrictions.',
    'Awards come from the "recently awarded" list (the last 30 days, contracts of $50,000 and more); older awards are not revisited.',
    'A contract with several successful suppliers becomes one award per supplier (contract id "<page id>-<n>") carrying that supplier\'s allocated amount; a single supplier\'s award carries the total contract value.',
    'The site publishes no supplier ABN, and its bid counts (Tasmanian and total bids received) and unique tender id have no field in the award record, so they are not kept.',
    'The open-tender list and tender pages are unverified: no public capture of them was found, so they are read with the markup of the real award page; the list\'s address comes from the site\'s own menu. Close times are Hobart time.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a small departmental ASP.NET site; opencontractau found it answers 500s under load, so one request at a time
    delayMs: 3000, // why: opencontractau's three seconds between requests; a night of ~100 award and tender pages takes about five minutes
    maxRetries: 2, // why: its 500s come in spells that a retry with backoff often outlasts; a 500 for our user agent does not, so few retries
    timeoutSecs: 30, // why: pages are tens of kilobytes of server-rendered HTML; half a minute means the host is struggling
  },
  start: (ctx) => [
    { url: ctx.url('/ContractAwarded/List/DateAwarded'), label: 'AWARD_LIST' },
    { url: ctx.url(OPEN_TENDER_LIST), label: 'TENDER_LIST' },
  ],
  routes: {
    AWARD_LIST: listRoute(/^\/ContractAwarded\/Details\/\d+$/, 'AWARD'),
    TENDER_LIST: listRoute(OPEN_TENDER_LINK, 'TENDER', (path) => path.replace('/ConditionsOfUse/', '/Details/')),
    AWARD: async ({ dom, request, ctx, emit, invalid, warn }) => {
      const $ = await dom();
      const url = ctx.publicUrl(request.url);
      if ($('body').text().includes(CONTRACT_NOT_FOUND)) {
        warn('the list links to a contract the site says has not been found');
        return;
      }
      const pageId = /\/ContractAwarded\/Details\/(\d+)/.exec(new URL(url).pathname)?.[1] ?? '';
      const title = boxText($, 'ProcurementTitle');
      const agency = boxText($, 'Agency');
      if (!title || !agency) {
        invalid(`awarded contract ${pageId} has no ${title ? 'agency' : 'procurement title'}`);
        return;
      }
      const awarded = parseDayMonthYear(boxText($, 'AwardedDate'));
      const period = /From\s+(\S+)\s+to\s+(\S+)/i.exec(cleanText(rowOf($, 'PeriodOfContract').find('li').first().text()) ?? '');
      const total = boxText($, 'TotalContractValue');
      const suppliers = successfulSuppliers($);
      const common = {
        record_type: 'award' as const,
        release_date: awarded ? zonedTimeToUtc(awarded.date, '00:00', HOBART).toISOString() : ctx.now.toISOString(),
        release_tag: 'contract',
        amendment_id: null,
        amends_release_id: null,
        jurisdiction: 'AU-TAS' as const,
        buyer: agency,
        buyer_id: null,
        supplier_abn: null,
        supplier_id: null,
        title,
        description: descriptionOf($),
        awarded_date: awarded?.date ?? null,
        start_date: parseDayMonthYear(period?.[1])?.date ?? null,
        end_date: parseDayMonthYear(period?.[2])?.date ?? null,
        categories: [],
        procurement_method: boxText($, 'ProcurementMethod'),
        url,
      };
      // One supplier: the award is the whole contract. Several (a panel): one award each, at its allocated amount.
      const awards = suppliers.length <= 1
        ? [{ contractId: pageId, supplier: suppliers[0]?.name ?? null, amount: moneyAmount(total ?? suppliers[0]?.allocated) }]
        : suppliers.map((supplier, index) => ({ contractId: `${pageId}-${index + 1}`, supplier: supplier.name, amount: moneyAmount(supplier.allocated) }));
      // One contracting process per tender page, however many suppliers it awards (OCDS: one ocid, several awards)
      const ocid = `${SOURCE_ID}:${pageId}`;
      for (const award of awards) {
        const published = JSON.stringify([common.title, common.buyer, common.awarded_date, common.start_date, common.end_date, common.description, common.procurement_method, award.supplier, award.amount, total]);
        emit({
          ...common,
          ocid,
          release_id: `${SOURCE_ID}:${award.contractId}:${sha256Hex(published).slice(0, 16)}`,
          contract_id: award.contractId,
          supplier: award.supplier,
          value_amount: award.amount,
          value_currency: award.amount === null ? null : 'AUD',
        });
      }
    },
    TENDER: async ({ dom, request, ctx, emit, invalid }) => {
      const $ = await dom();
      const title = boxText($, 'ProcurementTitle');
      if (!title) {
        invalid('a tender page without a procurement title');
        return;
      }
      const closing = parseDayMonthYear(boxText($, 'ClosingDate'));
      const categoryText = cleanText(rowOf($, 'CategoryId').find('li').first().text());
      const category = /^(\d{8})\s*-\s*(.+)$/.exec(categoryText ?? '');
      emit({
        record_type: 'tender',
        kind: 'tender',
        title,
        buyer: boxText($, 'Agency'),
        reference: boxText($, 'UniqueTenderId'),
        jurisdiction: 'AU-TAS',
        tier: 'state',
        summary: descriptionOf($),
        category: category?.[1] ?? null,
        category_name: category?.[2] ?? categoryText,
        notice_type: boxText($, 'ProcurementMethod'),
        published_date: parseDayMonthYear(boxText($, 'PublishedDate'))?.date ?? null,
        closing_date: closing?.date ?? null,
        closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, HOBART).toISOString() : null,
        value_text: null,
        url: ctx.publicUrl(request.url),
        listing_url: typeof request.userData.listingUrl === 'string' ? request.userData.listingUrl : null,
      });
    },
  },
});

/**
 * A list page's handler: every link whose path matches `detailPath` becomes a `detailLabel` request (once,
 * however often the page links it) at the path `detailPathOf` gives, and the pager's `rel="next"` link the next list page.
 */
function listRoute(detailPath: RegExp, detailLabel: string, detailPathOf: (path: string) => string = (path) => path) {
  return async ({ dom, request, ctx, enqueue }: Fetched) => {
    const $ = await dom();
    const listingUrl = ctx.publicUrl(request.url);
    if ($('table').length === 0) throw new Error('the page is not a Tasmanian Government Tenders list (no results table)');
    const details = new Set<string>();
    for (const link of $('table a[href]').toArray()) {
      const url = new URL($(link).attr('href') ?? '', listingUrl);
      if (!detailPath.test(url.pathname)) continue;
      url.pathname = detailPathOf(url.pathname);
      details.add(url.href);
    }
    await enqueue([...details].map((url) => ({ url: ctx.url(url), label: detailLabel, userData: { listingUrl } })));
    const next = $('a[rel="next"]').first().attr('href');
    if (next) await enqueue({ url: ctx.url(new URL(next, listingUrl).href), label: request.label });
  };
}

/** The items of a `<ul name="…">` box, the site's way of printing every field. */
function box($: CheerioAPI, name: string): string[] {
  return $(`ul[name="${name}"] > li`)
    .toArray()
    .map((item) => cleanText($(item).text()))
    .filter((text) => text !== null);
}

function boxText($: CheerioAPI, name: string): string | null {
  return box($, name)[0] ?? null;
}

/** The `.itemrow` whose label is `for` the given field, for the fields printed without a named box. */
function rowOf($: CheerioAPI, labelFor: string) {
  return $(`label[for="${labelFor}"]`).first().closest('.itemrow');
}

/** The Description field's paragraphs as one text, a space between paragraphs so they do not run together. */
function descriptionOf($: CheerioAPI): string | null {
  const field = rowOf($, 'Description').find('.editor-field').first().clone();
  field.find('p, li, br').after(' ');
  return cleanText(field.text());
}

interface Supplier {
  name: string;
  allocated: string | null;
}

/** The rows of the "Successful Supplier(s)" table, read by its header names (its columns vary by contract). */
function successfulSuppliers($: CheerioAPI): Supplier[] {
  const table = $('table').filter((_, element) => $(element).find('th').toArray().some((th) => cleanText($(th).text()) === 'Business')).first();
  const headers = table.find('tr').first().children('th').toArray().map((th) => cleanText($(th).text()));
  const column = (name: string) => headers.indexOf(name);
  const suppliers: Supplier[] = [];
  for (const row of table.find('tr').toArray()) {
    const cells = $(row).children('td');
    if (cells.length === 0) continue;
    const name = cleanText(cells.eq(column('Business')).text());
    const allocatedColumn = column('Allocated Amount');
    if (name) suppliers.push({ name, allocated: allocatedColumn < 0 ? null : cleanText(cells.eq(allocatedColumn).text()) });
  }
  return suppliers;
}

