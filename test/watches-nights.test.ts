import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createApp } from '../api/app.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { openStateDb } from '../data/state/db.ts';
import { buyerKey } from '../lib/keys.ts';
import { createMailer } from '../lib/mailer.ts';
import { runNightly } from '../pipeline/nightly.ts';
import type { ProgressReporter } from '../pipeline/progress.ts';
import { PUBLIC_URL, signIn } from './helpers/access.ts';
import { decodedMessage, startSmtpInbox } from './helpers/smtp-inbox.ts';
import { testStateLocation } from './helpers/state.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };
const SOURCES = ['au_federal_austender_atm', 'au_federal_austender_ocds', 'nz_gets'];

/** The raw message's header value (unfolded), or undefined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return head.split(/\r?\n/).find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))?.slice(name.length + 1).trim();
}

test('two fixture nights: night 2 emails each watcher once with only what is new; a rerun the same day sends nothing; the stop links work signed out', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'watch-nights-'));
  const inbox = await startSmtpInbox();
  const mailer = createMailer({ smtpUrl: inbox.smtpUrl, outboxDir: join(dataDir, 'outbox') });
  const state = await openStateDb(await testStateLocation(dataDir));
  const digests = { mailer, publicUrl: PUBLIC_URL, log: () => {}, state };
  let store: ReleaseStore | undefined;
  try {
    const night1 = await runNightly({ dataDir, fixtures: true, sourceIds: SOURCES, progress: quiet, digests });
    assert.deepEqual(night1.digests, { watchers: 0, sent: 0, failed: 0 });

    store = await ReleaseStore.open({ dataDir, pollMs: 60_000, log: () => {} });
    const app = await createApp({ store, state, publicUrl: PUBLIC_URL, burst: false });
    const save = async (email: string, body: object) => {
      const person = await signIn(state, email);
      const response = await app.request('/v1/tenders/watch', { method: 'POST', headers: { ...person.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(response.status, 201, await response.clone().text());
      return person;
    };
    // Every open federal tender: night 1 holds nine, night 2 adds one.
    await save('searcher@example.com', { kind: 'search', criteria: { jurisdiction: 'AU', kind: 'tender' } });
    // Clean Energy Regulator: night 2 adds an award (CN4124462) and amends one night 1 already held (CN3693922).
    await save('buyer-watcher@example.com', { kind: 'buyer', criteria: { buyer_key: buyerKey('AU', 'Clean Energy Regulator') } });
    // Federal contract expiries: night 2's new award brings one.
    await save('signals@example.com', { kind: 'signals', criteria: { kind: 'contract_expiry', jurisdiction: 'AU' } });
    // Only night 1's radar tender matches: nothing new on night 2.
    await save('quiet@example.com', { kind: 'search', criteria: { q: 'radar' } });

    const night2 = await runNightly({ dataDir, fixtures: true, night: 'night-2', sourceIds: SOURCES, progress: quiet, digests });
    assert.deepEqual(night2.digests, { watchers: 4, sent: 3, failed: 0 });
    const byRecipient = new Map(inbox.messages.map((raw) => [header(raw, 'To'), raw]));
    assert.deepEqual([...byRecipient.keys()].sort(), ['buyer-watcher@example.com', 'searcher@example.com', 'signals@example.com'], 'one email per person with news, none for nothing new');

    const search = decodedMessage(byRecipient.get('searcher@example.com')!);
    assert.match(search, /Data centre decommissioning services/, 'the tender night 2 added');
    for (const old of ['Environmental impact assessment panel', 'ICT service management tooling', 'Replacement of the aviation licensing system']) {
      assert.doesNotMatch(search, new RegExp(old), `night 1's "${old}" is not new`);
    }
    assert.match(search, /New open tenders \(1\)/);

    const buyer = decodedMessage(byRecipient.get('buyer-watcher@example.com')!);
    assert.match(buyer, /Buyer: Clean Energy Regulator/);
    assert.match(buyer, /New contract awards \(1\)\r?\n- NVES Registry Solution/);
    assert.doesNotMatch(buyer, /RStudio Enterprise/, 'an amendment of a known contract is not a new award');

    const signals = decodedMessage(byRecipient.get('signals@example.com')!);
    assert.match(signals, /New signals \(1\)\r?\n- NVES Registry Solution\r?\n  contract expiry .* window 2028-06-30/);

    for (const raw of inbox.messages) {
      const stopLink = /^<(http:\/\/127\.0\.0\.1:8787\/v1\/tenders\/watch\/stop\/stop_[\w-]+)>$/.exec(header(raw, 'List-Unsubscribe') ?? '');
      assert.ok(stopLink, 'List-Unsubscribe names the stop link');
      assert.equal(header(raw, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
      assert.ok(decodedMessage(raw).includes(`Stop these emails (no sign-in needed): ${stopLink[1]}`), 'the body carries the same link');
    }

    const rerun = await runNightly({ dataDir, fixtures: true, night: 'night-2', sourceIds: SOURCES, progress: quiet, digests });
    assert.deepEqual(rerun.digests, { watchers: 4, sent: 0, failed: 0 }, 'at most one email a day');
    assert.equal(inbox.messages.length, 3);

    const linkOf = (raw: string) => new URL(/^<(.+)>$/.exec(header(raw, 'List-Unsubscribe')!)![1]!).pathname;
    const page = await app.request(linkOf(byRecipient.get('searcher@example.com')!));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /no more watch emails to searcher@example\.com/);
    const oneClick = await app.request(linkOf(byRecipient.get('buyer-watcher@example.com')!), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.status, 200);
    const stopped = await state.all<{ account_id: string }>('SELECT account_id FROM watch_mail WHERE stopped_at IS NOT NULL');
    assert.equal(stopped.length, 2);
    const nextDay = await runNightly({ dataDir, fixtures: true, night: 'night-2', sourceIds: SOURCES, progress: quiet, digests, now: new Date('2026-09-27T01:00:00.000Z') });
    assert.deepEqual(nextDay.digests, { watchers: 2, sent: 0, failed: 0 }, 'stopped people are no longer watchers; the others have nothing new');
  } finally {
    await store?.close();
    await state.close();
    await inbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
