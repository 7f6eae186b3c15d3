import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createService, type Service } from '../api/app.ts';
import { type StateDb } from '../data/state/db.ts';
import { signInAs } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { openTestState } from './helpers/state.ts';

const PUBLIC_URL = 'https://malformed.example';
const NOW = new Date('2026-06-10T02:00:00.000Z');

/** Every checker that takes a multipart upload (companies/resolve reads JSON only and answers 415). */
const CHECKERS = ['/v1/warrants', '/v1/extract', '/v1/identity-check', '/v1/check-pack', '/v1/verify-references', '/v1/detect-ai-text', '/v1/check-source-overlap', '/v1/adverse-media'];

/** Bodies declared as multipart/form-data that are not: no boundary at all, and a boundary the body never holds. */
const MALFORMED: { contentType: string; body: string }[] = [
  { contentType: 'multipart/form-data', body: 'x' },
  { contentType: 'multipart/form-data; boundary=zzz', body: 'x' },
  { contentType: 'multipart/form-data; boundary=zzz', body: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut off' },
];

describe('malformed multipart bodies', () => {
  let service: Service;
  let state: StateDb;
  const logged: unknown[] = [];
  let cookie: string;
  let uploadPaths: string[];

  before(async () => {
    state = await openTestState();
    service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: () => NOW },
      state,
      now: () => NOW,
      publicUrl: PUBLIC_URL,
      burst: false,
      log: (error) => logged.push(error),
      bidFilesDir: await tempDir('malformed-bid-files-'),
      documentsDir: await tempDir('malformed-documents-'),
    });
    cookie = await signInAs(state, NOW, 'owner@harbour.test');
    const write = async (path: string, body: unknown) =>
      (await service.app.request(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', cookie, origin: PUBLIC_URL } })).json() as Promise<Record<string, string>>;
    const { org_id: orgId } = await write('/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' });
    const { bid_id: bidId } = await write('/v1/bids', { org_id: orgId, title: 'Council fleet servicing' });
    uploadPaths = [`/v1/bids/${bidId}/files`, `/v1/orgs/${orgId}/documents`];
  });
  after(async () => {
    await service.analysisPool.close();
    await state.close();
  });

  it('answer 400 {detail} on every checker route and upload route, never 500, and count nothing', async () => {
    for (const path of [...CHECKERS, ...uploadPaths]) {
      for (const { contentType, body } of MALFORMED) {
        const reply = await service.app.request(path, { method: 'POST', headers: { 'content-type': contentType, cookie, origin: PUBLIC_URL }, body });
        const what = `${path} with ${contentType} and ${JSON.stringify(body.slice(0, 20))}`;
        assert.equal(reply.status, 400, what);
        assert.match(((await reply.json()) as { detail: string }).detail, /^The request body could not be read as multipart\/form-data \(.+\); send the form as an HTTP client builds it/, what);
      }
    }
    assert.deepEqual(logged, [], 'no failure was logged');
    assert.equal((await state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0, 0);
  });

  it('still read a well-formed form on the same routes', async () => {
    const form = new FormData();
    form.append('file', new File(['Plain words about a council road.'], 'note.txt'));
    const reply = await service.app.request('/v1/detect-ai-text', { method: 'POST', body: form });
    assert.equal(reply.status, 200);
  });
});
