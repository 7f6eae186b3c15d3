import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openTestState, postgresBinaries, sharedPostgresCluster, startPostgresCluster } from '../../test/helpers/postgres-cluster.ts';
import { StateUnavailableError, type StateDb } from './db.ts';
import { openPostgresState, positional } from './postgres.ts';
import { findKeyMarkingUse } from './api-key-use.ts';
import { commitUnit, freeUnits, holdUnit } from './usage-holds.ts';

// The same cases on both engines, through the StateDb interface only: what a caller may rely on whichever engine
// DATABASE_URL selects. PostgreSQL runs on a throwaway real cluster (test/helpers/postgres-cluster.ts).
const NO_POSTGRES = postgresBinaries() ? false : 'PostgreSQL server binaries are not installed (/usr/lib/postgresql/*/bin)';
const WEEK = '2026-11-30T13:00:00.000Z';

async function withState(engine: 'sqlite' | 'postgres', work: (db: StateDb) => Promise<void>, options?: { max?: number }): Promise<void> {
  const db = await openTestState(engine, options);
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

async function addAccount(db: StateDb, id: string, email = `${id}@example.com`): Promise<void> {
  await db.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)', id, email, '2026-12-01T00:00:00.000Z');
}

const HOUR_ON = '2026-12-01T01:00:00.000Z';

const md5Of = (text: string) => createHash('md5').update(text).digest('hex');

/** One unit of `subject`'s week held as the meter holds it (data/state/usage-holds.ts), if fewer than `limit` are used or held. */
const hold = (db: StateDb, subject: string, id: string, limit: number, expiresAt = HOUR_ON) =>
  holdUnit(db, { subject, weekStart: WEEK, limit, reservationId: id, expiresAt, owner: null });

/** The week row's count and held units, and how many reservation rows stand for them. */
async function heldState(db: StateDb, subject: string): Promise<{ used: number; held: number; rows: number }> {
  const row = await db.get<{ used: number; held: number }>('SELECT used, held FROM usage_weeks WHERE subject = ? AND week_start = ?', subject, WEEK);
  const { rows } = (await db.get<{ rows: number }>('SELECT count(*) AS rows FROM usage_reservations WHERE subject = ? AND week_start = ?', subject, WEEK))!;
  return { used: row?.used ?? 0, held: row?.held ?? 0, rows };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`state engine ${engine}`, { skip: engine === 'postgres' ? NO_POSTGRES : false }, () => {
    test('binds ? and ?NNN placeholders, and leaves a ? inside literals, quoted names and comments alone', () =>
      withState(engine, async (db) => {
        const inserted = await db.run(
          `INSERT INTO feedback (feedback_id, tool, verdict, ref, note, account_id, created_at) -- a ? here is a comment
           VALUES (?, 'what?', ?, /* ? */ ?, 'it''s ?', ?, ?)`,
          'f1', 'up', 'ref?', null, '2026-12-01',
        );
        assert.equal(inserted.changes, 1);
        const row = await db.get<Record<string, unknown>>('SELECT tool AS "tool?", ref, note, account_id FROM feedback WHERE feedback_id = ?1 AND (ref = ?2 OR note = ?2)', 'f1', 'ref?');
        assert.deepEqual({ ...row }, { 'tool?': 'what?', ref: 'ref?', note: "it's ?", account_id: null });
      }));

    test('round-trips NULL, integers bound as bigint, reals and bytes exactly, and counts come back as numbers', () =>
      withState(engine, async (db) => {
        const body = new Uint8Array([0, 1, 2, 254, 255, 0]);
        await db.run(
          "INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, started_at, expires_at, status, headers, body) VALUES (?, ?, ?, 'done', ?, ?, ?, ?, ?)",
          'key:k1', 'idem-1', 'h', WEEK, WEEK, 201n, null, body,
        );
        const row = await db.get<{ status: number; headers: null; body: Uint8Array }>('SELECT status, headers, body FROM idempotency_keys WHERE scope = ?', 'key:k1');
        assert.deepEqual({ ...row }, { status: 201, headers: null, body });
        assert.equal(Object.getPrototypeOf(row!.body), Uint8Array.prototype, 'bytes come back as a plain Uint8Array on both engines');
        await db.run('INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, ?)', 'ip:1', WEEK, 2n ** 40n);
        await db.run('INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, ?)', 'ip:2', WEEK, 3);
        const totals = await db.get<{ n: number; total: number; biggest: number; found: number }>(
          'SELECT count(*) AS n, sum(used) AS total, max(used) AS biggest, EXISTS (SELECT 1 FROM usage_weeks WHERE used = 3) AS found FROM usage_weeks',
        );
        assert.deepEqual({ ...totals }, { n: 2, total: 2 ** 40 + 3, biggest: 2 ** 40, found: 1 });
        await addAccount(db, 'a1');
        await db.run("INSERT INTO orgs (org_id, company_name, created_by, created_at, updated_at) VALUES ('o1', 'Org', 'a1', ?, ?)", WEEK, WEEK);
        await db.run("INSERT INTO bids (bid_id, org_id, title, stage, created_by, created_at, updated_at) VALUES ('b1', 'o1', 'Bid', 'qualifying', 'a1', ?, ?)", WEEK, WEEK);
        await db.run(
          "INSERT INTO bid_requirements (requirement_id, bid_id, origin, text, kind, mandatory, weight, state, confidence, created_at, updated_at) VALUES ('r1', 'b1', 'person', 'Do it', 'instruction', 1, ?, 'open', ?, ?, ?)",
          12.5, 0.1 + 0.2, WEEK, WEEK,
        );
        const requirement = await db.get<{ weight: number; confidence: number }>('SELECT weight, confidence FROM bid_requirements');
        assert.deepEqual({ ...requirement }, { weight: 12.5, confidence: 0.1 + 0.2 }, 'REAL is a double on both engines');
      }));

    test('RETURNING, ON CONFLICT DO NOTHING and DO UPDATE with excluded and a qualified column', () =>
      withState(engine, async (db) => {
        await db.run('INSERT INTO login_tokens (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)', 't1', 'A@Example.com', WEEK, '2026-12-31');
        const used = await db.get<{ email: string }>('UPDATE login_tokens SET used_at = ?1 WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ?1 RETURNING email', '2026-12-02', 't1');
        assert.deepEqual({ ...used }, { email: 'A@Example.com' });
        assert.equal(await db.get('UPDATE login_tokens SET used_at = ?1 WHERE token_hash = ?2 AND used_at IS NULL RETURNING email', '2026-12-03', 't1'), undefined);
        const upsert = 'INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, ?) ON CONFLICT (subject, week_start) DO UPDATE SET used = usage_weeks.used + excluded.used';
        await db.run(upsert, 's', WEEK, 2);
        assert.equal((await db.run(upsert, 's', WEEK, 3)).changes, 1);
        assert.equal((await db.get<{ used: number }>('SELECT used FROM usage_weeks WHERE subject = ?', 's'))?.used, 5);
        const ignored = await db.run('INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, 9) ON CONFLICT DO NOTHING', 's', WEEK);
        assert.equal(ignored.changes, 0);
      }));

    test('emails are unique and found whatever their case, as COLLATE NOCASE has it', () =>
      withState(engine, async (db) => {
        await addAccount(db, 'a1', 'Person@Example.com');
        await assert.rejects(addAccount(db, 'a2', 'person@example.COM'));
        assert.equal((await db.get<{ account_id: string }>('SELECT account_id FROM accounts WHERE email = ?', 'PERSON@example.com'))?.account_id, 'a1');
        assert.equal((await db.get<{ account_id: string }>('SELECT account_id FROM accounts a WHERE a.email = ? COLLATE NOCASE', 'person@EXAMPLE.com'))?.account_id, 'a1');
      }));

    test('a transaction rolls back everything when its work throws, and the error is the one thrown', () =>
      withState(engine, async (db) => {
        await addAccount(db, 'kept');
        await assert.rejects(
          db.transaction(async () => {
            await addAccount(db, 'gone');
            await sleep(5);
            throw new Error('abandon');
          }),
          /abandon/,
        );
        assert.deepEqual((await db.all<{ account_id: string }>('SELECT account_id FROM accounts ORDER BY account_id')).map((r) => r.account_id), ['kept']);
        assert.equal(await db.transaction(async () => 'value'), 'value');
      }));

    test('a nested transaction joins the outer one: the outer throw undoes the inner writes too', () =>
      withState(engine, async (db) => {
        await assert.rejects(
          db.transaction(async () => {
            const inner = await db.transaction(async () => {
              await addAccount(db, 'inner');
              return 'inner done';
            });
            assert.equal(inner, 'inner done');
            assert.equal((await db.all('SELECT account_id FROM accounts')).length, 1, 'the outer work sees the inner write');
            throw new Error('outer fails');
          }),
          /outer fails/,
        );
        assert.equal((await db.all('SELECT account_id FROM accounts')).length, 0);
      }));

    test('a helper given no transaction handle still writes inside the transaction it is called from', () =>
      withState(engine, async (db) => {
        // Across awaits of timers and promise chains, as a request's helpers run.
        const helper = async (id: string): Promise<void> => {
          await sleep(1);
          await Promise.resolve().then(() => addAccount(db, id));
        };
        await assert.rejects(
          db.transaction(async () => {
            await helper('h1');
            await Promise.all([helper('h2'), helper('h3')]);
            throw new Error('undo');
          }),
          /undo/,
        );
        assert.equal((await db.all('SELECT account_id FROM accounts')).length, 0, 'all three writes were in the rolled-back transaction');
        // A statement from work begun outside, issued while a transaction is open, does not land inside it.
        const gate = Promise.withResolvers<void>();
        const outside = (async () => {
          await gate.promise;
          await addAccount(db, 'outside');
        })();
        await assert.rejects(
          db.transaction(async () => {
            await addAccount(db, 'in-tx');
            gate.resolve();
            await sleep(20);
            throw new Error('undo again');
          }),
          /undo again/,
        );
        await outside;
        assert.deepEqual((await db.all<{ account_id: string }>('SELECT account_id FROM accounts')).map((r) => r.account_id), ['outside']);
      }));

    test('50 reservations at once with one unit left: exactly one succeeds, and the count of held units is its row', () =>
      withState(
        engine,
        async (db) => {
          await db.run('INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, ?)', 'account:a', WEEK, 9);
          // Every pooled connection opened first, so the 50 overlap instead of queueing behind connection set-up.
          await Promise.all(Array.from({ length: 20 }, () => db.transaction(() => sleep(20))));
          const results = await Promise.all(Array.from({ length: 50 }, (_, i) => hold(db, 'account:a', `r${i}`, 10)));
          assert.equal(results.filter(Boolean).length, 1);
          assert.deepEqual({ ...results.find(Boolean) }, { used: 9, held: 1 });
          assert.deepEqual(await heldState(db, 'account:a'), { used: 9, held: 1, rows: 1 });
        },
        { max: 20 },
      ));

    test('holds, commits and frees keep held equal to the reservation rows under concurrent writers, and never below 0', () =>
      withState(
        engine,
        async (db) => {
          await Promise.all(Array.from({ length: 20 }, () => db.transaction(() => sleep(20))));
          // A new subject's week row is made by its first hold.
          const first = await Promise.all(Array.from({ length: 30 }, (_, i) => hold(db, 'account:m', `m${i}`, 25)));
          assert.equal(first.filter(Boolean).length, 25, 'no more held than the allowance');
          assert.deepEqual(await heldState(db, 'account:m'), { used: 0, held: 25, rows: 25 });
          // Settled all at once, each twice over: 10 committed, 10 freed, some of them both ways at once.
          const granted = Array.from({ length: 25 }, (_, i) => `m${i}`);
          await Promise.all([
            ...granted.slice(0, 10).map((id) => commitUnit(db, { reservationId: id, subject: 'account:m', weekStart: WEEK })),
            ...granted.slice(10, 20).flatMap((id) => [freeUnits(db, 'reservation_id = ?', id), freeUnits(db, 'reservation_id = ?', id)]),
            ...granted.slice(20).map((id) => hold(db, 'account:m', `${id}-more`, 25)),
          ]);
          const after = await heldState(db, 'account:m');
          assert.equal(after.used, 10);
          assert.equal(after.held, after.rows, 'held counts exactly the rows left');
          assert.equal(after.used + after.held <= 25, true);
          assert.equal(await freeUnits(db, 'reservation_id = ?', 'm10'), 0, 'a unit freed once is not freed again');

          // A call whose unit was freed meanwhile (its hour ended) still counts when it commits, and frees nothing more.
          await db.run('INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, 0)', 'account:x', WEEK);
          assert.ok(await hold(db, 'account:x', 'x1', 2, WEEK));
          assert.ok(await hold(db, 'account:x', 'x2', 2));
          assert.equal(await hold(db, 'account:x', 'x3', 2), undefined, 'both units are held');
          assert.equal(await freeUnits(db, 'subject = ? AND week_start = ? AND expires_at <= ?', 'account:x', WEEK, '2026-12-01T00:00:00.000Z'), 1);
          await commitUnit(db, { reservationId: 'x1', subject: 'account:x', weekStart: WEEK });
          assert.deepEqual(await heldState(db, 'account:x'), { used: 1, held: 1, rows: 1 });
          await commitUnit(db, { reservationId: 'x2', subject: 'account:x', weekStart: WEEK });
          assert.deepEqual(await heldState(db, 'account:x'), { used: 2, held: 0, rows: 0 });
          assert.equal(await hold(db, 'account:x', 'x4', 2), undefined, 'the allowance is used up');
          // A row with no unit counted for it (written before held was kept) leaves held at 0 when it goes.
          await db.run('INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at) VALUES (?, ?, ?, ?)', 'stray', 'account:x', WEEK, WEEK);
          assert.equal(await freeUnits(db, 'reservation_id = ?', 'stray'), 1);
          await commitUnit(db, { reservationId: 'stray', subject: 'account:x', weekStart: WEEK });
          assert.deepEqual(await heldState(db, 'account:x'), { used: 3, held: 0, rows: 0 });
          assert.equal(await hold(db, 'account:none', 'n1', 0), undefined, 'an allowance of none holds nothing');
          assert.deepEqual(await heldState(db, 'account:none'), { used: 0, held: 0, rows: 0 });
        },
        { max: 20 },
      ));

    test('a key look-up marks the key used at most once per span, and never a refused key', () =>
      withState(engine, async (db) => {
        await addAccount(db, 'acct_k');
        for (const [id, revoked] of [['key_live', null], ['key_revoked', '2026-12-01T00:00:00.000Z']] as const) {
          await db.run(
            "INSERT INTO api_keys (key_id, key_hash, account_id, scope, prefix, created_at, revoked_at) VALUES (?, ?, 'acct_k', 'api', 'svc_', ?, ?)",
            id, `hash-${id}`, '2026-12-01T00:00:00.000Z', revoked,
          );
        }
        const lastUsed = async (id: string) => (await db.get<{ at: string | null }>('SELECT last_used_at AS at FROM api_keys WHERE key_id = ?', id))?.at;
        const use = (id: string, at: string, staleBefore: string) => findKeyMarkingUse(db, `hash-${id}`, at, staleBefore);
        const first = await use('key_live', '2026-12-01T10:00:00.000Z', '2026-12-01T09:59:00.000Z');
        assert.equal(first?.key_id, 'key_live');
        assert.equal(first?.last_used_at, null, 'the look-up tells the mark as it was before this use');
        assert.equal(await lastUsed('key_live'), '2026-12-01T10:00:00.000Z');
        await use('key_live', '2026-12-01T10:00:59.000Z', '2026-12-01T09:59:59.000Z');
        assert.equal(await lastUsed('key_live'), '2026-12-01T10:00:00.000Z', 'marked less than a span ago: left alone');
        const later = await use('key_live', '2026-12-01T10:01:00.000Z', '2026-12-01T10:00:00.000Z');
        assert.equal(later?.last_used_at, '2026-12-01T10:00:00.000Z');
        assert.equal(await lastUsed('key_live'), '2026-12-01T10:01:00.000Z');
        const revoked = await use('key_revoked', '2026-12-01T10:00:00.000Z', '2026-12-01T09:59:00.000Z');
        assert.equal(revoked?.revoked_at, '2026-12-01T00:00:00.000Z');
        assert.equal(await lastUsed('key_revoked'), null);
        assert.equal(await use('key_missing', '2026-12-01T10:00:00.000Z', '2026-12-01T09:59:00.000Z'), undefined);
      }));
  });
}

describe('PostgreSQL engine only', { skip: NO_POSTGRES }, () => {
  test('two transactions that each read then write the same decision: one is retried and sees the other', async () => {
    const db = await openTestState('postgres');
    try {
      let attempts = 0;
      let arrived = 0;
      const bothRead = Promise.withResolvers<void>();
      const claim = (id: string): Promise<boolean> =>
        db.transaction(async () => {
          attempts++;
          const held = await db.get<{ n: number }>('SELECT count(*) AS n FROM usage_reservations WHERE subject = ?', 'account:b');
          // Both have read before either writes: a write skew only SERIALIZABLE refuses.
          if (++arrived === 2) bothRead.resolve();
          await bothRead.promise;
          if (held!.n > 0) return false;
          await db.run('INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at) VALUES (?, ?, ?, ?)', id, 'account:b', WEEK, WEEK);
          return true;
        });
      const results = await Promise.all([claim('x'), claim('y')]);
      assert.deepEqual(results.sort(), [false, true]);
      assert.equal(attempts, 3, 'the loser ran again after its serialisation failure');
      assert.equal((await db.get<{ n: number }>('SELECT count(*) AS n FROM usage_reservations'))?.n, 1);
    } finally {
      await db.close();
    }
  });

  test('read committed: reservations of different subjects never retry; on one subject the row lock orders them', async () => {
    const db = await openTestState('postgres', { max: 20 });
    try {
      let attempts = 0;
      // The meter's reservation: lock the subject's week row, then count what it holds, then hold one more.
      const reserve = (subject: string, id: string, limit: number): Promise<boolean> =>
        db.transaction(async () => {
          attempts++;
          const { used } = (await db.get<{ used: number }>(
            'INSERT INTO usage_weeks (subject, week_start, used) VALUES (?, ?, 0) ON CONFLICT (subject, week_start) DO UPDATE SET used = usage_weeks.used RETURNING used', subject, WEEK))!;
          const { held } = (await db.get<{ held: number }>('SELECT count(*) AS held FROM usage_reservations WHERE subject = ?', subject))!;
          // Every transaction has read before any writes: under SERIALIZABLE the shared index page made them conflict.
          await sleep(20);
          if (used + held >= limit) return false;
          await db.run('INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at) VALUES (?, ?, ?, ?)', id, subject, WEEK, WEEK);
          return true;
        }, { isolation: 'read committed' });
      const apart = await Promise.all(Array.from({ length: 10 }, (_, i) => reserve(`account:s${i}`, `apart${i}`, 1)));
      assert.deepEqual(apart, Array(10).fill(true));
      assert.equal(attempts, 10, 'no transaction was retried');
      const together = await Promise.all(Array.from({ length: 10 }, (_, i) => reserve('account:one', `together${i}`, 3)));
      assert.equal(together.filter(Boolean).length, 3);
    } finally {
      await db.close();
    }
  });

  test('a transaction whose work swallowed a failed statement is not committed as if whole', async () => {
    const db = await openTestState('postgres');
    try {
      await addAccount(db, 'a1');
      await assert.rejects(
        db.transaction(async () => {
          await addAccount(db, 'a2');
          await addAccount(db, 'a1').catch(() => {});
        }),
        /rolled back/,
      );
      assert.equal((await db.all('SELECT account_id FROM accounts')).length, 1);
    } finally {
      await db.close();
    }
  });

  test('statements are prepared once per connection, and a SELECT * whose table changed shape is prepared afresh', async () => {
    const db = await openTestState('postgres', { max: 1 });
    try {
      const insert = "INSERT INTO feedback (feedback_id, tool, verdict, created_at) VALUES (?, 'tool', 'up', '2026-12-01')";
      const read = 'SELECT * FROM feedback WHERE feedback_id = ?';
      for (const id of ['f1', 'f2', 'f3']) {
        await db.run(insert, id);
        assert.equal((await db.get<{ feedback_id: string }>(read, id))?.feedback_id, id);
      }
      const prepared = await db.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
      assert.deepEqual(prepared.map((row) => row.statement).filter((statement) => statement.includes(' feedback ')).sort(), [positional(insert), positional(read)].sort(), 'each text prepared once on the one connection');
      // As another instance's migration would: the prepared SELECT * now returns a column more.
      await db.run('ALTER TABLE feedback ADD COLUMN extra TEXT');
      assert.equal((await db.get<{ extra: string | null }>(read, 'f1'))?.extra, null);
      await db.run('ALTER TABLE feedback DROP COLUMN extra');
      const inTransaction = await db.transaction(async () => (await db.get<Record<string, unknown>>(read, 'f2'))!);
      assert.equal('extra' in inTransaction, false);
    } finally {
      await db.close();
    }
  });

  test('a key\'s last-used mark and a week row\'s held units are heap-only updates, writing no index (migration 024)', async () => {
    const db = await openTestState('postgres');
    try {
      await addAccount(db, 'a1');
      // Enough rows to fill several pages, as a store at scale has; the first row's page is then filled as far as it may be.
      await db.run(`INSERT INTO api_keys (key_id, key_hash, account_id, scope, prefix, created_at)
        SELECT 'key_' || n, md5('key ' || n), 'a1', 'api', 'svc_' || n, '2026-12-01T00:00:00.000Z' FROM generate_series(1, 500) AS n`);
      await db.run(`INSERT INTO usage_weeks (subject, week_start, used) SELECT 'account:s' || n, ?, 0 FROM generate_series(1, 1000) AS n`, WEEK);
      const updatedIn = (table: string, update: () => Promise<unknown>) =>
        db.transaction(async () => {
          await update();
          return await db.get<{ updated: number; hot: number }>(
            'SELECT pg_stat_get_xact_tuples_updated(CAST(?1 AS regclass)) AS updated, pg_stat_get_xact_tuples_hot_updated(CAST(?1 AS regclass)) AS hot', table);
        });
      const marked = await updatedIn('api_keys', () => findKeyMarkingUse(db, md5Of('key 1'), '2026-12-01T01:00:00.000Z', '2026-12-01T00:59:00.000Z'));
      assert.deepEqual({ ...marked }, { updated: 1, hot: 1 });
      const held = await updatedIn('usage_weeks', () => hold(db, 'account:s1', 'r1', 10));
      assert.deepEqual({ ...held }, { updated: 1, hot: 1 });
    } finally {
      await db.close();
    }
  });

  test('migrations run once when several instances start on an empty database together', async () => {
    const cluster = await sharedPostgresCluster();
    const url = await cluster.freshDatabase({ migrated: false });
    const instances = await Promise.all([1, 2, 3].map(() => openPostgresState(url, { max: 2 })));
    const applied = await instances[0]!.all<{ name: string; n: number }>('SELECT name, count(*) AS n FROM schema_migrations GROUP BY name ORDER BY name');
    assert.equal(applied.length, readdirSync(new URL('./migrations-postgres/', import.meta.url)).filter((file) => file.endsWith('.sql')).length);
    assert.ok(applied.every((row) => row.n === 1));
    await Promise.all(instances.map((db) => db.close()));
  });

  test('a refused connection, too many connections and a server that went away are StateUnavailableError', async () => {
    await assert.rejects(openPostgresState('postgres://postgres@127.0.0.1:1/none', { connectionTimeoutMillis: 2_000 }), StateUnavailableError);
    const shared = await sharedPostgresCluster();
    const limitedUrl = (await shared.freshDatabase()).replace('postgres@', 'limited@');
    const admin = await openTestState('postgres');
    await admin.run('CREATE ROLE limited LOGIN CONNECTION LIMIT 1');
    await admin.close();
    const limited = await openPostgresState(limitedUrl, { max: 2, migrate: false });
    const holds = Promise.withResolvers<void>();
    const holding = limited.transaction(async () => {
      holds.resolve();
      await sleep(300);
    });
    await holds.promise;
    await assert.rejects(limited.get('SELECT count(*) AS n FROM accounts'), StateUnavailableError);
    await holding;
    await limited.close();

    const own = await startPostgresCluster();
    const db = await openPostgresState(await own.freshDatabase(), { connectionTimeoutMillis: 2_000 });
    await addAccount(db, 'a1');
    await own.stop();
    await assert.rejects(db.get('SELECT count(*) AS n FROM accounts'), StateUnavailableError);
    await assert.rejects(db.transaction(() => addAccount(db, 'a2')), StateUnavailableError);
    await db.close();
  });
});

test('placeholders are translated to $n outside literals, quoted identifiers and comments', () => {
  assert.equal(positional('SELECT ? , ?'), 'SELECT $1 , $2');
  assert.equal(positional("SELECT '?', 'a''?', ?"), "SELECT '?', 'a''?', $1");
  assert.equal(positional('SELECT "col?" FROM t WHERE a = ? -- ?\nAND b = ?'), 'SELECT "col?" FROM t WHERE a = $1 -- ?\nAND b = $2');
  assert.equal(positional('SELECT /* ? /* ? */ ? */ ?'), 'SELECT /* ? /* ? */ ? */ $1');
  assert.equal(positional("SELECT E'\\'?', $$?$$, $tag$ ? $tag$, ?"), "SELECT E'\\'?', $$?$$, $tag$ ? $tag$, $1");
  assert.equal(positional('WHERE a = ?2 OR b = ?1 OR c = ?'), 'WHERE a = $2 OR b = $1 OR c = $3');
  assert.equal(positional("SELECT type'?', ?"), "SELECT type'?', $1");
});
