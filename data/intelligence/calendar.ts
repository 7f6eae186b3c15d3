import { JURISDICTIONS, addDays, localDate, timeZoneOf } from '../../lib/jurisdictions.ts';

/**
 * The days intelligence figures are judged on. Windows, expiries and quarters are counted on Sydney's day
 * (the country's reference day, as for a tender labelled with the country alone); open tenders are judged
 * in each buyer's own day by the callers that need it.
 */
export function referenceDay(now: Date): string {
  return localDate(now, 'Australia/Sydney');
}

/** A calendar quarter id: the year, `Q` and 1–4, e.g. `2026Q4` for October to December 2026. */
export const QUARTER_PATTERN = /^(\d{4})Q([1-4])$/;

/** The quarter id of an ISO date. */
export function quarterOf(isoDate: string): string {
  const month = Number(isoDate.slice(5, 7));
  return `${isoDate.slice(0, 4)}Q${Math.floor((month - 1) / 3) + 1}`;
}

/** The quarter holding `isoDate` and the next `count - 1` quarters, in order. */
export function quartersFrom(isoDate: string, count: number): string[] {
  let year = Number(isoDate.slice(0, 4));
  let quarter = Math.floor((Number(isoDate.slice(5, 7)) - 1) / 3) + 1;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(`${year}Q${quarter}`);
    quarter += 1;
    if (quarter === 5) {
      quarter = 1;
      year += 1;
    }
  }
  return ids;
}

/** The months (`YYYY-MM`) starting with the one holding `isoDate`. */
export function monthsFrom(isoDate: string, count: number): string[] {
  let year = Number(isoDate.slice(0, 4));
  let month = Number(isoDate.slice(5, 7));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(`${year}-${String(month).padStart(2, '0')}`);
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return ids;
}

/** The last day of the month holding `isoDate`. */
export function monthEnd(isoDate: string): string {
  const [next] = monthsFrom(isoDate, 2).slice(1);
  return addDays(`${next}-01`, -1);
}

export { addDays };

/**
 * A SQL relation `buyer_today(jurisdiction, today)`: each jurisdiction's calendar day at `now` in its own
 * time zone, so "open" means what it means on the tender routes (closing today or later in the buyer's day).
 */
export function buyerTodaySql(now: Date): string {
  const rows = JURISDICTIONS.map((j) => `('${j}', DATE '${localDate(now, timeZoneOf(j))}')`);
  return `(VALUES ${rows.join(', ')}) AS buyer_today(jurisdiction, today)`;
}
