import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath } from 'node:url';
import { openTestState, postgresBinaries } from '../../test/helpers/postgres-cluster.ts';

// The two engines' migrations are numbered together and must build the same schema: the same tables, the same
// columns in the same order with corresponding types and nullability, and the same named indexes.
const SQLITE_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const POSTGRES_DIR = fileURLToPath(new URL('./migrations-postgres/', import.meta.url));
const sqlFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();

/** SQLite's declared type → the PostgreSQL type its migration must use (INTEGER is 64-bit, REAL a double). */
const TYPE_IN_POSTGRES: Record<string, string> = { TEXT: 'text', INTEGER: 'bigint', REAL: 'double precision', BLOB: 'bytea' };

interface Column {
  table: string;
  column: string;
  type: string;
  notNull: boolean;
}

test('both engines have the same migration files', () => {
  assert.deepEqual(sqlFiles(POSTGRES_DIR), sqlFiles(SQLITE_DIR));
});

function sqliteSchema(): { columns: Column[]; indexes: string[] } {
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const file of sqlFiles(SQLITE_DIR)) db.exec(readFileSync(SQLITE_DIR + file, 'utf8'));
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  const columns = tables.flatMap(({ name }) =>
    (db.prepare('SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?) ORDER BY cid').all(name) as { name: string; type: string; not_null: number; pk: number }[]).map(
      (c) => ({ table: name, column: c.name, type: TYPE_IN_POSTGRES[c.type] ?? `unmapped ${c.type}`, notNull: c.not_null === 1 || c.pk > 0 }),
    ),
  );
  const indexes = (db.prepare("SELECT tbl_name || '.' || name || (CASE WHEN sql LIKE 'CREATE UNIQUE%' THEN ' unique' ELSE '' END) AS name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY 1").all() as { name: string }[]).map((r) => r.name);
  db.close();
  return { columns, indexes };
}

test('the PostgreSQL migrations build the tables, columns and indexes the SQLite ones do', { skip: postgresBinaries() ? false : 'PostgreSQL server binaries are not installed' }, async () => {
  const expected = sqliteSchema();
  const db = await openTestState('postgres');
  try {
    const columns = (
      await db.all<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
        "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
      )
    )
      // A `rowid` column stands for SQLite's implicit one, which table_info does not list (migration 019).
      .filter((c) => c.column_name !== 'rowid')
      .map((c) => ({ table: c.table_name, column: c.column_name, type: c.data_type, notNull: c.is_nullable === 'NO' }));
    // Indexes made by CREATE INDEX only: those behind PRIMARY KEY and UNIQUE constraints are implied on both sides.
    const indexes = (
      await db.all<{ name: string }>(
        `SELECT t.relname || '.' || i.relname || (CASE WHEN x.indisunique THEN ' unique' ELSE '' END) AS name
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
          ORDER BY 1`,
      )
    ).map((r) => r.name);
    assert.deepEqual(columns, expected.columns);
    assert.deepEqual(indexes, expected.indexes);
    const nocase = await db.all<{ column: string }>(
      "SELECT table_name || '.' || column_name AS column FROM information_schema.columns WHERE table_schema = 'public' AND collation_name = 'nocase' ORDER BY 1",
    );
    assert.deepEqual(nocase.map((r) => r.column), ['accounts.email', 'login_tokens.email', 'org_invitations.email'], 'the COLLATE NOCASE columns of the SQLite schema');
  } finally {
    await db.close();
  }
});
