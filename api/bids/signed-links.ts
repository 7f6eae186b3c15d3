import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileSync } from '../../lib/private-files.ts';
import type { StateDb } from '../../data/state/db.ts';

/**
 * Short-lived links to a bid file that work without the session (to hand to a browser tab, a viewer or a
 * colleague's download manager): the file id and the expiry, signed with HMAC-SHA256 under a server secret.
 * Nothing is stored per link; changing the secret voids every link.
 */

/** How long a link works. */
export const LINK_LIFETIME_MS = 15 * 60 * 1000;

/** The path a link serves a file at; the query carries `expires` (Unix seconds) and `signature`. */
export function fileLinkPath(fileId: string): string {
  return `/v1/bid-files/${encodeURIComponent(fileId)}`;
}

export interface SignedLink {
  /** Path and query, to put after the service's public address. */
  pathAndQuery: string;
  expiresAt: Date;
}

export function signFileLink(secret: string, fileId: string, now: Date): SignedLink {
  const expires = Math.ceil((now.getTime() + LINK_LIFETIME_MS) / 1000);
  return { pathAndQuery: `${fileLinkPath(fileId)}?expires=${expires}&signature=${signature(secret, fileId, expires)}`, expiresAt: new Date(expires * 1000) };
}

export type LinkCheck = { ok: true } | { ok: false; reason: 'altered' } | { ok: false; reason: 'expired'; expiredAt: Date };

/**
 * Whether `signature` is this service's signature of `fileId` until `expires`, and that moment is still to
 * come. The signature is checked first, so an altered expiry reads as altered, never as expired.
 */
export function checkFileLink(secret: string, fileId: string, expires: string, givenSignature: string, now: Date): LinkCheck {
  if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(givenSignature)) return { ok: false, reason: 'altered' };
  const expected = Buffer.from(signature(secret, fileId, Number(expires)));
  if (!timingSafeEqual(expected, Buffer.from(givenSignature))) return { ok: false, reason: 'altered' };
  const expiresAt = new Date(Number(expires) * 1000);
  return now.getTime() < expiresAt.getTime() ? { ok: true } : { ok: false, reason: 'expired', expiredAt: expiresAt };
}

function signature(secret: string, fileId: string, expires: number): string {
  return createHmac('sha256', secret).update(`bid-file\n${fileId}\n${expires}`).digest('base64url');
}

/**
 * The signing secret of one machine: `SVC_BID_LINK_SECRET` when set, else the one kept
 * in `<stateDir>/bid-link-secret`, generated on first use and readable by the service's user only.
 */
export function bidLinkSecret(stateDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = configuredSecret(env);
  if (configured !== null) return configured;
  const path = join(stateDir, 'bid-link-secret');
  const kept = keptSecret(path);
  if (kept !== null) return kept;
  const secret = randomBytes(32).toString('base64url');
  try {
    // 'wx': a second process starting at the same moment keeps the secret the first one wrote.
    writePrivateFileSync(path, `${secret}\n`, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readFileSync(path, 'utf8').trim();
  }
  return secret;
}

/**
 * The signing secret of instances sharing one state store (PostgreSQL): `SVC_BID_LINK_SECRET` when set, else the one
 * kept in the store's `service_secrets`, so a link one instance gives is honoured by all. The first instance to start
 * puts its data folder's `bid-link-secret` there when it has one (links it gave before the move keep working), else a
 * new one; an instance starting at the same moment keeps whichever was put first.
 */
export async function sharedBidLinkSecret(state: StateDb, stateDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const configured = configuredSecret(env);
  if (configured !== null) return configured;
  const candidate = keptSecret(join(stateDir, 'bid-link-secret')) ?? randomBytes(32).toString('base64url');
  await state.run('INSERT INTO service_secrets (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', BID_LINK_SECRET_NAME, candidate, new Date().toISOString());
  const stored = await state.get<{ secret: string }>('SELECT secret FROM service_secrets WHERE name = ?', BID_LINK_SECRET_NAME);
  if (stored === undefined) throw new Error('the bid link secret was not kept in the state store');
  return stored.secret;
}

const BID_LINK_SECRET_NAME = 'bid_link';

function configuredSecret(env: NodeJS.ProcessEnv): string | null {
  const configured = env.SVC_BID_LINK_SECRET;
  if (configured === undefined || configured === '') return null;
  if (configured.length < 32) throw new Error('SVC_BID_LINK_SECRET must be at least 32 characters; generate one with `openssl rand -base64 32`.');
  return configured;
}

/** The secret kept in the file at `path`, or null when there is none. */
function keptSecret(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return null;
  }
}
