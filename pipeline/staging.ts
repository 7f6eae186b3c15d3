import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { tenderKey } from '../lib/keys.ts';
import { classifyTrade } from '../lib/trades.ts';
import type { SourceDefinition } from '../sources/_contract/define-source.ts';
import type { AwardRecord, PlanRecord, SourceRecord, TenderRecord } from '../sources/_contract/records.ts';

/** The tender row the load stage reads: the record plus the fields the pipeline derives. */
export function stagedTender(source: SourceDefinition, record: TenderRecord) {
  const { record_type: _recordType, ...fields } = record;
  return {
    ...fields,
    tender_key: tenderKey({ source: source.id, jurisdiction: record.jurisdiction, buyer: record.buyer, reference: record.reference, title: record.title, url: record.url }),
    source: source.id,
    source_tag: source.tag,
    trade: classifyTrade(record),
    // What "updated" means in the run summary: any published field changed.
    content_hash: sha256Hex(JSON.stringify(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)))).slice(0, 16),
  };
}

export function stagedAward(source: SourceDefinition, record: AwardRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id, trade: classifyTrade({ title: record.title, summary: record.description, category: record.categories[0] }) };
}

export function stagedPlan(source: SourceDefinition, record: PlanRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id, trade: classifyTrade({ title: record.title, summary: record.description, category: record.category }) };
}

/** One staging file per source and record type: `<source>.<type>s.ndjson`. */
export function stagingPath(workDir: string, sourceId: string, type: SourceRecord['record_type']): string {
  return join(workDir, 'staging', `${sourceId}.${type}s.ndjson`);
}

function staged(source: SourceDefinition, record: SourceRecord): object {
  switch (record.record_type) {
    case 'tender':
      return stagedTender(source, record);
    case 'award':
      return stagedAward(source, record);
    case 'plan':
      return stagedPlan(source, record);
  }
}

/** Writes one source's records as newline-delimited JSON, in chunks so a big source never builds one huge string. */
export async function writeStaging(workDir: string, source: SourceDefinition, records: SourceRecord[]): Promise<void> {
  const chunk = 5_000;
  for (let start = 0; start < records.length; start += chunk) {
    const lines = new Map<SourceRecord['record_type'], string[]>();
    for (const record of records.slice(start, start + chunk)) {
      const list = lines.get(record.record_type) ?? [];
      list.push(JSON.stringify(staged(source, record)));
      lines.set(record.record_type, list);
    }
    for (const [type, list] of lines) await appendFile(stagingPath(workDir, source.id, type), `${list.join('\n')}\n`);
  }
}
