// A tender's closing as an iCalendar event (RFC 5545), in the buyer's time zone. Written by hand rather than with a
// library: one event, one time zone and a reminder are some forty lines, and no package in the project makes them.
// The zone's definition (VTIMEZONE) is worked out from Intl for the closing's year, so a calendar shows the closing
// at the buyer's wall-clock time whatever zone the reader is in.

export interface ClosingEvent {
  /** Stable id of the event: the tender's key. */
  key: string;
  title: string;
  buyer?: string | undefined;
  reference?: string | undefined;
  /** The closing instant (ISO), when the source publishes a time. */
  closingAt?: string | undefined;
  /** The closing date (YYYY-MM-DD) in the buyer's zone: the event is that whole day when no time is published. */
  closingDate: string;
  /** The buyer's IANA time zone. */
  timeZone: string;
  /** The tender's page on this site. */
  url: string;
  /** When the file was made (the build's clock, so a rebuild of the same release makes the same file). */
  stamp: string;
  /** The closing as the page words it ("14 Oct 2026, 11:59 pm AEDT"). */
  closingWords: string;
}

/** Text escaped for a property value: backslash, semicolon, comma and newline. */
function text(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** A character's length in UTF-8 octets, from its code point (a TextEncoder per character cost most of a tender page). */
function octets(char: string): number {
  const code = char.codePointAt(0)!;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/** A content line folded at 75 octets, continuation lines starting with a space (RFC 5545, 3.1). */
function fold(line: string): string {
  // Printable ASCII is one octet a character: cut by length, without walking the line.
  if (/^[\x20-\x7e]*$/.test(line)) {
    if (line.length <= 75) return line;
    const parts = [line.slice(0, 75)];
    for (let start = 75; start < line.length; start += 74) parts.push(line.slice(start, start + 74));
    return parts.join('\r\n ');
  }
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const width = octets(char);
    if (size + width > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += width;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

// One formatter per zone: making an Intl.DateTimeFormat costs far more than using it.
const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts of an instant in a zone, and the zone's offset from UTC then, in minutes. */
function wallClock(instant: Date, timeZone: string): { stamp: string; offset: number } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-AU', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((part) => [part.type, part.value]));
  const local = Date.UTC(Number(parts['year']), Number(parts['month']) - 1, Number(parts['day']), Number(parts['hour']), Number(parts['minute']), Number(parts['second']));
  return { stamp: `${parts['year']}${parts['month']}${parts['day']}T${parts['hour']}${parts['minute']}${parts['second']}`, offset: Math.round((local - instant.getTime()) / 60_000) };
}

const utcOffset = (minutes: number) => `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

/** An instant's UTC parts as an iCalendar local time, shifted by `minutes`: "20261004T020000". */
function shifted(instant: number, minutes: number): string {
  return new Date(instant + minutes * 60_000).toISOString().slice(0, 19).replace(/[-:]/g, '');
}

/**
 * The zone's observances in a year: each change of its UTC offset (found hour by hour, then to the minute), or its
 * one offset all year. A change is dated by the wall-clock time it takes effect, in the offset before it (RFC 5545, 3.6.5).
 */
function timeZoneBlock(timeZone: string, year: number): string[] {
  const key = `${timeZone} ${year}`;
  let block = blocks.get(key);
  if (!block) {
    block = observances(timeZone, year);
    blocks.set(key, block);
  }
  return block;
}

// A build writes the same few zones and years on every tender page: each is worked out once.
const blocks = new Map<string, string[]>();

function observances(timeZone: string, year: number): string[] {
  const offsetAt = (ms: number) => wallClock(new Date(ms), timeZone).offset;
  const changes: { at: number; from: number; to: number }[] = [];
  const start = Date.UTC(year, 0, 1);
  let previous = offsetAt(start);
  for (let hour = 1; hour <= 366 * 24; hour++) {
    const to = offsetAt(start + hour * 3_600_000);
    if (to === previous) continue;
    // Within the hour, the first minute of the new offset (Adelaide changes on the half hour).
    let minute = start + (hour - 1) * 3_600_000;
    while (offsetAt(minute) === previous) minute += 60_000;
    changes.push({ at: minute, from: previous, to });
    previous = to;
  }
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  if (changes.length === 0) {
    lines.push('BEGIN:STANDARD', `DTSTART:${year}0101T000000`, `TZOFFSETFROM:${utcOffset(previous)}`, `TZOFFSETTO:${utcOffset(previous)}`, 'END:STANDARD');
  }
  for (const change of changes) {
    const kind = change.to > change.from ? 'DAYLIGHT' : 'STANDARD';
    lines.push(`BEGIN:${kind}`, `DTSTART:${shifted(change.at, change.from)}`, `TZOFFSETFROM:${utcOffset(change.from)}`, `TZOFFSETTO:${utcOffset(change.to)}`, `END:${kind}`);
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

const compactStamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+/, '');

/** The .ics text of a tender's closing: the closing time in the buyer's zone (or the closing day), a reminder two days before. */
export function closingCalendar(event: ClosingEvent): string {
  const host = new URL(event.url).host;
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:-//${host}//Tender closing//EN`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  const when: string[] = [];
  if (event.closingAt) {
    const closing = new Date(event.closingAt);
    lines.push(...timeZoneBlock(event.timeZone, Number(wallClock(closing, event.timeZone).stamp.slice(0, 4))));
    const local = wallClock(closing, event.timeZone).stamp;
    when.push(`DTSTART;TZID=${event.timeZone}:${local}`, `DTEND;TZID=${event.timeZone}:${local}`);
  } else {
    const day = event.closingDate.replace(/-/g, '');
    const next = new Date(Date.parse(`${event.closingDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
    when.push(`DTSTART;VALUE=DATE:${day}`, `DTEND;VALUE=DATE:${next}`);
  }
  const description = [
    `Closes ${event.closingWords} (the buyer's time).`,
    event.buyer ? `Buyer: ${event.buyer}.` : undefined,
    event.reference ? `Reference: ${event.reference}.` : undefined,
    event.url,
  ].filter((part): part is string => part !== undefined).join('\n');
  lines.push(
    'BEGIN:VEVENT',
    `UID:${event.key}@${host}`,
    `DTSTAMP:${compactStamp(event.stamp)}`,
    ...when,
    `SUMMARY:${text(`Tender closes: ${event.title}`)}`,
    `DESCRIPTION:${text(description)}`,
    `URL:${event.url}`,
    'TRANSP:TRANSPARENT',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    `DESCRIPTION:${text(`Tender closes in two days: ${event.title}`)}`,
    'TRIGGER:-P2D',
    'END:VALARM',
    'END:VEVENT',
    'END:VCALENDAR',
  );
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
