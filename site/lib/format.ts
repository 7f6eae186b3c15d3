// The site's one formatter for what people read: money ("$1,234,567", "NZ$1,234,567"), dates ("25 Sep 2026"),
// times in the buyer's own time zone, quarters ("Jul–Sep 2026") and counts with their plurals.
import { isJurisdiction, timeZoneOf } from '../../lib/jurisdictions.ts';

export interface Attribution {
  source: string;
  name: string;
  licence: string;
  attribution: string;
}

const whole = new Intl.NumberFormat('en-AU');

export function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : whole.format(value);
}

/** A count with its noun: "1 procurement", "2 procurements", "1,204 procurements". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

// The symbol readers know each currency by: the site is Australian, so the Australian dollar is "$" and the
// New Zealand dollar "NZ$" (en-AU formatting would write "NZD 1,234,567"). Other codes keep their code.
const SYMBOLS: Record<string, string> = { AUD: '$', NZD: 'NZ$' };

// One formatter per currency and precision: building an Intl.NumberFormat costs far more than formatting
// with it, and a site build formats hundreds of thousands of amounts. null marks a code Intl does not know.
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string, cents: boolean): Intl.NumberFormat | null {
  const key = `${currency}:${cents}`;
  let format = moneyFormats.get(key);
  if (format === undefined) {
    const digits = { minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: cents ? 2 : 0 };
    try {
      format = SYMBOLS[currency] ? new Intl.NumberFormat('en-AU', digits) : new Intl.NumberFormat('en-AU', { style: 'currency', currency, ...digits });
    } catch {
      format = null;
    }
    moneyFormats.set(key, format);
  }
  return format;
}

/** Below this, cents a figure has are shown: on $4.50 they matter, on $137,571,795.74 they do not. */
const CENTS_BELOW = 1000;

/** Money in its own currency (never converted): whole units, with cents only on small amounts that have them. */
export function money(value: number | string | null | undefined, currency: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const amount = typeof value === 'string' ? Number(value) : value;
  if (!Number.isFinite(amount)) return String(value);
  const code = (currency || 'AUD').toUpperCase();
  const cents = Math.abs(amount) < CENTS_BELOW && Math.round(amount * 100) % 100 !== 0;
  const format = moneyFormat(code, cents);
  if (!format) return `${code} ${whole.format(Math.round(amount))}`;
  const symbol = SYMBOLS[code];
  if (!symbol) return format.format(amount);
  return `${amount < 0 ? '-' : ''}${symbol}${format.format(Math.abs(amount))}`;
}

// A published value that is only a currency code and an amount ("AUD 19800.00", "NZD 1,250,000"): the
// source's wording adds nothing, so it reads as money. Anything else (ranges, "up to", words) is kept.
const CODE_AND_AMOUNT = /^\s*([A-Z]{3})\s*\$?\s*(-?[\d,]+(?:\.\d+)?)\s*$/;
const SYMBOL_AND_AMOUNT = /^\s*(NZ)?\$\s*(-?[\d,]+(?:\.\d+)?)\s*$/;

// A dollar amount inside a source's own wording ("From $400,000.00 to $1,200,000.00", "$480,000.00 (inc GST)"),
// not one written with a scale word ("$2M", "$1.5 million"), which is left as written.
const AMOUNT_IN_WORDS = /(NZ)?\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?(?![\d.,]|\s?(?:m|mil|million|b|bn|billion|k)\b)/gi;

/**
 * A value as the source published it: a bare code-and-amount value reads as money, and every dollar amount in
 * the source's own wording reads as the site writes money, so values with and without cents never sit side by side.
 */
export function publishedValue(text: string | null | undefined): string {
  if (!text) return '—';
  const coded = CODE_AND_AMOUNT.exec(text);
  if (coded) return money(coded[2]!.replaceAll(',', ''), coded[1]);
  const symbol = SYMBOL_AND_AMOUNT.exec(text);
  if (symbol) return money(symbol[2]!.replaceAll(',', ''), symbol[1] ? 'NZD' : 'AUD');
  return text.replace(AMOUNT_IN_WORDS, (_, nz: string | undefined, units: string, cents: string | undefined) =>
    money(`${units.replaceAll(',', '')}${cents ?? ''}`, nz ? 'NZD' : 'AUD'));
}

/** en-AU's short months include "June", "July" and "Sept": here every month has three letters ("Jun", "Sep"). */
function withThreeLetterMonths(format: Intl.DateTimeFormat, date: Date): string {
  return format.formatToParts(date).map((part) => (part.type === 'month' ? part.value.slice(0, 3) : part.value)).join('');
}

const dayFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

// A site shows a few thousand distinct days many times over: each is formatted once.
const formattedDays = new Map<string, string>();

/** A calendar date (YYYY-MM-DD) as "25 Sep 2026". */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  let formatted = formattedDays.get(value);
  if (formatted === undefined) {
    const parsed = new Date(`${value.slice(0, 10)}T00:00:00Z`);
    formatted = Number.isNaN(parsed.getTime()) ? value : withThreeLetterMonths(dayFormat, parsed);
    formattedDays.set(value, formatted);
  }
  return formatted;
}

const instantFormats = new Map<string, Intl.DateTimeFormat>();
// Formatting to parts costs tens of microseconds; a build shows the same instants (its own time, a run's
// last-seen time, shared closing times) on thousands of pages: each is formatted once per time zone.
const formattedInstants = new Map<string, string>();

/**
 * An instant as wall-clock time where the buyer is, e.g. "25 Sep 2026, 11:00 am AEST" in Sydney and
 * "25 Sep 2026, 1:00 pm NZST" for a New Zealand buyer. Without a jurisdiction, Sydney time (the site's own).
 */
export function instant(value: string, jurisdiction?: string): string {
  return instantIn(value, jurisdiction && isJurisdiction(jurisdiction) ? timeZoneOf(jurisdiction) : timeZoneOf('AU'));
}

/** An instant as wall-clock time in an IANA time zone the API names (a bid's buyer), e.g. "25 Sep 2026, 5:00 pm AEST". */
export function instantIn(value: string, timeZone: string): string {
  const key = `${timeZone} ${value}`;
  let formatted = formattedInstants.get(key);
  if (formatted === undefined) {
    let format = instantFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-AU', {
        day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short',
      });
      instantFormats.set(timeZone, format);
    }
    formatted = withThreeLetterMonths(format, new Date(value));
    formattedInstants.set(key, formatted);
  }
  return formatted;
}

const monthFormat = new Intl.DateTimeFormat('en-AU', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const monthNameFormat = new Intl.DateTimeFormat('en-AU', { month: 'short', timeZone: 'UTC' });

/** A month id (YYYY-MM) as "Oct 2026". */
export function month(value: string): string {
  return withThreeLetterMonths(monthFormat, new Date(`${value.slice(0, 7)}-01T00:00:00Z`));
}

/** A month id (YYYY-MM) as its name alone, "Sep", for chart axes. */
export function monthName(value: string): string {
  return withThreeLetterMonths(monthNameFormat, new Date(`${value.slice(0, 7)}-01T00:00:00Z`));
}

/** A quarter id (2026Q3) as the months it spans, "Jul–Sep 2026". */
export function quarter(value: string): string {
  const parsed = /^(\d{4})Q([1-4])$/.exec(value);
  if (!parsed) return value;
  const first = (Number(parsed[2]) - 1) * 3 + 1;
  const id = (m: number) => `${parsed[1]}-${String(m).padStart(2, '0')}`;
  return `${monthName(id(first))}–${month(id(first + 2))}`;
}

const dayMonthFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A calendar date (YYYY-MM-DD) without its year, "25 Sep", for chart axes. */
export function dayMonth(value: string): string {
  return withThreeLetterMonths(dayMonthFormat, new Date(`${value.slice(0, 10)}T00:00:00Z`));
}

const kilobytes = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });
const megabytes = new Intl.NumberFormat('en-AU', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A file size: "820 bytes", "14 KB", "2.4 MB", "25 MB" (1 KB = 1024 bytes; a tenth of a MB shown below 10 MB). */
export function bytes(size: number): string {
  if (size < 1024) return plural(size, 'byte');
  if (size < 1024 * 1024) return `${kilobytes.format(size / 1024)} KB`;
  const mb = size / 1024 / 1024;
  return `${(mb < 10 ? megabytes : kilobytes).format(mb)} MB`;
}

const ISO_DAY_IN_TEXT = /\b(\d{4}-\d{2}-\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;

/** Text the service wrote (evidence, a field's value) with each ISO date in it as people write dates: "2 Jun 2026". */
export function plainDates(text: string): string {
  return text.replace(ISO_DAY_IN_TEXT, (_, date: string) => day(date));
}
