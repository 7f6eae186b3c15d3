// The sentences that describe a chart (its SVG description), so a screen reader hears what the bars show.
import { count, month, plural } from './format.ts';

/** Contracts ending per month: how many in all, over which months, and the busiest month. */
export function endingDescription(months: readonly { month: string; count: number }[]): string {
  const first = month(months[0]?.month ?? '');
  const last = month(months.at(-1)?.month ?? '');
  const total = months.reduce((sum, m) => sum + m.count, 0);
  if (total === 0) return `No contracts end in the ${months.length} months from ${first}.`;
  const busiest = months.reduce((most, m) => (m.count > most.count ? m : most));
  return `${plural(total, 'contract ends', 'contracts end')} over the ${months.length} months from ${first} to ${last}; the most, ${count(busiest.count)}, in ${month(busiest.month)}.`;
}

/**
 * Counts per period ("open tenders closing per week"): how many in all over the span, and the busiest
 * period; each period's `when` reads after "the most, 17," ("in the week from 25 Sep", "in Oct 2026").
 */
export function periodDescription(periods: readonly { when: string; count: number }[], things: { one: string; many: string }, span: string): string {
  const total = periods.reduce((sum, p) => sum + p.count, 0);
  if (total === 0) return `None ${span}.`;
  const busiest = periods.reduce((most, p) => (p.count > most.count ? p : most));
  return `${plural(total, things.one, things.many)} ${span}; the most, ${count(busiest.count)}, ${busiest.when}.`;
}
