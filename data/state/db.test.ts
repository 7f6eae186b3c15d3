import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateDb } from './db.ts';

test('the state store migrates once, runs in WAL mode and rolls back a failed transaction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'state-'));
  const db = openStateDb(dir);
  assert.equal(db.get<{ journal_mode: string }>('PRAGMA journal_mode')?.journal_mode, 'wal');
  db.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', 'a1', 'x@example.com', '2026-01-01');
  assert.throws(() => db.transaction(() => {
    db.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', 'a2', 'y@example.com', '2026-01-01');
    throw new Error('abandon');
  }), /abandon/);
  assert.equal(db.all('SELECT * FROM accounts').length, 1);
  db.close();
  const reopened = openStateDb(dir);
  assert.equal(reopened.all('SELECT * FROM accounts').length, 1, 'migrations are not applied twice');
  reopened.close();
});
