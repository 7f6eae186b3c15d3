import { parse } from 'csv-parse/sync';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { SanctionRecord } from './_contract/records.ts';
import { cleanText } from '../lib/text.ts';

const ORIGIN = 'https://sanctionslistservice.ofac.treas.gov';
const EXPORTS = '/api/PublicationPreview/exports';
const LIST_NAME = 'OFAC Specially Designated Nationals and Blocked Persons List';
/** OFAC's placeholder for an empty field in the legacy CSV files (DAT_SPEC). */
const EMPTY = '-0-';

export default defineSource({
  id: 'au_ofac_sdn',
  tag: 'OFAC',
  name: 'OFAC Specially Designated Nationals (SDN) List',
  jurisdiction: 'AU',
  tier: 'national',
  kinds: ['sanction'],
  mode: 'csv',
  refresh: 'snapshot',
  origin: ORIGIN,
  homepage: 'https://ofac.treasury.gov/specially-designated-nationals-and-blocked-persons-list-sdn-human-readable-lists',
  licence: 'A work of the United States Government, in the public domain.',
  attribution: 'Specially Designated Nationals and Blocked Persons List, Office of Foreign Assets Control, U.S. Department of the Treasury.',
  caveats: [
    'Listed under AU because the registry holds Australian and New Zealand sources: this is the United States\' list, screened because Australian suppliers deal with US-linked parties.',
    'Read from the legacy CSV files: SDN.CSV (one row per party) and ALT.CSV (its aliases). Dates of birth, places of birth and nationalities are read from the free-text remarks ("DOB 10 Dec 1948; POB Giza, Egypt; nationality Egypt"); addresses (ADD.CSV) are not read, so an entity\'s country is often unknown.',
    'Aliases quoted in an SDN row\'s remarks (a.k.a. \'BNC\') are the ones OFAC grades weak: kept as weak aliases and not screened.',
    'Both files (a few MB) are read whole on every run and replace the last run\'s entries; they are not asked for conditionally.',
  ],
  politeness: {
    maxConcurrency: 1, // why: two files a night from one host
    delayMs: 1000, // why: two requests to a government service; a second apart costs nothing (a robots.txt Crawl-delay overrides it)
    maxRetries: 3, // why: the export service is behind a CDN where a transient 5xx passes on retry
    timeoutSecs: 60, // why: the files are a few MB; a minute without the next bytes means the host is struggling
  },
  start: (ctx) => [
    { url: ctx.url(`${EXPORTS}/SDN.CSV`), label: 'SDN' },
    { url: ctx.url(`${EXPORTS}/ALT.CSV`), label: 'ALT' },
  ],
  routes: {
    SDN: async (fetched) => readRows(fetched, 12, (cells, context) => mapSdnRow(cells, context)),
    ALT: async (fetched) => readRows(fetched, 5, (cells, context) => mapAltRow(cells, context)),
  },
});

interface RowContext {
  asOf: string;
  url: string;
}

/**
 * Reads one headerless CSV file (DAT_SPEC: no header row, `-0-` for empty, a trailing Ctrl-Z end-of-file
 * character) and emits each row's records. A row of another width is a changed layout, counted invalid.
 */
async function readRows(fetched: Fetched, width: number, map: (cells: string[], context: RowContext) => SanctionRecord[]): Promise<void> {
  const text = (await fetched.text()).replace(/\u001a\s*$/, '');
  const rows = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  if (rows.length === 0) throw new Error(`${fetched.ctx.publicUrl(fetched.request.url)} is empty`);
  // the files carry no publication date; the entries are as of the run that read them
  const context = { asOf: fetched.ctx.now.toISOString().slice(0, 10), url: fetched.ctx.publicUrl(fetched.request.url) };
  rows.forEach((cells, index) => {
    if (cells.length !== width || !/^\d+$/.test(cells[0] ?? '')) {
      fetched.invalid(`row ${index + 1}: ${cells.length} fields where the file has ${width}, or no entity number`);
      return;
    }
    for (const record of map(cells, context)) fetched.emit(record);
  });
}

function cell(cells: string[], index: number): string | null {
  const value = cleanText(cells[index]);
  return value === null || value === EMPTY ? null : value;
}

const ENTITY_TYPES: Record<string, SanctionRecord['entity_type']> = { individual: 'person', vessel: 'vessel', aircraft: 'aircraft' };

/** One SDN.CSV row: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks. */
export function mapSdnRow(cells: string[], context: RowContext): SanctionRecord[] {
  const name = cell(cells, 1);
  if (!name) return [];
  const type = cell(cells, 2)?.toLowerCase();
  const remarks = parseRemarks(cell(cells, 11) ?? '');
  const base = {
    record_type: 'sanction' as const,
    list_name: LIST_NAME,
    entry_id: cells[0]!,
    // a blank SDN_Type is an entity (DAT_SPEC)
    entity_type: (type && ENTITY_TYPES[type]) || ('organisation' as const),
    listed_on: null,
    as_of: context.asOf,
    url: context.url,
  };
  const programmes = (cell(cells, 3) ?? '').split('] [').map((programme) => programme.trim()).filter(Boolean);
  return [
    { ...base, name_type: 'primary', name, dates_of_birth: remarks.datesOfBirth, nationalities: remarks.nationalities, countries: remarks.countries, programmes },
    ...remarks.weakAliases.map((alias) => ({ ...base, name_type: 'weak_alias' as const, name: alias, dates_of_birth: [], nationalities: [], countries: [], programmes: [] })),
  ];
}

/** One ALT.CSV row: ent_num, alt_num, alt_type (aka, fka, nka), alt_name, alt_remarks. */
export function mapAltRow(cells: string[], context: RowContext): SanctionRecord[] {
  const name = cell(cells, 3);
  if (!name) return [];
  return [{
    record_type: 'sanction',
    list_name: LIST_NAME,
    entry_id: cells[0]!,
    name_type: 'alias',
    entity_type: null,
    name,
    dates_of_birth: [],
    nationalities: [],
    countries: [],
    programmes: [],
    listed_on: null,
    as_of: context.asOf,
    url: context.url,
  }];
}

const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06', jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

/** A remarks date: `10 Dec 1948`, `Dec 1948`, `1948`, `circa 1958`, or a span `1957 to 1959` (each year kept). */
export function remarkDates(text: string): string[] {
  const value = text.replace(/^circa\s+/i, '').trim();
  const span = /^(\d{4}) to (\d{4})$/.exec(value);
  if (span) {
    const from = Number(span[1]);
    const to = Number(span[2]);
    return to >= from && to - from <= 20 ? Array.from({ length: to - from + 1 }, (_, i) => String(from + i)) : [];
  }
  const full = /^(\d{1,2}) ([A-Za-z]{3}) (\d{4})$/.exec(value);
  if (full && MONTHS[full[2]!.toLowerCase()]) return [`${full[3]}-${MONTHS[full[2]!.toLowerCase()]}-${full[1]!.padStart(2, '0')}`];
  const month = /^([A-Za-z]{3}) (\d{4})$/.exec(value);
  if (month && MONTHS[month[1]!.toLowerCase()]) return [`${month[2]}-${MONTHS[month[1]!.toLowerCase()]}`];
  return /^\d{4}$/.test(value) ? [value] : [];
}

/**
 * What the free-text remarks say about a party, as OFAC writes it: `DOB …; alt. DOB …; POB <place>, <country>;
 * nationality <country>; citizen <country>; a.k.a. 'NAME'`. A place of birth's last comma part is its country.
 */
export function parseRemarks(remarks: string): { datesOfBirth: string[]; nationalities: string[]; countries: string[]; weakAliases: string[] } {
  const datesOfBirth: string[] = [];
  const nationalities: string[] = [];
  const countries: string[] = [];
  const weakAliases: string[] = [];
  for (const part of remarks.replace(/\.$/, '').split(/;\s*/)) {
    const item = part.replace(/^alt\.\s+/i, '').trim();
    let match: RegExpExecArray | null;
    if ((match = /^DOB (.+)$/.exec(item))) datesOfBirth.push(...remarkDates(match[1]!));
    else if ((match = /^POB (.+)$/.exec(item))) countries.push(match[1]!.split(',').at(-1)!.trim());
    else if ((match = /^(?:nationality|citizen) (.+)$/i.exec(item))) nationalities.push(match[1]!.trim());
    else if ((match = /^[af]\.k\.a\. '(.+)'$/.exec(item))) weakAliases.push(match[1]!);
  }
  const unique = (values: string[]) => [...new Set(values)];
  return { datesOfBirth: unique(datesOfBirth), nationalities: unique(nationalities), countries: unique(countries), weakAliases: unique(weakAliases) };
}
