import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { MailMessage, Mailer } from '../lib/mailer.ts';
import { createApp } from '../api/app.ts';
import { startServer } from '../api/server.ts';
import { secretHash } from '../lib/tokens.ts';
import { PUBLIC_URL } from './helpers/access.ts';
import { makeDataDir } from './helpers/seed-release.ts';
import { decodedMessage, startSmtpInbox } from './helpers/smtp-inbox.ts';
import { openTestState, testDatabaseUrlFor } from './helpers/state.ts';

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

async function inProcess(options: { publicUrl?: string; now?: () => Date } = {}) {
  const state = await openTestState();
  const mailer = memoryMailer();
  const app = await createApp({ store: NO_RELEASE, state, mailer, publicUrl: options.publicUrl ?? PUBLIC_URL, burst: false, log: () => {}, ...(options.now ? { now: options.now } : {}) });
  return { state, mailer, app };
}

const login = (app: Awaited<ReturnType<typeof inProcess>>['app'], email: string) =>
  app.request('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
const linkIn = (text: string) => /(https?:\/\/\S+\/v1\/auth\/callback\?token=\S+)/.exec(text)?.[1];
/** Undoes quoted-printable transfer encoding (soft line breaks and =XX escapes), as a mail client would. */

describe('sign-in by emailed link, over a real SMTP server and the real server', () => {
  it('sends the link, signs in with it once, creates a key with the cookie, and signs out', async () => {
    const inbox = await startSmtpInbox();
    const dataDir = await makeDataDir();
    const running = await startServer({ dataDir, databaseUrl: await testDatabaseUrlFor(dataDir), port: 0, smtpUrl: inbox.smtpUrl, burst: { capacity: 100 }, log: () => {} });
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
      assert.equal(await running.state.get('SELECT 1 AS found FROM login_tokens WHERE token_hash = ?', secretHash(token)) !== undefined, true);
      assert.equal(await running.state.get('SELECT 1 AS found FROM login_tokens WHERE token_hash = ?', token), undefined, 'only the hash is stored');

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
    const { app, mailer } = await inProcess();
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
    const { app, mailer } = await inProcess({ now: () => clock });
    await login(app, 'slow@example.com');
    clock = new Date(clock.getTime() + 15 * 60_000 + 1);
    const response = await app.request(linkIn(mailer.sent[0]!.text)!.replace(PUBLIC_URL, ''));
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { detail: string }).detail, /expired/);
  });

  it('sends at most 5 links an hour to one address, answering the same', async () => {
    const { app, mailer } = await inProcess();
    for (let i = 0; i < 7; i++) assert.equal((await login(app, 'flood@example.com')).status, 202);
    assert.equal(mailer.sent.length, 5);
  });

  it('answers 422 for a body that is not {email}, and 503 with Retry-After when the mail server refuses', async () => {
    const { app, mailer } = await inProcess();
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
    const { app, mailer, state } = await inProcess();
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
    assert.equal((await state.all('SELECT * FROM accounts')).length, 1);
  });

  it('marks the cookie Secure when the public address is https or the request came over https', async () => {
    for (const [publicUrl, requestOrigin] of [['https://tenders.example.com', 'http://127.0.0.1'], [PUBLIC_URL, 'https://127.0.0.1']] as const) {
      const { app, mailer } = await inProcess({ publicUrl });
      await login(app, 'secure@example.com');
      const link = new URL(linkIn(mailer.sent[0]!.text)!);
      assert.equal(link.origin, new URL(publicUrl).origin);
      const response = await app.request(`${requestOrigin}${link.pathname}${link.search}`);
      assert.equal(response.status, 302);
      assert.match(response.headers.get('set-cookie') ?? '', /; Secure/, publicUrl);
    }
  });

  it('answers 400 for a missing or unknown token', async () => {
    const { app } = await inProcess();
    assert.equal((await app.request('/v1/auth/callback')).status, 400);
    assert.equal((await app.request('/v1/auth/callback?token=login_madeup')).status, 400);
  });
});

describe('the next path of a sign-in link', () => {
  const loginWith = (app: Awaited<ReturnType<typeof inProcess>>['app'], body: object) =>
    app.request('/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('lands the followed link on the path asked for, query and fragment kept; without one on /', async () => {
    const { app, mailer } = await inProcess();
    const next = '/match/?example=civil&jurisdiction=AU-NSW#results';
    assert.equal((await loginWith(app, { email: 'back@example.com', next })).status, 202);
    const link = new URL(linkIn(mailer.sent[0]!.text)!);
    assert.equal(link.searchParams.get('next'), next, 'the link carries next');
    const followed = await app.request(`${link.pathname}${link.search}`);
    assert.equal(followed.status, 302);
    assert.equal(followed.headers.get('location'), next);
    assert.match(followed.headers.get('set-cookie') ?? '', /^svc_session=/);

    await loginWith(app, { email: 'back@example.com' });
    const plain = new URL(linkIn(mailer.sent[1]!.text)!);
    assert.equal(plain.searchParams.has('next'), false);
    assert.equal((await app.request(`${plain.pathname}${plain.search}`)).headers.get('location'), '/');
  });

  const offSite = ['//evil.example/', '/\\evil.example', '/\t/evil.example', 'https://evil.example/', 'evil.example', 'javascript:alert(1)', '', '/%0a/x\n'];

  it('refuses a next that is not a path on this site with 422, sending no mail', async () => {
    const { app, mailer } = await inProcess();
    for (const next of offSite) {
      const response = await loginWith(app, { email: 'away@example.com', next });
      assert.equal(response.status, 422, JSON.stringify(next));
      assert.match(((await response.json()) as { detail: string }).detail, /^Invalid body field next: must be a path on this site/);
    }
    assert.equal(mailer.sent.length, 0);
  });

  it('refuses a link edited to point off the site with 400, leaving its token unspent', async () => {
    const { app, mailer } = await inProcess();
    await loginWith(app, { email: 'edited@example.com', next: '/buyers/' });
    const link = new URL(linkIn(mailer.sent[0]!.text)!);
    for (const next of offSite) {
      link.searchParams.set('next', next);
      const response = await app.request(`${link.pathname}${link.search}`);
      assert.equal(response.status, 400, JSON.stringify(next));
      assert.equal(response.headers.get('location'), null);
      assert.match(((await response.json()) as { detail: string }).detail, /^Invalid query parameter next=[^]*: must be a path on this site/);
    }
    link.searchParams.set('next', '/buyers/');
    assert.equal((await app.request(`${link.pathname}${link.search}`)).headers.get('location'), '/buyers/', 'the token still works');
  });
});

describe('GET /v1/account', () => {
  it('tells a signed-in browser who it is, and anyone else 401 with a detail', async () => {
    const clock = new Date('2026-06-10T02:00:00.000Z');
    const { app, mailer } = await inProcess({ now: () => clock });
    const anonymous = await app.request('/v1/account');
    assert.equal(anonymous.status, 401);
    assert.match(((await anonymous.json()) as { detail: string }).detail, /^Nobody is signed in on this browser\. Sign in with POST \/v1\/auth\/login/);

    await login(app, 'who@example.com');
    const followed = await app.request(linkIn(mailer.sent[0]!.text)!.replace(PUBLIC_URL, ''));
    const headers = { cookie: followed.headers.get('set-cookie')!.split(';')[0]!, origin: PUBLIC_URL, 'content-type': 'application/json' };
    const created = await app.request('/v1/orgs', { method: 'POST', headers, body: JSON.stringify({ company_name: 'Who Pty Ltd' }) });
    assert.equal(created.status, 201);
    const { org_id } = (await created.json()) as { org_id: string };

    const me = await app.request('/v1/account', { headers });
    assert.equal(me.status, 200);
    const account = (await me.json()) as { account_id: string };
    assert.match(account.account_id, /^acct_/);
    assert.deepEqual(account, {
      account_id: account.account_id,
      email: 'who@example.com',
      created_at: '2026-06-10T02:00:00.000Z',
      session_expires_at: '2026-07-10T02:00:00.000Z',
      orgs: [{ org_id, company_name: 'Who Pty Ltd', role: 'owner', joined_at: '2026-06-10T02:00:00.000Z' }],
    });

    const key = await app.request('/v1/keys', { method: 'POST', headers, body: '{}' });
    const { api_key } = (await key.json()) as { api_key: string };
    assert.equal((await app.request('/v1/account', { headers: { authorization: `Bearer ${api_key}` } })).status, 401, 'a key is not a session');

    assert.equal((await app.request('/v1/auth/logout', { method: 'POST', headers })).status, 200);
    assert.equal((await app.request('/v1/account', { headers })).status, 401, 'signed out at once');
  });
});
