/**
 * The release store's tables. Column order here is the order in DuckDB and Parquet; every column is
 * documented in data/README.md (a test compares the two). Bump SCHEMA_VERSION when a column changes.
 */
export const SCHEMA_VERSION = 7;

export const TENDER_COLUMNS = {
  tender_key: 'VARCHAR NOT NULL',
  source: 'VARCHAR NOT NULL',
  source_tag: 'VARCHAR NOT NULL',
  kind: 'VARCHAR NOT NULL',
  title: 'VARCHAR NOT NULL',
  buyer: 'VARCHAR',
  buyer_key: 'VARCHAR',
  reference: 'VARCHAR',
  jurisdiction: 'VARCHAR NOT NULL',
  tier: 'VARCHAR NOT NULL',
  summary: 'VARCHAR',
  category: 'VARCHAR',
  category_name: 'VARCHAR',
  trade: 'VARCHAR',
  notice_type: 'VARCHAR',
  published_date: 'DATE',
  closing_date: 'DATE',
  closing_at: 'TIMESTAMPTZ',
  value_text: 'VARCHAR',
  url: 'VARCHAR NOT NULL',
  listing_url: 'VARCHAR',
  content_hash: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  last_seen: 'TIMESTAMPTZ NOT NULL',
  dates_changed_at: 'TIMESTAMPTZ',
  stale: 'BOOLEAN NOT NULL',
} as const;

export const TENDER_CHANGE_COLUMNS = {
  tender_key: 'VARCHAR NOT NULL',
  source: 'VARCHAR NOT NULL',
  changed_at: 'TIMESTAMPTZ NOT NULL',
  field: 'VARCHAR NOT NULL',
  old_value: 'VARCHAR',
  new_value: 'VARCHAR',
} as const;

export const AWARD_RELEASE_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  ocid: 'VARCHAR NOT NULL',
  release_id: 'VARCHAR NOT NULL',
  release_date: 'TIMESTAMPTZ NOT NULL',
  release_tag: 'VARCHAR NOT NULL',
  contract_id: 'VARCHAR NOT NULL',
  amendment_id: 'VARCHAR',
  amends_release_id: 'VARCHAR',
  jurisdiction: 'VARCHAR NOT NULL',
  buyer: 'VARCHAR NOT NULL',
  buyer_id: 'VARCHAR',
  supplier: 'VARCHAR',
  supplier_abn: 'VARCHAR',
  supplier_id: 'VARCHAR',
  title: 'VARCHAR NOT NULL',
  reference: 'VARCHAR',
  description: 'VARCHAR',
  value_amount: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
  awarded_date: 'DATE',
  start_date: 'DATE',
  end_date: 'DATE',
  categories: 'VARCHAR[] NOT NULL',
  trade: 'VARCHAR',
  procurement_method: 'VARCHAR',
  procurement_method_details: 'VARCHAR',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
} as const;

export const AWARD_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  contract_id: 'VARCHAR NOT NULL',
  ocid: 'VARCHAR NOT NULL',
  latest_release_id: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  buyer: 'VARCHAR NOT NULL',
  buyer_key: 'VARCHAR',
  buyer_id: 'VARCHAR',
  supplier: 'VARCHAR',
  supplier_abn: 'VARCHAR',
  supplier_id: 'VARCHAR',
  supplier_key: 'VARCHAR',
  title: 'VARCHAR NOT NULL',
  reference: 'VARCHAR',
  description: 'VARCHAR',
  value_amount: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
  original_value_amount: 'DECIMAL(18,2)',
  amendment_count: 'INTEGER NOT NULL',
  awarded_date: 'DATE',
  start_date: 'DATE',
  end_date: 'DATE',
  award_day: 'DATE NOT NULL',
  categories: 'VARCHAR[] NOT NULL',
  trade: 'VARCHAR',
  procurement_method: 'VARCHAR',
  procurement_method_details: 'VARCHAR',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  last_changed: 'TIMESTAMPTZ NOT NULL',
  stale: 'BOOLEAN NOT NULL',
} as const;

export const PLAN_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  plan_id: 'VARCHAR NOT NULL',
  title: 'VARCHAR NOT NULL',
  buyer: 'VARCHAR NOT NULL',
  buyer_key: 'VARCHAR',
  jurisdiction: 'VARCHAR NOT NULL',
  tier: 'VARCHAR NOT NULL',
  description: 'VARCHAR',
  category: 'VARCHAR',
  category_name: 'VARCHAR',
  trade: 'VARCHAR',
  expected_period_text: 'VARCHAR',
  window_start: 'DATE',
  window_end: 'DATE',
  value_text: 'VARCHAR',
  status: 'VARCHAR',
  released: 'BOOLEAN NOT NULL',
  withdrawn: 'BOOLEAN NOT NULL',
  published_date: 'DATE',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  last_seen: 'TIMESTAMPTZ NOT NULL',
  stale: 'BOOLEAN NOT NULL',
} as const;

/** One row per company (ACN) of a company register, folded from the register's one row per name. */
export const COMPANY_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  acn: 'VARCHAR NOT NULL',
  name: 'VARCHAR NOT NULL',
  former_names: 'VARCHAR[] NOT NULL',
  name_start_date: 'DATE',
  type: 'VARCHAR',
  class: 'VARCHAR',
  sub_class: 'VARCHAR',
  status: 'VARCHAR NOT NULL',
  status_meaning: 'VARCHAR',
  registered_date: 'DATE',
  deregistered_date: 'DATE',
  previous_state: 'VARCHAR',
  state_registration_number: 'VARCHAR',
  abn: 'VARCHAR',
  as_of: 'DATE NOT NULL',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  stale: 'BOOLEAN NOT NULL',
} as const;

/** One row per ABN of the ABN bulk extract; individuals keep no name or postcode. */
export const ABN_ENTITY_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  abn: 'VARCHAR NOT NULL',
  abn_status: 'VARCHAR NOT NULL',
  abn_status_from: 'DATE',
  entity_type_code: 'VARCHAR NOT NULL',
  entity_type: 'VARCHAR',
  individual: 'BOOLEAN NOT NULL',
  name: 'VARCHAR',
  state: 'VARCHAR',
  postcode: 'VARCHAR',
  asic_number: 'VARCHAR',
  gst_status: 'VARCHAR',
  gst_status_from: 'DATE',
  trading_names: 'VARCHAR[] NOT NULL',
  business_names: 'VARCHAR[] NOT NULL',
  other_names: 'VARCHAR[] NOT NULL',
  record_updated: 'DATE',
  as_of: 'DATE NOT NULL',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  stale: 'BOOLEAN NOT NULL',
} as const;

/** One row per party of a sanctions list (data/models/sanctions_entries.sql); the screening index reads it. */
export const SANCTIONS_ENTRY_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  list_name: 'VARCHAR NOT NULL',
  entry_id: 'VARCHAR NOT NULL',
  entity_type: 'VARCHAR NOT NULL',
  name: 'VARCHAR NOT NULL',
  aliases: 'VARCHAR[] NOT NULL',
  weak_aliases: 'VARCHAR[] NOT NULL',
  dates_of_birth: 'VARCHAR[] NOT NULL',
  nationalities: 'VARCHAR[] NOT NULL',
  countries: 'VARCHAR[] NOT NULL',
  programmes: 'VARCHAR[] NOT NULL',
  listed_on: 'DATE',
  as_of: 'DATE NOT NULL',
  url: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  stale: 'BOOLEAN NOT NULL',
} as const;

/** The ETag and Last-Modified of each snapshot file, sent as If-None-Match / If-Modified-Since next run. */
export const HTTP_VALIDATOR_COLUMNS = {
  source: 'VARCHAR NOT NULL',
  url: 'VARCHAR NOT NULL',
  etag: 'VARCHAR',
  last_modified: 'VARCHAR',
  fetched_at: 'TIMESTAMPTZ NOT NULL',
} as const;

export const SOURCE_COLUMNS = {
  id: 'VARCHAR NOT NULL',
  tag: 'VARCHAR NOT NULL',
  name: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  tier: 'VARCHAR NOT NULL',
  kinds: 'VARCHAR[] NOT NULL',
  mode: 'VARCHAR NOT NULL',
  refresh: 'VARCHAR NOT NULL',
  homepage: 'VARCHAR NOT NULL',
  licence: 'VARCHAR NOT NULL',
  attribution: 'VARCHAR NOT NULL',
  caveats: 'VARCHAR[] NOT NULL',
  status: 'VARCHAR NOT NULL',
  why: 'VARCHAR',
  tender_count: 'INTEGER NOT NULL',
  award_count: 'INTEGER NOT NULL',
  plan_count: 'INTEGER NOT NULL',
  reference_count: 'INTEGER NOT NULL',
  last_run_at: 'TIMESTAMPTZ',
  last_success_at: 'TIMESTAMPTZ',
  records_new: 'INTEGER NOT NULL',
  records_updated: 'INTEGER NOT NULL',
  records_closed: 'INTEGER NOT NULL',
  records_invalid: 'INTEGER NOT NULL',
  pages: 'INTEGER NOT NULL',
  errors: 'INTEGER NOT NULL',
  duration_ms: 'INTEGER NOT NULL',
} as const;

/**
 * Forward-looking signals (data/models/signals.sql): contract expiries, planned procurements and recurring
 * tenders. `evidence_url` and `incumbent` are for identified callers only.
 */
export const SIGNAL_COLUMNS = {
  signal_id: 'VARCHAR NOT NULL',
  kind: 'VARCHAR NOT NULL',
  confidence: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  buyer: 'VARCHAR',
  buyer_key: 'VARCHAR',
  subject: 'VARCHAR NOT NULL',
  category: 'VARCHAR',
  trade: 'VARCHAR',
  window_start: 'DATE',
  window_end: 'DATE',
  quarter: 'VARCHAR',
  value_text: 'VARCHAR',
  value_amount: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
  evidence_ref: 'VARCHAR NOT NULL',
  evidence_url: 'VARCHAR',
  incumbent: 'VARCHAR',
  status: 'VARCHAR NOT NULL',
  released: 'BOOLEAN NOT NULL',
  source: 'VARCHAR NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  occurrences: 'INTEGER',
  interval_days: 'INTEGER',
} as const;

/** One row per trade and jurisdiction with contracts dated in the year to the run (data/models/trade_pairs.sql). */
export const TRADE_PAIR_COLUMNS = {
  trade: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  year_from: 'DATE NOT NULL',
  year_to: 'DATE NOT NULL',
  year_awards: 'INTEGER NOT NULL',
  suppliers: 'INTEGER NOT NULL',
  top_supplier_share: 'DOUBLE',
  top_five_share: 'DOUBLE',
} as const;

/** Buyers of a trade in a jurisdiction over the year to the run (data/models/trade_buyers.sql). */
export const TRADE_BUYER_COLUMNS = {
  trade: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  buyer_key: 'VARCHAR',
  buyer: 'VARCHAR NOT NULL',
  awards: 'INTEGER NOT NULL',
  value_total: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
} as const;

/** The ten biggest holders of a trade's contracts in a jurisdiction over the year to the run (data/models/trade_suppliers.sql). */
export const TRADE_SUPPLIER_COLUMNS = {
  trade: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  supplier_key: 'VARCHAR',
  supplier: 'VARCHAR NOT NULL',
  awards: 'INTEGER NOT NULL',
  share: 'DOUBLE NOT NULL',
  value_total: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
  rank: 'INTEGER NOT NULL',
} as const;

/** One row per buyer key (one published spelling in one jurisdiction), with its nightly figures (data/models/buyers.sql). */
export const BUYER_COLUMNS = {
  buyer_key: 'VARCHAR NOT NULL',
  name: 'VARCHAR NOT NULL',
  slug: 'VARCHAR NOT NULL',
  jurisdiction: 'VARCHAR NOT NULL',
  country: 'VARCHAR NOT NULL',
  award_count: 'INTEGER NOT NULL',
  window_from: 'DATE NOT NULL',
  open_tenders: 'INTEGER NOT NULL',
  expiring_12m: 'INTEGER NOT NULL',
  planned_12m: 'INTEGER NOT NULL',
  median_value: 'DECIMAL(18,2)',
  p25_value: 'DECIMAL(18,2)',
  p75_value: 'DECIMAL(18,2)',
  value_total: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
  value_count: 'INTEGER NOT NULL',
  median_response_days: 'DOUBLE',
  listed: 'BOOLEAN NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
  sources: 'VARCHAR[] NOT NULL',
} as const;

/** One row per supplier identifier (`AU-ABN:<abn>`, or `<scheme>:<id>`), with its contracts and register standing (data/models/suppliers.sql). */
export const SUPPLIER_COLUMNS = {
  supplier_key: 'VARCHAR NOT NULL',
  scheme: 'VARCHAR NOT NULL',
  identifier: 'VARCHAR NOT NULL',
  name: 'VARCHAR',
  names: 'VARCHAR[] NOT NULL',
  contract_count: 'INTEGER NOT NULL',
  buyer_count: 'INTEGER NOT NULL',
  value_totals: 'STRUCT(currency VARCHAR, amount DECIMAL(18,2), contracts INTEGER)[] NOT NULL',
  categories: 'VARCHAR[] NOT NULL',
  first_awarded: 'DATE',
  last_awarded: 'DATE',
  jurisdictions: 'VARCHAR[] NOT NULL',
  abn_status: 'VARCHAR',
  abn_status_from: 'DATE',
  entity_type: 'VARCHAR',
  gst_status: 'VARCHAR',
  gst_status_from: 'DATE',
  abn_name: 'VARCHAR',
  abn_as_of: 'DATE',
  acn: 'VARCHAR',
  company_name: 'VARCHAR',
  company_status: 'VARCHAR',
  company_status_meaning: 'VARCHAR',
  company_registered_date: 'DATE',
  company_deregistered_date: 'DATE',
  company_as_of: 'DATE',
  sources: 'VARCHAR[] NOT NULL',
  first_seen: 'TIMESTAMPTZ NOT NULL',
} as const;

/** Registry statuses, documented in data/README.md. */
export const SOURCE_STATUSES = ['ok', 'empty', 'error', 'stale', 'login_walled', 'robots_refused', 'not_run'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** One row per award and distinct title word: the index of the title-keyword heuristic (data/models/award_terms.sql). */
export const AWARD_TERM_COLUMNS = {
  term: 'VARCHAR NOT NULL',
  source: 'VARCHAR NOT NULL',
  contract_id: 'VARCHAR NOT NULL',
  country: 'VARCHAR NOT NULL',
  award_day: 'DATE NOT NULL',
  value_amount: 'DECIMAL(18,2)',
  value_currency: 'VARCHAR',
} as const;

/** One row per tender (not grant) and distinct title word: the index of similar open tenders (data/models/tender_terms.sql). */
export const TENDER_TERM_COLUMNS = {
  term: 'VARCHAR NOT NULL',
  tender_key: 'VARCHAR NOT NULL',
  country: 'VARCHAR NOT NULL',
} as const;

/** One row per company register name and distinct word: the index of company name search (data/models/company_name_terms.sql). */
export const COMPANY_NAME_TERM_COLUMNS = {
  term: 'VARCHAR NOT NULL',
  register: 'VARCHAR NOT NULL',
  key: 'VARCHAR NOT NULL',
  name: 'VARCHAR NOT NULL',
  kind: 'VARCHAR NOT NULL',
} as const;

export const TABLES = {
  tenders: TENDER_COLUMNS,
  tender_changes: TENDER_CHANGE_COLUMNS,
  award_releases: AWARD_RELEASE_COLUMNS,
  awards: AWARD_COLUMNS,
  plans: PLAN_COLUMNS,
  companies: COMPANY_COLUMNS,
  abn_entities: ABN_ENTITY_COLUMNS,
  sanctions_entries: SANCTIONS_ENTRY_COLUMNS,
  company_name_terms: COMPANY_NAME_TERM_COLUMNS,
  http_validators: HTTP_VALIDATOR_COLUMNS,
  sources: SOURCE_COLUMNS,
  buyers: BUYER_COLUMNS,
  suppliers: SUPPLIER_COLUMNS,
  signals: SIGNAL_COLUMNS,
  trade_pairs: TRADE_PAIR_COLUMNS,
  trade_buyers: TRADE_BUYER_COLUMNS,
  trade_suppliers: TRADE_SUPPLIER_COLUMNS,
  award_terms: AWARD_TERM_COLUMNS,
  tender_terms: TENDER_TERM_COLUMNS,
} as const;
export type TableName = keyof typeof TABLES;

export function createTableSql(name: string, columns: Record<string, string>): string {
  return `CREATE TABLE ${name} (${Object.entries(columns).map(([column, type]) => `${column} ${type}`).join(', ')})`;
}
