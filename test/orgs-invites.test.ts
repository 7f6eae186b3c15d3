import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId, newSecret, secretHash } from '../lib/tokens.ts';
import { createMailer } from '../lib/mailer.ts';
import { INVITATION_LIFETIME_MS } from '../api/orgs/invitations.ts';
import { mayGrant, ROLE_TABLE, ROLES } from '../api/orgs/roles.ts';
import { jsonRequest, PUBLIC_URL, startOrgApp, type OrgTestApp } from './helpers/org-app.ts';
import { decodedMessage, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';

describe('the role table', () => {
  it('ranks owner > admin > member > viewer, and only owners and admins invite, up to their own role', () => {
    assert.deepEqual(ROLES.map((role) => ROLE_TABLE[role].rank), [4, 3, 2, 1]);
    const grants = Object.fromEntries(ROLES.map((inviter) => [inviter, ROLES.filter((invited) => mayGrant(inviter, invited))]));
    assert.deepEqual(grants, {
      owner: ['owner', 'admin', 'member', 'viewer'],
      admin: ['admin', 'member', 'viewer'],
      member: [],
      viewer: [],
    });
  });
});

describe('organisations and invitations, with invitation email over a real SMTP server', () => {
  let inbox: SmtpInbox;
  let t: OrgTestApp;
  let owner: string;
  let orgId: string;

  before(async () => {
    inbox = await startSmtpInbox();
    t = await startOrgApp({ mailer: createMailer({ smtpUrl: inbox.smtpUrl, outboxDir: '/nonexistent' }) });
    owner = await t.signIn('owner@harbour.test');
    const created = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    assert.equal(created.status, 201);
    orgId = ((await created.json()) as { org_id: string }).org_id;
  });
  after(async () => {
    await inbox?.close();
    await t?.close();
  });

  const post = (path: string, body: unknown, cookie: string) => t.app.request(path, jsonRequest('POST', body, cookie));
  const get = (path: string, cookie: string) => t.app.request(path, { headers: { cookie } });

  /** Invites `email` as `role` from `inviter` and returns the token read from the email that arrived. */
  async function invite(email: string, role: string, inviter = owner): Promise<{ token: string; reply: Record<string, unknown> }> {
    const before = inbox.messages.length;
    const response = await post(`/v1/orgs/${orgId}/invites`, { email, role }, inviter);
    assert.equal(response.status, 201, await response.clone().text());
    assert.equal(inbox.messages.length, before + 1, 'the invitation email arrived');
    const message = decodedMessage(inbox.messages.at(-1)!);
    assert.match(message, new RegExp(`^To: ${email}`, 'mi'));
    const link = new RegExp(`${PUBLIC_URL}/v1/orgs/invites/([A-Za-z0-9_-]+)/accept`).exec(message);
    assert.ok(link, 'the email carries the accept link');
    // And the page that accepts it in a browser, with the same token in its fragment (never sent to a server).
    assert.ok(message.includes(`${PUBLIC_URL}/account/orgs/#invite=${link[1]}`), 'the email carries the accept page');
    return { token: link[1]!, reply: (await response.json()) as Record<string, unknown> };
  }

  /** Invites and accepts, so `email` becomes a member with `role`; returns the member's cookie. */
  async function join(email: string, role: string): Promise<string> {
    const { token } = await invite(email, role);
    const cookie = await t.signIn(email);
    assert.equal((await post(`/v1/orgs/invites/${token}/accept`, {}, cookie)).status, 200);
    return cookie;
  }

  it('needs a signed-in session: anonymous and API-key callers get 401', async () => {
    const anonymous = await t.app.request('/v1/orgs');
    assert.equal(anonymous.status, 401);
    assert.match(((await anonymous.json()) as { detail: string }).detail, /signed-in session/);
    const key = newSecret('svc_');
    const accountId = (await t.state.get<{ account_id: string }>('SELECT account_id FROM accounts WHERE email = ?', 'owner@harbour.test'))!.account_id;
    await t.state.run(
      'INSERT INTO api_keys (key_id, key_hash, account_id, prefix, created_at) VALUES (?, ?, ?, ?, ?)',
      newId('key_'),
      secretHash(key),
      accountId,
      key.slice(0, 8),
      t.clock.now().toISOString(),
    );
    assert.equal((await t.app.request('/v1/orgs', { headers: { authorization: `Bearer ${key}` } })).status, 401);
    assert.equal((await t.app.request(`/v1/orgs/${orgId}/invites`, jsonRequest('POST', { email: 'x@y.test', role: 'nobody' }))).status, 401, 'before validation');
    assert.equal((await t.app.request('/v1/orgs', jsonRequest('POST', { colour: 'red' }))).status, 401, 'creating one too, before validation');
  });

  it('lists the organisations of the account with the role held; the creator is owner', async () => {
    const response = await get('/v1/orgs', owner);
    assert.equal(response.status, 200);
    const { orgs } = (await response.json()) as { orgs: { org_id: string; company_name: string; role: string }[] };
    assert.deepEqual(orgs.map(({ org_id, company_name, role }) => ({ org_id, company_name, role })), [{ org_id: orgId, company_name: 'Harbour Civil Pty Ltd', role: 'owner' }]);
    assert.deepEqual(await (await get('/v1/orgs', await t.signIn('nobody@else.test'))).json(), { orgs: [] });
  });

  it('creating an organisation refuses a body that does not match its schema with 422 {detail} naming the field', async () => {
    for (const [body, named] of [[{ company_name: 'A', abn: '1' }, /abn/], [{ company_name: '  ' }, /company_name: must not be empty/], [{ company_name: 'Line\nbreak' }, /control characters/], [{}, /company_name/]] as const) {
      const response = await post('/v1/orgs', body, owner);
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.match(((await response.json()) as { detail: string }).detail, named);
    }
  });

  it('an invitation reply carries the id and expiry but never the token; accepting joins with the invited role', async () => {
    const { token, reply } = await invite('Admin@Harbour.test', 'admin');
    assert.deepEqual(Object.keys(reply).sort(), ['email', 'expires_at', 'invite_id', 'org_id', 'role']);
    assert.equal(reply['email'], 'admin@harbour.test');
    assert.equal(reply['expires_at'], new Date(t.clock.now().getTime() + INVITATION_LIFETIME_MS).toISOString());
    assert.ok(!JSON.stringify(reply).includes(token));
    assert.equal((await t.state.get<{ n: number }>('SELECT count(*) AS n FROM org_invitations WHERE token_hash = ?', secretHash(token)))!.n, 1, 'stored only as a hash');

    const admin = await t.signIn('admin@harbour.test');
    const accepted = await post(`/v1/orgs/invites/${token}/accept`, {}, admin);
    assert.equal(accepted.status, 200);
    assert.deepEqual(await accepted.json(), { org_id: orgId, company_name: 'Harbour Civil Pty Ltd', role: 'admin', joined_at: t.clock.now().toISOString() });
    const members = (await (await get(`/v1/orgs/${orgId}/members`, admin)).json()) as { members: { email: string; role: string }[] };
    assert.deepEqual(members.members.map(({ email, role }) => [email, role]), [['owner@harbour.test', 'owner'], ['admin@harbour.test', 'admin']]);
  });

  it("caps an invitation's role at the inviter's: 403 above it, and 403 for roles that may not invite", async () => {
    const admin = await join('cap-admin@harbour.test', 'admin');
    const aboveOwn = await post(`/v1/orgs/${orgId}/invites`, { email: 'boss@harbour.test', role: 'owner' }, admin);
    assert.equal(aboveOwn.status, 403);
    assert.match(((await aboveOwn.json()) as { detail: string }).detail, /admin or below, not as owner/);
    await invite('peer@harbour.test', 'admin', admin);
    await invite('helper@harbour.test', 'viewer', admin);

    const member = await join('cap-member@harbour.test', 'member');
    const byMember = await post(`/v1/orgs/${orgId}/invites`, { email: 'friend@harbour.test', role: 'viewer' }, member);
    assert.equal(byMember.status, 403);
    assert.match(((await byMember.json()) as { detail: string }).detail, /may not invite people; ask someone with the role owner or admin/);
    const viewer = await join('cap-viewer@harbour.test', 'viewer');
    assert.equal((await post(`/v1/orgs/${orgId}/invites`, { email: 'friend@harbour.test', role: 'viewer' }, viewer)).status, 403);
    await invite('second-owner@harbour.test', 'owner');
  });

  it('inviting an address that already belongs to a member is 409, whatever its case', async () => {
    const response = await post(`/v1/orgs/${orgId}/invites`, { email: 'OWNER@harbour.test', role: 'viewer' }, owner);
    assert.equal(response.status, 409);
    assert.match(((await response.json()) as { detail: string }).detail, /already a member/);
  });

  it('unknown invitation input is 400: an unknown field, a malformed email, an unknown role', async () => {
    for (const body of [
      { email: 'a@b.test', role: 'member', note: 'hi' },
      { email: 'not-an-email', role: 'member' },
      { email: 'a@b.test', role: 'superuser' },
      { email: 'a@b.test' },
    ]) {
      const response = await post(`/v1/orgs/${orgId}/invites`, body, owner);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.ok(((await response.json()) as { detail: string }).detail.length > 20);
    }
  });

  it('members-only routes answer a non-member exactly as they answer for an organisation that does not exist', async () => {
    const outsider = await t.signIn('outsider@elsewhere.test');
    for (const suffix of ['/members', '/profile', '/documents']) {
      const forOutsider = await get(`/v1/orgs/${orgId}${suffix}`, outsider);
      const missing = await get(`/v1/orgs/org_0000000000000000${suffix}`, owner);
      assert.equal(forOutsider.status, 404);
      assert.equal(missing.status, 404);
      assert.equal(await forOutsider.text(), await missing.text(), suffix);
      assert.equal(forOutsider.headers.get('content-type'), missing.headers.get('content-type'));
    }
    const inviteByOutsider = await post(`/v1/orgs/${orgId}/invites`, { email: 'a@b.test', role: 'viewer' }, outsider);
    const inviteToMissing = await post('/v1/orgs/org_0000000000000000/invites', { email: 'a@b.test', role: 'viewer' }, owner);
    assert.equal(inviteByOutsider.status, 404);
    assert.equal(await inviteByOutsider.text(), await inviteToMissing.text());
  });

  it('accepting answers the same 404 for a bad, used, wrong-recipient or expired token', async () => {
    const bodies: string[] = [];
    const accept = async (token: string, cookie: string) => {
      const response = await post(`/v1/orgs/invites/${token}/accept`, {}, cookie);
      assert.equal(response.status, 404);
      bodies.push(await response.text());
    };

    await accept(newSecret('inv_'), owner);

    const used = await invite('used@harbour.test', 'member');
    const usedCookie = await t.signIn('used@harbour.test');
    assert.equal((await post(`/v1/orgs/invites/${used.token}/accept`, {}, usedCookie)).status, 200);
    await accept(used.token, usedCookie);

    const misdirected = await invite('intended@harbour.test', 'member');
    await accept(misdirected.token, await t.signIn('interloper@harbour.test'));
    assert.equal((await post(`/v1/orgs/invites/${misdirected.token}/accept`, {}, await t.signIn('intended@harbour.test'))).status, 200, 'the right recipient can still accept');

    const expiring = await invite('late@harbour.test', 'member');
    t.clock.advance(INVITATION_LIFETIME_MS + 1000);
    await accept(expiring.token, await t.signIn('late@harbour.test'));

    assert.equal(new Set(bodies).size, 1, 'one body for every case');
    assert.match(bodies[0]!, /Ask the organisation for a new invitation/);
  });

  it('a newer invitation to the same address withdraws the earlier one', async () => {
    const first = await invite('twice@harbour.test', 'viewer');
    const second = await invite('twice@harbour.test', 'member');
    const cookie = await t.signIn('twice@harbour.test');
    assert.equal((await post(`/v1/orgs/invites/${first.token}/accept`, {}, cookie)).status, 404);
    const accepted = await post(`/v1/orgs/invites/${second.token}/accept`, {}, cookie);
    assert.equal(((await accepted.json()) as { role: string }).role, 'member');
  });

  it('every organisation, contact and feedback route is in /openapi.json', async () => {
    const document = (await (await t.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
    const expected: [string, string][] = [
      ['/v1/orgs', 'get'],
      ['/v1/orgs', 'post'],
      ['/v1/orgs/{org}/invites', 'post'],
      ['/v1/orgs/invites/{token}/accept', 'post'],
      ['/v1/orgs/{org}/members', 'get'],
      ['/v1/orgs/{org}/profile', 'get'],
      ['/v1/orgs/{org}/profile', 'patch'],
      ['/v1/orgs/{org}/documents', 'get'],
      ['/v1/orgs/{org}/documents', 'post'],
      ['/v1/orgs/{org}/documents/{doc_id}', 'patch'],
      ['/v1/orgs/{org}/documents/{doc_id}', 'delete'],
      ['/v1/contact', 'post'],
      ['/v1/feedback', 'post'],
    ];
    for (const [path, method] of expected) assert.ok(document.paths[path]?.[method], `${method.toUpperCase()} ${path}`);
  });
});

describe('an invitation whose email cannot be sent', () => {
  it('answers 503 with Retry-After and withdraws the invitation', async () => {
    const t = await startOrgApp({
      mailer: {
        description: 'refusing',
        send: () => Promise.reject(new Error('550 mailbox unavailable')),
      },
    });
    try {
      const owner = await t.signIn('owner@refused.test');
      const { org_id: orgId } = (await (await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Refused Ltd' }, owner))).json()) as { org_id: string };
      const response = await t.app.request(`/v1/orgs/${orgId}/invites`, jsonRequest('POST', { email: 'new@refused.test', role: 'member' }, owner));
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '60');
      const row = await t.state.get<{ withdrawn_at: string | null }>('SELECT withdrawn_at FROM org_invitations WHERE email = ?', 'new@refused.test');
      assert.ok(row?.withdrawn_at);
    } finally {
      await t.close();
    }
  });
});
