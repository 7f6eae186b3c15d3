import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TABLES } from '../data/schema.ts';
import { openStore } from '../data/store.ts';
import { runNightly } from '../pipeline/nightly.ts';
import { tableSource } from './helpers/table-source.ts';
import { tempDir } from './helpers/temp-dir.ts';

/** `### \`table\`` headings, each followed by a `| column | type | meaning | example |` table. */
async function documentedColumns(): Promise<Map<string, Map<string, string>>> {
  const text = await readFile(new URL('../data/README.md', import.meta.url), 'utf8');
  const tables = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const line of text.split('\n')) {
    const heading = /^### `([a-z_]+)`/.exec(line);
    if (heading) {
      current = new Map();
      tables.set(heading[1]!, current);
      continue;
    }
    if (line.startsWith('## ') || line.startsWith('### ')) current = null;
    const row = /^\| ([a-z][a-z_0-9]*) \| ([A-Z][A-Z0-9(),[\] ]*|STRUCT\([a-z_A-Z0-9(), ]+\)(?:\[\])?) \| (.+) \| (.+) \|$/.exec(line);
    if (current && row && row[1] !== 'column') {
      assert.ok(row[3]!.trim() && row[4]!.trim(), `${row[1]} needs a meaning and an example`);
      current.set(row[1]!, row[2]!.trim());
    }
  }
  return tables;
}

test('every column of a published store is documented in data/README.md with its type', async () => {
  const dataDir = await tempDir('dictionary-');
  const quiet = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
  const { releaseDir } = await runNightly({
    dataDir, fixtures: true, registry: [tableSource('test_html_rows', 'html')],
    fixturesRoot: fileURLToPath(new URL('./fixtures/sources/', import.meta.url)), progress: quiet,
  });
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
