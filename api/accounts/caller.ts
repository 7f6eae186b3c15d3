/**
 * Who is calling. The caller middleware (api/middleware/caller.ts) resolves it once per request and every
 * middleware and route after it reads it as `c.get('caller')`; the meter and the bid and organisation doors read
 * it too, so it lives here, below them all.
 */
export type Caller =
  | { kind: 'anonymous'; ip: string }
  | { kind: 'key'; ip: string; keyId: string; accountId: string | null; scope: 'api' | 'mcp' }
  | { kind: 'session'; ip: string; accountId: string; sessionHash: string };

/** Every middleware and route after `caller()` reads who is calling as `c.get('caller')`. */
export interface CallerEnv {
  Variables: { caller: Caller };
}
