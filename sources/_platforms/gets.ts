import type { CheerioAPI } from 'cheerio';
import { timeZoneOf, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../../lib/text.ts';

const NZ_TIME_ZONE = timeZoneOf('NZ');

/** GETS pages: the label-cell detail markup shared by tender and award notices. */

/** GETS links carry a cosmetic organisation segment, sometimes doubled as `//`; fetch the single-slash address. */
export function canonicalDetailUrl(link: string): string {
  const url = new URL(link);
  url.pathname = url.pathname.replace(/\/{2,}/g, '/');
  return url.href;
}

/** The value cell beside a detail page's `td.label-cell` whose text is `label` (with or without a colon). */
function valueCell($: CheerioAPI, label: string) {
  return $('td.label-cell')
    .filter((_, cell) => cleanText($(cell).text())?.replace(/\s*:$/, '').toLowerCase() === label.toLowerCase())
    .first()
    .next('td');
}

export function cellText($: CheerioAPI, label: string): string | null {
  return cleanText(valueCell($, label).text());
}

export function cellList($: CheerioAPI, label: string): string[] {
  return valueCell($, label)
    .find('li')
    .toArray()
    .map((entry) => cleanText($(entry).text()))
    .filter((entry) => entry !== null);
}

/**
 * The text of the section under the first `span.legend` matching `legend`, up to the next section's divider,
 * with paragraphs and line breaks as spaces. Null when the page has no such section.
 */
export function sectionText($: CheerioAPI, legend: RegExp): string | null {
  const heading = $('span.legend').filter((_, span) => legend.test(cleanText($(span).text()) ?? '')).first();
  if (heading.length === 0) return null;
  const section = heading.parent().nextUntil('div.detail-divider').clone();
  section.find('br, p, li, tr').after(' ');
  return cleanText(section.toArray().map((node) => `${$(node).text()} `).join(''));
}

/**
 * GETS prints one instant several ways: "Monday, 17 August 2026 4:00 PM +12:00" (feed), "Tuesday, 6 October 2026
 * 1:00 PM (Pacific/Auckland UTC+13:00)" (notices), "4:59 PM 9 Sep 2026 (Pacific/Auckland UTC+12:00)" (lists,
 * time first), and bare dates. The printed offset gives the instant; without one, New Zealand time. The zone's
 * "UTC+13:00" is never read as the clock.
 */
export function parseGetsDate(text: string | null | undefined): { date: string; at: string | null } | null {
  const printed = cleanText(text);
  if (!printed) return null;
  const zone = /\s*\(([^()]*)\)$/.exec(printed);
  let wallText = zone ? printed.slice(0, zone.index) : printed;
  let offset = zone ? /UTC([+-])(\d{2}):?(\d{2})/.exec(zone[1]!) : null;
  const trailingOffset = /\s+([+-])(\d{2}):?(\d{2})$/.exec(wallText);
  if (trailingOffset) {
    offset = trailingOffset;
    wallText = wallText.slice(0, trailingOffset.index);
  }
  const timeFirst = /^(\d{1,2}:\d{2}\s*[ap]\.?m\.?)\s+(.+)$/i.exec(wallText);
  const wall = parseDayMonthYear(timeFirst ? `${timeFirst[2]} ${timeFirst[1]}` : wallText);
  if (!wall) return null;
  if (!wall.time) return { date: wall.date, at: null };
  if (!offset) return { date: wall.date, at: zonedTimeToUtc(wall.date, wall.time, NZ_TIME_ZONE).toISOString() };
  const offsetMinutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
  return { date: wall.date, at: new Date(Date.parse(`${wall.date}T${wall.time}:00Z`) - offsetMinutes * 60_000).toISOString() };
}

/** The paragraph under the page's "Overview" legend, with line breaks as spaces. */
export function overview($: CheerioAPI): string | null {
  const legend = $('span.legend').filter((_, span) => cleanText($(span).text()) === 'Overview');
  const paragraph = legend.first().parent().nextAll('p').first().clone();
  paragraph.find('br').after(' ');
  return cleanText(paragraph.text());
}

/** The page title reads "GETS | {Organisation} - {Tender name}"; without an organisation it is "GETS | {Tender name}". */
export function organisationFromPageTitle($: CheerioAPI, tenderName: string | null): string | null {
  const pageTitle = cleanText($('title').first().text())?.replace(/^GETS \|\s*/, '') ?? '';
  const suffix = ` - ${tenderName}`;
  return tenderName && pageTitle.endsWith(suffix) ? cleanText(pageTitle.slice(0, -suffix.length)) : null;
}
