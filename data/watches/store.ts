import { addDays, localDate } from '../../lib/jurisdictions.ts';
import { newId, secretHash } from '../../lib/tokens.ts';
import type { CompanyProfile } from '../intelligence/match.ts';
import type { StateDb } from '../state/db.ts';
import { WATCHES_PER_KIND, type WatchKind, type WatchRequest } from './criteria.ts';

/** The day "one email a day" counts in: the service's home time zone, as the spec counts bid fetches. */
export const MAIL_TIME_ZONE = 'Australia/Sydney';

export interface Watch {
  watch_id: string;
  account_id: string;
  kind: WatchKind;
  criteria: WatchRequest['criteria'];
  new_after: string;
  created_at: string;
  /** For a company watch saved with a website: what the site said when it was saved. */
  company_profile: CompanyProfile | null;
}

interface WatchRow {
  watch_id: string;
  account_id: string;
  kind: WatchKind;
  criteria: string;
  new_after: string;
  created_at: string;
  company_profile: string | null;
}

/** What the nightly run remembers of a person's watch mail. */
export interface WatchMail {
  account_id: string;
  last_sent_on: string | null;
  daily_through: string | null;
  weekly_sent_on: string | null;
  weekly_through: string | null;
  stopped_at: string | null;
}

export type SaveOutcome = { saved: true; watch: Watch } | { saved: false; reason: 'cap' };

const fromRow = (row: WatchRow): Watch => ({
  ...row,
  criteria: JSON.parse(row.criteria) as Watch['criteria'],
  company_profile: row.company_profile === null ? null : (JSON.parse(row.company_profile) as CompanyProfile),
});

/**
 * Saves a watch unless the person already holds five of its kind. Saving also resumes watch mail a stop
 * link ended: someone who saves a watch wants its email.
 *
 * @param newAfter items appearing after this instant are new to the watch (the served release's computed_at)
 * @param companyProfile for a company watch saved with a website, what the site said
 */
export async function saveWatch(
  state: StateDb, accountId: string, request: WatchRequest, newAfter: string, now: Date, companyProfile: CompanyProfile | null = null,
): Promise<SaveOutcome> {
  return await state.transaction(async () => {
    if (await atCap(state, accountId, request.kind)) return { saved: false, reason: 'cap' } as const;
    const row: WatchRow = {
      watch_id: newId('watch_'),
      account_id: accountId,
      kind: request.kind,
      criteria: JSON.stringify(request.criteria),
      new_after: newAfter,
      created_at: now.toISOString(),
      company_profile: companyProfile === null ? null : JSON.stringify(companyProfile),
    };
    await state.run(
      'INSERT INTO watches (watch_id, account_id, kind, criteria, new_after, created_at, company_profile) VALUES (?, ?, ?, ?, ?, ?, ?)',
      row.watch_id, row.account_id, row.kind, row.criteria, row.new_after, row.created_at, row.company_profile,
    );
    await state.run(
      'INSERT INTO watch_mail (account_id) VALUES (?) ON CONFLICT (account_id) DO UPDATE SET stopped_at = NULL',
      accountId,
    );
    return { saved: true, watch: fromRow(row) } as const;
  });
}

/** Whether the person already holds five watches of a kind (checked again when saving). */
export async function atCap(state: StateDb, accountId: string, kind: WatchKind): Promise<boolean> {
  return (await state.get<{ n: number }>('SELECT count(*) AS n FROM watches WHERE account_id = ? AND kind = ? AND deleted_at IS NULL', accountId, kind))!.n >= WATCHES_PER_KIND;
}

/** A person's watches, oldest first. */
export async function listWatches(state: StateDb, accountId: string): Promise<Watch[]> {
  return (await state
    .all<WatchRow>(
      'SELECT watch_id, account_id, kind, criteria, new_after, created_at, company_profile FROM watches WHERE account_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid',
      accountId,
    ))
    .map(fromRow);
}

/** Deletes one of a person's watches; false when they hold none with that id. */
export async function deleteWatch(state: StateDb, accountId: string, watchId: string, now: Date): Promise<boolean> {
  return (await state.run('UPDATE watches SET deleted_at = ? WHERE watch_id = ? AND account_id = ? AND deleted_at IS NULL', now.toISOString(), watchId, accountId)).changes > 0;
}

export async function watchMailOf(state: StateDb, accountId: string): Promise<WatchMail | undefined> {
  return await state.get<WatchMail>('SELECT * FROM watch_mail WHERE account_id = ?', accountId);
}

/** The people with watches whose mail is not stopped, and their watches. */
export async function activeWatchers(state: StateDb): Promise<{ mail: WatchMail; email: string; watches: Watch[] }[]> {
  const people = await state.all<WatchMail & { email: string }>(
    `SELECT m.*, a.email FROM watch_mail m JOIN accounts a USING (account_id)
     WHERE m.stopped_at IS NULL AND EXISTS (SELECT 1 FROM watches w WHERE w.account_id = m.account_id AND w.deleted_at IS NULL)
     ORDER BY m.account_id`,
  );
  return await Promise.all(people.map(async ({ email, ...mail }) => ({ mail, email, watches: await listWatches(state, mail.account_id) })));
}

/** A stop link's token for one email: the plaintext goes in the email, only the hash is kept. */
export async function issueStopToken(state: StateDb, accountId: string, token: string, now: Date): Promise<void> {
  await state.run('INSERT INTO watch_stop_tokens (token_hash, account_id, created_at) VALUES (?, ?, ?)', secretHash(token), accountId, now.toISOString());
}

/** A token whose email was never sent: it would stop nothing anyone can click. */
export async function withdrawStopToken(state: StateDb, token: string): Promise<void> {
  await state.run('DELETE FROM watch_stop_tokens WHERE token_hash = ?', secretHash(token));
}

export type StopOutcome = { found: false } | { found: true; alreadyStopped: boolean; email: string };

/** Stops every watch email to the person a stop token was sent to. Works again on a used token (harmless). */
export async function stopByToken(state: StateDb, token: string, now: Date): Promise<StopOutcome> {
  return await state.transaction(async () => {
    const holder = await state.get<{ account_id: string; email: string }>(
      'SELECT t.account_id, a.email FROM watch_stop_tokens t JOIN accounts a USING (account_id) WHERE t.token_hash = ?',
      secretHash(token),
    );
    if (!holder) return { found: false } as const;
    const at = now.toISOString();
    await state.run('UPDATE watch_stop_tokens SET used_at = coalesce(used_at, ?) WHERE token_hash = ?', at, secretHash(token));
    const stopped = (await state.run('UPDATE watch_mail SET stopped_at = ? WHERE account_id = ? AND stopped_at IS NULL', at, holder.account_id)).changes;
    return { found: true, alreadyStopped: stopped === 0, email: holder.email } as const;
  });
}

/** Records an email sent on `day`: what its daily and weekly parts covered, so the next lists only what is newer. */
export async function recordSent(state: StateDb, accountId: string, day: string, through: string, weekly: boolean): Promise<void> {
  await state.run(
    `UPDATE watch_mail SET last_sent_on = ?, daily_through = ?,
       weekly_sent_on = CASE WHEN ? THEN ? ELSE weekly_sent_on END,
       weekly_through = CASE WHEN ? THEN ? ELSE weekly_through END
     WHERE account_id = ?`,
    day, through, weekly ? 1 : 0, day, weekly ? 1 : 0, through, accountId,
  );
}

/** Sydney's day of an instant. */
export function mailDay(instant: Date): string {
  return localDate(instant, MAIL_TIME_ZONE);
}

/**
 * The weekly round-up of saved searches is due a week after the last one; the first, a week after the
 * person's first saved search (`startDay`), so it never repeats the first daily email.
 */
export function weeklyDue(mail: WatchMail, day: string, startDay: string): boolean {
  return day >= addDays(mail.weekly_sent_on ?? startDay, 7);
}

/** The earliest day the next daily email can go: today, unless one went today already. */
export function nextDailyDay(mail: WatchMail | undefined, today: string): string {
  return mail?.last_sent_on === today ? addDays(today, 1) : today;
}

/** The earliest day the next weekly round-up can go, for a person whose first saved search began on `startDay`. */
export function nextWeeklyDay(mail: WatchMail | undefined, today: string, startDay: string): string {
  const due = addDays(mail?.weekly_sent_on ?? startDay, 7);
  return due > today ? due : nextDailyDay(mail, today);
}

/** The day a person's weekly round-up counts from: their first saved search's release day. */
export function weeklyStartDay(watches: readonly Watch[]): string | null {
  const searches = watches.filter((watch) => watch.kind === 'search').map((watch) => mailDay(new Date(watch.new_after)));
  return searches.length === 0 ? null : searches.reduce((a, b) => (a < b ? a : b));
}
