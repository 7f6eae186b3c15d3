import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { WatchRequest } from '../data/watches/criteria.ts';
import { saveWatch, stopByToken } from '../data/watches/store.ts';
import type { Mailer, MailMessage } from '../lib/mailer.ts';
import { sendDigests } from '../pipeline/digests.ts';
import { signIn } from './helpers/access.ts';
import { makeDataDir, seedRelease, sourceRow, tenderRow, type TenderSeed } from './helpers/seed-release.ts';
import { openTestState } from './helpers/state.ts';

const PUBLIC_URL = 'https://tenders.example.test';

/** A release on day N of June 2026 (22:00 in Sydney), holding `tenders`. */
function dayAt(day: number, hour = 12): string {
  return `2026-06-${String(day).padStart(2, '0')}T${hour}:00:00.000Z`;
}

function tender(title: string, firstSeen: number | string, overrides: Partial<TenderSeed> = {}): TenderSeed {
  return tenderRow({ title, reference: title, first_seen: typeof firstSeen === 'number' ? dayAt(firstSeen) : firstSeen, closing_date: '2026-12-01', ...overrides });
}

test('daily and weekly email from seeded nights: only what is new, once a day, the weekly round-up once a week, stop and resume, a refused email retried', async () => {
  const dataDir = await makeDataDir();
  const state = await openTestState();
  const sent: MailMessage[] = [];
  let refuse = false;
  const mailer: Mailer = {
    description: 'memory',
    async send(message) {
      if (refuse) throw new Error('550 mailbox unavailable');
      sent.push(message);
    },
  };
  const logged: string[] = [];
  const catalogue: TenderSeed[] = [tender('Roads resurfacing program', 1)];
  const night = async (at: number | string, ...added: TenderSeed[]) => {
    catalogue.push(...added);
    const computedAt = typeof at === 'number' ? dayAt(at) : at;
    const release = await seedRelease({ dataDir, computedAt, releaseId: `run-${computedAt.replace(/\W/g, '')}-${sent.length}`, tenders: catalogue, sources: [sourceRow({ kinds: ['tender', 'grant'] })] });
    const before = sent.length;
    const summary = await sendDigests({
      dataDir, state, mailer, publicUrl: PUBLIC_URL, log: (message) => logged.push(message),
      release: { storePath: join(release.dir, 'store.duckdb'), computedAt, now: new Date(computedAt) },
    });
    return { summary, mail: sent.slice(before) };
  };

  try {
    const person = await signIn(state, 'watcher@example.com');
    const save = async (body: unknown) => assert.ok((await saveWatch(state, person.accountId, WatchRequest.parse(body), dayAt(1), new Date())).saved);
    await save({ kind: 'search', criteria: { q: 'roads', kind: 'tender' } });
    await save({ kind: 'grants', criteria: { jurisdiction: 'AU-NSW' } });

    // Day 2: one new roads tender, one new grant round, one tender no watch matches.
    const contractor = await signIn(state, 'contractor@example.com');
    assert.ok((await saveWatch(state, contractor.accountId, WatchRequest.parse({ kind: 'company', criteria: { example: 'civil' } }), dayAt(1), new Date())).saved);

    const day2 = await night(2, tender('Roads bridge repairs', 2), tender('Community roads grant', 2, { kind: 'grant' }), tender('Catering panel', 2));
    assert.equal(day2.mail.length, 2);
    const ranked = day2.mail.find((message) => message.to === 'contractor@example.com')!;
    assert.match(ranked.text, /Company profile: the civil example\n=+\nNew open tenders ranked for your company[^\n]*not a chance of winning\) \(1\)\n- Roads bridge repairs\n  score 100 · fits: /);
    assert.doesNotMatch(ranked.text, /Catering panel|Community roads grant/, 'only new open tenders that fit, grants aside');
    assert.ok((await stopByToken(state, /stop\/(stop_[\w-]+)>/.exec(ranked.headers!['List-Unsubscribe']!)![1]!, new Date())).found);
    const first = day2.mail.find((message) => message.to === 'watcher@example.com')!;
    assert.equal(first.to, 'watcher@example.com');
    assert.match(first.text, /Search: "roads", kind tender\n=+\nNew open tenders \(1\)\n- Roads bridge repairs/);
    assert.match(first.text, /Grants search: jurisdiction AU-NSW\n=+\nNew open grant rounds \(1\)\n- Community roads grant/);
    assert.doesNotMatch(first.text, /Roads resurfacing program|Catering panel/);
    assert.doesNotMatch(first.text, /This week's new tenders/, 'the first weekly round-up comes a week after the search was saved');
    const stopUrl = /^<(.+)>$/.exec(first.headers?.['List-Unsubscribe'] ?? '')![1]!;
    assert.ok(stopUrl.startsWith(`${PUBLIC_URL}/v1/tenders/watch/stop/stop_`));
    assert.equal(first.headers?.['List-Unsubscribe-Post'], 'List-Unsubscribe=One-Click');

    // A later run the same Sydney day, with something new: it waits for tomorrow.
    assert.equal((await night(dayAt(2, 13), tender('Roads line marking', dayAt(2, 13)))).mail.length, 0);
    // Day 3: tomorrow's email carries it; day 4: nothing new, no email.
    const day3 = await night(3);
    assert.equal(day3.mail.length, 1);
    assert.match(day3.mail[0]!.text, /New open tenders \(1\)\n- Roads line marking/);
    assert.equal((await night(4)).mail.length, 0);

    // Day 8: a week after the search was saved, the daily email also carries the week's round-up.
    const day8 = await night(8, tender('Roads drainage upgrade', 8));
    assert.equal(day8.mail.length, 1);
    const [daily, weekly] = day8.mail[0]!.text.split("This week's new tenders for your saved searches:");
    assert.match(daily!, /New open tenders \(1\)\n- Roads drainage upgrade/);
    assert.ok(weekly, 'the weekly round-up is due');
    assert.match(weekly!, /New open tenders \(3\)/);
    for (const title of ['Roads bridge repairs', 'Roads line marking', 'Roads drainage upgrade']) assert.match(weekly!, new RegExp(`- ${title}`));
    assert.doesNotMatch(weekly!, /Community roads grant/, 'the round-up is of saved searches');

    // Day 9: the weekly round-up is not due again for a week.
    const day9 = await night(9, tender('Roads signage', 9));
    assert.doesNotMatch(day9.mail[0]!.text, /This week's new tenders/);

    // The stop link (no sign-in): no more mail, though there is news.
    const token = new URL(/^<(.+)>$/.exec(day9.mail[0]!.headers!['List-Unsubscribe']!)![1]!).pathname.split('/').pop()!;
    assert.deepEqual(await stopByToken(state, token, new Date()), { found: true, alreadyStopped: false, email: 'watcher@example.com' });
    const day10 = await night(10, tender('Roads kerb and gutter', 10));
    assert.deepEqual(day10.summary, { watchers: 0, sent: 0, failed: 0 });

    // Saving a watch resumes the mail; a refused email is logged, not recorded, and goes the next night.
    await save({ kind: 'search', criteria: { q: 'catering' } });
    refuse = true;
    const day11 = await night(11);
    assert.deepEqual(day11.summary, { watchers: 1, sent: 0, failed: 1 });
    assert.match(logged.join('\n'), /550 mailbox unavailable/);
    refuse = false;
    const day12 = await night(12);
    assert.deepEqual(day12.summary, { watchers: 1, sent: 1, failed: 0 });
    assert.match(day12.mail[0]!.text, /- Roads kerb and gutter/);
    assert.equal((await state.get<{ n: number }>('SELECT count(*) AS n FROM watch_stop_tokens'))!.n, 6, 'one stop token per email sent; the refused one withdrawn');
  } finally {
    await state.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a watched tender: an email when its closing date changes and when it closes, none on the nights between', async () => {
  const dataDir = await makeDataDir();
  const state = await openTestState();
  const sent: MailMessage[] = [];
  const mailer: Mailer = { description: 'memory', async send(message) { sent.push(message); } };
  const watched = (overrides: Partial<TenderSeed>) => tender('Bridge inspection panel', 1, { closing_date: '2026-06-05', ...overrides });
  const night = async (at: number, seed: TenderSeed) => {
    const computedAt = dayAt(at);
    const release = await seedRelease({ dataDir, computedAt, releaseId: `tender-night-${at}`, tenders: [seed], sources: [sourceRow({ kinds: ['tender'] })] });
    const before = sent.length;
    await sendDigests({ dataDir, state, mailer, publicUrl: PUBLIC_URL, log: () => {}, release: { storePath: join(release.dir, 'store.duckdb'), computedAt, now: new Date(computedAt) } });
    return sent.slice(before);
  };
  try {
    const person = await signIn(state, 'bidder@example.com');
    const key = watched({}).tender_key;
    assert.ok((await saveWatch(state, person.accountId, WatchRequest.parse({ kind: 'tender', criteria: { page_key: key } }), dayAt(1), new Date())).saved);
    assert.deepEqual(await night(2, watched({})), [], 'nothing changed: no email');
    const moved = await night(3, watched({ closing_date: '2026-06-09', dates_changed_at: dayAt(3, 1) }));
    assert.equal(moved.length, 1);
    assert.match(moved[0]!.text, /Tender: Bridge inspection panel\n=+\nClosing date changed \(1\)\n- Bridge inspection panel\n  now closes 2026-06-09/);
    assert.deepEqual(await night(4, watched({ closing_date: '2026-06-09', dates_changed_at: dayAt(3, 1) })), [], 'the change is told once');
    const closed = await night(10, watched({ closing_date: '2026-06-09', dates_changed_at: dayAt(3, 1) }));
    assert.equal(closed.length, 1);
    assert.match(closed[0]!.text, /Closed \(1\)\n- Bridge inspection panel/);
    assert.deepEqual(await night(11, watched({ closing_date: '2026-06-09', dates_changed_at: dayAt(3, 1) })), [], 'its closing is told once');
  } finally {
    await state.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
