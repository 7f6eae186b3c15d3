import { canonicalDetailUrl, cellList, cellText, organisationFromPageTitle, overview, parseGetsDate, sectionText } from './_platforms/gets.ts';
import { defineSource, type SourceContext } from './_contract/define-source.ts';
import type { AwardRecord } from './_contract/records.ts';
import { localDate, timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { sha256Hex } from '../lib/hash.ts';
import { cleanText, moneyAmount } from '../lib/text.ts';

const SOURCE_ID = 'nz_gets_awards';
const NZ_TIME_ZONE = timeZoneOf('NZ');

/** A first run reads the last quarter's awards: the list's recent pages, not its years of history. */
const FIRST_RUN_LOOKBACK_MS = 90 * 24 * 60 * 60 * 1000;

/** The list orders by the date a tender was completed; a notice may be completed days after its award. Re-reading two weeks catches late ones. */
const OVERLAP_MS = 14 * 24 * 60 * 60 * 1000;

/** The list page GETS serves newest first: the list sorted by its date column, which third-party readers of the live list request. */
function listUrl(page: number): string {
  return page === 1 ? '/ExternalAwardedTenderList.htm?orderBy=date' : `/ExternalAwardedTenderList.htm?page=${page}&orderBy=date`;
}

/** What the completed-tender list says about one notice, carried to its detail request. */
interface ListedAward {
  rfxId: string | null;
  title: string | null;
  /** When the tender was completed or last updated: "4:59 PM 9 Sep 2026 (Pacific/Auckland UTC+12:00)". */
  completed: { date: string; at: string | null } | null;
  organisation: string | null;
}

/** The labels GETS prints inside a notice's outcome section, which end one field's text and start the next. */
const OUTCOME_LABELS = {
  value: /\bValue(?=\s*\$)/,
  further: /\bFurther (?:Award )?Information\s*:/i,
  awardDate: /\bAward Date\s*:/i,
  exemption: /\bExemption under rule\s*:/i,
  completed: /\bDate RFx was completed\/updated\s*:/i,
} as const;
type OutcomeField = keyof typeof OUTCOME_LABELS;

/** What an outcome section's award box states: "This tender has been awarded. {supplier} - {address} Value $ … Award Date: …". */
interface AwardBox {
  supplier: string | null;
  valueText: string | null;
  awardDate: string | null;
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
    'No verbatim capture of the completed list or of a notice page is public: the parser follows third-party reproductions of the live list rows, detail table and outcome wording. The outcome section\'s inner markup is unknown, so only its text is read; check the fixtures against a live notice.',
    'GETS forbids republishing for commercial use or in a competing product: get legal sign-off before any commercial use of these notices.',
    'A successful supplier can be a sole trader, whose name is a person\'s: only the name is kept, never the postal address GETS prints after it, and never the free-text award information.',
    'Only notices with GETS\'s award box ("This tender has been awarded") produce a record: tenders completed without an award, superseded by another listing, or whose award is told only in free text produce none. The supplier is the text before the address; a name containing " - " is cut there.',
    'An award notice publishes no contract term, so start and end dates are null. Values are kept as published, and GETS notices mix GST-inclusive and exclusive amounts; MBIE\'s quarterly award-notice open data is the authoritative set.',
    'Each night reads the list (sorted by completed date) back to two weeks before the last successful run (90 days on a first run), stopping at the first page whose tenders were all completed earlier.',
  ],
  politeness: {
    maxConcurrency: 2, // why: one MBIE-run site shared with the tender feed source; two at a time is a reader with two tabs
    delayMs: 500, // why: spreads a night's few dozen list and notice pages over a minute rather than a burst
    maxRetries: 3, // why: transient 5xx and resets ride out on retry; a 404 (a notice taken down) is final and not retried
    timeoutSecs: 30, // why: a page is a few kilobytes; half a minute means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url(listUrl(1)), label: 'LIST', userData: { cutoff: cutoffDate(ctx), page: 1 } }],
  routes: {
    LIST: async ({ dom, enqueue, invalid, ctx, request }) => {
      const $ = await dom();
      const rows = $('tr[id^="tender-"]').toArray();
      const page = request.userData.page as number;
      // A login page or WAF challenge answered with 200 must fail the list rather than report zero awards; past page 1, no rows is the list's end.
      if (rows.length === 0 && page === 1) throw new Error('the response is not the GETS completed tender list (no tender rows)');
      const cutoff = request.userData.cutoff as string;
      const listingUrl = ctx.publicUrl(request.url);
      let recentRows = 0;
      for (const element of rows) {
        const cells = $(element).children('td').toArray().map((cell) => cleanText($(cell).text()));
        const award: ListedAward = {
          rfxId: cells[0] ?? null,
          title: cells[2] ?? null,
          completed: parseGetsDate(cells[4]),
          organisation: cells[5] ?? null,
        };
        if (award.completed && award.completed.date < cutoff) continue;
        recentRows++;
        const href = $(element).find('a[href*="ExternalTenderDetails.htm"]').first().attr('href');
        if (!href) {
          invalid(`completed list row ${award.rfxId ?? award.title ?? '(unnamed)'} has no link to its notice`);
          continue;
        }
        await enqueue({ url: ctx.url(canonicalDetailUrl(new URL(href, listingUrl).href)), label: 'DETAIL', userData: { award } });
      }
      // The list runs newest first; a page with nothing recent means every later page is older still.
      if (recentRows > 0) await enqueue({ url: ctx.url(listUrl(page + 1)), label: 'LIST', userData: { cutoff, page: page + 1 } });
    },
    DETAIL: async ({ dom, emit, invalid, warn, ctx, request }) => {
      const listed = request.userData.award as ListedAward;
      const $ = await dom();
      const outcome = sectionText($, /outcome/i);
      const box = awardBox(outcome);
      if (!box) return; // completed without an award box (not awarded, superseded, or told only in free text): nothing to record
      const contractId = cellText($, 'RFx ID') ?? listed.rfxId;
      const title = cellText($, 'Tender name') ?? listed.title;
      const buyer = listed.organisation ?? organisationFromPageTitle($, title);
      if (!contractId || !title || !buyer) {
        invalid('no RFx ID, tender name or organisation: not a GETS award notice');
        return;
      }
      if (!box.supplier) warn('the award box names no supplier; recorded without one');
      const valueAmount = moneyAmount(box.valueText, { rangeIsNull: true });
      if (box.valueText && valueAmount === null) warn(`contract value "${box.valueText}" is not one amount; recorded without a value`);
      const awarded = parseGetsDate(box.awardDate);
      const published = {
        contract_id: contractId,
        jurisdiction: 'NZ' as const,
        buyer,
        supplier: box.supplier,
        title,
        description: overview($),
        value_amount: valueAmount,
        value_currency: valueAmount === null ? null : 'NZD',
        awarded_date: awarded?.date ?? null,
        // An award notice publishes no contract term.
        start_date: null,
        end_date: null,
        categories: cellList($, 'Categories').flatMap((entry) => /^(\d{8})\b/.exec(entry)?.[1] ?? []),
        procurement_method: cellText($, 'Tender type'),
      };
      const ocid = `${SOURCE_ID}:${contractId}`;
      const releaseDate =
        listed.completed?.at ??
        (listed.completed ? zonedTimeToUtc(listed.completed.date, '00:00', NZ_TIME_ZONE).toISOString() : null) ??
        (awarded ? zonedTimeToUtc(awarded.date, '00:00', NZ_TIME_ZONE).toISOString() : ctx.now.toISOString());
      const record: AwardRecord = {
        record_type: 'award',
        ocid,
        release_id: `${ocid}:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`,
        release_date: releaseDate,
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

/**
 * The award box of an outcome section, or null when the tender was completed without one. The supplier is the text
 * before " - ", where GETS starts the supplier's postal address, which is never kept.
 */
function awardBox(outcome: string | null): AwardBox | null {
  const awarded = /This tender has been awarded(?:\s+to)?\s*[.:]?\s*/i.exec(outcome ?? '');
  if (!awarded) return null;
  const rest = outcome!.slice(awarded.index + awarded[0].length);
  const fields = outcomeFields(rest);
  const supplier = cleanText(rest.slice(0, fields.firstLabelAt).split(/\s+-\s+/)[0]);
  return { supplier, valueText: fields.text.get('value') ?? null, awardDate: fields.text.get('awardDate') ?? null };
}

/** Each labelled field's text in an outcome section, up to the next label, and where the first label starts. */
function outcomeFields(text: string): { text: Map<OutcomeField, string>; firstLabelAt: number } {
  const found = (Object.entries(OUTCOME_LABELS) as [OutcomeField, RegExp][])
    .map(([field, label]) => ({ field, match: label.exec(text) }))
    .filter((entry): entry is { field: OutcomeField; match: RegExpExecArray } => entry.match !== null)
    .sort((a, b) => a.match.index - b.match.index);
  const fields = new Map<OutcomeField, string>();
  found.forEach(({ field, match }, position) => {
    const end = found[position + 1]?.match.index ?? text.length;
    const value = cleanText(text.slice(match.index + match[0].length, end));
    if (value) fields.set(field, value);
  });
  return { text: fields, firstLabelAt: found[0]?.match.index ?? text.length };
}

/** The oldest completed date tonight's crawl reads, as a New Zealand calendar date. */
function cutoffDate(ctx: SourceContext): string {
  const from = ctx.lastSuccessAt ? ctx.lastSuccessAt.getTime() - OVERLAP_MS : ctx.now.getTime() - FIRST_RUN_LOOKBACK_MS;
  return localDate(new Date(from), NZ_TIME_ZONE);
}
