import { createHash, randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import { StateUnavailableError, type StateDb } from '../../data/state/db.ts';
import type { Caller, CallerEnv } from '../accounts/caller.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import { formBodyProblem, hasFormBody, hasJsonBody, parseJsonBody } from '../schemas/common.ts';
import { canonicalQuery } from './response-cache.ts';
import { switchedOn } from './sandbox.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface IdempotencyOptions {
  state: StateDb;
  now?: () => Date;
  /** How long a reply is replayed (default 24 hours: spec, Limits). */
  memoryMs?: number;
  /**
   * How long a run may hold its key before another process takes it over (default 10 minutes): a process
   * that died mid-run must not block its key for a day.
   */
  runningLeaseMs?: number;
  /**
   * The instance id of this process (data/state/instances.ts), written on each run it holds, so that should it die
   * mid-run the next process to start frees the key at once rather than when the lease ends.
   */
  owner?: string;
}

/** Headers of a stored reply that are replayed; rate headers, cookies and dates belong to the retry, not the first call. */
const REPLAYED_HEADERS = ['content-type', 'content-disposition', 'content-language', 'location', 'retry-after', 'etag', 'last-modified', 'link'];
/** The service's own headers (`Svc-…`) are part of the reply too. */
const SERVICE_HEADER_PREFIX = 'svc-';
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

interface StoredReply {
  request_hash: string;
  state: 'running' | 'done';
  started_at: string;
  status: number | null;
  headers: string | null;
  body: Uint8Array<ArrayBuffer> | null;
}

type Claim = { kind: 'run'; runToken: string } | { kind: 'replay'; reply: StoredReply } | { kind: 'mismatch' } | { kind: 'busy' };

/** What a reply carrying a secret keeps for a retry: the fields left out, and the sentence saying why. */
export interface ReplayWithheld {
  fields: readonly string[];
  reason: string;
}

/** A context variable rather than a WeakMap of contexts, as rate-headers.ts explains. */
const WITHHELD_ON_REPLAY = 'idempotencyWithheldOnReplay';
type WithheldEnv = { Variables: { [WITHHELD_ON_REPLAY]: ReplayWithheld | undefined } };

/**
 * Marks this reply as carrying a secret shown once (an API key, a connector URL). The reply goes out whole
 * with `Cache-Control: no-store`; what the idempotency store keeps for a retry is the same JSON without
 * `fields`, plus `withheld` (their names) and `withheld_reason`. A retry with the same key so runs nothing again
 * (no second key is minted) and never sees the secret; no table keeps it.
 *
 * @example
 * withholdOnReplay(c, { fields: ['api_key'], reason: 'The key is shown once…' });
 * return c.json({ ...metadata, api_key }, 201);
 */
export function withholdOnReplay(c: Context, withheld: ReplayWithheld): void {
  (c as Context<WithheldEnv>).set(WITHHELD_ON_REPLAY, withheld);
  c.header('Cache-Control', 'no-store');
}

/**
 * `Idempotency-Key` on a POST (spec, Shared input conventions): the first request with a key runs; a retry
 * with the same key and the same request (method, path, query and parsed body: see `fingerprint`) from the same caller replays the
 * stored status, headers and body for 24 hours, marked `Idempotent-Replayed: true`. Keys are scoped by
 * caller (account, else API key, else client IP), so two callers never see each other's replies.
 *
 * - The same key with another request: 422 `{detail}`.
 * - Concurrent requests with one key run the work once. In this process the later ones wait for the first
 *   and replay its reply. A request reaching another process (sharing the state file) while the first still
 *   runs answers 409 with `Retry-After: 1`: that process cannot await a promise held here, and polling the
 *   store would hold a connection for as long as the work takes.
 * - Only completed work is stored: replies below 400. A 4xx means the work did not happen (invalid input,
 *   quota, conflict), so a retry, perhaps with a corrected body under the same key, runs again and answers
 *   the same deterministic 4xx anyway; a 5xx or an exception is a failure the client should retry.
 * - Streamed calls (`?stream=1` or `Accept: text/event-stream`) are exempt (spec, Events 2).
 * - A secret is never stored. A reply marked `Cache-Control: no-store` is kept only in the form its route
 *   declared with `withholdOnReplay` (the secret left out), and otherwise not at all: the key is freed and a
 *   retry runs again.
 * - Expired keys are deleted whenever a key is claimed, through an index on the expiry time.
 * - The state store unreachable: 503 with `Retry-After`, and the call is not run (once-only cannot be promised).
 *
 * Mount it after `caller()` (the scope) and before the meter, so a replay is not counted again.
 *
 * @example
 * app.use('*', caller({ state }), idempotency({ state }));
 * // POST /v1/warrants, Idempotency-Key: 3f1c… → 201 {…}; the same again → 201 {…}, Idempotent-Replayed: true
 */
export function idempotency(options: IdempotencyOptions): MiddlewareHandler<CallerEnv> {
  const now = options.now ?? (() => new Date());
  const memoryMs = options.memoryMs ?? 24 * HOUR_MS;
  const runningLeaseMs = options.runningLeaseMs ?? 10 * 60 * 1000;
  const state = options.state;
  const owner = options.owner ?? null;
  // Runs in progress in this process, by scope and key, so a concurrent retry waits instead of answering 409.
  const running = new Map<string, { requestHash: string; finished: Promise<void> }>();

  async function claim(scope: string, key: string, requestHash: string): Promise<Claim> {
    return await state.transaction(async () => {
      const at = now();
      await state.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', at.toISOString());
      const stored = await state.get<StoredReply>(
        'SELECT request_hash, state, started_at, status, headers, body FROM idempotency_keys WHERE scope = ? AND idempotency_key = ?',
        scope,
        key,
      );
      if (stored !== undefined && stored.request_hash !== requestHash) return { kind: 'mismatch' };
      if (stored?.state === 'done') return { kind: 'replay', reply: stored };
      if (stored !== undefined && Date.parse(stored.started_at) + runningLeaseMs > at.getTime()) return { kind: 'busy' };
      const runToken = randomUUID();
      await state.run(
        `INSERT INTO idempotency_keys (scope, idempotency_key, request_hash, state, run_token, started_at, expires_at, owner)
         VALUES (?, ?, ?, 'running', ?, ?, ?, ?)
         ON CONFLICT (scope, idempotency_key) DO UPDATE SET run_token = excluded.run_token, started_at = excluded.started_at, owner = excluded.owner`,
        scope,
        key,
        requestHash,
        runToken,
        at.toISOString(),
        new Date(at.getTime() + memoryMs).toISOString(),
        owner,
      );
      return { kind: 'run', runToken };
    });
  }

  /** Stores a completed reply, or frees the key for the retry to run again; a store outage never costs the reply. */
  async function settle(c: Context, scope: string, key: string, runToken: string, threw: boolean): Promise<void> {
    try {
      const reply = c.res;
      const streamed = reply.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
      const withheld = (c as Context<WithheldEnv>).get(WITHHELD_ON_REPLAY);
      // A reply no cache may store holds a secret: kept only in the form its route declared without it.
      const secret = /(^|,)\s*no-store\s*(,|$)/i.test(reply.headers.get('cache-control') ?? '') && withheld === undefined;
      if (threw || reply.status >= 400 || streamed || secret) {
        await state.run("DELETE FROM idempotency_keys WHERE scope = ? AND idempotency_key = ? AND run_token = ? AND state = 'running'", scope, key, runToken);
        return;
      }
      const body = withheld === undefined ? new Uint8Array(await reply.clone().arrayBuffer()) : await withoutSecret(reply, withheld);
      await state.run(
        "UPDATE idempotency_keys SET state = 'done', run_token = NULL, status = ?, headers = ?, body = ? WHERE scope = ? AND idempotency_key = ? AND run_token = ?",
        reply.status,
        JSON.stringify(replayedHeaders(reply.headers)),
        body,
        scope,
        key,
        runToken,
      );
    } catch (error) {
      // The reply is already made and still goes out; the key frees itself when its lease ends.
      if (!(error instanceof StateUnavailableError)) throw error;
    }
  }

  return async function idempotencyMiddleware(c, next) {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined || isStreamed(c)) return next();
    if (!KEY_PATTERN.test(key)) {
      return c.json({ detail: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID; send a new key.' }, 400);
    }
    const scope = scopeOf(c.get('caller'));
    const requestHash = await fingerprint(c);
    const slot = `${scope}\n${key}`;
    let runToken: string;
    let finishRun: () => void;
    for (;;) {
      const inFlight = running.get(slot);
      if (inFlight !== undefined) {
        if (inFlight.requestHash !== requestHash) return mismatch(c, memoryMs);
        await inFlight.finished;
        continue;
      }
      // Taken before the claim is asked, with no await between the look and this line: a concurrent retry in this
      // process waits for this one's outcome instead of asking the store at the same time and being told "busy".
      const { promise: finished, resolve } = Promise.withResolvers<void>();
      running.set(slot, { requestHash, finished });
      let outcome: Claim;
      try {
        outcome = await claim(scope, key, requestHash);
      } catch (error) {
        running.delete(slot);
        resolve();
        if (!(error instanceof StateUnavailableError)) throw error;
        c.header('Retry-After', '5');
        return c.json({ detail: 'The request store is unavailable, so this request was not run; retry in 5 seconds with the same Idempotency-Key.' }, 503);
      }
      if (outcome.kind !== 'run') {
        running.delete(slot);
        resolve();
      }
      if (outcome.kind === 'mismatch') return mismatch(c, memoryMs);
      if (outcome.kind === 'replay') return replay(c, outcome.reply);
      if (outcome.kind === 'busy') {
        c.header('Retry-After', '1');
        return c.json({ detail: 'A request with this Idempotency-Key is still running; retry in a second with the same key to receive its reply.' }, 409);
      }
      runToken = outcome.runToken;
      finishRun = resolve;
      break;
    }
    let threw = true;
    try {
      await next();
      threw = false;
    } finally {
      await settle(c, scope, key, runToken, threw).finally(() => {
        running.delete(slot);
        finishRun();
      });
    }
  };
}

/** Whose keys these are: an account's keys and sessions share one space; a key without an account, or an IP, has its own. */
function scopeOf(caller: Caller | undefined): string {
  if (caller === undefined) throw new Error('idempotency() needs caller() mounted before it: keys are scoped by caller.');
  if (caller.kind !== 'anonymous' && caller.accountId !== null) return `account:${caller.accountId}`;
  if (caller.kind === 'key') return `key:${caller.keyId}`;
  return `ip:${caller.ip}`;
}

function isStreamed(c: Context): boolean {
  const stream = c.req.query('stream');
  return stream === '1' || stream === 'true' || (c.req.header('accept')?.includes('text/event-stream') ?? false);
}

/**
 * SHA-256 over what makes a request the same request: method, path, sorted query, the `Svc-Sandbox` switch (the
 * query and body carry the other two sandbox switches, so a live call never replays a sandbox reply) and the body
 * as parsed, not its bytes, since a client's retry of the same request may not repeat them: JSON as canonical
 * JSON (keys sorted, spacing gone); a form as its fields by name, each value in order, a file as its name and the
 * SHA-256 of its bytes (a multipart retry has a new boundary). Any other body, or one that does not parse (the
 * route refuses it), by its bytes.
 */
async function fingerprint(c: Context): Promise<string> {
  const sandbox = switchedOn(c.req.header('svc-sandbox')) ? 'sandbox' : 'live';
  const hash = createHash('sha256').update(`${c.req.method} ${c.req.path}?${canonicalQuery(c.req.url)}\n${sandbox}\n`);
  const body = await parsedBody(c);
  return (body === undefined ? hash.update(new Uint8Array(await c.req.arrayBuffer())) : hash.update(body)).digest('hex');
}

/** The body as `fingerprint` compares it, or undefined to compare its bytes. */
async function parsedBody(c: Context): Promise<string | undefined> {
  if (hasJsonBody(c)) {
    const body = await parseJsonBody(c);
    return body.kind === 'json' ? `json ${canonicalJson(body.value)}` : undefined;
  }
  if (!hasFormBody(c) || (await formBodyProblem(c)) !== null) return undefined;
  const parts: [string, string | File][] = [];
  (await c.req.formData()).forEach((value, name) => parts.push([name, value]));
  const byName = new Map<string, unknown[]>();
  for (const [name, value] of parts) {
    const part = typeof value === 'string' ? value : { file: value.name, sha256: createHash('sha256').update(new Uint8Array(await value.arrayBuffer())).digest('hex') };
    byName.set(name, [...(byName.get(name) ?? []), part]);
  }
  return `form ${canonicalJson(Object.fromEntries(byName))}`;
}

/** The JSON reply as a retry gets it: the withheld fields removed and named, with the reason. */
async function withoutSecret(reply: Response, withheld: ReplayWithheld): Promise<Uint8Array<ArrayBuffer>> {
  const whole = (await reply.clone().json()) as Record<string, unknown>;
  const kept = Object.fromEntries(Object.entries(whole).filter(([name]) => !withheld.fields.includes(name)));
  return new TextEncoder().encode(JSON.stringify({ ...kept, withheld: [...withheld.fields], withheld_reason: withheld.reason }));
}

function mismatch(c: Context, memoryMs: number): Response {
  return c.json(
    { detail: `This Idempotency-Key was already used in the last ${Math.round(memoryMs / HOUR_MS)} hours for a different request (another body, path, query or Svc-Sandbox header); send this request with a new key.` },
    422,
  );
}

/** The stored reply, built through the context so headers other middleware prepared (rate headers) ride along. */
function replay(c: Context, stored: StoredReply): Response {
  const headers: Record<string, string> = { ...(JSON.parse(stored.headers ?? '{}') as Record<string, string>), 'Idempotent-Replayed': 'true' };
  const status = stored.status ?? 200;
  if (NULL_BODY_STATUSES.has(status) || stored.body === null) return c.body(null, status as StatusCode, headers);
  return c.body(stored.body, status as ContentfulStatusCode, headers);
}

function replayedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (REPLAYED_HEADERS.includes(name) || name.startsWith(SERVICE_HEADER_PREFIX)) kept[name] = value;
  });
  return kept;
}
