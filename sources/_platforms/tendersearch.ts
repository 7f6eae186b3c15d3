/**
 * The TenderSearch / Consolidated Tenders platform: one Java product that Victoria, South Australia, Western
 * Australia and the ACT each run under their own host. Open tenders are read from the current-tender list
 * (`/tenders/open?page=N`, rows `<tr id="tenderRow{id}">`, the address the list's own pager links) and each tender's page
 * (`/tender/view?id=`); awarded contracts from the recently-awarded list (`/contract/search?preset=recentlyAwarded&page=N`,
 * rows `<tr id="contractRow{id}">`) and each contract's page (`/contract/view?id=`, `span.LIST_TITLE` label rows and
 * `tr.contractor` suppliers). Both lists are paged by their footer: "Records: 1 - 25 of 78" under a list of several
 * pages, "Records: 22" under a single page. A portal is configuration: see `tenderSearchSource`.
 */
import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched, type Politeness, type RouteHandler, type SourceDefinition, type SourceKind } from '../_contract/define-source.ts';
import { timeZoneOf, zonedTimeToUtc, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { cleanText, moneyAmount, parseDayMonthYear, type WallClock } from '../../lib/text.ts';

/** The first list page of each kind, as every TenderSearch portal but WA's serves them. */
export const TENDERSEARCH_LISTS = {
  openTenders: '/tenders/open?page=1',
  recentAwards: '/contract/search?preset=recentlyAwarded&page=1',
} as const;

/** Rows per list page: the platform's fixed page size ("Records: 1 - 25 of 78"). */
const PAGE_SIZE = 25;
/** Open tender pages read at most: 1,000 tenders, several times what any state has open at once. */
const MAX_TENDER_PAGES = 40;
/**
 * Recently-awarded pages read per night: the newest 200 contracts. The preset lists the latest awards first, so a
 * nightly crawl keeps up unless a state publishes more than 200 in a day, and never walks the whole register at 2 s a page.
 */
const AWARD_PAGES_PER_NIGHT = 8;

export interface TenderSearchPortal {
  id: string;
  tag: string;
  name: string;
  jurisdiction: Jurisdiction;
  origin: string;
  homepage: string;
  licence: string;
  attribution: string;
  caveats: string[];
  politeness: Politeness;
  /** Path of the first open-tender list page; null when this source does not read the portal's tenders. */
  openTenders: string | null;
  /** Path of the first recently-awarded list page; null when this source does not read the portal's awards. */
  recentAwards: string | null;
  /**
   * Titles of the portal's own practice and demonstration notices, which it lists among the open tenders so
   * suppliers can rehearse a response (Tenders ACT's "SUPPLIER Tenders ACT Practice ATM", open from 2019 to
   * 2030). A row whose title matches is no tender: it is left out, and the crawl says so.
   */
  practiceTitles?: readonly RegExp[];
}

/** A TenderSearch portal as a source. Every portal is a state or territory government's (tier `state`). */
export function tenderSearchSource(portal: TenderSearchPortal): SourceDefinition {
  const kinds: SourceKind[] = [];
  if (portal.openTenders) kinds.push('tender');
  if (portal.recentAwards) kinds.push('award');
  const timeZone = timeZoneOf(portal.jurisdiction);
  return defineSource({
    id: portal.id,
    tag: portal.tag,
    name: portal.name,
    jurisdiction: portal.jurisdiction,
    tier: 'state',
    kinds,
    mode: 'html',
    origin: portal.origin,
    homepage: portal.homepage,
    licence: portal.licence,
    attribution: portal.attribution,
    caveats: portal.caveats,
    politeness: portal.politeness,
    start: (ctx) => [
      ...(portal.openTenders ? [{ url: ctx.url(portal.openTenders), label: 'TENDER_LIST' }] : []),
      ...(portal.recentAwards ? [{ url: ctx.url(portal.recentAwards), label: 'AWARD_LIST' }] : []),
    ],
    routes: {
      TENDER_LIST: tenderListRoute(portal.practiceTitles ?? []),
      TENDER_DETAIL: tenderDetailRoute(portal.jurisdiction, timeZone),
      AWARD_LIST: awardListRoute,
      AWARD_DETAIL: awardDetailRoute(portal.id, portal.jurisdiction),
    },
  });
}

/**
 * What a tender's list row says, carried to its detail page: the row alone prints the release date, and the UNSPSC
 * code that many detail pages print as a name only.
 */
interface TenderRow {
  code: string | null;
  unspsc: Unspsc;
  title: string | null;
  type: string | null;
  issuedBy: string | null;
  released: WallClock | null;
  closing: WallClock | null;
  listingUrl: string;
}

/** Whether a list row's title is one of the portal's practice or demonstration notices. */
export function isPracticeNotice(title: string | null, practiceTitles: readonly RegExp[]): boolean {
  return title !== null && practiceTitles.some((pattern) => pattern.test(title));
}

const tenderListRoute = (practiceTitles: readonly RegExp[]): RouteHandler => async (fetched) => {
  const { ctx, request, enqueue } = fetched;
  const $ = await fetched.dom();
  const rows = $('tr[id^="tenderRow"]').toArray();
  const footer = listFooter($);
  if (rows.length === 0 && footer.kind !== 'count') throw new Error('not a TenderSearch tender list (no tender rows, no "Records:" count): a login or challenge page?');
  const listingUrl = ctx.publicUrl(request.url);
  const details = rows.flatMap((element) => {
    const row = $(element);
    const id = /^tenderRow(\d+)$/.exec(row.attr('id') ?? '')?.[1];
    if (!id) return [];
    const codeCell = row.children('td.tender-code-state').first().clone();
    // The cell opens with a column label in <b class="tablesaw-cell-label"> on some portals; the code is the other <b>.
    codeCell.find('b.tablesaw-cell-label').remove();
    const code = cleanText(codeCell.find('b').first().text()) ?? cleanText(row.attr('data-tender-code'));
    codeCell.find('b, span.tender-row-state').remove();
    const facts: TenderRow = {
      code,
      // "UNSPSC: 85000000 - Healthcare Services", or "UNSPSC 1: … - 50%" then "UNSPSC 2: …": the first line counts.
      unspsc: unspsc(lineItem($, row, 'UNSPSC')?.replace(/^\d*:\s*/, '') ?? null),
      title: cleanText(row.find('a.tenderRowTitle').first().text()),
      type: cleanText(codeCell.text()),
      issuedBy: lineItem($, row, 'Issued by:'),
      released: parseDayMonthYear(row.find('span.opening_date').first().text()),
      closing: parseDayMonthYear(row.find('span.closing_date').first().text()),
      listingUrl,
    };
    if (isPracticeNotice(facts.title, practiceTitles)) {
      fetched.warn(`left out the portal's practice notice "${facts.title}" (${facts.code ?? `id ${id}`}): it is not a tender`);
      return [];
    }
    return [{ url: ctx.url(`/tender/view?id=${id}`), label: 'TENDER_DETAIL', userData: { row: facts } }];
  });
  await enqueue(details);
  await enqueueNextPage(fetched, footer, rows.length, MAX_TENDER_PAGES);
};

function tenderDetailRoute(jurisdiction: Jurisdiction, timeZone: string): RouteHandler {
  return async ({ request, ctx, dom, emit, invalid }) => {
    const row = request.userData.row as TenderRow;
    const $ = await dom();
    const title = cleanText($('#tenderTitle').first().text()) ?? row.title;
    if ($('#opportunityGeneral').length === 0 || !title) {
      invalid('not a TenderSearch tender page (no #opportunityGeneral section or no title)');
      return;
    }
    const general = generalDetails($);
    const category = unspsc(general.get('unspsc') ?? null);
    const closing = parseDayMonthYear($('#tenderClosingTime').first().text()) ?? row.closing;
    emit({
      record_type: 'tender',
      kind: 'tender',
      title,
      buyer: headerAgency($) ?? row.issuedBy,
      reference: general.get('number') ?? row.code,
      jurisdiction,
      tier: 'state',
      summary: blockText($('#tenderDescription .col-12').first()),
      // Many pages print the UNSPSC as a name alone ("Healthcare Services"); the row printed its code ("85000000 - …").
      category: category.code ?? row.unspsc.code,
      category_name: category.name ?? row.unspsc.name,
      notice_type: general.get('type') ?? row.type,
      published_date: row.released?.date ?? null,
      closing_date: closing?.date ?? null,
      // The platform prints times in the portal's own zone (its clock widget shows the tenant's zone).
      closing_at: closing?.time ? zonedTimeToUtc(closing.date, closing.time, timeZone).toISOString() : null,
      value_text: null,
      url: ctx.publicUrl(request.url),
      listing_url: row.listingUrl,
    });
  };
}

const awardListRoute: RouteHandler = async (fetched) => {
  const { ctx, enqueue } = fetched;
  const $ = await fetched.dom();
  const rows = $('tr[id^="contractRow"]').toArray();
  const footer = listFooter($);
  if (rows.length === 0 && footer.kind !== 'count') throw new Error('not a TenderSearch contract list (no contract rows, no "Records:" count): a login or challenge page?');
  const details = rows.flatMap((element) => {
    const id = /^contractRow(\d+)$/.exec($(element).attr('id') ?? '')?.[1];
    return id ? [{ url: ctx.url(`/contract/view?id=${id}`), label: 'AWARD_DETAIL' }] : [];
  });
  await enqueue(details);
  await enqueueNextPage(fetched, footer, rows.length, AWARD_PAGES_PER_NIGHT);
};

function awardDetailRoute(sourceId: string, jurisdiction: Jurisdiction): RouteHandler {
  return async ({ request, ctx, dom, emit, invalid }) => {
    const $ = await dom();
    const fields = listTitleFields($);
    if (fields.size === 0) {
      invalid('not a TenderSearch contract page (no span.LIST_TITLE rows)');
      return;
    }
    const contractNumber = fields.get('contract number') ?? null;
    const buyer = fields.get('public body') ?? null;
    const title = fields.get('title') ?? null;
    if (!contractNumber || !buyer || !title) {
      const missing = [contractNumber ? null : 'Contract Number', buyer ? null : 'Public Body', title ? null : 'Title'].filter((label) => label !== null);
      invalid(`contract page prints no ${missing.join(', ')}`);
      return;
    }
    const suppliers = contractors($);
    const only = suppliers.length === 1 ? suppliers[0] : undefined;
    const valueText = fields.get('total value of the contract') ?? null;
    const amount = moneyAmount(valueText);
    const category = unspsc(fields.get('unspsc') ?? null);
    const description = fields.get('description') ?? null;
    const start = parseDayMonthYear(fields.get('starting date'))?.date ?? null;
    const end = parseDayMonthYear(fields.get('expiry date'))?.date ?? null;
    const ocid = `${sourceId}:${contractNumber}`;
    // The fields a person reads on the page. Status is left out: the platform turns "Current" into "Expired" by
    // itself on the expiry date, which is no new information about the contract.
    const published = [buyer, contractNumber, title, fields.get('type') ?? null, description, category.code, category.name, valueText, start, end, suppliers];
    emit({
      record_type: 'award',
      ocid,
      release_id: `${ocid}:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`,
      // The register prints no award or publication date, so the release is dated by the night it was read.
      release_date: ctx.now.toISOString(),
      release_tag: 'contract',
      contract_id: contractNumber,
      amendment_id: null,
      amends_release_id: null,
      jurisdiction,
      buyer,
      buyer_id: null,
      // A panel contract names several suppliers; one record holds them all, so no single ABN can stand for it.
      supplier: suppliers.length ? suppliers.map((supplier) => supplier.name).join('; ') : null,
      supplier_abn: only?.abn ?? null,
      supplier_id: only?.acn ? `AU-ACN:${only.acn}` : null,
      title,
      description,
      value_amount: amount,
      value_currency: amount === null ? null : 'AUD',
      awarded_date: null,
      start_date: start,
      end_date: end,
      categories: category.code ? [category.code] : [],
      procurement_method: null,
      url: ctx.publicUrl(request.url),
    });
  };
}

/** A list's footer: its record count, or the text that should have held one. */
type ListFooter = { kind: 'count'; total: number } | { kind: 'unreadable'; text: string } | { kind: 'absent' };

/**
 * The footer under a list, `<div class="paging">… Records: 1 - 25 of 78</div>` on a list of several pages and
 * `<p class="paging">Records: 22 </p>` on a single page (the count ends the footer). Anything else is unreadable,
 * never a number picked out of it: "Records: 1 - 25 of 78" read loosely is 1.
 */
function listFooter($: CheerioAPI): ListFooter {
  const paging = $('.paging').first();
  if (paging.length === 0) return { kind: 'absent' };
  const text = cleanText(paging.text()) ?? '';
  const count = (digits: string) => Number(digits.replace(/,/g, ''));
  const range = /Records:\s*[\d,]+\s*-\s*[\d,]+\s+of\s+([\d,]+)/.exec(text);
  if (range) return { kind: 'count', total: count(range[1]!) };
  const single = /Records:\s*([\d,]+)\s*$/.exec(text);
  if (single) return { kind: 'count', total: count(single[1]!) };
  return { kind: 'unreadable', text };
}

/**
 * Enqueues the next list page while the footer's count says there is one (pages = ceil(N / 25)), carrying the rows
 * read so far; the last page warns when fewer rows were read than the list counts. A footer that cannot be read, or
 * a full page without one, is read as the last page with a warning, so a changed page never sends the crawl round
 * in circles nor stops it silently.
 */
async function enqueueNextPage(fetched: Fetched, footer: ListFooter, rowsOnPage: number, maxPages: number): Promise<void> {
  const url = new URL(fetched.request.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  const rowsRead = Number(fetched.request.userData.rowsRead ?? 0) + rowsOnPage;
  if (footer.kind === 'absent') {
    if (rowsOnPage >= PAGE_SIZE) fetched.warn(`page ${page} prints no "Records:" count; later pages were not read`);
    return;
  }
  if (footer.kind === 'unreadable') {
    fetched.warn(`page ${page}'s footer "${footer.text}" gives no record count; later pages were not read`);
    return;
  }
  const pages = Math.ceil(footer.total / PAGE_SIZE);
  if (page >= pages) {
    if (rowsRead < footer.total) fetched.warn(`read ${rowsRead} of the ${footer.total} records the list counts over ${pages} page${pages === 1 ? '' : 's'}`);
    return;
  }
  if (page >= maxPages) {
    fetched.warn(`the list holds ${footer.total} records; only the first ${maxPages} pages (${maxPages * PAGE_SIZE}) are read per night`);
    return;
  }
  url.searchParams.set('page', String(page + 1));
  await fetched.enqueue({ url: url.href, label: fetched.request.label, userData: { rowsRead } });
}

/** A list row's `span.line-item-detail` that starts with `prefix` ("Issued by:"), without the prefix. */
function lineItem($: CheerioAPI, row: ReturnType<CheerioAPI>, prefix: string): string | null {
  const span = row.find('span.line-item-detail').filter((_, element) => cleanText($(element).text())?.startsWith(prefix) ?? false);
  return cleanText(cleanText(span.first().text())?.slice(prefix.length));
}

/**
 * The tender page's header names the buyer as a label line then the name
 * (`<div class="weight-bold">Directorate/Agency<newline>ACT Government</div>`); each portal words the label its own way.
 */
function headerAgency($: CheerioAPI): string | null {
  const lines = $('#opportunityHeader .weight-bold').first().text().split('\n').map((line) => cleanText(line)).filter((line) => line !== null);
  return lines.length > 1 ? lines.slice(1).join(' ') : null;
}

/** The "Type:", "Status:", "Number:", "UNSPSC:" rows of a tender's General section, by lower-case label. */
function generalDetails($: CheerioAPI): Map<string, string> {
  const fields = new Map<string, string>();
  for (const element of $('#opportunityGeneralDetails > .row').toArray()) {
    const label = cleanText($(element).children('.weight-bold').first().text())?.replace(/\s*:$/, '').toLowerCase();
    const value = blockText($(element).children('div').not('.weight-bold').first());
    if (label && value) fields.set(label, value);
  }
  return fields;
}

/** A contract page's `span.LIST_TITLE` rows, by lower-case label; the value is the row's second column. */
function listTitleFields($: CheerioAPI): Map<string, string> {
  const fields = new Map<string, string>();
  for (const element of $('span.LIST_TITLE').toArray()) {
    const label = cleanText($(element).text())?.toLowerCase();
    const value = blockText($(element).closest('.row').children('div').eq(1));
    if (label && value && !fields.has(label)) fields.set(label, value);
  }
  return fields;
}

interface Contractor {
  name: string;
  abn: string | null;
  acn: string | null;
}

/** `tr.contractor` rows: the name in `<b>`, then `<strong>ABN</strong>`/`<strong>ACN</strong>` cells, printed with or without spaces. */
function contractors($: CheerioAPI): Contractor[] {
  return $('tr.contractor')
    .toArray()
    .flatMap((element) => {
      const details = $(element).children('td.contractor-details').first();
      const name = cleanText(details.find('b').first().text());
      if (!name) return [];
      const identifier = (scheme: string, length: number) => {
        const cell = details.find('td.details-icon').filter((_, td) => cleanText($(td).text()) === scheme).first().next('td');
        const digits = cell.text().replace(/\D/g, '');
        return digits.length === length ? digits : null;
      };
      return [{ name, abn: identifier('ABN', 11), acn: identifier('ACN', 9) }];
    });
}

interface Unspsc {
  code: string | null;
  name: string | null;
}

/** "72000000 - Building and Facility Construction…" → code and name; a name printed alone keeps a null code. */
function unspsc(text: string | null): Unspsc {
  if (!text) return { code: null, name: null };
  const coded = /(\d{8})\s*-\s*(.+?)(?:\s+-\s*\d+%)?(?=\s+\d{8}\s*-|$)/.exec(text);
  return coded ? { code: coded[1]!, name: cleanText(coded[2]) } : { code: null, name: text };
}


/** An element's text with block boundaries (paragraphs, cells, line breaks) as spaces, so words never run together. */
function blockText(element: ReturnType<CheerioAPI>): string | null {
  const copy = element.clone();
  copy.find('p, br, li, td, div').after(' ');
  return cleanText(copy.text());
}
