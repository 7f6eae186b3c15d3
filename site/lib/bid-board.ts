// The bids page's board, kept apart from the page so it can be tested: bids grouped by stage (the four open
// stages each a column, the final ones together), each column soonest-closing first, and a card's lines in
// words: what it answers, when it closes and how many days are left on the buyer's calendar, who leads it.
import { stageName } from '../../lib/glossary.ts';
import { isJurisdiction } from '../../lib/jurisdictions.ts';
import type { Bid } from './bids-api.ts';
import { daysToClose } from './closing.ts';
import { day, plural, publishedValue } from './format.ts';

/** The fields of a bid (GET /v1/bids) a card shows. */
export type BoardBid = Pick<Bid, 'bid_id' | 'company_name' | 'title' | 'tender_key' | 'buyer' | 'jurisdiction' | 'closing_date' | 'stage' | 'owner' | 'due_date'>;

export interface BoardColumn<T extends BoardBid = BoardBid> {
  /** An id for the column's heading, unique on the page. */
  id: string;
  heading: string;
  bids: T[];
}

/** The open stages in the order a bid moves through them; each is a column of the board. */
const OPEN_STAGES = ['qualifying', 'preparing', 'reviewing', 'submitted'] as const;

/** Soonest closing first; bids without a closing day last; then by title. */
const bySoonestClosing = (a: BoardBid, b: BoardBid) =>
  (a.closing_date ?? '9999').localeCompare(b.closing_date ?? '9999') || a.title.localeCompare(b.title);

/**
 * The board's columns: one per open stage (shown even when empty, so the pipeline reads the same every time),
 * then "Finished" holding won, lost and withdrawn bids, present only when there are some. A stage the site
 * does not know (a newer API) goes to "Finished" too, named on its card, rather than being dropped.
 */
export function boardColumns<T extends BoardBid>(bids: readonly T[]): BoardColumn<T>[] {
  const columns: BoardColumn<T>[] = OPEN_STAGES.map((stage) => ({ id: `stage-${stage}`, heading: stageName(stage), bids: bids.filter((bid) => bid.stage === stage).sort(bySoonestClosing) }));
  const finished = bids.filter((bid) => !(OPEN_STAGES as readonly string[]).includes(bid.stage)).sort(bySoonestClosing);
  if (finished.length > 0) columns.push({ id: 'stage-finished', heading: 'Finished', bids: finished });
  return columns;
}

/** Whole days from `asOf` to the bid's closing day in its buyer's time zone, or undefined when either is unknown. */
export function bidDaysLeft(bid: BoardBid, asOf: string): number | undefined {
  return bid.closing_date && bid.jurisdiction && isJurisdiction(bid.jurisdiction) ? daysToClose(bid.closing_date, asOf, bid.jurisdiction) : undefined;
}

/**
 * When it closes and the days left, counted on the buyer's calendar from `daysLeft` (undefined when the buyer's
 * calendar is unknown): "Closes 13 Dec 2026 · 10 days left", "Closes today, 3 Dec 2026", "Closed 28 Sep 2026".
 */
export function closingWords(closingDate: string | null, daysLeft: number | undefined): string {
  if (!closingDate) return 'No closing date';
  if (daysLeft === undefined) return `Closes ${day(closingDate)}`;
  if (daysLeft < 0) return `Closed ${day(closingDate)}`;
  return daysLeft === 0 ? `Closes today, ${day(closingDate)}` : `Closes ${day(closingDate)} · ${plural(daysLeft, 'day')} left`;
}

/** A card's lines, each a short sentence fragment. */
export interface CardLines {
  buyer: string;
  closing: string;
  owner: string;
  /** The final stage of a finished bid ("Won"), empty for an open one (its column names it). */
  outcome: string;
  due: string;
}

/** `reader` is the signed-in reader's email address: a bid they lead says so. */
export function cardLines(bid: BoardBid, asOf: string, reader: string | null): CardLines {
  const ledByReader = bid.owner !== null && reader !== null && bid.owner.email.toLowerCase() === reader.toLowerCase();
  return {
    buyer: bid.buyer ?? (bid.tender_key ? 'Buyer not published' : 'A tender outside this site'),
    closing: closingWords(bid.closing_date, bidDaysLeft(bid, asOf)),
    owner: ledByReader ? 'Led by you' : bid.owner ? `Led by ${bid.owner.email}` : 'Nobody leads it yet',
    outcome: (OPEN_STAGES as readonly string[]).includes(bid.stage) ? '' : stageName(bid.stage),
    due: bid.due_date ? `Your due date ${day(bid.due_date)}` : '',
  };
}

/** The value line of a card once the tender's published reply is read. */
export function valueWords(valueText: string | undefined): string {
  return valueText ? `Value ${publishedValue(valueText)}` : 'Value not published';
}

/** The board's status line: how many bids, and in how many organisations when more than one. */
export function boardSummary(bids: readonly BoardBid[], company: string | null): string {
  if (bids.length === 0) return 'No bids yet: prepare one above.';
  const companies = new Set(bids.map((bid) => bid.company_name));
  const of = company ? ` of ${company}` : companies.size > 1 ? ` across ${plural(companies.size, 'organisation')}` : '';
  return `${plural(bids.length, 'bid')}${of}.`;
}
