import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { MailMessage, Mailer } from '../lib/mailer.ts';
import { createApp } from '../api/app.ts';
import { startServer } from '../api/server.ts';
import { openStateDb } from '../data/state/db.ts';
import { secretHash } from '../lib/tokens.ts';
import { PUBLIC_URL } from './helpers/access.ts';
import { makeDataDir } from './helpers/seed-release.ts';
import { decodedMessage, startSmtpInbox } from './helpers/smtp-inbox.ts';

const NO_RELEASE = { state: () => ({ ready: false as const, detail: 'No release is loaded yet.' }), now: () => new Date() };

/** A mailer that keeps messages in memory, or fails when told to. */
function memoryMailer(): Mailer & { sent: MailMessage[]; failing: boolean } {
  const mailer = {
    description: 'memory',
    sent: [] as MailMessage[],
    failing: false,
    async send(message: MailMessage) {
      if (mailer.failing) throw new Error('550 mailbox unavailable');
      mailer.sent.push(message);
    },
  };
  return mailer;
}

function inProcess(options: { publicUrl?: string; now?: () => Date } = {}) {
  const state = openStateDb(':memory:');
  const mailer = memoryMailer();
  const app = createApp({ store: NO_RELEASE, state, mailer, publicUrl: options.publicUrl ?? PUBLIC_URL, burst: false, log: () => {}, ...(options.now ? { now: options.now } : {}) });
  return { state, mailer, app };
}

const login = (app: ReturnType<typeof inProcess>['app'], email: string) =>
  app.request('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
const linkIn = (text: string) => /(https?:\/\/\S+\/v1\/auth\/callback\?token=\S+)/.exec(text)?.[1];
/** Undoes quoted-printable transfer encoding (soft line breaks and =XX escapes), as a mail client would. */

describe('sign-in by emailed link, over a real SMTP server and the real server', () => {
  it('sends the link, signs in with it once, creates a key with the cookie, and signs out', async () => {
    const inbox = await startSmtpInbox();
    const dataDir = await makeDataDir();
    const running = await startServer({ dataDir, port: 0, smtpUrl: inbox.smtpUrl, burst: { capacity: 100 }, log: () => {} });
    try {
      assert.equal(running.mailDescription, inbox.smtpUrl);
      const asked = await fetch(`${running.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'Tenderer@Example.com' }) });
      assert.equal(asked.status, 202);
      assert.deepEqual(await asked.json(), { sent_to: 'Tenderer@Example.com', valid_for_seconds: 900 });
      assert.equal(inbox.messages.length, 1);
      const message = decodedMessage(inbox.messages[0]!);
      assert.match(message, /^To: Tenderer@example\.com/m, 'nodemailer lowercases the domain');
      assert.match(message, /^Subject: Your sign-in link/m);
      const link = linkIn(message);
      assert.ok(link, message);
      assert.ok(link.startsWith(`${running.url}/v1/auth/callback?token=`), 'the link points at the public URL');
      const token = new URL(link).searchParams.get('token')!;
      assert.equal(running.state.get('SELECT 1 AS found FROM login_tokens WHERE token_hash = ?', secretHash(token)) !== undefined, true);
      assert.equal(running.state.get('SELECT 1 AS found FROM login_tokens WHERE token_hash = ?', token), undefined, 'only the hash is stored');

      const followed = await fetch(link, { redirect: 'manual' });
      assert.equal(followed.status, 302);
      assert.equal(followed.headers.get('location'), '/');
      const setCookie = followed.headers.get('set-cookie') ?? '';
      assert.match(setCookie, /^svc_session=[^;]+;/);
      assert.match(setCookie, /; HttpOnly/);
      assert.match(setCookie, /; SameSite=Lax/);
      assert.match(setCookie, /; Path=\//);
      assert.doesNotMatch(setCookie, /; Secure/, 'served over http');
      const cookie = setCookie.split(';')[0]!;

      const again = await fetch(link, { redirect: 'manual' });
      assert.equal(again.status, 400, 'a link works once');
      assert.match(((await again.json()) as { detail: string }).detail, /already used/);

      const sameSite = { cookie, origin: running.url, 'content-type': 'application/json' };
      const created = await fetch(`${running.url}/v1/keys`, { method: 'POST', headers: sameSite, body: JSON.stringify({ name: 'laptop' }) });
      assert.equal(created.status, 201);
      const { api_key } = (await created.json()) as { api_key: string };
      const usage = await fetch(`${running.url}/v1/usage`, { headers: { authorization: `Bearer ${api_key}` } });
      assert.equal(((await usage.json()) as { counted_per: string }).counted_per, 'account');
      assert.equal(usage.headers.get('RateLimit-Limit'), '100');

      const out = await fetch(`${running.url}/v1/auth/logout`, { method: 'POST', headers: { cookie, origin: running.url } });
      assert.equal(out.status, 200);
      assert.match(out.headers.get('set-cookie') ?? '', /^svc_session=;.*Max-Age=0/);
      const afterOut = await fetch(`${running.url}/v1/keys`, { method: 'POST', headers: sameSite, body: '{}' });
      assert.equal(afterOut.status, 401, 'the session ended at once');
      assert.equal((await fetch(`${running.url}/v1/keys`, { headers: { authorization: `Bearer ${api_key}` } })).status, 200, 'keys outlive the session');
    } finally {
      await running.close();
      await inbox.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('POST /v1/auth/login', () => {
  it('answers the same whether or not the address has an account, so addresses cannot be probed', async () => {
    const { app, mailer } = inProcess();
    const first = await login(app, 'known@example.com');
    const link = linkIn(mailer.sent[0]!.text)!;
    assert.equal((await app.request(link.replace(PUBLIC_URL, ''))).status, 302, 'the account now exists');
    const known = await login(app, 'known@example.com');
    const unknown = await login(app, 'stranger@example.com');
    assert.deepEqual([first.status, known.status, unknown.status], [202, 202, 202]);
    assert.deepEqual(await known.json(), { sent_to: 'known@example.com', valid_for_seconds: 900 });
    assert.deepEqual(await unknown.json(), { sent_to: 'stranger@example.com', valid_for_seconds: 900 });
    assert.deepEqual(mailer.sent.map((message) => message.to), ['known@example.com', 'known@example.com', 'stranger@example.com']);
  });

  it('refuses a link after 15 minutes', async () => {
    let clock = new Date('2026-06-10T02:00:00.000Z');
    const { app, mailer } = inProcess({ now: () => clock });
    await login(app, 'slow@example.com');
    clock = new Date(clock.getTime() + 15 * 60_000 + 1);
    const response = await app.request(linkIn(mailer.sent[0]!.text)!.replace(PUBLIC_URL, ''));
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { detail: string }).detail, /expired/);
  });

  it('sends at most 5 links an hour to one address, answering the same', async () => {
    const { app, mailer } = inProcess();
    for (let i = 0; i < 7; i++) assert.equal((await login(app, 'flood@example.com')).status, 202);
    assert.equal(mailer.sent.length, 5);
  });

  it('answers 422 for a body that is not {email}, and 503 with Retry-After when the mail server refuses', async () => {
    const { app, mailer } = inProcess();
    for (const body of [{ email: 'not an address' }, {}, { email: 'a@example.com', extra: 1 }]) {
      const response = await app.request('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.deepEqual(Object.keys((await response.json()) as object), ['detail']);
    }
    mailer.failing = true;
    const refused = await login(app, 'a@example.com');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('Retry-After'), '60');
  });
});

describe('GET /v1/auth/callback', () => {
  it('creates the account on first use and returns to it on the next sign-in, whatever the case of the address', async () => {
    const { app, mailer, state } = inProcess();
    const signInAs = async (email: string) => {
      await login(app, email);
      const response = await app.request(linkIn(mailer.sent.at(-1)!.text)!.replace(PUBLIC_URL, ''));
      assert.equal(response.status, 302);
      return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, origin: PUBLIC_URL };
    };
    const first = await signInAs('Returning@example.com');
    assert.equal((await app.request('/v1/keys', { method: 'POST', headers: first })).status, 201, 'a key needs no body');
    const second = await signInAs('returning@EXAMPLE.com');
    const { keys } = (await (await app.request('/v1/keys', { headers: second })).json()) as { keys: unknown[] };
    assert.equal(keys.length, 1, 'the same account');
    assert.equal(state.all('SELECT * FROM accounts').length, 1);
  });

  it('marks the cookie Secure when the public address is https or the request came over https', async () => {
    for (const [publicUrl, requestOrigin] of [['https://tenders.example.com', 'http://127.0.0.1'], [PUBLIC_URL, 'https://127.0.0.1']] as const) {
      const { app, mailer } = inProcess({ publicUrl });
      await login(app, 'secure@example.com');
      const link = new URL(linkIn(mailer.sent[0]!.text)!);
      assert.equal(link.origin, new URL(publicUrl).origin);
      const response = await app.request(`${requestOrigin}${link.pathname}${link.search}`);
      assert.equal(response.status, 302);
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure/, publicUrl);
    }
  });

  it('answers 400 for a missing or unknown token', async () => {
    const { app } = inProcess();
    assert.equal((await app.request('/v1/auth/callback')).status, 400);
    assert.equal((await app.request('/v1/auth/callback?token=login_madeup')).status, 400);
  });
});
