import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { JURISDICTIONS, timeZoneOf } from '../lib/jurisdictions.ts';
import { sqlString, type Store } from './store.ts';

/** The file, inside a release's `ocds/` folder, holding the awards as OCDS release packages. */
export const OCDS_AWARDS_FILE = 'awards-releases.jsonl';
export const OCDS_PUBLISHER = 'Tender intelligence for AU/NZ government suppliers (republished from the sources named in each release)';
/**
 * The ocid prefix of the contracting processes this project identifies (every source but AusTender, which
 * publishes its own ocids): `ocds-tintel-<source>-<process id>`. Not registered with the Open Contracting
 * Partnership; it is only this publication's namespace.
 */
export const OCDS_OCID_PREFIX = 'ocds-tintel-';
/** Where the publication is described: the OCDS section of the data dictionary shipped in each release. */
export const OCDS_PUBLICATION_POLICY = 'urn:x-tender-intelligence:data-dictionary#ocds-export';

/** The buyer's time zone for a jurisdiction column, as a SQL expression (lib/jurisdictions.ts decides). */
const buyerTimeZone = (column: string) =>
  `CASE ${column} ${JURISDICTIONS.map((code) => `WHEN ${sqlString(code)} THEN ${sqlString(timeZoneOf(code))}`).join(' ')} END`;

/**
 * A calendar day as the instant it starts in the buyer's time zone, written with that zone's offset
 * (`2026-01-15T00:00:00+13:00` for Wellington): OCDS dates are date-times, the registers publish days.
 */
const buyerMidnight = (column: string) => {
  const offsetMinutes = `((epoch(${column}::TIMESTAMP) - epoch(${column}::TIMESTAMP AT TIME ZONE time_zone)) // 60)::INTEGER`;
  return `strftime(${column}, '%Y-%m-%dT00:00:00') || CASE WHEN ${offsetMinutes} < 0 THEN '-' ELSE '+' END
    || lpad((abs(${offsetMinutes}) // 60)::VARCHAR, 2, '0') || ':' || lpad((abs(${offsetMinutes}) % 60)::VARCHAR, 2, '0')`;
};

/** The licence's address when the source's licence text names a Creative Commons licence, else the source's site. */
const licenceUrl = `CASE
  WHEN s.licence ILIKE '%CC BY 3.0 AU%' OR s.licence ILIKE '%Attribution 3.0 Australia%' THEN 'https://creativecommons.org/licenses/by/3.0/au/'
  WHEN s.licence ILIKE '%CC BY 3.0 NZ%' THEN 'https://creativecommons.org/licenses/by/3.0/nz/'
  WHEN s.licence ILIKE '%CC BY 4.0%' THEN 'https://creativecommons.org/licenses/by/4.0/'
  ELSE s.homepage END`;

const supplierPartyId = `coalesce('AU-ABN-' || supplier_abn, supplier_id, 'supplier-' || left(sha256(supplier), 12))`;

/**
 * The SQL writing every contract release held (`award_releases`: originals and amendments) as OCDS 1.1 release
 * packages in JSON Lines, one package per line and one release per package, in contracting-process order
 * (`source`, `ocid`, then each contract's releases oldest first), so `ocdskit compile` and other tools that read
 * a stream of release packages merge a process's releases by ocid. A package per release keeps the export
 * streaming: grouping a million releases into one package per process held them all in memory at once.
 *
 * A contract keeps one `id` (the chain id, without `-A<n>`) across its releases, so merging gives one contract
 * per chain. Its releases are ordered as the `awards` model ranks them (amendment number, then release date),
 * because AusTender gives every amendment of a chain the same release date: tools sort by date and keep the
 * input order of ties. A later release of a contract from a register that publishes no amendments (QLD's
 * variations) is written as an amendment of the earlier one.
 */
export function ocdsExportSql(file: string): string {
  return `COPY (
    WITH chained AS (
      SELECT
        *,
        regexp_replace(contract_id, '-A[0-9]+$', '') AS chain_id,
        TRY_CAST(regexp_extract(amendment_id, '-A([0-9]+)$', 1) AS INTEGER) AS amendment_number,
        ${buyerTimeZone('jurisdiction')} AS time_zone,
        -- AusTender's ocids are kept as published; the ones this project mints (<source>:<id>) get its prefix
        CASE WHEN starts_with(ocid, source || ':')
          THEN ${sqlString(OCDS_OCID_PREFIX)} || source || '-' || substr(ocid, length(source) + 2) ELSE ocid END AS process_id
      FROM award_releases
    ),
    ordered AS (
      SELECT
        *,
        row_number() OVER chain_order AS chain_position,
        lag(release_id) OVER chain_order AS previous_release_id
      FROM chained
      WINDOW chain_order AS (PARTITION BY source, chain_id ORDER BY amendment_id IS NOT NULL, amendment_number NULLS FIRST, release_date, release_id)
    ),
    releases AS (
      SELECT
        source,
        process_id,
        release_date,
        chain_id,
        chain_position,
        {
          'ocid': process_id,
          'id': release_id,
          'date': strftime(release_date AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ'),
          -- every release carries the contract's award, so a chain whose original is not held still names it
          'tag': CASE WHEN chain_position = 1 AND amendment_id IS NULL THEN ['award', 'contract'] ELSE ['award', 'contractAmendment'] END,
          'initiationType': 'tender',
          'language': 'en',
          'buyer': {'id': coalesce(buyer_key(jurisdiction, buyer), buyer), 'name': buyer},
          'parties': list_filter([
            {'id': coalesce(buyer_key(jurisdiction, buyer), buyer), 'name': buyer, 'roles': ['buyer'], 'identifier': NULL::STRUCT(scheme VARCHAR, id VARCHAR)},
            CASE WHEN supplier IS NOT NULL THEN {
              'id': ${supplierPartyId},
              'name': supplier,
              'roles': ['supplier'],
              'identifier': CASE WHEN supplier_abn IS NOT NULL THEN {'scheme': 'AU-ABN', 'id': supplier_abn} END
            } END
          ], party -> party IS NOT NULL),
          'tender': {
            'id': process_id,
            'procurementMethod': procurement_method,
            'procurementMethodDetails': procurement_method_details
          },
          'awards': [{
            'id': chain_id,
            'date': ${buyerMidnight('awarded_date')},
            'suppliers': CASE WHEN supplier IS NULL THEN []
              ELSE [{'id': ${supplierPartyId}, 'name': supplier}] END
          }],
          'contracts': [{
            'id': chain_id,
            'awardID': chain_id,
            -- the published title: a bare reference the store moved to the reference column goes back
            'title': coalesce(reference, title),
            'description': description,
            'value': CASE WHEN value_amount IS NOT NULL THEN {'amount': value_amount::DOUBLE, 'currency': value_currency} END,
            'period': CASE WHEN start_date IS NOT NULL OR end_date IS NOT NULL
              THEN {'startDate': ${buyerMidnight('start_date')}, 'endDate': ${buyerMidnight('end_date')}} END,
            'dateSigned': ${buyerMidnight('awarded_date')},
            -- the schema wants at least one item: a contract with no category has none to list
            'items': CASE WHEN len(categories) > 0
              THEN [{'id': (i + 1)::VARCHAR, 'classification': {'scheme': 'UNSPSC', 'id': categories[i + 1]}} FOR i IN range(len(categories))] END,
            'amendments': CASE
              WHEN amendment_id IS NOT NULL THEN [{'id': amendment_id, 'amendsReleaseID': amends_release_id, 'releaseID': release_id}]
              WHEN chain_position > 1 THEN [{'id': release_id, 'amendsReleaseID': previous_release_id, 'releaseID': release_id}]
            END
          }]
        } AS release
      -- ordered here, on the narrow columns, so the wide JSON rows are never sorted
      FROM (SELECT * FROM ordered ORDER BY source, process_id, chain_id, chain_position)
    ),
    run AS (SELECT coalesce(max(last_run_at), now()) AS published FROM sources),
    -- one row, so joining it keeps the releases' order
    licences AS (SELECT coalesce(map(list(s.id), list(${licenceUrl})), MAP {}) AS by_source FROM sources s),
    packages AS (
      SELECT
        {
          -- each identifier percent-encoded (registers publish ids such as "CAN-LAHC 2026/176"): a URI holds no
          -- space, and an encoded colon or slash can never be read as a separator
          'uri': 'urn:x-tender-intelligence:' || url_encode(r.source) || ':' || url_encode(r.process_id) || ':' || url_encode(r.release.id),
          'version': '1.1',
          'publishedDate': strftime(run.published AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ'),
          'publisher': {'name': ${sqlString(OCDS_PUBLISHER)}},
          'license': licences.by_source[r.source],
          'publicationPolicy': ${sqlString(OCDS_PUBLICATION_POLICY)},
          'releases': [r.release]
        } AS package
      FROM releases r CROSS JOIN run CROSS JOIN licences
    )
    -- a field with no value is left out rather than written null: OCDS objects such as identifier, tender and
    -- amendments do not take null. Inside JSON strings quotes are escaped, so the patterns only meet keys.
    SELECT regexp_replace(regexp_replace(to_json(package)::VARCHAR, ',"[A-Za-z]+":null', '', 'g'), '"[A-Za-z]+":null,?', '', 'g') AS line
    FROM packages
  ) TO ${sqlString(file)} (FORMAT csv, HEADER false, QUOTE '', ESCAPE '', DELIMITER '\x01')`;
}

/** Writes the awards as OCDS release packages to `<dir>/awards-releases.jsonl`. */
export async function exportOcds(store: Store, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, OCDS_AWARDS_FILE);
  await store.exec(ocdsExportSql(file));
  return file;
}
