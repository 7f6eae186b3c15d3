import { dirname, join } from 'node:path';
import { configuredPublicUrl, databaseUrl, port } from '../lib/config.ts';
import { createMailer, type Mailer } from '../lib/mailer.ts';
import { newSecret } from '../lib/tokens.ts';
import { readServingTenders } from '../data/search/serving-index.ts';
import type { TenderIndex } from '../data/search/tender-index.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { openStore } from '../data/store.ts';
import { composeDigest, renderDigest } from '../data/watches/digest.ts';
import { activeWatchers, issueStopToken, recordSent, withdrawStopToken } from '../data/watches/store.ts';

export interface DigestOptions {
  dataDir: string;
  /** The release just published: its store (in the release folder, beside its serving index) and the instant it is true for. */
  release: { storePath: string; computedAt: string; now: Date };
  /** Default: SMTP over `SMTP_URL`, else `.eml` files in `<dataDir>/outbox/`. */
  mailer?: Mailer;
  /** Where people reach the API (stop links): default `SVC_PUBLIC_URL`, else the local server's address. */
  publicUrl?: string;
  /** Default: the state store in `dataDir`. */
  state?: StateDb;
  log?: (message: string) => void;
}

export interface DigestSummary {
  /** People with watches whose mail is not stopped. */
  watchers: number;
  sent: number;
  /** Emails the mail server refused; those people get theirs on the next run. */
  failed: number;
}

/** Stop links: GET shows and performs the stop, POST is RFC 8058's one-click unsubscribe. */
export function stopUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/v1/tenders/watch/stop/${token}`;
}

/**
 * The nightly email step, run after a release is published: for each person with watches, at most one
 * email a day listing what is new since their last one (none when nothing is), each with a one-click stop
 * link and the List-Unsubscribe headers of RFC 8058. One person's failure never stops the others'.
 */
export async function sendDigests(options: DigestOptions): Promise<DigestSummary> {
  const log = options.log ?? ((message: string) => console.error(message));
  // The API's own store: its PostgreSQL when DATABASE_URL names one, else the data folder's SQLite file.
  const state = options.state ?? await openStateDb(databaseUrl() ?? options.dataDir);
  const mailer = options.mailer ?? createMailer({ smtpUrl: process.env.SMTP_URL || undefined, outboxDir: join(options.dataDir, 'outbox') });
  const publicUrl = options.publicUrl ?? configuredPublicUrl() ?? `http://127.0.0.1:${port()}`;
  const store = await openStore(options.release.storePath, { readOnly: true });
  const summary: DigestSummary = { watchers: 0, sent: 0, failed: 0 };
  let tenders: TenderIndex | undefined;
  try {
    const people = await activeWatchers(state);
    summary.watchers = people.length;
    if (people.length === 0) return summary;
    tenders = await readServingTenders(dirname(options.release.storePath));
    const release = { store, tenders, computedAt: options.release.computedAt, now: options.release.now };
    const compose = { publicUrl };
    for (const person of people) {
      const digest = await composeDigest(release, person, compose);
      if (digest === null) continue;
      const token = newSecret('stop_');
      const stop = stopUrl(publicUrl, token);
      const email = renderDigest(digest, publicUrl, stop);
      // The token is stored before the mail goes, so the link works the moment the email arrives.
      await issueStopToken(state, person.mail.account_id, token, release.now);
      try {
        await mailer.send({
          to: person.email,
          subject: email.subject,
          text: email.text,
          headers: { 'List-Unsubscribe': `<${stop}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        });
      } catch (error) {
        await withdrawStopToken(state, token);
        summary.failed++;
        log(`digests: the email to account ${person.mail.account_id} was not sent: ${(error as Error).message}`);
        continue;
      }
      await recordSent(state, person.mail.account_id, digest.day, release.computedAt, digest.weekly.length > 0);
      summary.sent++;
    }
    return summary;
  } finally {
    store.close();
    tenders?.close();
    if (!options.state) await state.close();
  }
}
