import { addDays } from '../../lib/jurisdictions.ts';
import type { TenderHit, TenderIndex } from '../search/tender-index.ts';
import type { Store } from '../store.ts';
import { scopeOf } from '../intelligence/places.ts';
import { querySignals, type Signal } from '../intelligence/signals.ts';
import type { BuyerCriteria, SignalCriteria, TenderCriteria } from './criteria.ts';
import { mailDay } from './store.ts';

/**
 * What is new to a watch in one release: items that appeared after an instant. Tender kinds go through
 * the release's search index, so a saved search finds exactly what GET /v1/tenders finds; buyers and
 * signals are read from the release store. Every list is capped for an email and says how many there were.
 */

/** The release a digest is composed from. */
export interface DigestRelease {
  store: Store;
  tenders: TenderIndex;
  /** The release's computed_at (ISO): what is new is new up to here. */
  computedAt: string;
  /** The release clock: "open" and "the next 12 months" are judged against it. */
  now: Date;
}

/** One line of an email: a title, a few facts, and a link where there is one. */
export interface DigestItem {
  title: string;
  facts: string[];
  url?: string;
}

export interface ItemGroup {
  /** What the items are, e.g. "New awards". */
  label: string;
  total: number;
  items: DigestItem[];
}

/** How many items of one list an email shows; the rest are counted. */
export const ITEMS_PER_LIST = 10;

export function tenderItem(hit: TenderHit): DigestItem {
  const row = hit.tender.row;
  const facts = [
    row.buyer ?? undefined,
    row.jurisdiction,
    hit.tender.closingDate ? `closes ${hit.tender.closingDate}` : 'no closing date published',
    row.value_text ?? undefined,
    `${row.source_tag} ${row.reference ?? ''}`.trim(),
  ].filter((fact): fact is string => fact !== undefined && fact !== '');
  return { title: row.title, facts, url: row.url };
}

/** Open tenders matching `filters` first seen after `after`, in the order GET /v1/tenders gives them. */
export function newTenders(release: DigestRelease, filters: Parameters<TenderIndex['search']>[0], after: string, limit = ITEMS_PER_LIST): { total: number; hits: TenderHit[] } {
  return release.tenders.search({ ...filters, first_seen_after: after, include_closed: false }, { limit, offset: 0 }, release.now);
}

/**
 * A buyer's news: new open tenders, new awards, contracts that came within 12 months of ending (newly
 * published, or newly inside the 12 months), and new plans (never a withdrawn one).
 */
export async function newForBuyer(release: DigestRelease, criteria: BuyerCriteria, after: string): Promise<ItemGroup[]> {
  const { store } = release;
  const key = criteria.buyer_key;
  const today = mailDay(release.now);
  const horizon = addDays(today, 365);
  // A contract "newly expiring" since `after` entered the 12-month horizon after that day, or was published after it.
  const horizonBefore = addDays(mailDay(new Date(after)), 365);

  const tenderKeys = await store.all<{ tender_key: string }>(
    'SELECT tender_key FROM tenders WHERE buyer_key = ? AND first_seen > ?::TIMESTAMPTZ ORDER BY first_seen DESC, tender_key',
    [key, after],
  );
  const openHits = tenderKeys.map(({ tender_key }) => release.tenders.get(tender_key, release.now)).filter((hit): hit is TenderHit => hit !== null && hit.open);

  const awardColumns = `title, supplier, value_amount::VARCHAR AS value_amount, value_currency,
    strftime(awarded_date, '%Y-%m-%d') AS awarded_date, strftime(end_date, '%Y-%m-%d') AS end_date, url`;
  type AwardLine = { title: string; supplier: string | null; value_amount: string | null; value_currency: string | null; awarded_date: string | null; end_date: string | null; url: string; total: number };
  const awards = await store.all<AwardLine>(
    `SELECT ${awardColumns}, count(*) OVER ()::INTEGER AS total FROM awards
     WHERE buyer_key = ? AND first_seen > ?::TIMESTAMPTZ ORDER BY awarded_date DESC NULLS LAST, contract_id LIMIT ${ITEMS_PER_LIST}`,
    [key, after],
  );
  const expiring = await store.all<AwardLine>(
    `SELECT ${awardColumns}, count(*) OVER ()::INTEGER AS total FROM awards
     WHERE buyer_key = ? AND end_date BETWEEN ?::DATE AND ?::DATE
       AND (first_seen > ?::TIMESTAMPTZ OR end_date > ?::DATE)
     ORDER BY end_date, contract_id LIMIT ${ITEMS_PER_LIST}`,
    [key, today, horizon, after, horizonBefore],
  );
  type PlanLine = { title: string; expected_period_text: string | null; value_text: string | null; status: string | null; url: string; total: number };
  const plans = await store.all<PlanLine>(
    `SELECT title, expected_period_text, value_text, status, url, count(*) OVER ()::INTEGER AS total FROM plans
     WHERE buyer_key = ? AND NOT withdrawn AND first_seen > ?::TIMESTAMPTZ
     ORDER BY window_start NULLS LAST, plan_id LIMIT ${ITEMS_PER_LIST}`,
    [key, after],
  );

  const money = (line: AwardLine) => (line.value_amount === null ? undefined : `${line.value_currency ?? ''} ${line.value_amount}`.trim());
  const awardItem = (line: AwardLine, lead: string | undefined): DigestItem => ({
    title: line.title,
    facts: [lead, line.supplier ?? undefined, money(line)].filter((fact): fact is string => fact !== undefined),
    url: line.url,
  });
  return [
    { label: 'New open tenders', total: openHits.length, items: openHits.slice(0, ITEMS_PER_LIST).map(tenderItem) },
    { label: 'New contract awards', total: awards[0]?.total ?? 0, items: awards.map((line) => awardItem(line, line.awarded_date ? `awarded ${line.awarded_date}` : undefined)) },
    { label: 'Contracts now ending within 12 months', total: expiring[0]?.total ?? 0, items: expiring.map((line) => awardItem(line, `ends ${line.end_date}`)) },
    {
      label: 'New procurement plans',
      total: plans[0]?.total ?? 0,
      items: plans.map((line) => ({
        title: line.title,
        facts: [line.expected_period_text ?? undefined, line.value_text ?? undefined, line.status || undefined].filter((fact): fact is string => fact !== undefined),
        url: line.url,
      })),
    },
  ].filter((group) => group.total > 0);
}

/** Signals matching the filters of GET /v1/signals first seen after `after`, as that route finds them, soonest window first. */
export async function newSignals(release: DigestRelease, criteria: SignalCriteria, after: string): Promise<ItemGroup[]> {
  const { kind, jurisdiction, ...filters } = criteria;
  const context = { store: release.store, computedAt: release.computedAt, now: release.now, registry: [] };
  // The email goes to the signed-in person who saved the watch: identified, so evidence links are theirs to see.
  const { total, results } = await querySignals(
    context,
    { ...filters, ...(kind ? { kinds: [kind] } : {}), ...(jurisdiction ? { jurisdictions: scopeOf(jurisdiction, false) } : {}), first_seen_after: after },
    { limit: ITEMS_PER_LIST, offset: 0 },
    { identified: true },
  );
  if (total === 0) return [];
  const window = (signal: Signal) =>
    signal.window_start === undefined ? 'no window published'
      : signal.window_start === signal.window_end ? `window ${signal.window_start}` : `window ${signal.window_start} to ${signal.window_end ?? 'open'}`;
  return [{
    label: 'New signals',
    total,
    items: results.map((signal) => ({
      title: signal.subject,
      facts: [signal.kind.replace(/_/g, ' '), signal.buyer, window(signal), signal.value_text].filter((fact): fact is string => typeof fact === 'string' && fact !== ''),
      ...(signal.evidence_url ? { url: signal.evidence_url } : {}),
    })),
  }];
}

/**
 * One tender's news since `after`: its closing date or time changed (the source republished it), or it closed.
 * Addenda and documents are not collected (every source gives them out behind a supplier login), so they are
 * never reported. A tender the release no longer holds is said to be gone, once.
 */
export function newForTender(release: DigestRelease, criteria: TenderCriteria, after: string): { title: string; groups: ItemGroup[] } {
  const hit = release.tenders.get(criteria.page_key, release.now);
  if (!hit) return { title: criteria.page_key, groups: [] };
  const row = hit.tender.row;
  const closes = row.closing_at ?? hit.tender.closingDate;
  const groups: ItemGroup[] = [];
  if (row.dates_changed_at !== null && row.dates_changed_at > after) {
    const item = tenderItem(hit);
    const facts = [closes ? `now closes ${closes}` : 'now publishes no closing date', ...item.facts.filter((fact) => !fact.startsWith('closes ') && fact !== 'no closing date published')];
    groups.push({ label: 'Closing date changed', total: 1, items: [{ ...item, facts }] });
  }
  const closedSince = !hit.open && hit.tender.closingDate !== null && hit.tender.closingDate >= mailDay(new Date(after));
  if (closedSince) groups.push({ label: 'Closed', total: 1, items: [tenderItem(hit)] });
  return { title: row.title, groups };
}
