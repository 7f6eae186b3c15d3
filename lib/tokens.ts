import { randomBytes } from 'node:crypto';
import { sha256Hex } from './hash.ts';

/** A random secret with a readable prefix: API keys (`svc_`), session and sign-in tokens. 192 bits. */
export function newSecret(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('base64url')}`;
}

/** A short random id for records (`key_3f2a…`); not a secret. */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(8).toString('hex')}`;
}

/** Secrets are stored only as this hash. */
export function secretHash(secret: string): string {
  return sha256Hex(secret);
}
