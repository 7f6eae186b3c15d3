/** Jurisdiction codes of the wire contract and the time zone each tender's day is judged in. */
export const JURISDICTIONS = ['AU', 'NZ', 'AU-NSW', 'AU-VIC', 'AU-QLD', 'AU-WA', 'AU-SA', 'AU-TAS', 'AU-ACT', 'AU-NT'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

export const TIERS = ['federal', 'national', 'state', 'council', 'university', 'health'] as const;
export type Tier = (typeof TIERS)[number];

const TIME_ZONES: Record<Jurisdiction, string> = {
  AU: 'Australia/Sydney', // a tender labelled with the country alone is judged on Sydney's day (spec)
  NZ: 'Pacific/Auckland',
  'AU-NSW': 'Australia/Sydney',
  'AU-VIC': 'Australia/Melbourne',
  'AU-QLD': 'Australia/Brisbane',
  'AU-WA': 'Australia/Perth',
  'AU-SA': 'Australia/Adelaide',
  'AU-TAS': 'Australia/Hobart',
  'AU-ACT': 'Australia/Sydney', // Canberra keeps Sydney's rules
  'AU-NT': 'Australia/Darwin',
};

export function timeZoneOf(jurisdiction: Jurisdiction): string {
  return TIME_ZONES[jurisdiction];
}

export function isJurisdiction(value: string): value is Jurisdiction {
  return (JURISDICTIONS as readonly string[]).includes(value);
}

/**
 * Whether a tender labelled `tenderJurisdiction` falls inside a requested scope:
 * `AU` matches the country label and every Australian state; a state matches itself only.
 */
export function withinScope(tenderJurisdiction: Jurisdiction, scope: Jurisdiction): boolean {
  if (scope === 'AU') return tenderJurisdiction === 'AU' || tenderJurisdiction.startsWith('AU-');
  return tenderJurisdiction === scope;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) an instant falls on in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** Adds whole days to an ISO date (calendar arithmetic, no time zone involved). */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whole calendar days from one ISO date to another: negative when `to` comes first. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
}

/**
 * The UTC instant of a wall-clock time in a time zone, e.g. 10:00 on 28 Sep 2026 in Canberra.
 * Intl has no inverse of format(), so this converges on the offset in two steps (exact across DST edges
 * except for wall times that do not exist, which land an hour later, as clocks do).
 */
export function zonedTimeToUtc(isoDate: string, time: string, timeZone: string): Date {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const wallAsUtc = Date.parse(`${isoDate}T00:00:00Z`) + (hours * 60 + minutes) * 60_000;
  let guess = wallAsUtc;
  for (let step = 0; step < 2; step++) guess = wallAsUtc - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetMs(instant: Date, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}
