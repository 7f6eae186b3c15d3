import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../lib/hash.ts';
import { tenderKey } from '../lib/keys.ts';
import { classifyTrade } from '../lib/trades.ts';
import type { SourceDefinition } from '../sources/_contract/define-source.ts';
import type { AbnRecord, AwardRecord, CompanyRecord, PlanRecord, SanctionRecord, SourceRecord, TenderRecord } from '../sources/_contract/records.ts';

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
  return { ...fields, source: source.id, trade: classifyTrade({ title: record.title, summary: record.description, category: record.categories[0], buyer: record.buyer }) };
}

export function stagedPlan(source: SourceDefinition, record: PlanRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id, trade: classifyTrade({ title: record.title, summary: record.description, category: record.category, buyer: record.buyer }) };
}

export function stagedCompany(source: SourceDefinition, record: CompanyRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id };
}

export function stagedAbn(source: SourceDefinition, record: AbnRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id };
}

export function stagedSanction(source: SourceDefinition, record: SanctionRecord) {
  const { record_type: _recordType, ...fields } = record;
  return { ...fields, source: source.id };
}

/** The staging file name's suffix per record type: `<source>.<suffix>`. */
export const STAGING_SUFFIX: Record<SourceRecord['record_type'], string> = {
  tender: 'tenders.ndjson',
  award: 'awards.ndjson',
  plan: 'plans.ndjson',
  company: 'companies.ndjson',
  abn: 'abns.ndjson',
  sanction: 'sanctions.ndjson',
};

/** One staging file per source and record type: `staging/<source>.<type suffix>`. */
export function stagingPath(workDir: string, sourceId: string, type: SourceRecord['record_type']): string {
  return join(workDir, 'staging', `${sourceId}.${STAGING_SUFFIX[type]}`);
}

function staged(source: SourceDefinition, record: SourceRecord): object {
  switch (record.record_type) {
    case 'tender':
      return stagedTender(source, record);
    case 'award':
      return stagedAward(source, record);
    case 'plan':
      return stagedPlan(source, record);
    case 'company':
      return stagedCompany(source, record);
    case 'abn':
      return stagedAbn(source, record);
    case 'sanction':
      return stagedSanction(source, record);
  }
}

/** Lines per append: big enough that a register of millions costs hundreds of writes, small enough to stay a few MB. */
const BATCH_LINES = 5_000;

/**
 * Takes one source's validated records as the crawl emits them and appends them to its staging files in
 * batches, so a register of millions of rows is never held in memory. The appends are synchronous on
 * purpose: a handler that emits faster than the disk accepts waits at each batch, where an asynchronous
 * queue would grow without bound. `discard()` removes what a failed source staged.
 */
export class StagingWriter {
  private readonly workDir: string;
  private readonly source: SourceDefinition;
  private readonly batchLines: number;
  private readonly buffers = new Map<SourceRecord['record_type'], string[]>();
  private readonly files = new Map<SourceRecord['record_type'], number>();

  constructor(workDir: string, source: SourceDefinition, options: { batchLines?: number } = {}) {
    this.workDir = workDir;
    this.source = source;
    this.batchLines = options.batchLines ?? BATCH_LINES;
  }

  write(record: SourceRecord): void {
    let lines = this.buffers.get(record.record_type);
    if (!lines) {
      lines = [];
      this.buffers.set(record.record_type, lines);
    }
    lines.push(JSON.stringify(staged(this.source, record)));
    if (lines.length >= this.batchLines) this.flush(record.record_type);
  }

  /** Writes what is buffered and closes the files: the staging is complete. */
  close(): void {
    for (const type of this.buffers.keys()) this.flush(type);
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }

  /** Drops the buffers and removes every file this source staged. */
  discard(): void {
    this.buffers.clear();
    for (const [type, fd] of this.files) {
      closeSync(fd);
      rmSync(stagingPath(this.workDir, this.source.id, type), { force: true });
    }
    this.files.clear();
  }

  private flush(type: SourceRecord['record_type']): void {
    const lines = this.buffers.get(type);
    if (!lines || lines.length === 0) return;
    let fd = this.files.get(type);
    if (fd === undefined) {
      fd = openSync(stagingPath(this.workDir, this.source.id, type), 'a');
      this.files.set(type, fd);
    }
    writeSync(fd, `${lines.join('\n')}\n`);
    lines.length = 0;
  }
}
