import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { CompanyRecord } from './_contract/records.ts';
import { DATA_GOV_AU, ProblemTally, datasetRequest, fileDate, registerRoutes, type RegisterFile } from './_platforms/data_gov_au.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

const DATASET_ID = '7b8656f9-606d-4337-af29-66b89b2eeefb';

/** The file's 15 columns, in order, as its header row names them. */
export const REGISTER_COLUMNS = [
  'Company Name', 'ACN', 'Type', 'Class', 'Sub Class', 'Status', 'Date of Registration', 'Date of Deregistration',
  'Previous State of Registration', 'State Registration number', 'Modified since last report', 'Current Name Indicator',
  'ABN', 'Current Name', 'Current Name Start Date',
] as const;

export default defineSource({
  id: 'au_asic_companies',
  tag: 'ASIC',
  name: 'ASIC company dataset',
  jurisdiction: 'AU',
  tier: 'federal',
  kinds: ['company'],
  mode: 'csv',
  refresh: 'snapshot',
  origin: DATA_GOV_AU,
  homepage: `${DATA_GOV_AU}/data/dataset/asic-companies`,
  licence: 'Creative Commons Attribution 3.0 Australia (CC BY 3.0 AU), as data.gov.au publishes the ASIC company dataset.',
  attribution: 'Company dataset © Australian Securities and Investments Commission (ASIC), published on data.gov.au under CC BY 3.0 AU.',
  caveats: [
    'A weekly snapshot of ASIC\'s company register: a company\'s status here can be up to a week behind ASIC Connect.',
    'Which companies the file covers is disputed (every company ever registered, or registered companies plus those deregistered recently); a missing ACN does not prove the company never existed.',
    'The file lists one row per company name; a renamed company is one row in `companies` with its former names.',
    'Status meanings are the usual ASIC ones (REGD registered, DRGD deregistered, EXAD external administration, SOFF strike-off action in progress, NOAC not active); ASIC\'s help file was not captured to confirm them.',
    'The ABN is blank for some companies.',
    'The file is about 400 MB: it is downloaded only when its ETag or Last-Modified changed since the last good run.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a night is the dataset page, one resource page and one file; nothing to overlap
    delayMs: 1000, // why: three requests a week to a government portal; a second apart costs nothing (a robots.txt Crawl-delay overrides it)
    maxRetries: 3, // why: downloads are served from object storage behind the portal, where a transient 5xx passes on retry
    timeoutSecs: 120, // why: the longest wait for the next bytes of the 400 MB file; a stalled transfer is retried rather than awaited
    handlerTimeoutSecs: 3600, // why: downloading and reading about four million rows takes minutes; an hour means something is wrong
  },
  start: (ctx) => [datasetRequest(ctx, DATASET_ID)],
  routes: registerRoutes({
    // "Company Dataset - Current" as a CSV; the same file zipped and the help file are listed beside it
    choose: (resources) => resources.filter((r) => r.format === 'csv' && /\bcurrent\b/i.test(r.name)).slice(0, 1),
    onFile: readRegister,
  }),
});

async function readRegister(fetched: Fetched, file: RegisterFile): Promise<void> {
  const asOf = fileDate(fetched, file);
  const problems = new ProblemTally();
  let lineNumber = 0;
  const lines = createInterface({ input: createReadStream(file.path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber++;
    if (lineNumber === 1) {
      checkHeader(line);
      continue;
    }
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    if (cells.length !== REGISTER_COLUMNS.length) {
      fetched.invalid(`line ${lineNumber}: ${cells.length} tab-separated fields where the register has ${REGISTER_COLUMNS.length}`);
      continue;
    }
    fetched.emit(mapRegisterRow(cells, { asOf, url: file.resource.pageUrl, problems, lineNumber }));
  }
  if (lineNumber === 0) throw new Error(`${file.downloadUrl} is empty`);
  problems.report(fetched, file.downloadUrl);
}

/** The header names the 15 columns in order (after the byte-order mark); anything else is a changed layout. */
function checkHeader(line: string): void {
  const headers = line.replace(/^\ufeff/, '').split('\t').map((header) => cleanText(header) ?? '');
  if (headers.join('|').toLowerCase() !== REGISTER_COLUMNS.join('|').toLowerCase()) {
    throw new Error(`the register's header is not the 15 columns it used to have: ${headers.join(' | ').slice(0, 300)}`);
  }
}

/** One tab-separated row (one name of one company) as a record. */
export function mapRegisterRow(cells: string[], context: { asOf: string; url: string; problems: ProblemTally; lineNumber: number }): CompanyRecord {
  const cell = (column: (typeof REGISTER_COLUMNS)[number]) => cleanText(cells[REGISTER_COLUMNS.indexOf(column)]);
  const date = (column: (typeof REGISTER_COLUMNS)[number]) => {
    const text = cell(column);
    if (!text) return null;
    const parsed = /^\d{2}\/\d{2}\/\d{4}$/.test(text) ? parseDayMonthYear(text) : null;
    if (!parsed) context.problems.add(`dates that are not DD/MM/YYYY (kept as null)`, `line ${context.lineNumber} ${column} "${text}"`);
    return parsed?.date ?? null;
  };
  const name = cell('Company Name') ?? '';
  const currentName = cell('Current Name');
  return {
    record_type: 'company',
    acn: cell('ACN') ?? '',
    name,
    is_current_name: cell('Current Name Indicator')?.toUpperCase() === 'Y',
    current_name: currentName === name ? null : currentName,
    current_name_start_date: date('Current Name Start Date'),
    type: cell('Type'),
    class: cell('Class'),
    sub_class: cell('Sub Class'),
    status: cell('Status')?.toUpperCase() ?? '',
    registered_date: date('Date of Registration'),
    deregistered_date: date('Date of Deregistration'),
    previous_state: cell('Previous State of Registration'),
    state_registration_number: cell('State Registration number'),
    abn: cell('ABN')?.replace(/\s+/g, '') ?? null,
    as_of: context.asOf,
    url: context.url,
  };
}
