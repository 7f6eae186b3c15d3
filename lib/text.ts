/** Collapses runs of whitespace (including non-breaking spaces) and trims; empty becomes null. */
export function cleanText(value: string | null | undefined): string | null {
  if (value == null) return null;
  const cleaned = value.replace(/[\s\u00a0\u200b]+/g, ' ').trim();
  return cleaned === '' ? null : cleaned;
}

/** The form names are compared in: NFKC, lower case, single spaces. */
export function normaliseForKey(value: string | null | undefined): string {
  return (cleanText(value?.normalize('NFKC')) ?? '').toLowerCase();
}

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
  january: 1, february: 2, march: 3, april: 4, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
};

export interface WallClock {
  date: string; // YYYY-MM-DD
  time: string | null; // HH:MM, 24-hour
}

/**
 * Parses the day-month-year forms government portals print: "28-Sep-2026 10:00 am", "2-Sep-2026",
 * "Monday, 17 August 2026 4:00 PM", "15/10/2026". Returns null when no date can be read.
 */
export function parseDayMonthYear(value: string | null | undefined): WallClock | null {
  const text = cleanText(value);
  if (!text) return null;
  const named = /(\d{1,2})[\s-]+([A-Za-z]{3,9})[\s-]+(\d{4})/.exec(text);
  const numeric = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(text);
  let day: number;
  let month: number | undefined;
  let year: number;
  let rest: string;
  if (named) {
    day = Number(named[1]);
    month = MONTHS[named[2]!.toLowerCase()];
    year = Number(named[3]);
    rest = text.slice(named.index + named[0].length);
  } else if (numeric) {
    day = Number(numeric[1]);
    month = Number(numeric[2]);
    year = Number(numeric[3]);
    rest = text.slice(numeric.index + numeric[0].length);
  } else {
    return null;
  }
  if (!month || month > 12 || day < 1 || day > 31) return null;
  const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  if (Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).getUTCDate() !== day) return null;
  const clock = /(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?/i.exec(rest);
  if (!clock) return { date, time: null };
  let hours = Number(clock[1]);
  const meridiem = clock[3]?.toLowerCase().replace(/\./g, '');
  if (meridiem === 'pm' && hours < 12) hours += 12;
  if (meridiem === 'am' && hours === 12) hours = 0;
  if (hours > 23) return { date, time: null };
  return { date, time: `${String(hours).padStart(2, '0')}:${clock[2]}` };
}

/**
 * The amount a published money string states, as a plain decimal: "$1,234,567.00 (inc GST)" → "1234567.00",
 * "$176,385.00 (Estimate)" → "176385.00". Null when no dollar amount is printed; with `rangeIsNull`, also
 * when two amounts are (a range is not one value).
 */
export function moneyAmount(text: string | null | undefined, options: { rangeIsNull?: boolean } = {}): string | null {
  const amounts = [...(text ?? '').matchAll(/\$\s*(-?\d[\d,]*(?:\.\d+)?)/g)];
  if (amounts.length === 0 || (options.rangeIsNull && amounts.length > 1)) return null;
  return amounts[0]![1]!.replace(/,/g, '');
}
