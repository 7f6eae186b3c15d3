// Series the pages chart from tenders they already read (a state's open tenders, the open grant rounds):
// counts per week or month of closing, every period present, empty ones as zero.
import { addDays, monthEnd, monthsFrom } from '../../data/intelligence/calendar.ts';

export interface Period {
  /** The period's first day (a week) or month id (`YYYY-MM`). */
  key: string;
  /** Its first and last day. */
  from: string;
  to: string;
  count: number;
}

/** How many of `closingDates` fall in each of `weeks` weeks, the first being `today` and the six days after. */
export function closingByWeek(closingDates: readonly string[], today: string, weeks: number): Period[] {
  const periods = Array.from({ length: weeks }, (_, i) => ({ key: addDays(today, 7 * i), from: addDays(today, 7 * i), to: addDays(today, 7 * i + 6), count: 0 }));
  for (const date of closingDates) {
    const week = Math.floor((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / (7 * 86_400_000));
    const period = periods[week];
    if (period) period.count += 1;
  }
  return periods;
}

/** How many of `closingDates` fall in each of `months` months, the first being the month of `today`. */
export function closingByMonth(closingDates: readonly string[], today: string, months: number): Period[] {
  const periods = monthsFrom(today, months).map((month) => ({ key: month, from: `${month}-01`, to: monthEnd(`${month}-01`), count: 0 }));
  const byMonth = new Map(periods.map((p) => [p.key, p]));
  for (const date of closingDates) {
    const period = date >= today ? byMonth.get(date.slice(0, 7)) : undefined;
    if (period) period.count += 1;
  }
  return periods;
}
