import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { AwardRecord } from './_contract/records.ts';
import { ckanCsvRoutes, ckanDatasetRequest, type CkanResource, type CsvRow } from './_platforms/ckan.ts';
import { sha256Hex } from '../lib/hash.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { cleanText, parseDayMonthYear } from '../lib/text.ts';

const SOURCE_ID = 'au_qld_contract_disclosure';
const QLD_TIME_ZONE = timeZoneOf('AU-QLD');
/** The dataset is TMR's own disclosure, so a row that leaves the agency blank is TMR's, named as its rows name it. */
const PUBLISHER = 'Transport and Main Roads';

/** The disclosure columns under the Queensland Procurement Policy, as TMR's CSVs head them. */
const COLUMN = {
  agency: 'Agency (Dept or Stat Body)',
  title: 'Contract description/name',
  awarded: 'Award contract date',
  value: 'Contract value',
  supplier: 'Supplier name',
  method: 'Procurement method',
  deliverables: 'Deliverables',
  reference: 'Contract reference number',
  start: 'Commence date',
  supplierAbn: 'Supplier ABN',
  finish: 'Finish date',
} as const;

export default defineSource({
  id: SOURCE_ID,
  tag: 'QLDCD',
  name: 'Queensland contract disclosure (Transport and Main Roads)',
  jurisdiction: 'AU-QLD',
  tier: 'state',
  kinds: ['award'],
  mode: 'csv',
  origin: 'https://www.data.qld.gov.au',
  homepage: 'https://www.data.qld.gov.au/dataset/tmr-contract-disclosure',
  licence:
    'Creative Commons Attribution 4.0 (CC BY 4.0), the licence data.qld.gov.au datasets are generally published under; the dataset page states the licence, and this one was not confirmed from a capture.',
  attribution: 'Contract disclosure data © State of Queensland (Department of Transport and Main Roads), published on the Queensland Government Open Data Portal (data.qld.gov.au).',
  caveats: [
    'Only TMR publishes this dataset; other Queensland agencies publish their own disclosure datasets with differing columns and are not collected.',
    'Contracts over $10,000 are disclosed, in CSVs per financial year updated about monthly, so an award can appear weeks after it was made; the two newest years are read each night.',
    'Values are kept as published; the register does not say whether an amount includes GST unless the cell does, and a schedule-of-rates contract has no amount.',
    'A variation is a later row with the same contract reference number: it becomes a new release of that contract, and the contract stands at its latest row.',
    'A row without a contract reference number is keyed by agency, supplier, description and award date ("unnumbered-…").',
    'The dataset page, resource page and CSV markup are unverified: no public capture of them was found, so the fixtures follow the CKAN templates the portal runs and the column headers other projects record.',
    'data.qld.gov.au disallows /api/ in robots.txt to every crawler but Google\'s, so resources are found from the dataset and resource pages, not the CKAN action API.',
  ],
  politeness: {
    maxConcurrency: 1, // why: a night is five requests (dataset page, two resource pages, two CSVs); nothing to gain from overlap
    delayMs: 10_000, // why: data.qld.gov.au's robots.txt asks every crawler for Crawl-Delay: 10, so the five requests take under a minute
    maxRetries: 3, // why: the portal's downloads are redirected to S3, where a transient 5xx passes on retry
    timeoutSecs: 120, // why: a financial year's CSV can run to several megabytes; two minutes allows a slow download without hiding a dead host
  },
  start: (ctx) => [ckanDatasetRequest(ctx, 'tmr-contract-disclosure')],
  routes: ckanCsvRoutes({ newestYears: 2, onRows: emitAwards }),
});

function emitAwards(fetched: Fetched, rows: CsvRow[], resource: CkanResource): void {
  if (rows.length > 0 && !(COLUMN.title in rows[0]!)) {
    throw new Error(`"${resource.name}" has no "${COLUMN.title}" column: the disclosure CSV layout changed`);
  }
  for (const [index, row] of rows.entries()) {
    const { record, warnings } = mapDisclosureRow(row, resource, fetched.ctx.now);
    for (const warning of warnings) fetched.warn(`${resource.name} row ${index + 2}: ${warning}`);
    fetched.emit(record);
  }
}

/** One disclosure row as an award under the convention for registers that are not OCDS. */
export function mapDisclosureRow(row: CsvRow, resource: CkanResource, now: Date): { record: AwardRecord; warnings: string[] } {
  const warnings: string[] = [];
  const cell = (column: string) => cleanText(row[column]);
  const buyer = cell(COLUMN.agency) ?? PUBLISHER;
  const title = cell(COLUMN.title) ?? '';
  const supplier = cell(COLUMN.supplier);
  const awardedDate = registerDate(cell(COLUMN.awarded));
  const contractId = cell(COLUMN.reference) ?? `unnumbered-${sha256Hex([buyer, supplier ?? '', title, awardedDate ?? ''].join('\u001f')).slice(0, 16)}`;
  const ocid = `${SOURCE_ID}:${contractId}`;
  // Sorted by column, so a file that reorders its columns does not make every contract look changed.
  const published = Object.keys(row)
    .sort()
    .map((column) => [column, cleanText(row[column])]);
  const identity = supplierIdentity(cell(COLUMN.supplierAbn), warnings);
  const valueText = cell(COLUMN.value);
  const valueAmount = plainAmount(valueText);
  if (valueText && valueAmount === null) warnings.push(`contract value "${valueText}" is not an amount; recorded without one`);
  return {
    warnings,
    record: {
      record_type: 'award',
      ocid,
      release_id: `${ocid}:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`,
      release_date: awardedDate ? zonedTimeToUtc(awardedDate, '00:00', QLD_TIME_ZONE).toISOString() : now.toISOString(),
      release_tag: 'contract',
      contract_id: contractId,
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-QLD',
      buyer,
      buyer_id: null,
      supplier,
      supplier_abn: identity.abn,
      supplier_id: identity.id,
      title,
      description: cell(COLUMN.deliverables),
      value_amount: valueAmount,
      value_currency: valueAmount === null ? null : 'AUD',
      awarded_date: awardedDate,
      start_date: registerDate(cell(COLUMN.start)),
      end_date: registerDate(cell(COLUMN.finish)),
      categories: [],
      procurement_method: cell(COLUMN.method),
      url: resource.pageUrl,
    },
  };
}

/** The register's dates: "14/08/2026" or "1/7/2026" (day first), or ISO "2026-08-14". */
function registerDate(text: string | null): string | null {
  if (!text) return null;
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(text);
  if (iso) return iso[1]!;
  return /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(text) ? (parseDayMonthYear(text)?.date ?? null) : null;
}

/** "$1,234,567.00 (inc GST)" → "1234567.00", "875619" → "875619"; words such as "Schedule of rates" → null. */
export function plainAmount(text: string | null): string | null {
  if (!text) return null;
  const match = /^\$?\s*(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)\s*(?:\((?:inc|incl|ex|excl)\.?\s+GST\)|(?:inc|incl|ex|excl)\.?\s+GST|AUD)?$/i.exec(text);
  return match ? match[1]!.replace(/,/g, '') : null;
}

/** The "Supplier ABN" cell: an ABN (11 digits), or an ACN (9 digits) that agencies sometimes enter there instead. */
function supplierIdentity(text: string | null, warnings: string[]): { abn: string | null; id: string | null } {
  if (!text) return { abn: null, id: null };
  const digits = text.replace(/\s+/g, '');
  if (/^\d{11}$/.test(digits)) return { abn: digits, id: null };
  if (/^\d{9}$/.test(digits)) return { abn: null, id: `AU-ACN-${digits}` };
  warnings.push(`supplier ABN "${text}" is neither an ABN nor an ACN; recorded without one`);
  return { abn: null, id: null };
}
