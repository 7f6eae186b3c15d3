import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PARTITION, Dictionary, parseDictionary, readDictionaryMarkdown } from '../data/dictionary.ts';
import { parquetExportSql } from '../data/build.ts';
import { TABLES } from '../data/schema.ts';
import { openStore } from '../data/store.ts';
import { runNightly } from '../pipeline/nightly.ts';
import { tableSource } from './helpers/table-source.ts';
import { tempDir } from './helpers/temp-dir.ts';

/** Every table's documented columns and types, from the dictionary's one parser. */
async function documentedColumns(): Promise<Map<string, Map<string, string>>> {
  const dictionary = parseDictionary(await readDictionaryMarkdown());
  return new Map(dictionary.tables.map((table) => [table.name, new Map(table.columns.map((column) => [column.name, column.type]))]));
}

/** A small release (one HTML source) built once for the tests that read a published store. */
let release: Promise<string> | null = null;
function smallRelease(): Promise<string> {
  release ??= (async () => {
    const dataDir = await tempDir('dictionary-');
    const quiet = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
    const { releaseDir } = await runNightly({
      dataDir, fixtures: true, registry: [tableSource('test_html_rows', 'html')],
      fixturesRoot: fileURLToPath(new URL('./fixtures/sources/', import.meta.url)), progress: quiet,
    });
    return releaseDir;
  })();
  return release;
}

test('every column of a published store is documented in data/README.md with its type', async () => {
  const releaseDir = await smallRelease();
  const store = await openStore(join(releaseDir, 'store.duckdb'), { readOnly: true });
  const columns = await store.all<{ table_name: string; column_name: string; data_type: string }>(
    `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position`,
  );
  store.close();
  const documented = await documentedColumns();
  // information_schema spells the alias out; the dictionary uses the name the DDL uses.
  const typeName = (type: string) => type.replace('TIMESTAMP WITH TIME ZONE', 'TIMESTAMPTZ');
  const undocumented = columns.filter((c) => documented.get(c.table_name)?.get(c.column_name) !== typeName(c.data_type));
  assert.deepEqual(undocumented.map((c) => `${c.table_name}.${c.column_name} ${c.data_type}`), [], 'document these columns (with their exact type) in data/README.md');
  assert.deepEqual([...new Set(columns.map((c) => c.table_name))].sort(), Object.keys(TABLES).sort(), 'the store holds exactly the documented tables');
  for (const [table, docs] of documented) {
    const actual = columns.filter((c) => c.table_name === table).map((c) => c.column_name);
    assert.deepEqual([...docs.keys()], actual, `data/README.md lists ${table}'s columns in store order, and no column the store lacks`);
  }
});

test('every table of the store has an example DuckDB query in data/README.md that reads it', async () => {
  const text = await readFile(new URL('../data/README.md', import.meta.url), 'utf8');
  const sections = text.split(/^### /m).slice(1);
  const examples = new Map<string, string[]>();
  for (const section of sections) {
    const table = /^`([a-z_]+)`/.exec(section)?.[1];
    if (!table) continue;
    const body = section.split(/^## /m)[0]!;
    examples.set(table, [...body.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1]!));
  }
  const lacking = Object.keys(TABLES).filter((table) => !(examples.get(table) ?? []).some((sql) => new RegExp(`\\b${table}\\b`).test(sql) && /\bSELECT\b/i.test(sql)));
  assert.deepEqual(lacking, [], 'give each of these tables a ```sql example that reads it, under its heading in data/README.md');
});

test('every table and column of a published store carries its dictionary meaning as a DuckDB comment', async () => {
  const store = await openStore(join(await smallRelease(), 'store.duckdb'), { readOnly: true });
  const tables = await store.all<{ table_name: string; comment: string | null }>(
    `SELECT table_name, comment FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal ORDER BY table_name`,
  );
  const columns = await store.all<{ table_name: string; column_name: string; comment: string | null }>(
    `SELECT table_name, column_name, comment FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal ORDER BY table_name, column_index`,
  );
  store.close();
  assert.deepEqual(tables.map((t) => t.table_name), Object.keys(TABLES).sort());
  assert.deepEqual(tables.filter((t) => !t.comment?.trim()).map((t) => t.table_name), [], 'tables without a comment');
  assert.deepEqual(columns.filter((c) => !c.comment?.trim()).map((c) => `${c.table_name}.${c.column_name}`), [], 'columns without a comment');
  const comment = (table: string, column: string) => columns.find((c) => c.table_name === table && c.column_name === column)?.comment;
  // Markdown is unwrapped: code spans and links read as plain text.
  assert.equal(comment('tenders', 'kind'), 'tender or grant');
  assert.equal(comment('awards', 'buyer_key'), "the buyer's key (see Buyer keys)");
  assert.match(tables.find((t) => t.table_name === 'award_terms')!.comment!, /^An index of award titles and descriptions: one row per contract/);
});

test('a release ships the dictionary as Markdown and JSON, and the JSON names every partition folder it holds', async () => {
  const releaseDir = await smallRelease();
  const markdown = await readFile(join(releaseDir, 'dictionary.md'), 'utf8');
  assert.equal(markdown, await readDictionaryMarkdown(), 'dictionary.md is data/README.md as built');
  const dictionary = Dictionary.parse(JSON.parse(await readFile(join(releaseDir, 'dictionary.json'), 'utf8')));
  assert.deepEqual(dictionary, parseDictionary(markdown));
  assert.equal(dictionary.default_partition, DEFAULT_PARTITION);
  assert.deepEqual(dictionary.tables.map((t) => t.name).sort(), Object.keys(TABLES).sort());
  const awards = dictionary.tables.find((t) => t.name === 'awards')!;
  assert.deepEqual(awards.columns.slice(0, 2), [
    { name: 'source', type: 'VARCHAR', meaning: 'registry id of the source', example: '`au_federal_austender_ocds`' },
    { name: 'contract_id', type: 'VARCHAR', meaning: 'contract notice id without any `-A<n>` suffix', example: '`CN4026155`' },
  ]);
  const documented = dictionary.partitions.map((p) => `${p.dataset}.${p.column}`).sort();
  // Every PARTITION_BY of the export is documented, and the folders of this release bear it out.
  const exported = parquetExportSql('parquet').flatMap((sql) => {
    const match = /TO '[^']*\/([a-z_]+)' \(.*PARTITION_BY \(([a-z_]+)\)/.exec(sql);
    return match ? [`${match[1]}.${match[2]}`] : [];
  });
  assert.deepEqual(exported.sort(), documented);
  const parquetDir = join(releaseDir, 'parquet');
  for (const entry of await readdir(parquetDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const folder of await readdir(join(parquetDir, entry.name))) assert.ok(documented.includes(`${entry.name}.${folder.split('=')[0]}`), `${entry.name}/${folder}`);
  }
  assert.match(dictionary.partitions.find((p) => p.dataset === 'awards' && p.column === 'year')!.meaning, /`award_day` \(its awarded date, else its start date, else the day it was first collected\)/);
});
