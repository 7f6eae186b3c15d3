import { z } from 'zod';
import { JURISDICTIONS, TIERS } from '../../lib/jurisdictions.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date (YYYY-MM-DD)');
const isoInstant = z.iso.datetime({ offset: true });
const nonEmpty = z.string().trim().min(1);

/** A tender or grant round as a source publishes it. The pipeline adds key, source and first/last seen. */
export const TenderRecord = z.object({
  record_type: z.literal('tender'),
  kind: z.enum(['tender', 'grant']),
  title: nonEmpty,
  buyer: nonEmpty.nullable(),
  reference: nonEmpty.nullable(),
  jurisdiction: z.enum(JURISDICTIONS),
  tier: z.enum(TIERS),
  summary: z.string().nullable(),
  category: z.string().regex(/^\d{8}$/, 'an 8-digit UNSPSC code').nullable(),
  category_name: z.string().nullable(),
  notice_type: z.string().nullable(),
  published_date: isoDate.nullable(),
  closing_date: isoDate.nullable(),
  closing_at: isoInstant.nullable(),
  value_text: z.string().nullable(),
  url: z.url(),
  listing_url: z.url().nullable(),
});
export type TenderRecord = z.infer<typeof TenderRecord>;

/**
 * One OCDS-style contract release (original or amendment). `contract_id` is the base contract id (a trailing
 * `-A<n>` is tolerated); `amendment_id` names the amendment a release carries and `amends_release_id` the
 * release it amends. The award model keeps one row per chain, at the latest value.
 *
 * Award registers that are not OCDS (HTML, CSV, Socrata) publish one current state per contract. They map
 * it as: `ocid` = `<source id>:<contract id>`; `release_id` = `<ocid>:<16 hex of SHA-256 over the published
 * fields>` (so a changed value or end date becomes a new release of the same chain); `release_date` = the
 * notice's published or awarded instant, or the run clock when the register gives none; `release_tag` =
 * `contract`; `amendment_id` and `amends_release_id` null; `value_amount` the published amount as a plain
 * decimal ("$176,385.00 (Estimate)" → "176385.00"); `url` the contract's own page.
 */
export const AwardRecord = z.object({
  record_type: z.literal('award'),
  ocid: nonEmpty,
  release_id: nonEmpty,
  release_date: isoInstant,
  release_tag: nonEmpty,
  contract_id: nonEmpty,
  amendment_id: nonEmpty.nullable(),
  amends_release_id: nonEmpty.nullable(),
  jurisdiction: z.enum(JURISDICTIONS),
  buyer: nonEmpty,
  buyer_id: z.string().nullable(),
  supplier: z.string().nullable(),
  supplier_abn: z.string().regex(/^\d{11}$/, '11 digits').nullable(),
  supplier_id: z.string().nullable(),
  title: nonEmpty,
  /**
   * The buyer's own reference, when the source published it in place of a title (AusTender's purchase-order
   * numbers in `contract.title`); `title` then holds the subject. Left out by registers that publish none.
   */
  reference: nonEmpty.nullable().optional(),
  description: z.string().nullable(),
  value_amount: z.string().regex(/^-?\d+(\.\d+)?$/, 'a decimal amount as published').nullable(),
  value_currency: z.string().regex(/^[A-Z]{3}$/).nullable(),
  awarded_date: isoDate.nullable(),
  start_date: isoDate.nullable(),
  end_date: isoDate.nullable(),
  categories: z.array(z.string().regex(/^\d{8}$/)),
  procurement_method: z.string().nullable(),
  url: z.url(),
});
export type AwardRecord = z.infer<typeof AwardRecord>;

/**
 * A planned procurement: an annual procurement plan entry or a forward procurement notice. The window is
 * taken only from a period the source states in a form that can be read (a quarter, a month, a financial
 * year); otherwise both ends are null and `expected_period_text` keeps what was published. Never invented.
 */
export const PlanRecord = z.object({
  record_type: z.literal('plan'),
  plan_id: nonEmpty,
  title: nonEmpty,
  buyer: nonEmpty,
  jurisdiction: z.enum(JURISDICTIONS),
  tier: z.enum(TIERS),
  description: z.string().nullable(),
  category: z.string().regex(/^\d{8}$/, 'an 8-digit UNSPSC code').nullable(),
  category_name: z.string().nullable(),
  expected_period_text: z.string().nullable(),
  window_start: isoDate.nullable(),
  window_end: isoDate.nullable(),
  value_text: z.string().nullable(),
  /** The source's own word for the plan's state, e.g. "Current", "Released"; null when it prints none. */
  status: z.string().nullable(),
  /** True when the source marks the plan as released to market. */
  released: z.boolean(),
  /** True when the agency withdrew it: kept in the store, never returned as a signal. */
  withdrawn: z.boolean(),
  published_date: isoDate.nullable(),
  url: z.url(),
});
export type PlanRecord = z.infer<typeof PlanRecord>;

/**
 * One row of the ASIC company register: one name of one company, as the weekly file lists it. A renamed
 * company has a row per name, the current one marked; the `companies` model folds a company's rows into
 * one row per ACN with its former names (the file is ordered by name, so a company's rows are far apart
 * and folding them in the store is what keeps the crawl streaming).
 */
export const CompanyRecord = z.object({
  record_type: z.literal('company'),
  /** Nine digits, leading zeros kept: an ACN is an identifier, never a number. */
  acn: z.string().regex(/^\d{9}$/, '9 digits (an ACN keeps its leading zeros)'),
  name: nonEmpty,
  /** True on the row whose `name` is the company's current name (`Current Name Indicator = Y`). */
  is_current_name: z.boolean(),
  /** On a former-name row, the name the company now has; null on the current-name row. */
  current_name: nonEmpty.nullable(),
  current_name_start_date: isoDate.nullable(),
  /** ASIC's codes as published: type `APTY`/`APUB`, class `LMSH`, `LMGT`, …, sub class `PROP`, `PNPC`, …. */
  type: nonEmpty.nullable(),
  class: nonEmpty.nullable(),
  sub_class: nonEmpty.nullable(),
  /** `REGD`, `DRGD`, `EXAD`, `SOFF`, `NOAC` (meanings in data/README.md). */
  status: z.string().regex(/^[A-Z]{4}$/, 'a four-letter ASIC status code'),
  registered_date: isoDate.nullable(),
  deregistered_date: isoDate.nullable(),
  previous_state: nonEmpty.nullable(),
  state_registration_number: nonEmpty.nullable(),
  abn: z.string().regex(/^\d{11}$/, '11 digits').nullable(),
  /** The date of the file the row came from. */
  as_of: isoDate,
  /** The public page of the file the row came from (the register has no stable page per company). */
  url: z.url(),
});
export type CompanyRecord = z.infer<typeof CompanyRecord>;

/**
 * One entity of the ABN bulk extract. Personal information is not kept: for an individual (sole trader)
 * the register publishes a given and family name and a business postcode, which would make this a list of
 * people and roughly where they live; neither is needed to resolve a supplier (awards carry the ABN). So an
 * individual keeps its ABN, status, entity type, state and the business names it trades under (names it
 * registered to trade publicly), and `name` and `postcode` are null. The schema refuses anything else.
 */
export const AbnRecord = z
  .object({
    record_type: z.literal('abn'),
    abn: z.string().regex(/^\d{11}$/, '11 digits'),
    /** `ACT` (active) or `CAN` (cancelled). */
    abn_status: z.enum(['ACT', 'CAN']),
    abn_status_from: isoDate.nullable(),
    /** The register's entity type code (`PRV`, `PUB`, `IND`, `DIT`, …) and its wording. */
    entity_type_code: nonEmpty,
    entity_type: nonEmpty.nullable(),
    individual: z.boolean(),
    /** The main (legal) name of a non-individual; null for an individual. */
    name: nonEmpty.nullable(),
    state: nonEmpty.nullable(),
    postcode: z.string().regex(/^\d{4}$/, 'a four-digit postcode').nullable(),
    /** The ASIC number the register links (an ACN, ARBN or ARSN: nine digits). */
    asic_number: z.string().regex(/^\d{9}$/, '9 digits').nullable(),
    /** `ACT`, `CAN` or `NON` (never registered for GST). */
    gst_status: nonEmpty.nullable(),
    gst_status_from: isoDate.nullable(),
    trading_names: z.array(nonEmpty),
    business_names: z.array(nonEmpty),
    other_names: z.array(nonEmpty),
    record_updated: isoDate.nullable(),
    /** The extract's date. */
    as_of: isoDate,
    /** The entity's page on ABN Lookup. */
    url: z.url(),
  })
  .refine((record) => !record.individual || (record.name === null && record.postcode === null), {
    message: 'an individual keeps no name or postcode (personal information)',
    path: ['name'],
  });
export type AbnRecord = z.infer<typeof AbnRecord>;

const partialDate = z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'a date as precise as published: YYYY, YYYY-MM or YYYY-MM-DD');

/**
 * One name row of a sanctions list, as the lists publish them: DFAT one row per name (reference `101`, its
 * aliases `101a`, `101b`), OFAC's SDN.CSV the primary name and ALT.CSV the aliases, the UN one record per party
 * (mapped to a primary row and a row per alias). The `sanctions_entries` model folds a party's rows into one
 * entry by `entry_id`; a column any row of the party carries is the party's (DFAT fills some on alias rows
 * only). Columns a row does not publish are empty, never guessed.
 */
export const SanctionRecord = z.object({
  record_type: z.literal('sanction'),
  /** The list's own name, e.g. "Australian Sanctions Consolidated List". */
  list_name: nonEmpty,
  /** The list's identifier of the party (DFAT reference without its letter, OFAC ent_num, UN reference number). */
  entry_id: nonEmpty,
  /** `primary` (the listed name), `alias` (a strong or unqualified alias) or `weak_alias` (graded weak or low by the list). */
  name_type: z.enum(['primary', 'alias', 'weak_alias']),
  /** Null on a row that does not say (OFAC's ALT.CSV rows). */
  entity_type: z.enum(['person', 'organisation', 'vessel', 'aircraft']).nullable(),
  name: nonEmpty,
  dates_of_birth: z.array(partialDate),
  nationalities: z.array(nonEmpty),
  /** Countries of address and of birth. */
  countries: z.array(nonEmpty),
  /** The regime, committee or programme the party is listed under. */
  programmes: z.array(nonEmpty),
  listed_on: isoDate.nullable(),
  /** The date of the file the row came from. */
  as_of: isoDate,
  /** The public address of the file the row came from. */
  url: z.url(),
});
export type SanctionRecord = z.infer<typeof SanctionRecord>;

export const SourceRecord = z.discriminatedUnion('record_type', [TenderRecord, AwardRecord, PlanRecord, CompanyRecord, AbnRecord, SanctionRecord]);
export type SourceRecord = z.infer<typeof SourceRecord>;
