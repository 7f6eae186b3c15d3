import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStateDb } from './db.ts';

test('the state store migrates once, runs in WAL mode and rolls back a failed transaction', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-'));
  const db = await openStateDb(dir);
  assert.equal((await db.get<{ journal_mode: string }>('PRAGMA journal_mode'))?.journal_mode, 'wal');
  await db.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', 'a1', 'x@example.com', '2026-01-01');
  await assert.rejects(async () => await db.transaction(async () => {
    await db.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', 'a2', 'y@example.com', '2026-01-01');
    throw new Error('abandon');
  }), /abandon/);
  assert.equal((await db.all('SELECT * FROM accounts')).length, 1);
  await db.close();
  const reopened = await openStateDb(dir);
  assert.equal((await reopened.all('SELECT * FROM accounts')).length, 1, 'migrations are not applied twice');
  await reopened.close();
});

test('migration 012 keeps every stored requirement and lets a requirement be an instruction', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-'));
  mkdirSync(join(dir, 'state'));
  // A store as it stood before 012: migrations 001 to 011 applied, one requirement of each earlier kind.
  const before = new DatabaseSync(join(dir, 'state', 'state.sqlite'));
  before.exec('PRAGMA foreign_keys = ON; CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const migrations = fileURLToPath(new URL('./migrations/', import.meta.url));
  for (const name of readdirSync(migrations).filter((file) => file.endsWith('.sql') && file < '012').sort()) {
    before.exec(readFileSync(join(migrations, name), 'utf8'));
    before.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(name, '2026-01-01');
  }
  before.exec(`INSERT INTO accounts (account_id, email, created_at) VALUES ('a1', 'x@example.com', '2026-01-01');
    INSERT INTO orgs (org_id, company_name, created_by, created_at, updated_at) VALUES ('o1', 'Example Pty Ltd', 'a1', '2026-01-01', '2026-01-01');
    INSERT INTO bids (bid_id, org_id, title, stage, created_by, created_at, updated_at) VALUES ('b1', 'o1', 'Cleaning', 'qualifying', 'a1', '2026-01-01', '2026-01-01')`);
  const insert = before.prepare(`INSERT INTO bid_requirements (requirement_id, bid_id, origin, text, kind, mandatory, weight, state, confidence, created_at, updated_at)
    VALUES (?, 'b1', 'person', ?, ?, 1, NULL, 'open', 1, '2026-01-01', '2026-01-01')`);
  for (const kind of ['clause', 'schedule', 'criterion', 'condition']) insert.run(`req_${kind}`, `A ${kind}.`, kind);
  assert.throws(() => insert.run('req_instruction', 'Lodge online.', 'instruction'), /CHECK constraint/);
  before.close();

  const db = await openStateDb(dir);
  assert.deepEqual((await db.all<{ kind: string }>('SELECT kind FROM bid_requirements ORDER BY requirement_id')).map((row) => row.kind), ['clause', 'condition', 'criterion', 'schedule']);
  await db.run(`INSERT INTO bid_requirements (requirement_id, bid_id, origin, text, kind, mandatory, state, confidence, created_at, updated_at)
    VALUES ('req_instruction', 'b1', 'person', 'Lodge online.', 'instruction', 1, 'open', 1, '2026-01-01', '2026-01-01')`);
  await assert.rejects(async () => await db.run(`INSERT INTO bid_requirements (requirement_id, bid_id, origin, text, kind, mandatory, state, confidence, created_at, updated_at)
    VALUES ('req_other', 'b1', 'person', 'x', 'other', 1, 'open', 1, '2026-01-01', '2026-01-01')`), /CHECK constraint/);
  assert.ok(await db.get("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'bid_requirements_extraction'"), 'the indexes are rebuilt with the table');
  await db.close();
});
