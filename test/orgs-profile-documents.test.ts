import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LARGEST_DOCUMENT_BYTES } from '../api/orgs/documents.ts';
import { isValidAbn } from '../api/orgs/profile.ts';
import { jsonRequest, startOrgApp, type OrgTestApp } from './helpers/org-app.ts';

describe('organisation profile and document library', () => {
  let t: OrgTestApp;
  let owner: string;
  let member: string;
  let viewer: string;
  let orgId: string;

  before(async () => {
    t = await startOrgApp();
    owner = await t.signIn('owner@harbour.test');
    const created = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    orgId = ((await created.json()) as { org_id: string }).org_id;
    member = await t.signIn('member@harbour.test');
    viewer = await t.signIn('viewer@harbour.test');
    // Memberships written directly: invitations have their own tests.
    for (const [email, role] of [['member@harbour.test', 'member'], ['viewer@harbour.test', 'viewer']]) {
      await t.state.run(
        'INSERT INTO memberships (org_id, account_id, role, joined_at) SELECT ?, account_id, ?, ? FROM accounts WHERE email = ?',
        orgId,
        role!,
        t.clock.now().toISOString(),
        email!,
      );
    }
  });
  after(() => t.close());

  const patch = (path: string, body: unknown, cookie: string) => t.app.request(path, jsonRequest('PATCH', body, cookie));
  const get = (path: string, cookie: string) => t.app.request(path, { headers: { cookie } });
  const upload = (cookie: string, file: File, init: RequestInit = {}) => {
    const form = new FormData();
    form.set('file', file);
    return t.app.request(`/v1/orgs/${orgId}/documents`, { method: 'POST', body: form, headers: { cookie }, ...init });
  };

  it('checks the ABN checksum', () => {
    assert.equal(isValidAbn('51 824 753 556'), true, "the ATO's published example");
    assert.equal(isValidAbn('53004085616'), true);
    assert.equal(isValidAbn('51 824 753 557'), false, 'one digit off');
    assert.equal(isValidAbn('5182475355'), false, 'ten digits');
    assert.equal(isValidAbn('51-824-753-556'), false);
  });

  it('a new profile holds the company name and empty fields; every member may read it', async () => {
    const response = await get(`/v1/orgs/${orgId}/profile`, viewer);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      org_id: orgId,
      company_name: 'Harbour Civil Pty Ltd',
      abn: null,
      region: null,
      description: null,
      onboarding: { completed_steps: [], complete: false },
      updated_at: t.clock.now().toISOString(),
    });
  });

  it('PATCH takes any subset and returns the full profile; onboarding merges', async () => {
    t.clock.advance(60_000);
    const first = await patch(`/v1/orgs/${orgId}/profile`, { abn: '51 824 753 556', region: 'AU-NSW', onboarding: { completed_steps: ['company'] } }, owner);
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), {
      org_id: orgId,
      company_name: 'Harbour Civil Pty Ltd',
      abn: '51824753556',
      region: 'AU-NSW',
      description: null,
      onboarding: { completed_steps: ['company'], complete: false },
      updated_at: t.clock.now().toISOString(),
    });
    const second = await patch(`/v1/orgs/${orgId}/profile`, { description: 'Civil works and road maintenance', onboarding: { complete: true } }, owner);
    const profile = (await second.json()) as Record<string, unknown>;
    assert.equal(profile['abn'], '51824753556', 'fields not given are kept');
    assert.equal(profile['description'], 'Civil works and road maintenance');
    assert.deepEqual(profile['onboarding'], { completed_steps: ['company'], complete: true });
    assert.deepEqual(await (await get(`/v1/orgs/${orgId}/profile`, owner)).json(), profile, 'GET answers what PATCH returned');

    const renamed = (await (await patch(`/v1/orgs/${orgId}/profile`, { company_name: 'Harbour Civil Group', abn: null }, owner)).json()) as Record<string, unknown>;
    assert.equal(renamed['abn'], null, 'null clears a field');
    const { orgs } = (await (await get('/v1/orgs', owner)).json()) as { orgs: { company_name: string }[] };
    assert.equal(orgs[0]!.company_name, 'Harbour Civil Group', 'the organisation is listed under its new name');
  });

  it('PATCH refuses an unknown field, a failing ABN and a bad region with 400, changing nothing', async () => {
    const before = await (await get(`/v1/orgs/${orgId}/profile`, owner)).text();
    const unknown = await patch(`/v1/orgs/${orgId}/profile`, { company_name: 'X', website: 'https://x.test' }, owner);
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { detail: string }).detail, /website/);
    const abn = await patch(`/v1/orgs/${orgId}/profile`, { abn: '51 824 753 557' }, owner);
    assert.equal(abn.status, 400);
    assert.match(((await abn.json()) as { detail: string }).detail, /abn.*check digits/);
    assert.equal((await patch(`/v1/orgs/${orgId}/profile`, { region: 'Sydney' }, owner)).status, 400);
    assert.equal((await patch(`/v1/orgs/${orgId}/profile`, { onboarding: { step: 2 } }, owner)).status, 400);
    assert.equal(await (await get(`/v1/orgs/${orgId}/profile`, owner)).text(), before);
  });

  it('only owners and admins edit the profile: a member gets 403', async () => {
    const response = await patch(`/v1/orgs/${orgId}/profile`, { description: 'x' }, member);
    assert.equal(response.status, 403);
    assert.match(((await response.json()) as { detail: string }).detail, /\(member\) may not edit the profile; ask someone with the role owner or admin/);
  });

  it('uploads a document to disk under a random name, lists it, sets and clears its expiry, and deletes file and row', async () => {
    const bytes = Buffer.from('%PDF-1.7\nInsurance certificate of currency\n');
    const created = await upload(member, new File([bytes], '../../Insurance certificate.pdf', { type: 'application/pdf' }));
    assert.equal(created.status, 201);
    const document = (await created.json()) as Record<string, unknown>;
    const docId = document['doc_id'] as string;
    assert.match(docId, /^doc_[0-9a-f]{16}$/);
    assert.deepEqual(document, {
      doc_id: docId,
      filename: 'Insurance certificate.pdf',
      content_type: 'application/pdf',
      size_bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      uploaded_by: 'member@harbour.test',
      uploaded_at: t.clock.now().toISOString(),
      expires_on: null,
    });
    const path = join(t.documentsDir, orgId, docId);
    assert.deepEqual(readFileSync(path), bytes, 'the bytes are on disk under the organisation folder');

    const listed = (await (await get(`/v1/orgs/${orgId}/documents`, viewer)).json()) as { documents: { doc_id: string }[] };
    assert.deepEqual(listed.documents.map((d) => d.doc_id), [docId]);

    const dated = await patch(`/v1/orgs/${orgId}/documents/${docId}`, { expires_on: '2027-06-30' }, member);
    assert.equal(dated.status, 200);
    assert.equal(((await dated.json()) as { expires_on: string }).expires_on, '2027-06-30');
    assert.equal((await patch(`/v1/orgs/${orgId}/documents/${docId}`, { expires_on: '2027-02-30' }, member)).status, 400, 'not a calendar date');
    assert.equal((await patch(`/v1/orgs/${orgId}/documents/${docId}`, { expires_on: '2027-06-30', note: 'x' }, member)).status, 400);
    assert.equal((await patch(`/v1/orgs/${orgId}/documents/${docId}`, { expires_on: '2027-01-01' }, viewer)).status, 403, 'a viewer may not upload, so may not date');
    const cleared = await patch(`/v1/orgs/${orgId}/documents/${docId}`, { expires_on: null }, owner);
    assert.equal(((await cleared.json()) as { expires_on: null }).expires_on, null);

    assert.equal((await t.app.request(`/v1/orgs/${orgId}/documents/${docId}`, { method: 'DELETE', headers: { cookie: viewer } })).status, 403);
    const deleted = await t.app.request(`/v1/orgs/${orgId}/documents/${docId}`, { method: 'DELETE', headers: { cookie: member } });
    assert.equal(deleted.status, 200);
    assert.deepEqual(await deleted.json(), { doc_id: docId, deleted: true });
    assert.equal(existsSync(path), false, 'the file is removed');
    assert.deepEqual(await (await get(`/v1/orgs/${orgId}/documents`, owner)).json(), { documents: [] });
    assert.equal((await t.app.request(`/v1/orgs/${orgId}/documents/${docId}`, { method: 'DELETE', headers: { cookie: owner } })).status, 404);
  });

  it('refuses a viewer upload with 403, a missing or empty file with 400, a JSON body with 415', async () => {
    assert.equal((await upload(viewer, new File(['x'], 'x.txt'))).status, 403);
    assert.equal((await upload(owner, new File([], 'empty.pdf'))).status, 400);
    const form = new FormData();
    form.set('document', new File(['x'], 'x.txt'));
    assert.equal((await t.app.request(`/v1/orgs/${orgId}/documents`, { method: 'POST', body: form, headers: { cookie: owner } })).status, 400);
    const asJson = await t.app.request(`/v1/orgs/${orgId}/documents`, jsonRequest('POST', { file: 'x' }, owner));
    assert.equal(asJson.status, 415);
    assert.match(((await asJson.json()) as { detail: string }).detail, /multipart\/form-data/);
  });

  it('answers 413 to an upload over 25 MB, from its Content-Length or while it streams, before reading it all', async () => {
    const declared = await t.app.request(`/v1/orgs/${orgId}/documents`, {
      method: 'POST',
      body: 'small',
      headers: { cookie: owner, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(30 * 1024 * 1024) },
    });
    assert.equal(declared.status, 413);
    assert.match(((await declared.json()) as { detail: string }).detail, /larger than 25 MB/);

    // An endless chunked body: the route must stop reading soon after the limit.
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024 * 1024));
      },
    });
    const streamed = await t.app.request(`/v1/orgs/${orgId}/documents`, {
      method: 'POST',
      body: endless,
      headers: { cookie: owner, 'content-type': 'multipart/form-data; boundary=x' },
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.ok(pulled <= 30, `stopped after ${pulled} MB`);

    // Within the body limit thanks to multipart framing, but the file itself is over 25 MB.
    const justOver = await upload(owner, new File([new Uint8Array(LARGEST_DOCUMENT_BYTES + 1)], 'big.pdf'));
    assert.equal(justOver.status, 413);
    assert.deepEqual(await (await get(`/v1/orgs/${orgId}/documents`, owner)).json(), { documents: [] }, 'nothing stored');
  });

  it('document routes answer a non-member as for a missing organisation, and an unknown document 404', async () => {
    const outsider = await t.signIn('outsider@elsewhere.test');
    const forOutsider = await upload(outsider, new File(['x'], 'x.txt'));
    assert.equal(forOutsider.status, 404);
    const missing = await get(`/v1/orgs/org_0000000000000000/documents`, owner);
    assert.equal(await forOutsider.text(), await missing.text());
    assert.equal((await patch(`/v1/orgs/${orgId}/documents/doc_0000000000000000`, { expires_on: null }, owner)).status, 404);
  });
});
