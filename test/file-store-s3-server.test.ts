import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../api/server.ts';
import { openFileStore } from '../lib/file-store/open.ts';
import type { FileStore } from '../lib/file-store/store.ts';
import { tinyPdf } from './helpers/checker-app.ts';
import { startLocalS3, type LocalS3 } from './helpers/local-s3.ts';
import { signInAs } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testDatabaseUrlFor } from './helpers/state.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('a server with SVC_FILE_STORE_URL keeps bid files and library documents in the S3-compatible store, not on its disk', () => {
  let s3: LocalS3;
  let dataDir: string;
  let running: RunningServer;
  let bucket: FileStore;

  before(async () => {
    s3 = await startLocalS3();
    dataDir = await tempDir('file-store-s3-server-');
    running = await startServer({ dataDir, databaseUrl: await testDatabaseUrlFor(dataDir), port: 0, log: () => {}, fileStoreUrl: s3.urlFor('svc') });
    bucket = await openFileStore({ url: s3.urlFor('svc'), folder: '/nonexistent-never-used' });
  });
  after(async () => {
    await running?.close();
    bucket?.close();
    await s3?.close();
  });

  it('stores an upload and its page render as objects, and serves the file back through its signed link', async () => {
    const cookie = await signInAs(running.state, new Date(), 'owner@harbour.test');
    const headers = { cookie, origin: running.url };
    const write = async (path: string, body: unknown) =>
      (await (await fetch(`${running.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } })).json()) as Record<string, string>;
    const { org_id: orgId } = await write('/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' });
    const { bid_id: bidId } = await write('/v1/bids', { org_id: orgId, title: 'Council fleet servicing' });
    const pdf = tinyPdf('site plan') as Uint8Array<ArrayBuffer>;
    const form = new FormData();
    form.append('file', new File([pdf], 'plan.pdf'));
    const uploaded = await fetch(`${running.url}/v1/bids/${bidId}/files`, { method: 'POST', body: form, headers });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const { file_id: fileId } = (await uploaded.json()) as { file_id: string };
    assert.equal((await fetch(`${running.url}/v1/bids/${bidId}/files/${fileId}/pages/1/image`, { headers })).status, 200);

    const hash = sha256(pdf);
    assert.deepEqual(await bucket.list('bid-files/'), [`bid-files/${hash.slice(0, 2)}/${hash}`, `bid-files/renders/${hash}/1.png`]);
    assert.equal(existsSync(join(dataDir, 'state', 'bid-files')), false, 'nothing of the bid files is on the server disk');

    const link = (await (await fetch(`${running.url}/v1/bids/${bidId}/files/${fileId}/url`, { headers })).json()) as { url: string };
    const served = await fetch(new URL(link.url, running.url));
    assert.equal(served.status, 200);
    assert.equal(sha256(new Uint8Array(await served.arrayBuffer())), hash);
  });

  it('stores a library document as an object, lists it from the state store, and deletes the object with it', async () => {
    const cookie = await signInAs(running.state, new Date(), 'library@harbour.test');
    const headers = { cookie, origin: running.url };
    const created = await fetch(`${running.url}/v1/orgs`, { method: 'POST', body: JSON.stringify({ company_name: 'Harbour Library Pty Ltd' }), headers: { ...headers, 'content-type': 'application/json' } });
    const { org_id: orgId } = (await created.json()) as { org_id: string };
    const pdf = tinyPdf('insurance certificate') as Uint8Array<ArrayBuffer>;
    const form = new FormData();
    form.append('file', new File([pdf], 'Insurance certificate.pdf', { type: 'application/pdf' }));
    const uploaded = await fetch(`${running.url}/v1/orgs/${orgId}/documents`, { method: 'POST', body: form, headers });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const { doc_id: docId } = (await uploaded.json()) as { doc_id: string };

    assert.deepEqual(await bucket.list('documents/'), [`documents/${orgId}/${docId}`]);
    assert.equal(sha256((await bucket.get(`documents/${orgId}/${docId}`))!), sha256(pdf));
    assert.equal(existsSync(join(dataDir, 'state', 'documents')), false, 'nothing of the library is on the server disk');

    assert.equal((await fetch(`${running.url}/v1/orgs/${orgId}/documents/${docId}`, { method: 'DELETE', headers })).status, 200);
    assert.deepEqual(await bucket.list('documents/'), []);
  });
});
