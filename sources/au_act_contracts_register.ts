import { defineSource, type Fetched } from './_contract/define-source.ts';
import type { AwardRecord } from './_contract/records.ts';
import { SOCRATA_LABEL, socrataPageRoute, socrataStart, type SocrataOptions, type SocrataRow } from './_platforms/socrata.ts';
import { sha256Hex } from '../lib/hash.ts';
import { timeZoneOf, zonedTimeToUtc } from '../lib/jurisdictions.ts';
import { cleanText } from '../lib/text.ts';

const SOURCE_ID = 'au_act_contracts_register';
const ORIGIN = 'https://www.data.act.gov.au';
const DATASET_ID = 'pfs5-8d64';
const CANBERRA = timeZoneOf('AU-ACT');

/** The whole register, newest execution first, 1,000 rows a request: about ten requests a night. */
export const ACT_REGISTER: SocrataOptions = {
  datasetId: DATASET_ID,
  pageSize: 1000,
  // why: Socrata's row id :id breaks ties between rows executed on the same day, so offsets never skip or repeat a row
  order: 'execution_date DESC, :id',
  onRows: emitAwards,
};

export default defineSource({
  id: SOURCE_ID,
  tag: 'ACTCR',
  name: 'ACT Government contracts register',
  jurisdiction: 'AU-ACT',
  tier: 'state',
  kinds: ['award'],
  mode: 'json-api',
  origin: ORIGIN,
  homepage: `${ORIGIN}/d/${DATASET_ID}`,
  licence:
    'Creative Commons Attribution 4.0 (CC BY 4.0), the licence the ACT Government open data portal publishes its datasets under; not confirmed for this dataset from a capture.',
  attribution: 'ACT Government contracts register, ACT Government (Procurement ACT), published on the ACT Government open data portal (www.data.act.gov.au).',
  caveats: [
    'Contracts of $25,000 and over executed by ACT directorates since 2016 are registered, after execution; an award can appear weeks after it was signed.',
    'Values are kept as published (contract_amount, else original_amount); the register\'s gst field says whether each amount includes GST, and it varies by row.',
    'The register has no start date: awarded_date is the execution date and end_date the expiry date.',
    'brief_description_of_contract is cut short in the register (about 30 characters) and is kept as published.',
    'A variation is a later row with the same contract_number: it becomes a new release of that contract, which stands at its latest row.',
    'Records link to the contract\'s rows in the SODA API, the register having no page per contract.',
  ],
  politeness: {
    maxConcurrency: 1, // why: each offset follows from the previous page being full, so there is never a second request to overlap
    delayMs: 1000, // why: SODA throttles anonymous callers without an app token; one request a second stays well inside that for ten pages
    maxRetries: 3, // why: SODA answers 429 and brief 5xx under load; three tries with backoff ride them out
    timeoutSecs: 60, // why: a page is 1,000 rows (about a megabyte); a minute allows a slow query without hiding a dead host
  },
  start: (ctx) => socrataStart(ctx, ACT_REGISTER),
  routes: { [SOCRATA_LABEL]: socrataPageRoute(ACT_REGISTER) },
});

function emitAwards(fetched: Fetched, rows: SocrataRow[]): void {
  for (const row of rows) {
    const { record, warnings, unreadable } = mapRegisterRow(row, fetched.ctx.now);
    if (unreadable) fetched.invalid(unreadable);
    for (const warning of warnings) fetched.warn(warning);
    if (record) fetched.emit(record);
  }
}

/** One register row as an award under the convention for registers that are not OCDS. */
export function mapRegisterRow(row: SocrataRow, now: Date): { record: AwardRecord | null; warnings: string[]; unreadable?: string } {
  const field = (name: string) => (typeof row[name] === 'string' || typeof row[name] === 'number' ? cleanText(String(row[name])) : null);
  const contractId = field('contract_number');
  if (!contractId) {
    return { record: null, warnings: [], unreadable: `register row without a contract_number: ${field('contract_title') ?? '(untitled)'}, ${field('contractor_name') ?? '(no contractor)'}` };
  }
  const warnings: string[] = [];
  const ocid = `${SOURCE_ID}:${contractId}`;
  const published = Object.keys(row)
    .sort()
    .map((name) => [name, field(name)]);
  const executed = floatingDate(field('execution_date'));
  const amountText = field('contract_amount') ?? field('original_amount');
  const amount = amountText !== null && /^-?\d+(\.\d+)?$/.test(amountText) ? amountText : null;
  if (amountText !== null && amount === null) warnings.push(`contract ${contractId}: amount "${amountText}" is not a decimal; recorded without one`);
  const identity = supplierIdentity(field('abn'), contractId, warnings);
  const unspsc = /UNSPSC:\s*(\d{8})\b/.exec(field('unspsc_classification') ?? '');
  return {
    warnings,
    record: {
      record_type: 'award',
      ocid,
      release_id: `${ocid}:${sha256Hex(JSON.stringify(published)).slice(0, 16)}`,
      release_date: executed ? zonedTimeToUtc(executed, '00:00', CANBERRA).toISOString() : now.toISOString(),
      release_tag: 'contract',
      contract_id: contractId,
      amendment_id: null,
      amends_release_id: null,
      jurisdiction: 'AU-ACT',
      buyer: field('directorate') ?? '',
      buyer_id: null,
      supplier: field('contractor_name'),
      supplier_abn: identity.abn,
      supplier_id: identity.id,
      title: field('contract_title') ?? field('brief_description_of_contract') ?? '',
      description: field('brief_description_of_contract'),
      value_amount: amount,
      value_currency: amount === null ? null : 'AUD',
      awarded_date: executed,
      start_date: null,
      end_date: floatingDate(field('expiry_date')),
      categories: unspsc ? [unspsc[1]!] : [],
      procurement_method: field('procurement_methodology'),
      url: `${ORIGIN}/resource/${DATASET_ID}.json?contract_number=${encodeURIComponent(contractId)}`,
    },
  };
}

/** Socrata's floating timestamps ("2026-08-14T00:00:00.000") are Canberra wall time; the date is their first ten characters. */
function floatingDate(value: string | null): string | null {
  return value && /^\d{4}-\d{2}-\d{2}(?:T|$)/.test(value) ? value.slice(0, 10) : null;
}

/** The register's `abn` field: an ABN, spaced or not; an ACN (9 digits) is kept as the supplier's id instead. */
function supplierIdentity(text: string | null, contractId: string, warnings: string[]): { abn: string | null; id: string | null } {
  if (!text) return { abn: null, id: null };
  const digits = text.replace(/\s+/g, '');
  if (/^\d{11}$/.test(digits)) return { abn: digits, id: null };
  if (/^\d{9}$/.test(digits)) return { abn: null, id: `AU-ACN-${digits}` };
  warnings.push(`contract ${contractId}: abn "${text}" is neither an ABN nor an ACN; recorded without one`);
  return { abn: null, id: null };
}
