// How long a tender has left, judged on its buyer's calendar: shared by the tender pages (as of the build)
// and the search page (as of the reader's clock), so both say it the same way.
import { localDate, timeZoneOf, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { plural } from './format.ts';

/** Whole days from `asOf`'s date in the buyer's time zone to the closing date: 0 on the closing day itself. */
export function daysToClose(closingDate: string, asOf: string, jurisdiction: Jurisdiction): number {
  const today = localDate(new Date(asOf), timeZoneOf(jurisdiction));
  return Math.round((Date.parse(`${closingDate}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
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
