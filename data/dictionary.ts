import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { SCHEMA_VERSION } from './schema.ts';
import { sqlString, type Store } from './store.ts';

/**
 * The data dictionary has one source: data/README.md. Its `### \`table\`` sections (a first paragraph, then a
 * `| column | type | meaning | example |` table) and its `## Partition columns` table are parsed here, and every
 * release ships them three ways: `dictionary.md` (the file itself), `dictionary.json` (parsed) and
 * `COMMENT ON` every table and column of `store.duckdb`.
 */
export const DICTIONARY_PATH = new URL('./README.md', import.meta.url);

/** The folder DuckDB (and Hive) write a null partition value to; it reads back as NULL. */
export const DEFAULT_PARTITION = '__HIVE_DEFAULT_PARTITION__';

const ColumnDoc = z.object({ name: z.string(), type: z.string(), meaning: z.string().min(1), example: z.string().min(1) });
const TableDoc = z.object({ name: z.string(), summary: z.string().min(1), columns: z.array(ColumnDoc).min(1) });
const PartitionDoc = z.object({ dataset: z.string(), column: z.string(), type: z.string(), meaning: z.string().min(1), example: z.string().min(1) });

export const Dictionary = z.object({
  schema_version: z.number().int(),
  default_partition: z.literal(DEFAULT_PARTITION),
  /** Parquet columns that live only in folder names (`<column>=<value>/`), per partitioned dataset. */
  partitions: z.array(PartitionDoc).min(1),
  tables: z.array(TableDoc).min(1),
});
export type Dictionary = z.infer<typeof Dictionary>;

const TYPE = String.raw`[A-Z][A-Z0-9(),[\] ]*|STRUCT\([a-z_A-Z0-9(), ]+\)(?:\[\])?`;
const COLUMN_ROW = new RegExp(String.raw`^\| ([a-z][a-z_0-9]*) \| (${TYPE}) \| (.+) \| (.+) \|$`);
const PARTITION_ROW = new RegExp(String.raw`^\| ([a-z][a-z_0-9]*) \| ([a-z][a-z_0-9]*) \| (${TYPE}) \| (.+) \| (.+) \|$`);

/** Reads the dictionary out of data/README.md's Markdown. */
export function parseDictionary(markdown: string): Dictionary {
  const tables: z.input<typeof TableDoc>[] = [];
  const partitions: z.input<typeof PartitionDoc>[] = [];
  let table: z.input<typeof TableDoc> | null = null;
  let inPartitions = false;
  let paragraph: string[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^### `([a-z_]+)`/.exec(line);
    if (heading) {
      table = { name: heading[1]!, summary: '', columns: [] };
      tables.push(table);
      inPartitions = false;
      paragraph = [];
      continue;
    }
    if (line.startsWith('## ') || line.startsWith('### ')) {
      table = null;
      inPartitions = line.trim() === '## Partition columns';
      continue;
    }
    if (table && !table.summary) {
      // the section's first paragraph says what one row is
      if (line.trim()) paragraph.push(line.trim());
      else if (paragraph.length) table.summary = paragraph.join(' ');
    }
    const column = COLUMN_ROW.exec(line);
    if (table && column && column[1] !== 'column') {
      table.columns.push({ name: column[1]!, type: column[2]!.trim(), meaning: column[3]!.trim(), example: column[4]!.trim() });
    }
    const partition = PARTITION_ROW.exec(line);
    if (inPartitions && partition && partition[1] !== 'dataset') {
      partitions.push({ dataset: partition[1]!, column: partition[2]!, type: partition[3]!.trim(), meaning: partition[4]!.trim(), example: partition[5]!.trim() });
    }
  }
  return Dictionary.parse({ schema_version: SCHEMA_VERSION, default_partition: DEFAULT_PARTITION, partitions, tables });
}

export async function readDictionaryMarkdown(): Promise<string> {
  return readFile(DICTIONARY_PATH, 'utf8');
}

/** Markdown as plain text for a DuckDB comment: code spans, links and emphasis unwrapped. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\*\*([^*]+)\*\*/g, '$1').replace(/`([^`]*)`/g, '$1');
}

/** `COMMENT ON` statements for every documented table and column (the store must hold them all). */
export function commentStatements(dictionary: Dictionary): string[] {
  return dictionary.tables.flatMap((table) => [
    `COMMENT ON TABLE ${table.name} IS ${sqlString(plainText(table.summary))}`,
    ...table.columns.map((column) => `COMMENT ON COLUMN ${table.name}.${column.name} IS ${sqlString(plainText(column.meaning))}`),
  ]);
}

/**
 * Ships the dictionary with a release: comments on the store's tables and columns, and `dictionary.md` and
 * `dictionary.json` in the release folder.
 */
export async function publishDictionary(store: Store, releaseDir: string): Promise<void> {
  const markdown = await readDictionaryMarkdown();
  const dictionary = parseDictionary(markdown);
  await store.exec(commentStatements(dictionary).join(';\n'));
  await writeFile(join(releaseDir, 'dictionary.md'), markdown);
  await writeFile(join(releaseDir, 'dictionary.json'), `${JSON.stringify(dictionary, null, 2)}\n`);
}
