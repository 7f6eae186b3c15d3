import type { CheerioAPI } from 'cheerio';
import { cleanText } from '../../lib/text.ts';

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
