import { getRequestListener } from '@hono/node-server';
import type { Context } from 'hono';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { analysisPoolLimits, bidPrice, burstLimits, configuredPublicUrl, databaseUrl, dataDir as dataDirFrom, duckdbMemoryLimit, fileStoreUrl, jobLimits, packPortalTestOrigin, port as portFrom, trustProxy, weeklyCaps } from '../lib/config.ts';
import { openFileStore } from '../lib/file-store/open.ts';
import type { FileStore } from '../lib/file-store/store.ts';
import { createMailer } from '../lib/mailer.ts';
import { restrictTreeSync } from '../lib/private-files.ts';
import { createSafeFetcher } from '../lib/safe-fetch.ts';
import { createService } from './app.ts';
import { PACK_FETCH_TIMEOUT_MS } from './bids/pack-fetch.ts';
import { bidLinkSecret, sharedBidLinkSecret } from './bids/signed-links.ts';
import type { BurstGuardOptions } from './middleware/burst-guard.ts';
import type { WeeklyCaps } from './usage/meter.ts';
import { ReleaseStore } from './release-store.ts';
import { openStateDb, StateUnavailableError, type StateDb } from '../data/state/db.ts';
import { registerInstance, releaseGoneOwners, retireInstance, type Instance } from '../data/state/instances.ts';

export interface ServerOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Where the server's lines go, notices included (default stdout). */
  log?: (message: string) => void;
  /** Where unexpected exceptions in requests are reported (default stderr, with the stack). */
  logError?: (error: unknown, c: Context) => void;
  /** Where people reach the service; default the address it listens on. */
  publicUrl?: string | undefined;
  /** SMTP server for sign-in mail; without it, mail is written to `<dataDir>/outbox/`. */
  smtpUrl?: string | undefined;
  /** The burst guard's numbers; default the spec's. */
  burst?: BurstGuardOptions;
  /** Weekly checker caps; unset ones keep the spec's. */
  caps?: Partial<WeeklyCaps>;
  bidPrice?: { amount: number; currency: string } | undefined;
  trustProxy?: boolean;
  /** The document analysis pool's size, queue, time and memory limits; unset ones keep the pool's defaults. */
  analysisPool?: { size?: number; queueLimit?: number; timeoutMs?: number; memoryMb?: number };
  /** The background job worker's lease, jobs at once and first back-off; unset ones keep the worker's defaults. */
  jobs?: { leaseMs?: number; concurrency?: number; retryBaseMs?: number };
  /** `SVC_FILE_STORE_URL`: the S3-compatible store bid files go to; unset keeps them in `<dataDir>/state/`. */
  fileStoreUrl?: string | undefined;
  /** `DATABASE_URL`: the PostgreSQL the state store is on; unset keeps it in `<dataDir>/state/state.sqlite`. */
  databaseUrl?: string | undefined;
  /** `SVC_TEST_PACK_PORTAL_ORIGIN`, tests only: the loopback stand-in of the tender-pack portal, the one address its fetches may reach. */
  packPortal?: { origin: string; address: string } | undefined;
}

export interface RunningServer {
  url: string;
  store: ReleaseStore;
  state: StateDb;
  /** Where sign-in mail goes: the SMTP server or the outbox folder. */
  mailDescription: string;
  /** Stops taking connections, lets requests in flight finish, then closes the release and state stores. */
  close(): Promise<void>;
}

// Loopback only: a public deployment puts its own proxy in front.
const DEFAULT_HOST = '127.0.0.1';
// A request still running after this long is abandoned at shutdown.
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Opens the release store, the state store and the mailer, and serves the API over them. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? ((message: string) => console.log(message));
  const memoryLimit = duckdbMemoryLimit();
  const store = await ReleaseStore.open({ dataDir: options.dataDir, log, ...(memoryLimit ? { duckdbMemoryLimit: memoryLimit } : {}) });
  const host = options.host ?? DEFAULT_HOST;
  let state: StateDb;
  let linkSecret: string;
  let instance: Instance;
  let fileStore: FileStore;
  try {
    // What an earlier version stored readable by everyone (accounts, bid files, library documents, sign-in mail) is
    // made its owner's alone before anything is served.
    const mended = [join(options.dataDir, 'state'), join(options.dataDir, 'outbox')].reduce((count, dir) => count + restrictTreeSync(dir), 0);
    if (mended > 0) log(`made ${mended} stored folder(s) and file(s) readable by this account only (0700/0600)`);
    // The folder store keeps today's paths: <dataDir>/state/bid-files/… and <dataDir>/state/documents/…
    fileStore = await openFileStore({ url: options.fileStoreUrl, folder: join(options.dataDir, 'state') });
    state = await openStateDb(options.databaseUrl ?? options.dataDir);
    // Instances sharing a PostgreSQL share its secret too; one machine keeps it in its data folder.
    linkSecret = options.databaseUrl === undefined ? bidLinkSecret(join(options.dataDir, 'state')) : await sharedBidLinkSecret(state, join(options.dataDir, 'state'));
    instance = await registerInstance(state, new Date());
    // Keys and units a killed process still held are released now, so a retry neither waits for a lease nor is short a unit.
    const released = await releaseGoneOwners(state, instance);
    if (released.idempotencyKeys + released.reservations > 0) {
      log(`released what ${released.instances} stopped process(es) held: ${released.idempotencyKeys} Idempotency-Key run(s), ${released.reservations} usage unit(s)`);
    }
  } catch (error) {
    await store.close();
    throw error;
  }
  // The missing Host header is answered by the service's own refusals, as JSON with rate headers.
  const server: Server = createServer({ requireHostHeader: false });
  try {
    // Listening comes first so the default public URL can name the port the system picked.
    await new Promise<void>((resolveListening, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolveListening();
      });
    });
  } catch (error) {
    await state.close();
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  const mailer = createMailer({ smtpUrl: options.smtpUrl, outboxDir: join(options.dataDir, 'outbox') });
  const { app, answerCachedRead, refusals, analysisPool, stopBackground } = await createService({
    store,
    state,
    mailer,
    notice: log,
    ...(options.logError ? { log: options.logError } : {}),
    fileStore,
    bidLinkSecret: linkSecret,
    publicUrl: options.publicUrl ?? url,
    instanceId: instance.id,
    bidPrice: options.bidPrice,
    trustProxy: options.trustProxy ?? false,
    site: { dataDir: options.dataDir },
    ...(options.burst ? { burst: options.burst } : {}),
    ...(options.caps ? { caps: options.caps } : {}),
    ...(options.analysisPool ? { checkers: { poolLimits: options.analysisPool } } : {}),
    ...(options.jobs ? { jobs: options.jobs } : {}),
    ...(options.packPortal
      ? { packFetch: { portalOrigin: options.packPortal.origin, fetch: createSafeFetcher({ timeoutMs: PACK_FETCH_TIMEOUT_MS, testOnlyPermittedAddresses: [options.packPortal.address] }) } }
      : {}),
  });
  // Everything since the listening callback ran before the event loop could read a connection: no request is missed.
  const answerWithApp = getRequestListener(app.fetch, { hostname: host });
  server.on('clientError', refusals.onClientError);
  server.on('request', async (incoming, outgoing) => {
    if (await refusals.answerMissingHost(incoming, outgoing)) return;
    let answered = false;
    try {
      answered = await answerCachedRead(incoming, outgoing);
    } catch (error) {
      // Nothing was written yet: the app answers the request the whole way.
      log(`cached read failed, answered by the app instead: ${String(error)}`);
    }
    if (!answered) void answerWithApp(incoming, outgoing);
  });
  return {
    url,
    store,
    state,
    mailDescription: mailer.description,
    close: async () => {
      // Run-event streams end (clients reconnect elsewhere) and jobs hand their leases back at their next step.
      await stopBackground();
      await new Promise<void>((resolveClosed) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_TIMEOUT_MS);
        force.unref();
        server.close(() => resolveClosed());
        server.closeIdleConnections();
      });
      await analysisPool.close();
      try {
        await retireInstance(state, instance);
      } catch (error) {
        // A store that cannot be written now: the next start finds this process gone and releases what it held.
        if (!(error instanceof StateUnavailableError)) throw error;
      }
      await state.close();
      fileStore.close();
      await store.close();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'data-dir': { type: 'string' }, port: { type: 'string' } },
    strict: true,
  });
  const dataDir = dataDirFrom(values['data-dir']);
  const port = portFrom(values.port);
  const packPortal = packPortalTestOrigin();
  const running = await startServer({
    dataDir,
    port,
    publicUrl: configuredPublicUrl(),
    smtpUrl: process.env.SMTP_URL || undefined,
    burst: burstLimits(),
    caps: weeklyCaps(),
    bidPrice: bidPrice(),
    trustProxy: trustProxy(),
    analysisPool: analysisPoolLimits(),
    jobs: jobLimits(),
    fileStoreUrl: fileStoreUrl(),
    databaseUrl: databaseUrl(),
    packPortal,
  });
  console.log(`API listening on ${running.url} (data: ${dataDir})`);
  console.log(`  mail:    sign-in links go to ${running.mailDescription}`);
  console.log(`  health:  ${running.url}/health`);
  console.log(`  search:  ${running.url}/v1/tenders?q=roads`);
  console.log(`  openapi: ${running.url}/openapi.json`);
  if (packPortal) console.log(`  tests:   tender-pack fetches go to ${packPortal.origin} (SVC_TEST_PACK_PORTAL_ORIGIN), not the portal`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight, then stopping`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (import.meta.main) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
