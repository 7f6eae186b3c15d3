import type { CheerioAPI } from 'cheerio';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { SanctionRecord } from './_contract/records.ts';
import { cleanText } from '../lib/text.ts';

const ORIGIN = 'https://scsanctions.un.org';
const LIST_PATH = '/resources/xml/en/consolidated.xml';
const LIST_NAME = 'United Nations Security Council Consolidated List';

/** A selection of XML elements (what `find` returns), named without importing cheerio's DOM package. */
type Elements = ReturnType<ReturnType<CheerioAPI['root']>['find']>;

export default defineSource({
  id: 'au_un_sc_sanctions',
  tag: 'UNSC',
  name: 'UN Security Council Consolidated List',
  jurisdiction: 'AU',
  tier: 'national',
  kinds: ['sanction'],
  mode: 'xml',
  refresh: 'snapshot',
  origin: ORIGIN,
  homepage: 'https://main.un.org/securitycouncil/en/content/un-sc-consolidated-list',
  licence: 'United Nations material, published for public use by the Security Council; no open licence is stated on the list.',
  attribution: 'Consolidated List © United Nations Security Council.',
  caveats: [
    'Listed under AU because the registry holds Australian and New Zealand sources: this is the United Nations\' own list, which Australia must implement (DFAT\'s Consolidated List carries the same parties).',
    'The whole XML file (a few MB) is read on every run and replaces the last run\'s entries; it carries no validators to ask for it conditionally.',
    'Aliases the UN grades "Low" are kept as weak aliases and not screened.',
    'A date of birth published as a range of years (BETWEEN) is kept as each year in the range; "APPROXIMATELY" dates are kept as published, without a margin.',
  ],
  politeness: {
    maxConcurrency: 1, // why: one file a night
    delayMs: 1000, // why: a single request to the UN's site; spacing costs nothing (a robots.txt Crawl-delay overrides it)
    maxRetries: 3, // why: a transient 5xx from a large international site passes on retry
    timeoutSecs: 60, // why: the file is a few MB; a minute without the next bytes means the host is struggling
  },
  start: (ctx) => [{ url: ctx.url(LIST_PATH), label: 'LIST' }],
  routes: {
    LIST: async (fetched) => readConsolidatedList(fetched),
  },
});

async function readConsolidatedList(fetched: Fetched): Promise<void> {
  const $ = await fetched.dom({ xml: true });
  const root = $('CONSOLIDATED_LIST');
  if (root.length === 0) throw new Error('the file has no CONSOLIDATED_LIST element: not the UN consolidated list');
  const generated = root.attr('dateGenerated');
  const asOf = generated && /^\d{4}-\d{2}-\d{2}/.test(generated) ? generated.slice(0, 10) : fetched.ctx.now.toISOString().slice(0, 10);
  if (!generated) fetched.warn('the list carries no dateGenerated; its entries are dated with the run\'s date');
  const url = fetched.ctx.publicUrl(fetched.request.url);
  let parties = 0;
  for (const [selector, entityType] of [['INDIVIDUALS > INDIVIDUAL', 'person'], ['ENTITIES > ENTITY', 'organisation']] as const) {
    root.find(selector).each((_, element) => {
      parties++;
      const rows = mapParty($, $(element), { entityType, asOf, url });
      if (rows.length === 0) fetched.invalid(`${entityType} ${$(element).children('DATAID').text()} has no reference number or no name`);
      for (const row of rows) fetched.emit(row);
    });
  }
  if (parties === 0) throw new Error('the list names no individuals and no entities');
}

/** Child elements' trimmed texts, e.g. every NATIONALITY > VALUE. */
function texts($: CheerioAPI, scope: Elements, selector: string): string[] {
  return scope
    .find(selector)
    .toArray()
    .map((element) => cleanText($(element).text()))
    .filter((text): text is string => text !== null);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** One INDIVIDUAL or ENTITY as a primary-name row and a row per alias (and per name in original script). */
export function mapParty(
  $: CheerioAPI,
  party: Elements,
  context: { entityType: 'person' | 'organisation'; asOf: string; url: string },
): SanctionRecord[] {
  const child = (name: string) => cleanText(party.children(name).first().text());
  const entryId = child('REFERENCE_NUMBER');
  const name = ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map(child).filter(Boolean).join(' ');
  if (!entryId || !name) return [];
  const prefix = context.entityType === 'person' ? 'INDIVIDUAL' : 'ENTITY';
  const listedOn = child('LISTED_ON');
  const base = {
    record_type: 'sanction' as const,
    list_name: LIST_NAME,
    entry_id: entryId,
    entity_type: context.entityType,
    listed_on: listedOn && /^\d{4}-\d{2}-\d{2}$/.test(listedOn) ? listedOn : null,
    as_of: context.asOf,
    url: context.url,
  };
  const none = { dates_of_birth: [], nationalities: [], countries: [], programmes: [] };
  const rows: SanctionRecord[] = [{
    ...base,
    name_type: 'primary',
    name,
    dates_of_birth: party.children(`${prefix}_DATE_OF_BIRTH`).toArray().flatMap((element) => datesOfBirth($(element))),
    nationalities: unique(texts($, party, 'NATIONALITY > VALUE')),
    countries: unique(texts($, party, `${prefix}_ADDRESS > COUNTRY, ${prefix}_PLACE_OF_BIRTH > COUNTRY`)),
    programmes: unique(texts($, party, 'UN_LIST_TYPE')),
  }];
  for (const alias of party.children(`${prefix}_ALIAS`).toArray()) {
    const aliasName = cleanText($(alias).children('ALIAS_NAME').text());
    if (!aliasName) continue;
    // individuals' aliases are graded Good or Low; entities' carry a.k.a. or f.k.a. instead
    const weak = cleanText($(alias).children('QUALITY').text())?.toLowerCase() === 'low';
    rows.push({ ...base, ...none, name_type: weak ? 'weak_alias' : 'alias', name: aliasName });
  }
  const originalScript = child('NAME_ORIGINAL_SCRIPT');
  if (originalScript) rows.push({ ...base, ...none, name_type: 'alias', name: originalScript });
  return rows;
}

/** One INDIVIDUAL_DATE_OF_BIRTH: an exact DATE, a YEAR, or a BETWEEN range of years (each year kept). */
function datesOfBirth(element: Elements): string[] {
  const field = (name: string) => cleanText(element.children(name).text());
  const date = field('DATE');
  if (date && /^\d{4}-\d{2}-\d{2}$/.test(date)) return [date];
  const year = field('YEAR');
  if (year && /^\d{4}$/.test(year)) return [year];
  const from = Number(field('FROM_YEAR'));
  const to = Number(field('TO_YEAR'));
  if (Number.isInteger(from) && Number.isInteger(to) && from > 1800 && to >= from && to - from <= 20) {
    return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  }
  return [];
}
