import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { tenderKey } from '../lib/keys.ts';
import type { SourceDefinition } from '../sources/_contract/define-source.ts';
import type { AwardRecord, SourceRecord, TenderRecord } from '../sources/_contract/records.ts';

/** The tender row the load stage reads: the record plus the fields the pipeline derives. */
export function stagedTender(source: SourceDefinition, record: TenderRecord) {
  const { record_type: _recordType, ...fields } = record;
  return {
    ...fields,
    tender_key: tenderKey({ source: source.id, jurisdiction: record.jurisdiction, buyer: record.buyer, reference: record.reference, title: record.title, url: record.url }),
    source: source.id,
    source_tag: source.tag,
    // What "updated" means in the run summary: any published field changed.
    content_hash: sha256Hex(JSON.stringify(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)))).slice(0, 16),
  };
}

export function stagedAward(source: SourceDefinition, record: AwardRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id };
}

export function stagingPaths(workDir: string, sourceId: string) {
  return {
    tenders: join(workDir, 'staging', `${sourceId}.tenders.ndjson`),
    awards: join(workDir, 'staging', `${sourceId}.awards.ndjson`),
  };
}

/** Writes one source's records as newline-delimited JSON, in chunks so a big source never builds one huge string. */
export async function writeStaging(workDir: string, source: SourceDefinition, records: SourceRecord[]): Promise<void> {
  const paths = stagingPaths(workDir, source.id);
  const chunk = 5_000;
  for (let start = 0; start < records.length; start += chunk) {
    const tenders: string[] = [];
    const awards: string[] = [];
    for (const record of records.slice(start, start + chunk)) {
      if (record.record_type === 'tender') tenders.push(JSON.stringify(stagedTender(source, record)));
      else awards.push(JSON.stringify(stagedAward(source, record)));
    }
    if (tenders.length) await appendFile(paths.tenders, `${tenders.join('\n')}\n`);
    if (awards.length) await appendFile(paths.awards, `${awards.join('\n')}\n`);
  }
}
