import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestState } from '../../test/helpers/state.ts';
import { tempDir } from '../../test/helpers/temp-dir.ts';
import { bidLinkSecret, checkFileLink, sharedBidLinkSecret, signFileLink } from './signed-links.ts';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const NOW = new Date('2026-06-10T02:00:00.000Z');

function parts(pathAndQuery: string): { expires: string; signature: string } {
  const query = new URLSearchParams(pathAndQuery.split('?')[1]);
  return { expires: query.get('expires')!, signature: query.get('signature')! };
}

test('a link works for its file until its expiry, 15 minutes on', () => {
  const link = signFileLink(SECRET, 'file_1', NOW);
  assert.equal(link.expiresAt.toISOString(), '2026-06-10T02:15:00.000Z');
  assert.match(link.pathAndQuery, /^\/v1\/bid-files\/file_1\?expires=1781057700&signature=[A-Za-z0-9_-]{43}$/);
  const { expires, signature } = parts(link.pathAndQuery);
  assert.deepEqual(checkFileLink(SECRET, 'file_1', expires, signature, new Date('2026-06-10T02:14:59.000Z')), { ok: true });
  assert.deepEqual(checkFileLink(SECRET, 'file_1', expires, signature, link.expiresAt), { ok: false, reason: 'expired', expiredAt: link.expiresAt });
});

test('another file, expiry or secret, or a malformed signature, reads as altered', () => {
  const { expires, signature } = parts(signFileLink(SECRET, 'file_1', NOW).pathAndQuery);
  assert.deepEqual(checkFileLink(SECRET, 'file_2', expires, signature, NOW), { ok: false, reason: 'altered' });
  assert.deepEqual(checkFileLink(SECRET, 'file_1', String(Number(expires) + 1), signature, NOW), { ok: false, reason: 'altered' });
  assert.deepEqual(checkFileLink(`${SECRET}!`, 'file_1', expires, signature, NOW), { ok: false, reason: 'altered' });
  assert.deepEqual(checkFileLink(SECRET, 'file_1', expires, signature.slice(1), NOW), { ok: false, reason: 'altered' });
  assert.deepEqual(checkFileLink(SECRET, 'file_1', 'soon', signature, NOW), { ok: false, reason: 'altered' });
});

test('the secret comes from SVC_BID_LINK_SECRET, else is generated once into the state folder', async () => {
  const stateDir = join(await tempDir('bid-link-secret-'), 'state');
  assert.equal(bidLinkSecret(stateDir, { SVC_BID_LINK_SECRET: SECRET }), SECRET);
  assert.throws(() => bidLinkSecret(stateDir, { SVC_BID_LINK_SECRET: 'short' }), /at least 32 characters/);
  const generated = bidLinkSecret(stateDir, {});
  assert.match(generated, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(bidLinkSecret(stateDir, {}), generated, 'kept and read back');
  assert.equal(readFileSync(join(stateDir, 'bid-link-secret'), 'utf8'), `${generated}\n`);
  assert.equal(statSync(join(stateDir, 'bid-link-secret')).mode & 0o777, 0o600);
});

test('instances sharing a state store share its secret: the first one\'s data folder secret if it had one, kept for all', async () => {
  const state = await openTestState();
  try {
    const upgraded = join(await tempDir('bid-link-secret-a-'), 'state');
    const other = join(await tempDir('bid-link-secret-b-'), 'state');
    const earlier = bidLinkSecret(upgraded, {});
    // Instance A brings the secret it signed links with before; B, on a data folder of its own, gets the same.
    assert.equal(await sharedBidLinkSecret(state, upgraded, {}), earlier);
    assert.equal(await sharedBidLinkSecret(state, other, {}), earlier);
    // A data folder holding another secret does not replace the one in the store.
    const stray = join(await tempDir('bid-link-secret-c-'), 'state');
    assert.notEqual(bidLinkSecret(stray, {}), earlier);
    assert.equal(await sharedBidLinkSecret(state, stray, {}), earlier);
    assert.equal(await sharedBidLinkSecret(state, stray, { SVC_BID_LINK_SECRET: SECRET }), SECRET, 'the environment still wins');
    await assert.rejects(sharedBidLinkSecret(state, stray, { SVC_BID_LINK_SECRET: 'short' }), /at least 32 characters/);
  } finally {
    await state.close();
  }
});

test('instances starting at once on a fresh store agree on one new secret', async () => {
  const state = await openTestState();
  try {
    const folders = await Promise.all([1, 2, 3, 4].map(async (n) => join(await tempDir(`bid-link-secret-race-${n}-`), 'state')));
    const secrets = await Promise.all(folders.map((folder) => sharedBidLinkSecret(state, folder, {})));
    assert.match(secrets[0]!, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(new Set(secrets).size, 1, secrets.join(', '));
  } finally {
    await state.close();
  }
});
