// Tender pages: their paths, the open tenders a state, trade or buyer page lists, and a tender's buyer page.
import { isJurisdiction } from '../../lib/jurisdictions.ts';
import { countdown, daysToClose } from './closing.ts';
import { pageEntries, type PageEntry } from './site-data.ts';

export type TenderEntry = PageEntry<'tenders'>;

export function tenderPath(key: string): string {
  return `/tenders/${key}/`;
}

/** How many open tenders a state, trade or buyer page lists before pointing to search. */
export const LISTED_TENDERS = 50;

let openSoonestFirst: Promise<TenderEntry[]> | null = null;

/** Every open tender and grant round, closing soonest first (no closing date last), then by title. */
export function openTenders(): Promise<TenderEntry[]> {
  openSoonestFirst ??= pageEntries('tenders').then((entries) =>
    entries
      .filter((entry) => entry.data.open)
      .sort((a, b) =>
        (a.data.closing_date ?? '9999').localeCompare(b.data.closing_date ?? '9999') || a.data.title.localeCompare(b.data.title)),
  );
  return openSoonestFirst;
}

/** The open tenders of one jurisdiction (its own label only: the federal page lists federal tenders). */
export async function openTendersIn(jurisdiction: string): Promise<TenderEntry[]> {
  return (await openTenders()).filter((entry) => entry.data.jurisdiction === jurisdiction);
}

let closedLatestFirst: Promise<TenderEntry[]> | null = null;

/** Every closed tender the release still holds, latest closing first. */
export function closedTenders(): Promise<TenderEntry[]> {
  closedLatestFirst ??= pageEntries('tenders').then((entries) =>
    entries
      .filter((entry) => !entry.data.open)
      .sort((a, b) => (b.data.closing_date ?? '').localeCompare(a.data.closing_date ?? '') || a.data.title.localeCompare(b.data.title)),
  );
  return closedLatestFirst;
}

/** Tenders on one page of a jurisdiction's full list. */
export const TENDERS_PER_PAGE = 100;

/** The path of page `n` (from 1) of a jurisdiction's open or closed list. */
export function listPath(statePath: string, list: 'tenders' | 'closed', n: number): string {
  return n === 1 ? `${statePath}${list}/` : `${statePath}${list}/${n}/`;
}

let buyersByName: Promise<Map<string, PageEntry<'buyers'>>> | null = null;

/**
 * The buyer page of a tender's buyer, if it has one. A tender names its buyer as published; a buyer page is
 * one spelling in one jurisdiction, so the name and jurisdiction find it.
 */
export async function buyerOf(name: string | undefined, jurisdiction: string): Promise<PageEntry<'buyers'> | undefined> {
  if (!name) return undefined;
  buyersByName ??= pageEntries('buyers').then((entries) =>
    new Map(entries.map((entry) => [`${entry.data.buyer.jurisdiction}|${entry.data.buyer.name}`, entry])));
  return (await buyersByName).get(`${jurisdiction}|${name}`);
}

let openByTradeAndPlace: Promise<Map<string, TenderEntry[]>> | null = null;

/** Up to `limit` other open tenders of the same trade and jurisdiction, closing soonest first. */
export async function similarOpen(tender: TenderEntry, limit: number): Promise<TenderEntry[]> {
  const { trade, jurisdiction } = tender.data;
  if (!trade) return [];
  // Grouped once per build: a page per tender filtering every open tender would be quadratic.
  openByTradeAndPlace ??= openTenders().then((open) => {
    const groups = new Map<string, TenderEntry[]>();
    for (const t of open) {
      if (!t.data.trade) continue;
      const key = `${t.data.trade}|${t.data.jurisdiction}`;
      const group = groups.get(key);
      if (group) group.push(t);
      else groups.set(key, [t]);
    }
    return groups;
  });
  // The first `limit + 1` hold `limit` others: filtering the whole group for every tender page was quadratic
  // in the group's size (a few hundred open tenders per trade and state at production scale).
  const group = (await openByTradeAndPlace).get(`${trade}|${jurisdiction}`) ?? [];
  return group.slice(0, limit + 1).filter((t) => t.id !== tender.id).slice(0, limit);
}

let byKey: Promise<Map<string, TenderEntry>> | null = null;

/** The page of a tender by its key, if the release holds it. */
export async function tenderByKey(key: string): Promise<TenderEntry | undefined> {
  byKey ??= pageEntries('tenders').then((entries) => new Map(entries.map((entry) => [entry.id, entry])));
  return (await byKey).get(key);
}

/** How long a tender has left as of `asOf` (the build's clock), on its buyer's calendar. */
export function timeLeft(tender: { open: boolean; closing_date?: string | undefined; jurisdiction: string }, asOf: string): { daysLeft: number | undefined; words: string } {
  const daysLeft = tender.closing_date && isJurisdiction(tender.jurisdiction) ? daysToClose(tender.closing_date, asOf, tender.jurisdiction) : undefined;
  return { daysLeft, words: countdown(tender.open, daysLeft) };
}

/** Open tenders and grant rounds first published most recently (first seen, then published date), newest first. */
export async function newestOpen(limit: number): Promise<TenderEntry[]> {
  return [...(await openTenders())]
    .sort((a, b) => b.data.first_seen.localeCompare(a.data.first_seen) || (b.data.published_date ?? '').localeCompare(a.data.published_date ?? '') || a.data.title.localeCompare(b.data.title))
    .slice(0, limit);
}
