/**
 * The OCDS family: publishers of Open Contracting Data Standard release packages paged with the `links.next`
 * extension. A publisher's deviations from the standard are options here, so a new OCDS source is configuration.
 */
import { z } from 'zod';
import { localDate, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { cleanText } from '../../lib/text.ts';
import type { RouteHandler } from '../_contract/define-source.ts';
import type { AwardRecord } from '../_contract/records.ts';

export interface OcdsReleaseOptions {
  jurisdiction: Jurisdiction;
  /** The party role naming the buyer: `buyer` in standard OCDS; some publishers only mark a `procuringEntity`. */
  buyerRole: string;
  /** Calendar dates are the day an instant falls on here, since publishers send local midnight as a UTC instant. */
  timeZone: string;
  /** The identifier scheme carrying a supplier's ABN (`AU-ABN`), or null for a publisher without ABNs. */
  supplierAbnScheme: string | null;
  /** Agency ABNs that agencies type into the supplier field; they never identify the supplier. */
  agencyAbns: readonly string[];
  /** The classification scheme whose item codes become the record's categories (`UNSPSC`). */
  categoryScheme: string;
  /** The public address a person can open for one contract. */
  contractUrl(contractId: string): string;
}

export interface OcdsFamilyOptions extends OcdsReleaseOptions {
  /** The query parameter of `links.next` that carries the page cursor. */
  cursorParameter: string;
}

const text = z.string().nullish();
const identifierValue = z.union([z.string(), z.number()]).transform(String);

const Identifier = z.looseObject({ scheme: text, id: identifierValue.nullish() });
const Party = z.looseObject({
  id: identifierValue,
  name: text,
  roles: z.array(z.string()).nullish(),
  identifier: Identifier.nullish(),
  additionalIdentifiers: z.array(Identifier).nullish(),
});
type Party = z.infer<typeof Party>;

const Value = z.looseObject({ amount: z.union([z.string(), z.number()]).nullish(), currency: text });
const Amendment = z.looseObject({ id: text, releaseID: text, amendsReleaseID: text });
type Amendment = z.infer<typeof Amendment>;

const Contract = z.looseObject({
  id: identifierValue,
  awardID: identifierValue.nullish(),
  title: text,
  description: text,
  dateSigned: text,
  period: z.looseObject({ startDate: text, endDate: text }).nullish(),
  value: Value.nullish(),
  items: z.array(z.looseObject({ classification: z.looseObject({ scheme: text, id: identifierValue.nullish() }).nullish() })).nullish(),
  amendments: z.array(Amendment).nullish(),
});
type Contract = z.infer<typeof Contract>;

const Award = z.looseObject({
  id: identifierValue,
  date: text,
  suppliers: z.array(z.looseObject({ id: identifierValue.nullish(), name: text })).nullish(),
});

const Release = z.looseObject({
  ocid: z.string(),
  id: z.string(),
  date: z.string(),
  tag: z.array(z.string()).min(1),
  parties: z.array(Party).nullish(),
  awards: z.array(Award).nullish(),
  contracts: z.array(Contract).nullish(),
  tender: z.looseObject({ title: text, procurementMethod: text }).nullish(),
});
type Release = z.infer<typeof Release>;

const ReleasePackage = z.looseObject({
  releases: z.array(z.unknown()),
  links: z.looseObject({ next: z.string().nullish() }).nullish(),
});

/** The error body OCDS APIs built on API Gateway answer with instead of a package. */
const ApiError = z.object({ errorCode: z.union([z.string(), z.number()]), message: z.string() });

export interface MappedRelease {
  records: AwardRecord[];
  /** Data-quality problems worth a person's attention; the records are still emitted. */
  warnings: string[];
  /** Set when the release cannot be read at all: it is counted as an invalid record. */
  unreadable?: string;
}

/** One AwardRecord per contract in an OCDS release; amendments keep their chain ids so the store can follow them. */
export function mapOcdsRelease(input: unknown, options: OcdsReleaseOptions): MappedRelease {
  const parsed = Release.safeParse(input);
  if (!parsed.success) return { records: [], warnings: [], unreadable: `unreadable OCDS release ${describeRelease(input)}: ${summariseIssues(parsed.error)}` };
  const release = parsed.data;
  const warnings: string[] = [];
  const contracts = release.contracts ?? [];
  if (contracts.length === 0) warnings.push(`release ${release.id} has no contracts`);
  const records = contracts.map((contract) => mapContract(release, contract, options, warnings));
  return { records, warnings };
}

function mapContract(release: Release, contract: Contract, options: OcdsReleaseOptions, warnings: string[]): AwardRecord {
  const parties = release.parties ?? [];
  const buyerParty = parties.find((party) => party.roles?.includes(options.buyerRole));
  const supplierParty = supplierOf(release, contract);
  const amendment = amendmentOf(release, contract);
  const supplierAbn = supplierAbnOf(supplierParty, buyerParty, release.id, options, warnings);
  const publishedTitle = cleanText(contract.title);
  const reference = publishedTitle && isBareReference(publishedTitle) ? publishedTitle : null;
  const categories = (contract.items ?? []).flatMap((item) => {
    const code = item.classification?.scheme === options.categoryScheme ? cleanText(item.classification.id) : null;
    return code ? [code] : [];
  });
  return {
    record_type: 'award',
    ocid: release.ocid,
    release_id: release.id,
    release_date: release.date,
    release_tag: release.tag.join(','),
    contract_id: contract.id,
    amendment_id: cleanText(amendment?.id),
    amends_release_id: cleanText(amendment?.amendsReleaseID),
    jurisdiction: options.jurisdiction,
    // An empty buyer fails validation, so a release without one is counted as invalid rather than guessed at.
    buyer: cleanText(buyerParty?.name) ?? '',
    buyer_id: buyerParty?.id ?? null,
    supplier: cleanText(supplierParty?.name),
    supplier_abn: supplierAbn,
    supplier_id: supplierParty?.id ?? null,
    // the subject first: a bare reference names the buyer's file, not the work
    title: (reference ? null : publishedTitle) ?? cleanText(contract.description) ?? cleanText(release.tender?.title) ?? reference ?? '',
    reference,
    description: cleanText(contract.description),
    value_amount: contract.value?.amount == null ? null : String(contract.value.amount).trim(),
    value_currency: cleanText(contract.value?.currency),
    awarded_date: calendarDate(contract.dateSigned ?? awardOf(release, contract)?.date, options.timeZone),
    start_date: calendarDate(contract.period?.startDate, options.timeZone),
    end_date: calendarDate(contract.period?.endDate, options.timeZone),
    categories: [...new Set(categories)],
    procurement_method: cleanText(release.tender?.procurementMethod),
    url: options.contractUrl(contract.id),
  };
}

/**
 * Whether a contract title is only the buyer's reference for it, not a subject. AusTender agencies type a
 * purchase-order or file number into `contract.title` ("4600023005", "CON/GAUCON/C05264/1", "NACC_357",
 * "P0201519 - DM-21042-CTO - PA-2025-0140", "DNOMVU") and the subject into `description`. A bare reference has
 * no lower-case letter and is either one token or only tokens holding a digit or no letter; a title with a
 * lower-case word ("AWM000076 (formerly 2019/0195)") or two capitalised words ("CHANCERY ELECTRICITY") is kept.
 */
export function isBareReference(title: string): boolean {
  if (/\p{Ll}/u.test(title)) return false;
  const tokens = title.split(/\s+/).filter(Boolean);
  return tokens.length === 1 || tokens.every((token) => /\d/.test(token) || !/\p{L}/u.test(token));
}

function awardOf(release: Release, contract: Contract) {
  return release.awards?.find((award) => award.id === contract.awardID);
}

/** The contract's awarded supplier; publishers that omit the award's supplier list still mark the party's role. */
function supplierOf(release: Release, contract: Contract): Party | undefined {
  const parties = release.parties ?? [];
  const supplierId = awardOf(release, contract)?.suppliers?.[0]?.id;
  return parties.find((party) => party.id === supplierId) ?? parties.find((party) => party.roles?.includes('supplier'));
}

/**
 * The amendment this release publishes: the one whose `releaseID` is this release (amendment lists may be
 * cumulative), else the latest listed when the release is tagged as an amendment without saying which.
 */
function amendmentOf(release: Release, contract: Contract): Amendment | undefined {
  const amendments = contract.amendments ?? [];
  const own = amendments.find((amendment) => amendment.releaseID === release.id);
  if (own) return own;
  return release.tag.includes('contractAmendment') ? amendments.at(-1) : undefined;
}

function supplierAbnOf(supplier: Party | undefined, buyer: Party | undefined, releaseId: string, options: OcdsReleaseOptions, warnings: string[]): string | null {
  if (!options.supplierAbnScheme || !supplier) return null;
  const published = abnIn(supplier, options.supplierAbnScheme);
  if (published == null) return null;
  const abn = published.replace(/\s+/g, '');
  if (!/^\d{11}$/.test(abn)) {
    warnings.push(`release ${releaseId}: supplier ${supplier.name ?? supplier.id} has ABN "${published}", which is not 11 digits`);
    return null;
  }
  const buyerAbn = buyer ? abnIn(buyer, options.supplierAbnScheme)?.replace(/\s+/g, '') : undefined;
  if (abn === buyerAbn || options.agencyAbns.includes(abn)) {
    warnings.push(`release ${releaseId}: supplier ${supplier.name ?? supplier.id} carries agency ABN ${abn}; recorded without an ABN`);
    return null;
  }
  return abn;
}

function abnIn(party: Party, scheme: string): string | null {
  const identifiers = [party.identifier, ...(party.additionalIdentifiers ?? [])];
  return identifiers.find((identifier) => identifier?.scheme === scheme)?.id ?? null;
}

/** The calendar date an OCDS date-time falls on in `timeZone`; a bare date is already one. */
function calendarDate(value: string | null | undefined, timeZone: string): string | null {
  if (!value) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? null : localDate(new Date(instant), timeZone);
}

/**
 * The next page to fetch, or null at the end: `links.next` absent, null, empty, or carrying an empty cursor
 * (AusTender answers 502 to `cursor=`, so that link marks the last page rather than a page to ask for).
 */
export function nextPageUrl(releasePackage: { links?: { next?: string | null } | null }, cursorParameter: string): string | null {
  const next = releasePackage.links?.next?.trim();
  if (!next) return null;
  const cursor = new URL(next).searchParams.get(cursorParameter);
  return cursor === '' ? null : next;
}

/** The handler for one page of release packages: emits every release's records and enqueues the next page. */
export function ocdsReleasePackageRoute(options: OcdsFamilyOptions): RouteHandler {
  return async (fetched) => {
    const body = await fetched.json();
    const apiError = ApiError.safeParse(body);
    if (apiError.success) throw new Error(`OCDS API error ${apiError.data.errorCode}: ${apiError.data.message}`);
    const parsed = ReleasePackage.safeParse(body);
    if (!parsed.success) throw new Error(`not an OCDS release package: ${summariseIssues(parsed.error)}`);
    for (const release of parsed.data.releases) {
      const { records, warnings, unreadable } = mapOcdsRelease(release, options);
      if (unreadable) fetched.invalid(unreadable);
      for (const record of records) fetched.emit(record);
      for (const warning of warnings) fetched.warn(warning);
    }
    const next = nextPageUrl(parsed.data, options.cursorParameter);
    if (next) await fetched.enqueue({ url: fetched.ctx.url(next), label: fetched.request.label });
  };
}

function summariseIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function describeRelease(input: unknown): string {
  const id = typeof input === 'object' && input !== null ? (input as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '(no id)';
}
