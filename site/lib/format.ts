// Formatting shared by the pages: numbers, money as published, dates in Australian English.

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

// One formatter per currency: building an Intl.NumberFormat costs far more than formatting with it, and a
// site build formats hundreds of thousands of amounts. null marks a code Intl does not know.
const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string): Intl.NumberFormat | null {
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-AU', { style: 'currency', currency, maximumFractionDigits: 0 });
    } catch {
      format = null;
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

/** Money as published in its own currency (never converted); whole units. */
export function money(value: number | string | null | undefined, currency: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const amount = typeof value === 'string' ? Number(value) : value;
  if (!Number.isFinite(amount)) return String(value);
  const format = moneyFormat(currency || 'AUD');
  return format ? format.format(amount) : `${whole.format(Math.round(amount))} ${currency ?? ''}`.trim();
}

const dayFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

// A site shows a few thousand distinct days many times over: each is formatted once.
const formattedDays = new Map<string, string>();

/** A calendar date (YYYY-MM-DD) as "28 Sep 2026". */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  let formatted = formattedDays.get(value);
  if (formatted === undefined) {
    const parsed = new Date(`${value.slice(0, 10)}T00:00:00Z`);
    formatted = Number.isNaN(parsed.getTime()) ? value : dayFormat.format(parsed);
    formattedDays.set(value, formatted);
  }
  return formatted;
}

const instantFormat = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'Australia/Sydney', timeZoneName: 'short',
});

/** An instant as Sydney wall-clock time, e.g. "25 September 2026 at 11:00 am AEST". */
export function instant(value: string): string {
  return instantFormat.format(new Date(value));
}

const monthFormat = new Intl.DateTimeFormat('en-AU', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A month id (YYYY-MM) as "Oct 2026". */
export function month(value: string): string {
  return monthFormat.format(new Date(`${value.slice(0, 7)}-01T00:00:00Z`));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}
