import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { runNightly } from '../pipeline/nightly.ts';
import { tempDir } from './helpers/temp-dir.ts';

/**
 * A ```sql example of a README and the answer written on the line under it: `Fixture release: <n> rows; first
 * \`<first row>\`.` (or `no rows.`), which may go on with a note.
 */
interface Example {
  file: string;
  sql: string;
  answer: string | null;
}

const DOCUMENTS = ['../README.md', '../data/README.md'];

async function examples(): Promise<Example[]> {
  const found: Example[] = [];
  for (const document of DOCUMENTS) {
    const text = await readFile(new URL(document, import.meta.url), 'utf8');
    for (const match of text.matchAll(/```sql\n([\s\S]*?)```\n+(.*)/g)) {
      found.push({ file: document.slice(3), sql: match[1]!, answer: /^Fixture release: .*/.exec(match[2]!)?.[0] ?? null });
    }
  }
  return found;
}

/** Runs each statement of an example in turn; the answer is the last one's rows. */
async function run(connection: DuckDBConnection, sql: string): Promise<unknown[][]> {
  const statements = sql.split(/;\s*$/m).map((s) => s.trim()).filter((s) => s && !/^(--[^\n]*\n?)*$/.test(s));
  let rows: unknown[][] = [];
  for (const statement of statements) rows = (await connection.runAndReadAll(statement)).getRowsJson();
  return rows;
}

/** A value as the answer line shows it: long text cut to 40 characters. */
function cell(value: unknown): string {
  const text = value === null ? 'NULL' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The answer line as the README writes it: the row count and the first row's values. */
function answerLine(rows: unknown[][]): string {
  if (rows.length === 0) return 'Fixture release: no rows.';
  return `Fixture release: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}; first \`${rows[0]!.map(cell).join(' | ')}\`.`;
}

test('every example query of the READMEs reads one release and gives its documented answer on the fixture release', async () => {
  const all = await examples();
  assert.ok(all.length >= 18, `found ${all.length} examples`);
  for (const { file, sql } of all) {
    assert.doesNotMatch(sql, /\breleases\/\*/, `${file}: a releases/* glob counts every kept release:\n${sql}`);
    assert.doesNotMatch(sql, /\b(current_date|now\(\)|current_timestamp|today\(\))/i, `${file}: "today" is the release's computed_at (getvariable('run_day')):\n${sql}`);
    assert.doesNotMatch(sql, /'data\/releases\//, `${file}: read the release current.json points at (getvariable('release')):\n${sql}`);
  }

  // The fixture release, under <root>/data, read as an analyst would from <root>.
  const root = await tempDir('readme-examples-');
  const quiet = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
  const { releaseDir } = await runNightly({ dataDir: join(root, 'data'), fixtures: true, progress: quiet });
  assert.equal(dirname(releaseDir), join(root, 'data', 'releases'));

  const analyst = await (await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false' })).connect();
  // Relative paths resolve from the working folder as an analyst's would: from <root>, never from this checkout,
  // whose own data/current.json (after `npm start`) would otherwise answer some paths and not others.
  const checkout = process.cwd();
  process.chdir(root);
  const store = await (await DuckDBInstance.create(join(releaseDir, 'store.duckdb'), { access_mode: 'READ_ONLY', autoinstall_known_extensions: 'false' })).connect();
  // Instants render in the session's zone: the answers are written in UTC.
  for (const connection of [analyst, store]) await connection.run("SET TimeZone = 'UTC'");
  const wrong: string[] = [];
  try {
    // In document order: the first example sets the variables the others read.
    for (const { file, sql, answer } of all) {
      const inStore = /^--.*store\.duckdb/m.test(sql);
      const actual = answerLine(await run(inStore ? store : analyst, sql));
      if (!answer?.startsWith(actual)) wrong.push(`${file}, under:\n${sql}\ndocuments: ${answer ?? '(no "Fixture release:" line)'}\nanswers:   ${actual}`);
    }
  } finally {
    process.chdir(checkout);
  }
  analyst.closeSync();
  store.closeSync();
  assert.deepEqual(wrong, [], 'write the fixture release\'s answer under each example (the line after its code block)');
});
