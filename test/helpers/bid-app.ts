import { OpenAPIHono } from '@hono/zod-openapi';
import { join } from 'node:path';
import { BidFileStore } from '../../api/bids/file-store.ts';
import { checkerAnalyses } from '../../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisPool } from '../../api/checkers/_runner/pool.ts';
import { caller } from '../../api/middleware/caller.ts';
import { errorReplies } from '../../api/middleware/errors.ts';
import { invalidInputHook } from '../../api/schemas/invalid-input.ts';
import type { FileReadListener } from '../../api/routes/bid-files.ts';
import { bidRoutes } from '../../api/routes/bids.ts';
import { orgRoutes } from '../../api/routes/orgs.ts';
import type { ReleaseStore } from '../../api/release-store.ts';
import { TenderIndex, type TenderRow } from '../../data/search/tender-index.ts';
import { openStateDb, type StateDb } from '../../data/state/db.ts';
import { createMailer } from '../../lib/mailer.ts';
import { tempDir } from './temp-dir.ts';
import { PUBLIC_URL, signInAs, testClock, type TestClock } from './org-app.ts';
import { testStateLocation } from './state.ts';

/** The page_key of the one tender the test release serves. */
export const TENDER_KEY = '0123456789abcdef0123456789abcdef';

/** The tender the test release serves: a Sydney buyer closing at 2 pm AEST on 2026-07-01. */
export const TENDER: TenderRow = {
  tender_key: TENDER_KEY,
  source: 'au_nsw_buy_nsw',
  source_tag: 'NSW',
  kind: 'tender',
  title: 'Road resurfacing panel 2026-2029',
  buyer: 'Transport for NSW',
  reference: 'TFNSW-2026-114',
  jurisdiction: 'AU-NSW',
  tier: 'state',
  summary: 'Asphalt resurfacing of state roads in the Hunter region.',
  category: null,
  category_name: null,
  trade: null,
  notice_type: null,
  published_date: '2026-06-01',
  closing_date: '2026-07-01',
  closing_at: '2026-07-01T04:00:00.000Z',
  value_text: null,
  url: 'https://buy.nsw.gov.au/notices/114',
  listing_url: null,
  first_seen: '2026-06-01T00:00:00.000Z',
  last_seen: '2026-06-09T00:00:00.000Z',
  dates_changed_at: null,
  stale: false,
  source_homepage: null,
};

export interface BidTestApp {
  app: OpenAPIHono;
  state: StateDb;
  dataDir: string;
  clock: TestClock;
  /** Creates an account (if new) and a session for `email`; returns the Cookie header that carries it. */
  signIn(email: string): Promise<string>;
  /** Adds the account of `email` (signed in before) to `orgId` with `role`. */
  join(orgId: string, email: string, role: 'owner' | 'admin' | 'member' | 'viewer'): Promise<void>;
  /** Where bid files are kept on disk. */
  bidFilesDir: string;
  /** Stops the analysis threads (a pool given in the options is left to its owner). */
  close(): Promise<void>;
}

/** The secret the test app signs file links with. */
export const LINK_SECRET = 'test-link-secret-0123456789abcdefghijklmnop';

export interface BidTestAppOptions {
  /** false: no release is loaded (creating a bid by page_key answers 503). Default: a release serving `TENDER`. */
  release?: boolean;
  /** The analysis threads; default one thread running the real `read_text` and `render_page`. */
  pool?: AnalysisPool;
  /** Told after each file's pages are stored. */
  onFileRead?: FileReadListener[];
}

/**
 * The organisation and bid sub-apps behind the caller middleware, as the real app mounts them, over a
 * temporary state store and data folder (removed when the test file finishes), a release serving one tender
 * and a pool thread reading and drawing uploaded files with the real analyses.
 */
export async function startBidApp(options: BidTestAppOptions = {}): Promise<BidTestApp> {
  const dataDir = await tempDir('bids-');
  const state = await openStateDb(await testStateLocation(dataDir));
  const clock = testClock('2026-06-10T02:00:00.000Z');
  const tenders = await TenderIndex.build([TENDER], []);
  const store = {
    state: () => (options.release === false ? { ready: false as const, detail: 'No release in this test.' } : { ready: true as const, release: { tenders } }),
    now: clock.now,
  } as unknown as Pick<ReleaseStore, 'state' | 'now'>;
  const errors = errorReplies({ log: () => {} });
  const app = new OpenAPIHono({ defaultHook: invalidInputHook() });
  app.notFound(errors.notFound);
  app.onError(errors.onError);
  app.use('*', caller({ state, now: clock.now }));
  const mailer = createMailer({ outboxDir: join(dataDir, 'outbox') });
  app.route('/', orgRoutes({ state, mailer, documentFiles: join(dataDir, 'state', 'documents'), publicUrl: PUBLIC_URL, now: clock.now, log: () => {} }));
  const bidFilesDir = join(dataDir, 'state', 'bid-files');
  const pool = options.pool ?? createAnalysisPool({ analyses: { read_text: checkerAnalyses['read_text']!, render_page: checkerAnalyses['render_page']! }, size: 1 });
  app.route('/', bidRoutes({
    state,
    store,
    files: new BidFileStore(bidFilesDir),
    pool,
    linkSecret: LINK_SECRET,
    publicUrl: PUBLIC_URL,
    now: clock.now,
    ...(options.onFileRead ? { onFileRead: options.onFileRead } : {}),
    log: () => {},
  }));
  return {
    bidFilesDir,
    async close() {
      if (options.pool === undefined) await pool.close();
      await state.close();
    },
    app,
    state,
    dataDir,
    clock,
    signIn: async (email) => await signInAs(state, clock.now(), email),
    async join(orgId, email, role) {
      await state.run(
        'INSERT INTO memberships (org_id, account_id, role, joined_at) SELECT ?, account_id, ?, ? FROM accounts WHERE email = ?',
        orgId,
        role,
        clock.now().toISOString(),
        email,
      );
    },
  };
}
