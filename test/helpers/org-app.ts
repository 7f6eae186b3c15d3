import { OpenAPIHono } from '@hono/zod-openapi';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, newSecret, secretHash } from '../../lib/tokens.ts';
import { createMailer, type Mailer } from '../../lib/mailer.ts';
import { caller, SESSION_COOKIE } from '../../api/middleware/caller.ts';
import { errorReplies } from '../../api/middleware/errors.ts';
import { invalidInputHook } from '../../api/schemas/invalid-input.ts';
import { contactRoutes } from '../../api/routes/contact.ts';
import { feedbackRoutes } from '../../api/checkers/references/routes.ts';
import { orgRoutes } from '../../api/routes/orgs.ts';
import { openStateDb, type StateDb } from '../../data/state/db.ts';
import { testStateLocation } from './state.ts';

export const PUBLIC_URL = 'https://tenders.example.test';

/** A clock tests move by hand. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function testClock(start: string): TestClock {
  let current = new Date(start).getTime();
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

export interface OrgTestApp {
  app: OpenAPIHono;
  state: StateDb;
  documentsDir: string;
  clock: TestClock;
  /** Creates an account (if new) and a session for `email`; returns the Cookie header that carries it. */
  signIn(email: string): Promise<string>;
  close(): Promise<void>;
}

export interface OrgTestAppOptions {
  /** Invitations go here; by default to `.eml` files in a temporary outbox. */
  mailer?: Mailer;
  /** The state the contact and feedback routes write to (to make writes fail); the app's own by default. */
  contactState?: StateDb;
  /** Receives what the routes log (a failed invitation email, a failed feedback write); quiet by default. */
  log?: (error: unknown) => void;
}

/**
 * The organisation, contact and feedback sub-apps behind the caller middleware on a small app, as the
 * real app mounts them, over a temporary state store and data folder.
 */
export async function startOrgApp(options: OrgTestAppOptions = {}): Promise<OrgTestApp> {
  const dataDir = await mkdtemp(join(tmpdir(), 'orgs-'));
  const state = await openStateDb(await testStateLocation(dataDir));
  const clock = testClock('2026-06-10T02:00:00.000Z');
  const documentsDir = join(dataDir, 'state', 'documents');
  const mailer = options.mailer ?? createMailer({ outboxDir: join(dataDir, 'outbox') });
  const errors = errorReplies({ log: () => {} });
  const app = new OpenAPIHono({ defaultHook: invalidInputHook() });
  app.notFound(errors.notFound);
  app.onError(errors.onError);
  app.use('*', caller({ state, now: clock.now }));
  const log = options.log ?? (() => {});
  app.route('/', orgRoutes({ state, mailer, documentFiles: documentsDir, publicUrl: PUBLIC_URL, now: clock.now, log }));
  app.route('/', contactRoutes({ state: options.contactState ?? state, now: clock.now }));
  app.route('/', feedbackRoutes({ state, now: clock.now, log }));
  app.doc31('/openapi.json', { openapi: '3.1.0', info: { title: 'test', version: '0' } });

  return {
    app,
    state,
    documentsDir,
    clock,
    signIn: async (email) => await signInAs(state, clock.now(), email),
    async close() {
      await state.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Creates an account (if new) and a session for `email` in `state`; returns the Cookie header that carries it. */
export async function signInAs(state: StateDb, now: Date, email: string): Promise<string> {
  const at = now.toISOString();
  await state.run('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?) ON CONFLICT (email) DO NOTHING', newId('acct_'), email, at);
  const { account_id } = (await state.get<{ account_id: string }>('SELECT account_id FROM accounts WHERE email = ?', email))!;
  const token = newSecret('sess_');
  await state.run(
    'INSERT INTO sessions (session_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
    secretHash(token),
    account_id,
    at,
    '2100-01-01T00:00:00.000Z',
  );
  return `${SESSION_COOKIE}=${token}`;
}

/** A JSON body as the tests read it: any shape, checked by their assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonBody = Record<string, any>;

/**
 * JSON calls as a signed-in browser makes them (its session cookie, its origin), through `send`: an app's
 * `request` in process, or `fetch` against a server's address. Each answers its status and parsed body. The origin
 * is read at each call: a test that restarts its server on another port calls the new one.
 */
export function sessionCalls(send: (path: string, init: RequestInit) => Response | Promise<Response>, cookie: string, origin: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: JsonBody }> => {
    const response = await send(path, { method, headers: { cookie, origin: origin(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: response.status, body: (await response.json()) as JsonBody };
  };
}

/** JSON request options for `app.request`. */
export function jsonRequest(method: string, body: unknown, cookie?: string): RequestInit {
  return { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(cookie && { cookie }) } };
}
