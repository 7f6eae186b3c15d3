import { load } from 'cheerio';
import { z } from 'zod';
import { defineSource, type CrawlRequest, type Fetched, type SourceContext } from './_contract/define-source.ts';
import type { PlanRecord, TenderRecord } from './_contract/records.ts';
import { addDays, localDate, timeZoneOf, type Tier } from '../lib/jurisdictions.ts';
import { cleanText } from '../lib/text.ts';

const ORIGIN = 'https://qtenders.hpw.qld.gov.au';
const SEARCH_PATH = '/api/search/tenders';
const QLD_TIME_ZONE = timeZoneOf('AU-QLD');
/** The search API caps a page at 25. */
const PAGE_SIZE = 25;
/** The search API's status id for Open. */
const OPEN_STATUS_ID = '1';
const FORWARD_PROCUREMENT_NOTICE = 'Forward Procurement Notice';

const text = z.string().nullish();

/** One tender as the search API returns it (real capture: shared/samples/qtenders/qld_search_page.json). */
const QTender = z.looseObject({
  id: z.number(),
  title: text,
  businessName: text,
  vpReference: text,
  buyersReference: text,
  opens: text,
  closes: text,
  details: text,
  tenderPreviewUrl: text,
  tenderAccessUrl: text,
  tenderStatus: text,
  issuerName: text,
  departmentName: text,
  categories: z.array(z.string()).nullish(),
  isOpen: z.boolean().nullish(),
});
type QTender = z.infer<typeof QTender>;

const SearchPage = z.looseObject({
  tenders: z.array(z.unknown()),
  pageNumber: z.number().int(),
  hasNextPage: z.boolean(),
});

export default defineSource({
  id: 'au_qld_qtenders',
  tag: 'QT',
  name: 'QTenders (Queensland Government)',
  jurisdiction: 'AU-QLD',
  tier: 'state',
  kinds: ['tender', 'plan'],
  mode: 'json-api',
  origin: ORIGIN,
  homepage: `${ORIGIN}/`,
  licence:
    'No licence is stated for QTenders listings in the research notes; Queensland Government web content is generally © The State of Queensland under CC BY 4.0, unconfirmed for this portal. Notice details and documents are hosted on VendorPanel, whose terms apply to them.',
  attribution: 'QTenders (qtenders.hpw.qld.gov.au), Queensland Government; notice details hosted by VendorPanel.',
  caveats: [
    'The portal is a Blazor WebAssembly app; listings come from its own JSON search API, which is undocumented and may change without notice.',
    'QTenders is reported to sit behind Cloudflare bot detection; a challenge page fails the night with a diagnosis rather than yielding zero tenders.',
    'Notice pages and documents are on VendorPanel (tenderPreviewUrl), not on QTenders; the documents need a VendorPanel login and are not collected.',
    'QTenders publishes no estimated value, so value_text is always null; amounts written into the details stay in the summary.',
    'Categories are QTenders\' own names, not UNSPSC codes; all of a notice\'s categories are kept in category_name, separated by "; ".',
    'A Forward Procurement Notice is a planned procurement: it is recorded as a plan, and also as a tender only while it is open and does not say that no response is required.',
    'Tier is inferred from the buyer\'s name (university, hospital and health service, council, otherwise state).',
  ],
  politeness: {
    maxConcurrency: 1, // why: each page is asked for only after the previous one says hasNextPage, so there is never a second request to overlap
    delayMs: 1000, // why: an undocumented API behind a bot check; one page a second keeps about five pages of open tenders to a few seconds
    maxRetries: 3, // why: a transient 5xx from the API host passes on retry; a 403 challenge is final (the runner does not retry 4xx)
    timeoutSecs: 30, // why: a page of 25 tenders is a few tens of kilobytes; half a minute means the host is struggling
  },
  start: (ctx) => [searchRequest(ctx, 1)],
  routes: {
    SEARCH: async (fetched) => {
      const page = SearchPage.safeParse(await fetched.json());
      if (!page.success) throw new Error(`not a QTenders search page: ${page.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
      for (const item of page.data.tenders) emitNotice(fetched, item);
      if (page.data.hasNextPage && page.data.tenders.length > 0) await fetched.enqueue(searchRequest(fetched.ctx, page.data.pageNumber + 1));
    },
  },
});

/** One page of open tenders, newest opening first: the body is the one the portal's own search page sends. */
function searchRequest(ctx: SourceContext, pageNumber: number): CrawlRequest {
  const body = {
    keywords: '',
    agencyIds: [],
    categoryIds: [],
    locationIds: [],
    productServiceIds: [],
    tenderStatusIds: [OPEN_STATUS_ID],
    pageNumber,
    pageSize: PAGE_SIZE,
    sortBy: 'Opens',
  };
  return {
    url: ctx.url(SEARCH_PATH),
    label: 'SEARCH',
    method: 'POST',
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  };
}

function emitNotice(fetched: Fetched, item: unknown): void {
  const parsed = QTender.safeParse(item);
  if (!parsed.success) {
    fetched.invalid(`unreadable QTenders tender: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    return;
  }
  for (const record of mapQTender(parsed.data)) fetched.emit(record);
}

/**
 * The records one search result yields: a tender, a plan (a Forward Procurement Notice), or both (a notice
 * that is open and invites a response, such as registrations of interest, is also something to act on now).
 */
export function mapQTender(tender: QTender): (TenderRecord | PlanRecord)[] {
  const title = cleanText(tender.title) ?? '';
  const buyer = buyerOf(tender);
  const summary = detailsText(tender.details);
  const opens = utcInstant(tender.opens);
  const closes = utcInstant(tender.closes);
  const published = opens ? localDate(opens, QLD_TIME_ZONE) : null;
  const categoryName = (tender.categories ?? []).map((category) => cleanText(category)).filter((category) => category !== null).join('; ') || null;
  const url = cleanText(tender.tenderPreviewUrl) ?? cleanText(tender.tenderAccessUrl) ?? '';
  const isNotice = FPN_TITLE.test(title);
  const records: (TenderRecord | PlanRecord)[] = [];
  if (isNotice) {
    const timing = statedTiming(summary);
    records.push({
      record_type: 'plan',
      plan_id: cleanText(tender.vpReference) ?? String(tender.id),
      title: cleanText(title.replace(FPN_TITLE, '')) ?? title,
      buyer: buyer ?? '',
      jurisdiction: 'AU-QLD',
      tier: tierOf(buyer),
      description: summary,
      category: null,
      category_name: categoryName,
      expected_period_text: timing?.text ?? null,
      window_start: timing?.window?.start ?? null,
      window_end: timing?.window?.end ?? null,
      value_text: null,
      status: FORWARD_PROCUREMENT_NOTICE,
      released: false,
      // The search asks for open notices only, so a withdrawn one is never listed.
      withdrawn: false,
      published_date: published,
      url,
    });
  }
  const listedOpen = tender.isOpen !== false && (cleanText(tender.tenderStatus) ?? 'Open') === 'Open';
  if (!isNotice || (listedOpen && !NO_RESPONSE_REQUIRED.test(summary ?? ''))) {
    records.push({
      record_type: 'tender',
      kind: 'tender',
      title,
      buyer,
      reference: cleanText(tender.buyersReference) ?? cleanText(tender.vpReference),
      jurisdiction: 'AU-QLD',
      tier: tierOf(buyer),
      summary,
      category: null,
      category_name: categoryName,
      notice_type: isNotice ? FORWARD_PROCUREMENT_NOTICE : null,
      published_date: published,
      closing_date: closes ? localDate(closes, QLD_TIME_ZONE) : null,
      closing_at: closes?.toISOString() ?? null,
      value_text: null,
      url,
      listing_url: `${ORIGIN}/`,
    });
  }
  return records;
}

const FPN_TITLE = /^\s*(?:forward procurement notice|FPN)\s*(?:[-–:|]\s*)?/i;
/** The real notice says "A response to this Forward Procurement Notice is NOT required." */
const NO_RESPONSE_REQUIRED = /\b(?:response[^.]{0,80}\bis\s+not\s+required|no response is required)\b/i;

/** `departmentName`, unless it is blank or "Unspecified", then the business and issuer names. */
function buyerOf(tender: QTender): string | null {
  for (const name of [tender.departmentName, tender.businessName, tender.issuerName]) {
    const cleaned = cleanText(name);
    if (cleaned && !/^unspecified$/i.test(cleaned)) return cleaned;
  }
  return null;
}

/** The API's instants are UTC written without an offset ("2026-10-02T07:00:00"). */
function utcInstant(value: string | null | undefined): Date | null {
  const cleaned = cleanText(value);
  if (!cleaned || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?$/.test(cleaned)) return null;
  const instant = new Date(/(?:Z|[+-]\d{2}:\d{2})$/.test(cleaned) ? cleaned : `${cleaned}Z`);
  return Number.isNaN(instant.getTime()) ? null : instant;
}

/** The `details` HTML as text: the API leaves literal `\n` between tags, and paragraphs must not run together. */
function detailsText(details: string | null | undefined): string | null {
  if (!details) return null;
  const $ = load(details.replace(/\\n/g, ' '), null, false);
  $('p, li, br, div, tr, h1, h2, h3, h4, h5, h6').after(' ');
  return cleanText($.root().text());
}

function tierOf(buyer: string | null): Tier {
  if (!buyer) return 'state';
  if (/\bUniversity\b|\bUniSQ\b/i.test(buyer)) return 'university';
  if (/^Department\b/i.test(buyer)) return 'state';
  if (/\bHospital and Health Service\b|\bHealth\b/i.test(buyer)) return 'health';
  if (/\bCouncil\b/i.test(buyer)) return 'council';
  return 'state';
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ORDINAL_QUARTERS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

interface Timing {
  text: string;
  window: { start: string; end: string } | null;
}

/**
 * When a notice says the market approach will come, from the first sentence about that approach which
 * states a time: a month ("November 2026"), a financial-year quarter ("Q3 of the 2026-27 financial
 * year", July being Q1), a calendar quarter ("Q2 2027"), a financial year, or a phrase with no readable
 * window ("in the coming weeks", kept as text only).
 */
export function statedTiming(summary: string | null): Timing | null {
  if (!summary) return null;
  for (const sentence of summary.split(/(?<=[.!?])\s+/)) {
    if (!/\b(?:invitation to offer|ITO|request for (?:tender|quote|offer|proposal)|tender|market|procurement process|released?)\b/i.test(sentence)) continue;
    const timing = timingIn(sentence);
    if (timing) return timing;
  }
  return null;
}

function timingIn(sentence: string): Timing | null {
  const quarterWords = String.raw`(?:Q([1-4])|quarter ([1-4])|(first|second|third|fourth) quarter)`;
  const financialQuarter = new RegExp(String.raw`\b${quarterWords}\s+(?:of\s+)?(?:the\s+)?(20\d{2})\s*[-–/]\s*(\d{2}|20\d{2})(?:\s+financial year)?\b`, 'i').exec(sentence);
  if (financialQuarter) {
    const quarter = Number(financialQuarter[1] ?? financialQuarter[2] ?? ORDINAL_QUARTERS[financialQuarter[3]!.toLowerCase()]);
    const year = Number(financialQuarter[4]);
    // Q1 of a financial year is July to September of its first year.
    const firstMonth = 7 + (quarter - 1) * 3;
    return { text: financialQuarter[0], window: monthsWindow(firstMonth > 12 ? year + 1 : year, ((firstMonth - 1) % 12) + 1, 3) };
  }
  const calendarQuarter = new RegExp(String.raw`\b${quarterWords}\s+(?:of\s+)?(20\d{2})\b`, 'i').exec(sentence);
  if (calendarQuarter) {
    const quarter = Number(calendarQuarter[1] ?? calendarQuarter[2] ?? ORDINAL_QUARTERS[calendarQuarter[3]!.toLowerCase()]);
    return { text: calendarQuarter[0], window: monthsWindow(Number(calendarQuarter[4]), (quarter - 1) * 3 + 1, 3) };
  }
  const month = new RegExp(String.raw`\b(${MONTHS.join('|')})\s+(20\d{2})\b`, 'i').exec(sentence);
  if (month) return { text: month[0], window: monthsWindow(Number(month[2]), MONTHS.indexOf(month[1]!.toLowerCase()) + 1, 1) };
  const financialYear = /\b(20\d{2})\s*[-–/]\s*(\d{2}|20\d{2})\s+financial year\b/i.exec(sentence);
  if (financialYear) return { text: financialYear[0], window: monthsWindow(Number(financialYear[1]), 7, 12) };
  const vague = /\b(?:in the coming (?:weeks|months)|(?:early|mid|late)[ -]20\d{2}|later this year|shortly)\b/i.exec(sentence);
  return vague ? { text: vague[0], window: null } : null;
}

/** `months` whole months from the first day of `month` in `year`. */
function monthsWindow(year: number, month: number, months: number): { start: string; end: string } {
  const start = `${year}-${String(month).padStart(2, '0')}-01`;
  const after = new Date(Date.UTC(year, month - 1 + months, 1)).toISOString().slice(0, 10);
  return { start, end: addDays(after, -1) };
}
