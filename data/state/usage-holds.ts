import type { StateDb } from './db.ts';

/**
 * The meter's held units (api/usage/meter.ts), as few statements as each engine allows. A unit held by a call in
 * progress is counted twice over, kept equal: `usage_weeks.held` on the caller's week row, which a reservation checks
 * and raises under that row's lock, and one `usage_reservations` row, which carries the unit's expiry and owner.
 * Every write here changes both together, so `held` is always the number of rows for its subject and week, never
 * below 0, and a unit is freed only by the statement that deletes its row: a second release finds nothing to free.
 *
 * On PostgreSQL each is one statement (a data-modifying `WITH`), so a metered call's reservation and its settling
 * are one round trip each and need no transaction; SQLite has no data-modifying `WITH`, so there each is two
 * statements in one transaction, which costs no round trip in process. Why the engines differ lives here, with the
 * engines, rather than in the meter.
 */

export interface HoldRequest {
  subject: string;
  weekStart: string;
  /** The allowance: a unit is held only while `used + held` is below it. */
  limit: number;
  reservationId: string;
  expiresAt: string;
  /** The API process holding it (data/state/instances.ts), or null. */
  owner: string | null;
}

/** The week row's figures once the unit is held: `held` counts every row, the expired ones not yet freed included. */
export interface HeldFigures {
  used: number;
  held: number;
}

// The week row made (holding this unit) or, if `used + held` is below the allowance, one more unit held on it. A row
// that another call has locked is re-read once that call ends, so the condition always sees every unit counted or held.
const HOLD_ON_WEEK = `INSERT INTO usage_weeks (subject, week_start, used, held) VALUES (?1, ?2, 0, 1)
  ON CONFLICT (subject, week_start) DO UPDATE SET held = usage_weeks.held + 1
  WHERE usage_weeks.used + usage_weeks.held < ?3
  RETURNING used, held`;

/** Holds one unit of `subject`'s week for a call about to run; undefined when the allowance is used or held up. */
export async function holdUnit(state: StateDb, request: HoldRequest): Promise<HeldFigures | undefined> {
  // A new week row holds its first unit unconditionally: an allowance of none is refused before it is written.
  if (request.limit <= 0) return undefined;
  const { subject, weekStart, limit, reservationId, expiresAt, owner } = request;
  if (state.engine === 'postgres') {
    return await state.get<HeldFigures>(
      `WITH week AS (${HOLD_ON_WEEK}),
       reservation AS (
         INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at, owner)
         SELECT ?4, ?1, ?2, ?5, CAST(?6 AS TEXT) FROM week
       )
       SELECT used, held FROM week`,
      subject, weekStart, limit, reservationId, expiresAt, owner,
    );
  }
  return await state.transaction(async () => {
    const figures = await state.get<HeldFigures>(HOLD_ON_WEEK, subject, weekStart, limit);
    if (figures) {
      await state.run(
        'INSERT INTO usage_reservations (reservation_id, subject, week_start, expires_at, owner) VALUES (?, ?, ?, ?, ?)',
        reservationId, subject, weekStart, expiresAt, owner,
      );
    }
    return figures;
  });
}

/**
 * The call counts: its unit moves from held to used, on the subject its row names now (a key's row moves to the
 * account the key joined). It counts even when its row is already gone (expired and freed, or freed by a later
 * start that found its process gone): the call ran.
 */
export async function commitUnit(state: StateDb, unit: { reservationId: string; subject: string; weekStart: string }): Promise<void> {
  if (state.engine === 'postgres') {
    await state.run(
      `WITH gone AS (DELETE FROM usage_reservations WHERE reservation_id = ?1 RETURNING subject)
       INSERT INTO usage_weeks (subject, week_start, used, held)
       SELECT COALESCE((SELECT subject FROM gone), CAST(?2 AS TEXT)), CAST(?3 AS TEXT), 1, 0
       ON CONFLICT (subject, week_start) DO UPDATE
       SET used = usage_weeks.used + 1, held = GREATEST(usage_weeks.held - (SELECT count(*) FROM gone), 0)`,
      unit.reservationId, unit.subject, unit.weekStart,
    );
    return;
  }
  await state.transaction(async () => {
    const gone = await state.get<{ subject: string }>('DELETE FROM usage_reservations WHERE reservation_id = ? RETURNING subject', unit.reservationId);
    await state.run(
      `INSERT INTO usage_weeks (subject, week_start, used, held) VALUES (?1, ?2, 1, 0)
       ON CONFLICT (subject, week_start) DO UPDATE
       SET used = usage_weeks.used + 1, held = CASE WHEN usage_weeks.held > ?3 THEN usage_weeks.held - ?3 ELSE 0 END`,
      gone?.subject ?? unit.subject, unit.weekStart, gone ? 1 : 0,
    );
  });
}

/**
 * Frees the held units whose reservation rows match `condition` (SQL on `usage_reservations`, with its parameters):
 * the rows go and each week row's `held` drops by as many. Returns how many were freed.
 *
 * @example
 * await freeUnits(state, 'reservation_id = ?', reservationId); // a call that does not count
 * await freeUnits(state, 'owner = ?', instanceId); // everything a stopped process held
 */
export async function freeUnits(state: StateDb, condition: string, ...params: (string | number)[]): Promise<number> {
  if (state.engine === 'postgres') {
    const freed = await state.get<{ freed: number | null }>(
      `WITH gone AS (DELETE FROM usage_reservations WHERE ${condition} RETURNING subject, week_start),
       per_week AS (SELECT subject, week_start, count(*) AS n FROM gone GROUP BY subject, week_start),
       lowered AS (
         UPDATE usage_weeks SET held = GREATEST(usage_weeks.held - per_week.n, 0) FROM per_week
         WHERE usage_weeks.subject = per_week.subject AND usage_weeks.week_start = per_week.week_start
       )
       SELECT sum(n) AS freed FROM per_week`,
      ...params,
    );
    return freed?.freed ?? 0;
  }
  return await state.transaction(async () => {
    const gone = await state.all<{ subject: string; week_start: string }>(`DELETE FROM usage_reservations WHERE ${condition} RETURNING subject, week_start`, ...params);
    const perWeek = new Map<string, { subject: string; weekStart: string; n: number }>();
    for (const row of gone) {
      const key = `${row.subject}\n${row.week_start}`;
      const known = perWeek.get(key);
      if (known) known.n++;
      else perWeek.set(key, { subject: row.subject, weekStart: row.week_start, n: 1 });
    }
    for (const { subject, weekStart, n } of perWeek.values()) {
      await state.run(
        'UPDATE usage_weeks SET held = CASE WHEN held > ?3 THEN held - ?3 ELSE 0 END WHERE subject = ?1 AND week_start = ?2',
        subject, weekStart, n,
      );
    }
    return gone.length;
  });
}
