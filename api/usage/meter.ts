import { LRUCache } from 'lru-cache';
import { addDays, localDate, zonedTimeToUtc } from '../../lib/jurisdictions.ts';
import { newId } from '../../lib/tokens.ts';
import type { Caller } from '../accounts/caller.ts';
import type { StateDb } from '../../data/state/db.ts';
import { commitUnit, freeUnits, holdUnit, type HeldFigures } from '../../data/state/usage-holds.ts';

/**
 * The weekly checker allowance (spec, Limits): 20 calls a week per anonymous IP, shared by everyone behind
 * it; 100 a week per account across all its keys, sessions and tools; 100 for a key that belongs to no
 * account. The week runs from Monday 00:00 in Sydney to the next, the market most callers work in.
 *
 * A call reserves one unit before its work runs and settles it afterwards: `commit` counts it, `release`
 * gives it back (an abstention, an outage, a failure). Reserving raises the held count on the caller's week row
 * only while used and held together are under the limit, one statement ordered by that row's lock
 * (data/state/usage-holds.ts), so concurrent calls can never together take more units than remain.
 */

export const WEEK_TIME_ZONE = 'Australia/Sydney';
/** How the week is described to people and in `GET /v1/pricing`. */
export const WEEK_RULE = 'Each week starts Monday 00:00 Australia/Sydney time.';

export interface WeeklyCaps {
  /** Per IP, shared by every anonymous caller behind it. */
  anonymous: number;
  /** Per account (all its keys and sessions), or per key that belongs to no account. */
  identified: number;
}

/** Weeks of usage history kept before the current week. */
export const USAGE_WEEKS_KEPT = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_CAPS: WeeklyCaps = { anonymous: 20, identified: 100 };

/**
 * A unit left unsettled this long is free again: the last resort for a process that died mid-call, when no later
 * start on its machine released it first (data/state/instances.ts).
 */
const RESERVATION_TTL_MS = 60 * 60_000;
/**
 * How long `allowance` may reuse figures it read, so the rate headers on every reply cost no query. Writes
 * through this meter drop them at once; only another API process's writes can be this late to show.
 */
const FIGURES_REUSE_MS = 1_000;

export interface Week {
  start: Date;
  /** The next week's start: when the allowance resets. */
  resetAt: Date;
}

/** The metering week containing `instant`. Sydney's clocks change at 02:00 and 03:00, so its midnights always exist. */
export function weekOf(instant: Date): Week {
  const today = localDate(instant, WEEK_TIME_ZONE);
  const daysSinceMonday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const monday = addDays(today, -daysSinceMonday);
  return {
    start: zonedTimeToUtc(monday, '00:00', WEEK_TIME_ZONE),
    resetAt: zonedTimeToUtc(addDays(monday, 7), '00:00', WEEK_TIME_ZONE),
  };
}

/** Whose allowance a caller draws on. */
export interface Subject {
  /** `ip:<address>`, `account:<id>` or `key:<id>`. */
  id: string;
  countedPer: 'ip' | 'account' | 'key';
  limit: number;
}

/** Whose allowance a caller draws on, without the limit: also the burst guard's bucket. */
export function subjectIdOf(caller: Caller): Pick<Subject, 'id' | 'countedPer'> {
  switch (caller.kind) {
    case 'anonymous':
      return { id: `ip:${caller.ip}`, countedPer: 'ip' };
    case 'session':
      return { id: `account:${caller.accountId}`, countedPer: 'account' };
    case 'key':
      return caller.accountId === null ? { id: `key:${caller.keyId}`, countedPer: 'key' } : { id: `account:${caller.accountId}`, countedPer: 'account' };
  }
}

export interface Allowance {
  countedPer: Subject['countedPer'];
  limit: number;
  /** Units counted this week. */
  used: number;
  /** Units still free: the limit less those counted and those held by calls in progress. */
  remaining: number;
  resetAt: Date;
}

export interface Reservation {
  id: string;
  subjectId: string;
  weekStart: string;
}

export type ReserveOutcome = { granted: true; reservation: Reservation } | { granted: false; allowance: Allowance };

export interface Meter {
  readonly caps: WeeklyCaps;
  /** The meter's clock. */
  now(): Date;
  subjectOf(caller: Caller): Subject;
  /** The current week containing the meter's clock. */
  week(): Week;
  allowance(caller: Caller): Promise<Allowance>;
  /** Holds one unit for a call about to run, or says the allowance is used up. */
  reserve(caller: Caller): Promise<ReserveOutcome>;
  /** The call counts: its unit joins `used`. */
  commit(reservation: Reservation): Promise<void>;
  /** The call does not count: its unit is free again. */
  release(reservation: Reservation): Promise<void>;
  /** A key of no account joins one: what it used this week moves to the account's count. */
  moveKeyToAccount(keyId: string, accountId: string): Promise<void>;
}

export interface MeterOptions {
  state: StateDb;
  caps?: Partial<WeeklyCaps>;
  now?: () => Date;
  /**
   * The instance id of this process (data/state/instances.ts), written on each unit it reserves, so that should it
   * die mid-call the next process to start frees the unit at once rather than when its hour ends.
   */
  owner?: string;
}

/**
 * @example
 * const meter = createMeter({ state });
 * const outcome = meter.reserve(c.get('caller'));
 * if (outcome.granted) meter.commit(outcome.reservation);
 */
export function createMeter(options: MeterOptions): Meter {
  const { state } = options;
  const caps: WeeklyCaps = { ...DEFAULT_CAPS, ...options.caps };
  const now = options.now ?? (() => new Date());
  const owner = options.owner ?? null;
  // The current week and its start as stored (`week_start`): read on every request, by the rate headers.
  let cachedWeek: Week | undefined;
  let cachedWeekStart = '';
  // The prune a week change started: the meter's own reads and writes wait for it, so none sees the old weeks.
  let pruning: Promise<void> = Promise.resolve();

  const week = (): Week => {
    const instant = now().getTime();
    if (!cachedWeek || instant < cachedWeek.start.getTime() || instant >= cachedWeek.resetAt.getTime()) {
      cachedWeek = weekOf(new Date(instant));
      cachedWeekStart = cachedWeek.start.toISOString();
      pruning = pruneOldWeeks(cachedWeek);
    }
    return cachedWeek;
  };

  // Past weeks are kept a while for support questions ("why was I limited last week?"), then dropped, so the
  // table holds about one row per active caller per kept week instead of growing for ever.
  const pruneOldWeeks = async (current: Week) => {
    const keepFrom = new Date(current.start.getTime() - USAGE_WEEKS_KEPT * 7 * DAY_MS).toISOString();
    try {
      await state.run('DELETE FROM usage_weeks WHERE week_start < ?', keepFrom);
      await state.run('DELETE FROM usage_reservations WHERE week_start < ?', keepFrom);
    } catch {
      // A store that cannot be written now is pruned at the next week change; metering reports its own outage,
      // and anything else wrong with these statements would show on the request path too.
    }
  };

  const subjectOf = (caller: Caller): Subject => {
    const { id, countedPer } = subjectIdOf(caller);
    return { id, countedPer, limit: countedPer === 'ip' ? caps.anonymous : caps.identified };
  };

  const recentFigures = new LRUCache<string, { used: number; held: number }>({ max: 10_000, ttl: FIGURES_REUSE_MS });
  const figuresKey = (subjectId: string, weekStart: string) => `${subjectId}|${weekStart}`;
  const forget = (subjectId: string, weekStart: string) => recentFigures.delete(figuresKey(subjectId, weekStart));
  // A settled unit moves from held to used (or is gone) in the figures this process holds, which keep the age of
  // their reading: refreshed on every write, they would never show another process's calls.
  const adjust = (reservation: Reservation, counted: 0 | 1) => {
    const key = figuresKey(reservation.subjectId, reservation.weekStart);
    const known = recentFigures.get(key);
    if (known) recentFigures.set(key, { used: known.used + counted, held: Math.max(0, known.held - 1) }, { noUpdateTTL: true });
  };
  // The week row's figures, less the units whose calls outlived their hour: those are free, though their rows and
  // their count in `held` stay until a reservation that needs them frees them (`reserve`).
  const figures = async (subjectId: string, weekStart: string, at: string) =>
    await state.get<{ used: number; held: number }>(
      `SELECT used, held - (SELECT count(*) FROM usage_reservations
                            WHERE subject = ?1 AND week_start = ?2 AND expires_at <= ?3) AS held
       FROM usage_weeks WHERE subject = ?1 AND week_start = ?2`,
      subjectId,
      weekStart,
      at,
    ) ?? { used: 0, held: 0 };

  const allowanceFrom = (subject: Subject, current: Week, used: number, held: number): Allowance => ({
    countedPer: subject.countedPer,
    limit: subject.limit,
    used,
    remaining: Math.max(0, subject.limit - used - held),
    resetAt: current.resetAt,
  });

  return {
    caps,
    now,
    subjectOf,
    week,
    async allowance(caller) {
      const subject = subjectOf(caller);
      const current = week();
      await pruning;
      const weekStart = cachedWeekStart;
      const cacheKey = figuresKey(subject.id, weekStart);
      let known = recentFigures.get(cacheKey);
      if (!known) {
        const read = await figures(subject.id, weekStart, now().toISOString());
        known = { used: read.used ?? 0, held: read.held };
        recentFigures.set(cacheKey, known);
      }
      return allowanceFrom(subject, current, known.used, known.held);
    },
    async reserve(caller) {
      const subject = subjectOf(caller);
      const current = week();
      await pruning;
      const weekStart = current.start.toISOString();
      const at = now().toISOString();
      const reservationId = newId('res_');
      const hold = (): Promise<HeldFigures | undefined> => holdUnit(state, {
        subject: subject.id,
        weekStart,
        limit: subject.limit,
        reservationId,
        expiresAt: new Date(Date.parse(at) + RESERVATION_TTL_MS).toISOString(),
        owner,
      });
      // One statement when a unit is free. Only a refusal looks for units whose calls outlived their hour (a process
      // that died on another machine): freed, they may make room for this one.
      let held = await hold();
      if (!held && (await freeUnits(state, 'subject = ? AND week_start = ? AND expires_at <= ?', subject.id, weekStart, at)) > 0) held = await hold();
      const cacheKey = figuresKey(subject.id, weekStart);
      if (!held) {
        const read = await figures(subject.id, weekStart, at);
        recentFigures.set(cacheKey, read);
        return { granted: false, allowance: allowanceFrom(subject, current, read.used, read.held) };
      }
      // Figures just written under the row's lock, this call's unit included, so the rate headers that follow need no
      // query (units past their hour and not yet freed count in them too, for the second they are reused).
      recentFigures.set(cacheKey, held);
      return { granted: true, reservation: { id: reservationId, subjectId: subject.id, weekStart } };
    },
    async commit(reservation) {
      await commitUnit(state, { reservationId: reservation.id, subject: reservation.subjectId, weekStart: reservation.weekStart });
      adjust(reservation, 1);
    },
    async release(reservation) {
      await freeUnits(state, 'reservation_id = ?', reservation.id);
      adjust(reservation, 0);
    },
    async moveKeyToAccount(keyId, accountId) {
      const fromSubjectId = `key:${keyId}`;
      const toSubjectId = `account:${accountId}`;
      const weekStart = week().start.toISOString();
      await pruning;
      await state.transaction(async () => {
        // The count and the units held move together, and so do the rows of those units, so each still frees its
        // unit where it is counted (data/state/usage-holds.ts).
        await state.run(
          `INSERT INTO usage_weeks (subject, week_start, used, held)
           SELECT ?, week_start, used, held FROM usage_weeks WHERE subject = ? AND week_start = ?
           ON CONFLICT (subject, week_start) DO UPDATE SET used = usage_weeks.used + excluded.used, held = usage_weeks.held + excluded.held`,
          toSubjectId,
          fromSubjectId,
          weekStart,
        );
        await state.run('UPDATE usage_reservations SET subject = ? WHERE subject = ? AND week_start = ?', toSubjectId, fromSubjectId, weekStart);
        await state.run('DELETE FROM usage_weeks WHERE subject = ? AND week_start = ?', fromSubjectId, weekStart);
      });
      forget(fromSubjectId, weekStart);
      forget(toSubjectId, weekStart);
    },
  };
}
