import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sqlString, type Store } from './store.ts';

/** The file, inside a release's `ocds/` folder, holding the awards as OCDS release packages. */
export const OCDS_AWARDS_FILE = 'awards-releases.jsonl';
export const OCDS_PUBLISHER = 'Tender intelligence for AU/NZ government suppliers (republished from the sources named in each release)';

/** A day as the instant it starts in Canberra, ISO in UTC: OCDS dates are date-times, the registers publish days. */
const canberraMidnight = (column: string) =>
  `strftime((${column}::TIMESTAMP AT TIME ZONE 'Australia/Sydney') AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ')`;

/**
 * The SQL writing every contract release held (`award_releases`: originals and amendments) as OCDS 1.1 release
 * packages in JSON Lines, one package per line and one release per package, in contracting-process order
 * (`source`, `ocid`, then release date), so `ocdskit compile` and other tools that read a stream of release
 * packages merge a process's releases by ocid. A package per release keeps the export streaming: grouping a
 * million releases into one package per process held them all in memory at once (over 14 minutes at 1M). Each release
 * carries the fields the release schema requires (ocid, id, date, tag, initiationType) and the buyer, the
 * supplier party, the award and the contract (value as published, period, UNSPSC items, amendment).
 */
export function ocdsExportSql(file: string): string {
  return `COPY (
    WITH releases AS (
      SELECT
        source,
        ocid,
        release_date,
        {
          'ocid': ocid,
          'id': release_id,
          'date': strftime(release_date AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ'),
          'tag': [release_tag],
          'initiationType': 'tender',
          'language': 'en',
          'buyer': {'id': coalesce(buyer_key(jurisdiction, buyer), buyer), 'name': buyer},
          'parties': list_filter([
            {'id': coalesce(buyer_key(jurisdiction, buyer), buyer), 'name': buyer, 'roles': ['buyer'], 'identifier': NULL::STRUCT(scheme VARCHAR, id VARCHAR)},
            CASE WHEN supplier IS NOT NULL THEN {
              'id': coalesce('AU-ABN-' || supplier_abn, supplier_id, 'supplier-' || left(sha256(supplier), 12)),
              'name': supplier,
              'roles': ['supplier'],
              'identifier': CASE WHEN supplier_abn IS NOT NULL THEN {'scheme': 'AU-ABN', 'id': supplier_abn} END
            } END
          ], party -> party IS NOT NULL),
          'awards': [{
            'id': regexp_replace(contract_id, '-A[0-9]+$', ''),
            'suppliers': CASE WHEN supplier IS NULL THEN []
              ELSE [{'id': coalesce('AU-ABN-' || supplier_abn, supplier_id, 'supplier-' || left(sha256(supplier), 12)), 'name': supplier}] END
          }],
          'contracts': [{
            'id': contract_id,
            'awardID': regexp_replace(contract_id, '-A[0-9]+$', ''),
            -- the published title: a bare reference the store moved to the reference column goes back
            'title': coalesce(reference, title),
            'description': description,
            'value': CASE WHEN value_amount IS NOT NULL THEN {'amount': value_amount::DOUBLE, 'currency': value_currency} END,
            'period': CASE WHEN start_date IS NOT NULL OR end_date IS NOT NULL
              THEN {'startDate': ${canberraMidnight('start_date')}, 'endDate': ${canberraMidnight('end_date')}} END,
            'dateSigned': ${canberraMidnight('awarded_date')},
            'items': [{'id': (i + 1)::VARCHAR, 'classification': {'scheme': 'UNSPSC', 'id': categories[i + 1]}} FOR i IN range(len(categories))],
            'amendments': CASE WHEN amendment_id IS NOT NULL
              THEN [{'id': amendment_id, 'amendsReleaseID': amends_release_id, 'releaseID': release_id}] END
          }],
          'tender': CASE WHEN procurement_method IN ('open', 'selective', 'limited', 'direct') THEN {'procurementMethod': procurement_method} END
        } AS release
      -- ordered here, on the narrow columns, so the wide JSON rows are never sorted
      FROM (SELECT * FROM award_releases ORDER BY source, ocid, release_date, release_id)
    ),
    run AS (SELECT coalesce(max(last_run_at), now()) AS published FROM sources),
    packages AS (
      SELECT
        {
          'uri': 'urn:x-tender-intelligence:' || r.source || ':' || r.ocid || ':' || r.release.id,
          'version': '1.1',
          'publishedDate': strftime(run.published AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ'),
          'publisher': {'name': ${sqlString(OCDS_PUBLISHER)}},
          'releases': [r.release]
        } AS package
      FROM releases r CROSS JOIN run
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
