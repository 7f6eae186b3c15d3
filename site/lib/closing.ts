// How long a tender has left, judged on its buyer's calendar: shared by the tender pages (as of the build)
// and the search page (as of the reader's clock), so both say it the same way.
import { daysBetween, localDate, timeZoneOf, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { plural } from './format.ts';

// The day of each instant counted from in each jurisdiction, worked out once: a site build asks it for every
// tender page with the same instant. A reader's page asks a handful of times, so the map stays small.
const localDays = new Map<string, string>();

/** Whole days from `asOf`'s date in the buyer's time zone to the closing date: 0 on the closing day itself. */
export function daysToClose(closingDate: string, asOf: string, jurisdiction: Jurisdiction): number {
  const key = `${asOf} ${jurisdiction}`;
  let today = localDays.get(key);
  if (today === undefined) {
    today = localDate(new Date(asOf), timeZoneOf(jurisdiction));
    localDays.set(key, today);
  }
  return daysBetween(today, closingDate);
}

/**
 * "Closed", "Closes today", "Closes in 3 days", or that no closing date was published. An open tender whose
 * day has passed by the clock counted from (a reader's clock ahead of the service's) is said to be open, no more.
 */
export function countdown(open: boolean, daysLeft: number | undefined): string {
  if (!open) return 'Closed';
  if (daysLeft === undefined) return 'Open, no closing date published';
  if (daysLeft < 0) return 'Open';
  return daysLeft === 0 ? 'Closes today' : `Closes in ${plural(daysLeft, 'day')}`;
}
