import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../api/server.ts';
import { openStateDb } from '../data/state/db.ts';
import { tinyPdf } from './helpers/checker-app.ts';
import { signInAs } from './helpers/org-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation, testDatabaseUrlFor, SQLITE_ONLY } from './helpers/state.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every folder and file under `dir`, with its permission bits. */
function modesUnder(dir: string): [string, number][] {
  const found: [string, number][] = [[dir, modeOf(dir)]];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...modesUnder(path));
    else found.push([path, modeOf(path)]);
  }
  return found;
}

function assertPrivate(dir: string): void {
  const open = modesUnder(dir).filter(([path, mode]) => mode !== (statSync(path).isDirectory() ? 0o700 : 0o600));
  assert.deepEqual(open.map(([path, mode]) => `${path.slice(dir.length) || '/'} ${mode.toString(8)}`), [], `everything under ${dir} is the owner's alone`);
}

describe('what the service stores is readable by its owner alone, whatever the umask', { skip: SQLITE_ONLY }, () => {
  let dataDir: string;
  let running: RunningServer;
  const umask = process.umask();

  before(async () => {
    // A umask that takes nothing away: only modes the service sets itself keep others out.
    process.umask(0);
    dataDir = await tempDir('file-modes-');
    // An older deployment's files, readable by everyone: the state store, a bid file and a library document.
    const state = await openStateDb(await testStateLocation(dataDir));
    await state.close();
    for (const name of ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm']) {
      try {
        chmodSync(join(dataDir, 'state', name), 0o644);
      } catch {
        // The store may have folded its write-ahead log away on close.
      }
    }
    chmodSync(join(dataDir, 'state'), 0o755);
    for (const dir of ['bid-files/ab', 'documents/org_old']) mkdirSync(join(dataDir, 'state', dir), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'state', 'bid-files', 'ab', `ab${'0'.repeat(62)}`), 'old bid file', { mode: 0o644 });
    writeFileSync(join(dataDir, 'state', 'documents', 'org_old', 'doc_old'), 'old library document', { mode: 0o644 });
    running = await startServer({ dataDir, databaseUrl: await testDatabaseUrlFor(dataDir), port: 0, log: () => {} });
  });
  after(async () => {
    await running?.close();
    process.umask(umask);
  });

  it('mends the modes of what an earlier version stored when it starts', () => {
    assertPrivate(join(dataDir, 'state'));
  });

  it('keeps the state store, bid files, page renders, library documents and sign-in mail private as it writes them', async () => {
    const cookie = await signInAs(running.state, new Date(), 'owner@harbour.test');
    const headers = { cookie, origin: running.url };
    const write = async (path: string, body: unknown) =>
      (await (await fetch(`${running.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { ...headers, 'content-type': 'application/json' } })).json()) as Record<string, string>;
    const { org_id: orgId } = await write('/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' });
    const { bid_id: bidId } = await write('/v1/bids', { org_id: orgId, title: 'Council fleet servicing' });
    const upload = async (path: string, name: string, bytes: string | Uint8Array<ArrayBuffer>) => {
      const form = new FormData();
      form.append('file', new File([bytes], name));
      const reply = await fetch(`${running.url}${path}`, { method: 'POST', body: form, headers });
      assert.equal(reply.status, 201, `${path}: ${await reply.clone().text()}`);
      return (await reply.json()) as Record<string, string>;
    };
    await upload(`/v1/orgs/${orgId}/documents`, 'insurance.txt', 'Public liability insurance certificate, valid to 2027.');
    await upload(`/v1/bids/${bidId}/files`, 'scope.txt', 'The contractor shall service the council fleet monthly.');
    const { file_id: fileId } = await upload(`/v1/bids/${bidId}/files`, 'plan.pdf', tinyPdf('site plan') as Uint8Array<ArrayBuffer>);
    assert.equal((await fetch(`${running.url}/v1/bids/${bidId}/files/${fileId}/pages/1/image`, { headers })).status, 200, 'the page is drawn and kept');
    assert.equal((await fetch(`${running.url}/v1/auth/login`, { method: 'POST', body: JSON.stringify({ email: 'someone@harbour.test' }), headers: { 'content-type': 'application/json', origin: running.url } })).status, 202);

    assertPrivate(join(dataDir, 'state'));
    assertPrivate(join(dataDir, 'outbox'));
    const stored = modesUnder(join(dataDir, 'state')).map(([path]) => path.slice(dataDir.length));
    for (const expected of ['/state/state.sqlite', '/state/state.sqlite-wal', '/state/bid-link-secret']) assert.ok(stored.includes(expected), `${expected} is there to check`);
    assert.ok(stored.some((path) => path.startsWith(`/state/documents/${orgId}/`)), 'the library document is there to check');
    assert.equal(stored.filter((path) => /^\/state\/bid-files\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(path)).length, 3, 'the new bid files are there to check');
    assert.ok(stored.some((path) => /^\/state\/bid-files\/renders\/[0-9a-f]{64}\/1\.png$/.test(path)), 'the page render is there to check');
  });
});
