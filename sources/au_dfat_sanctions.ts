import { readFile } from 'node:fs/promises';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { SanctionRecord } from './_contract/records.ts';
import { ProblemTally } from './_platforms/data_gov_au.ts';
import { readSheet } from './_platforms/xlsx.ts';
import { localDate, timeZoneOf } from '../lib/jurisdictions.ts';
import { cleanText } from '../lib/text.ts';

const ORIGIN = 'https://www.dfat.gov.au';
const PAGE_PATH = '/international-relations/security/sanctions/consolidated-list';
const LIST_NAME = 'Australian Sanctions Consolidated List';
const SHEET = 'Consolidated List';

/** The columns the adapter reads, as the header row names them; the sheet has a few more (the measures). */
export const DFAT_COLUMNS = [
  'Reference', 'Name of Individual or Entity', 'Type', 'Name Type', 'Alias Strength', 'Date of Birth', 'Place of Birth', 'Citizenship', 'Committees',
] as const;
type Column = (typeof DFAT_COLUMNS)[number];

export default defineSource({
  id: 'au_dfat_sanctions',
  tag: 'DFAT',
  name: 'DFAT Australian Sanctions Consolidated List',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['sanction'],
  mode: 'csv',
  refresh: 'snapshot',
  origin: ORIGIN,
  homepage: `${ORIGIN}${PAGE_PATH}`,
  licence: 'Creative Commons Attribution 4.0 International, as DFAT licenses its website content unless stated otherwise.',
  attribution: 'Australian Sanctions Consolidated List © Commonwealth of Australia (Department of Foreign Affairs and Trade).',
  caveats: [
    'The list covers both UN Security Council sanctions Australia implements and Australia\'s autonomous sanctions; a party is one reference (101) with its aliases (101a, 101b).',
    'Aliases DFAT grades "Weak" are kept as weak aliases and not screened.',
    'A date of birth given as an Excel date is read to the day even where the cell displays only a month; "Approximately" dates are kept without a margin; text that is not a date is left out (counted in a warning).',
    'The listing date is prose in "Listing Information" and is not read (listed_on is null); the Control Date is the last edit, not the listing.',
    'The workbook is downloaded only when its ETag or Last-Modified changed since the last good run.',
    'The fixture workbook is assembled in DFAT\'s published layout from recorded values (see its _meta.json): DFAT\'s own file was not captured.',
  ],
  politeness: {
    maxConcurrency: 1, // why: one page and one file a night
    delayMs: 1000, // why: two requests to a government site; a second apart costs nothing (a robots.txt Crawl-delay overrides it)
    maxRetries: 3, // why: the site sits behind a CDN where a transient 5xx passes on retry
    timeoutSecs: 60, // why: the workbook is a few MB; a minute without the next bytes means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url(PAGE_PATH), label: 'PAGE' }],
  routes: {
    PAGE: async (fetched) => {
      const href = (await fetched.dom())('a[href$=".xlsx"]').filter((_, a) => /consolidated/i.test(a.attribs.href ?? '')).first().attr('href');
      if (!href) throw new Error('the Consolidated List page links no .xlsx workbook');
      const fileUrl = new URL(href, `${ORIGIN}${PAGE_PATH}`).href;
      // why: robots.txt was read for this host only, and a fixture run must never reach the network
      if (new URL(fileUrl).origin !== ORIGIN) throw new Error(`the workbook is hosted off ${ORIGIN} at ${new URL(fileUrl).host}`);
      const download = await fetched.download(fetched.ctx.url(fileUrl));
      if (download.status === 'not_modified') return;
      const asOf = localDate(download.lastModified ?? fetched.ctx.now, timeZoneOf('AU-ACT'));
      if (!download.lastModified) fetched.warn(`${fileUrl} came without a Last-Modified date; its entries are dated with the run's date`);
      await readWorkbook(fetched, await readFile(download.path), { asOf, url: fileUrl });
    },
  },
});

async function readWorkbook(fetched: Fetched, bytes: Buffer, context: { asOf: string; url: string }): Promise<void> {
  const rows = await readSheet(bytes, SHEET);
  const [header, ...body] = rows;
  const columns = new Map((header ?? []).map((title, index) => [cleanText(String(title ?? ''))?.toLowerCase() ?? '', index]));
  const missing = DFAT_COLUMNS.filter((column) => !columns.has(column.toLowerCase()));
  if (missing.length > 0) throw new Error(`the "${SHEET}" sheet's header does not name the column(s) ${missing.join(', ')}: the layout changed`);
  const problems = new ProblemTally();
  let read = 0;
  body.forEach((cells, index) => {
    const value = (column: Column) => cells[columns.get(column.toLowerCase())!] ?? null;
    if (cells.every((cell) => cell === null)) return;
    const record = mapDfatRow(value, { ...context, problems, rowNumber: index + 2 });
    if (!record) {
      fetched.invalid(`row ${index + 2}: no reference of digits and letters, or no name`);
      return;
    }
    read++;
    fetched.emit(record);
  });
  if (read === 0) throw new Error(`the "${SHEET}" sheet lists no parties`);
  problems.report(fetched, context.url);
}

const TYPES: Record<string, SanctionRecord['entity_type']> = { individual: 'person', entity: 'organisation', vessel: 'vessel' };

/** One sheet row (one name of one party) as a record; null when it has no reference or no name. */
export function mapDfatRow(
  value: (column: Column) => string | number | null,
  context: { asOf: string; url: string; problems: ProblemTally; rowNumber: number },
): SanctionRecord | null {
  const text = (column: Column) => {
    const cell = value(column);
    return cell === null ? null : cleanText(String(cell).replaceAll('\u00a0', ' '));
  };
  const reference = /^(\d+)([a-z]*)$/i.exec(text('Reference') ?? '');
  const name = text('Name of Individual or Entity');
  if (!reference || !name) return null;
  const nameType = text('Name Type')?.toLowerCase() ?? '';
  const weak = text('Alias Strength')?.toLowerCase() === 'weak';
  const placeOfBirth = text('Place of Birth');
  return {
    record_type: 'sanction',
    list_name: LIST_NAME,
    entry_id: reference[1]!,
    name_type: nameType.startsWith('primary') ? 'primary' : weak ? 'weak_alias' : 'alias',
    entity_type: TYPES[text('Type')?.toLowerCase() ?? ''] ?? null,
    name,
    dates_of_birth: dfatDatesOfBirth(value('Date of Birth'), (unread) => context.problems.add('dates of birth that could not be read (left out)', `row ${context.rowNumber} "${unread}"`)),
    nationalities: splitList(text('Citizenship')),
    countries: placeOfBirth ? [placeOfBirth.split(',').at(-1)!.trim()] : [],
    programmes: splitList(text('Committees')),
    listed_on: null,
    as_of: context.asOf,
    url: context.url,
  };
}

function splitList(text: string | null): string[] {
  return (text ?? '').split(';').map((part) => part.trim()).filter(Boolean);
}

/** Excel's day 0 in the 1900 date system, so serial 1 is 1900-01-01 (and the phantom 1900-02-29 is skipped). */
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/**
 * A Date of Birth cell, in every form DFAT publishes it: an Excel date serial, a plain year (a number), or text
 * with one or more of `dd/mm/yyyy`, `yyyy`, `Approximately yyyy`, `Approximately: Between yyyy and yyyy`,
 * separated by `;`, a line break or Excel's escaped carriage return `_x000D_`.
 */
export function dfatDatesOfBirth(cell: string | number | null, unreadable: (part: string) => void): string[] {
  if (cell === null) return [];
  if (typeof cell === 'number') {
    if (Number.isInteger(cell) && cell >= 1800 && cell <= 2100) return [String(cell)];
    return [new Date(EXCEL_EPOCH + Math.round(cell) * 86_400_000).toISOString().slice(0, 10)];
  }
  const dates: string[] = [];
  for (const raw of cell.replaceAll('\u00a0', ' ').split(/_x000D_|[\r\n;]+/)) {
    const part = raw.trim();
    if (!part) continue;
    const between = /^(?:approximately:?\s*)?between (\d{4}) and (\d{4})$/i.exec(part);
    const day = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(part);
    const year = /^(?:approximately:?\s*)?(\d{4})$/i.exec(part);
    if (between && Number(between[2]) >= Number(between[1]) && Number(between[2]) - Number(between[1]) <= 20) {
      for (let y = Number(between[1]); y <= Number(between[2]); y++) dates.push(String(y));
    } else if (day) dates.push(`${day[3]}-${day[2]!.padStart(2, '0')}-${day[1]!.padStart(2, '0')}`);
    else if (year) dates.push(year[1]!);
    else unreadable(part);
  }
  return [...new Set(dates)];
}
