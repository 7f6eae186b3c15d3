/**
 * The TenderSearch / Consolidated Tenders platform: one Java product that Victoria, South Australia, Western
 * Australia and the ACT each run under their own host. Open tenders are read from the tender list
 * (`/tender/search?preset=open&page=N`, rows `<tr id="tenderRow{id}">`) and each tender's page
 * (`/tender/view?id=`); awarded contracts from the recently-awarded list (`/contract/search?preset=recentlyAwarded&page=N`,
 * rows `<tr id="contractRow{id}">`) and each contract's page (`/contract/view?id=`, `span.LIST_TITLE` label rows and
 * `tr.contractor` suppliers). A portal is configuration: see `tenderSearchSource`.
 */
import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched, type Politeness, type RouteHandler, type SourceDefinition, type SourceKind } from '../_contract/define-source.ts';
import { timeZoneOf, zonedTimeToUtc, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { sha256Hex } from '../../lib/hash.ts';
import { cleanText, moneyAmount, parseDayMonthYear, type WallClock } from '../../lib/text.ts';

/** The first list page of each kind, as every TenderSearch portal but WA's serves them. */
export const TENDERSEARCH_LISTS = {
  openTenders: '/tender/search?preset=open&page=1',
  recentAwards: '/contract/search?preset=recentlyAwarded&page=1',
} as const;

/** Rows per list page: the platform's fixed page size. */
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
      TENDER_LIST: tenderListRoute,
      TENDER_DETAIL: tenderDetailRoute(portal.jurisdiction, timeZone),
      AWARD_LIST: awardListRoute,
      AWARD_DETAIL: awardDetailRoute(portal.id, portal.jurisdiction),
    },
  });
}

/** What a tender's list row says, carried to its detail page: the row alone prints the release date. */
interface TenderRow {
  code: string | null;
  title: string | null;
  type: string | null;
  issuedBy: string | null;
  released: WallClock | null;
  closing: WallClock | null;
  listingUrl: string;
}

const tenderListRoute: RouteHandler = async (fetched) => {
  const { ctx, request, enqueue } = fetched;
  const $ = await fetched.dom();
  const rows = $('tr[id^="tenderRow"]').toArray();
  const total = recordCount($);
  if (rows.length === 0 && total === null) throw new Error('not a TenderSearch tender list (no tender rows, no "Records:" count): a login or challenge page?');
  const listingUrl = ctx.publicUrl(request.url);
  const details = rows.flatMap((element) => {
    const row = $(element);
    const id = /^tenderRow(\d+)$/.exec(row.attr('id') ?? '')?.[1];
    if (!id) return [];
    const codeCell = row.children('td.tender-code-state').first().clone();
    const code = cleanText(codeCell.find('b').first().text()) ?? cleanText(row.attr('data-tender-code'));
    codeCell.find('b, span.tender-row-state').remove();
    const facts: TenderRow = {
      code,
      title: cleanText(row.find('a.tenderRowTitle').first().text()),
      type: cleanText(codeCell.text()),
      issuedBy: lineItem($, row, 'Issued by:'),
      released: parseDayMonthYear(row.find('span.opening_date').first().text()),
      closing: parseDayMonthYear(row.find('span.closing_date').first().text()),
      listingUrl,
    };
    return [{ url: ctx.url(`/tender/view?id=${id}`), label: 'TENDER_DETAIL', userData: { row: facts } }];
  });
  await enqueue(details);
  await enqueueNextPage(fetched, total, rows.length, MAX_TENDER_PAGES);
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
      category: category.code,
      category_name: category.name,
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
  const total = recordCount($);
  if (rows.length === 0 && total === null) throw new Error('not a TenderSearch contract list (no contract rows, no "Records:" count): a login or challenge page?');
  const details = rows.flatMap((element) => {
    const id = /^contractRow(\d+)$/.exec($(element).attr('id') ?? '')?.[1];
    return id ? [{ url: ctx.url(`/contract/view?id=${id}`), label: 'AWARD_DETAIL' }] : [];
  });
  await enqueue(details);
  await enqueueNextPage(fetched, total, rows.length, AWARD_PAGES_PER_NIGHT);
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

/**
 * Enqueues the next list page while the page's "Records: N" count says there is one. A list without a count is
 * read as a single page (with a warning), so a changed page can never send the crawl round in circles.
 */
async function enqueueNextPage(fetched: Fetched, total: number | null, rowsOnPage: number, maxPages: number): Promise<void> {
  const url = new URL(fetched.request.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  if (total === null) {
    if (rowsOnPage >= PAGE_SIZE) fetched.warn(`page ${page} prints no "Records:" count; later pages were not read`);
    return;
  }
  if (page * PAGE_SIZE >= total) return;
  if (page >= maxPages) {
    fetched.warn(`the list holds ${total} records; only the first ${maxPages} pages (${maxPages * PAGE_SIZE}) are read per night`);
    return;
  }
  url.searchParams.set('page', String(page + 1));
  await fetched.enqueue({ url: url.href, label: fetched.request.label });
}

/** The total under a list: `<p class="paging">Records: 22 </p>`. */
function recordCount($: CheerioAPI): number | null {
  const match = /Records:\s*([\d,]+)/.exec($('.paging').first().text());
  return match ? Number(match[1]!.replace(/,/g, '')) : null;
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

/** "72000000 - Building and Facility Construction…" → code and name; a name printed alone keeps a null code. */
function unspsc(text: string | null): { code: string | null; name: string | null } {
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
