import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { dataDir as dataDirFrom, port as portFrom } from '../lib/config.ts';
import { createApp } from './app.ts';
import { ReleaseStore } from './release-store.ts';

export interface ServerOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  log?: (message: string) => void;
}

export interface RunningServer {
  url: string;
  store: ReleaseStore;
  /** Stops taking connections, lets requests in flight finish, then closes the release store. */
  close(): Promise<void>;
}

// Loopback only: a public deployment puts its own proxy in front.
const DEFAULT_HOST = '127.0.0.1';
// A request still running after this long is abandoned at shutdown.
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Opens the release store and serves the API over it. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? ((message: string) => console.log(message));
  const store = await ReleaseStore.open({ dataDir: options.dataDir, log });
  const app = createApp({ store });
  const host = options.host ?? DEFAULT_HOST;
  let server: Server;
  try {
    // serve() without createServer options builds a node:http server.
    server = await new Promise<Server>((resolveListening, reject) => {
      const listening = serve({ fetch: app.fetch, port: options.port, hostname: host }, () => resolveListening(listening as Server));
      listening.once('error', reject);
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    store,
    close: async () => {
      await new Promise<void>((resolveClosed) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_TIMEOUT_MS);
        force.unref();
        server.close(() => resolveClosed());
        server.closeIdleConnections();
      });
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
  const running = await startServer({ dataDir, port });
  console.log(`API listening on ${running.url} (data: ${dataDir})`);
  console.log(`  health:  ${running.url}/health`);
  console.log(`  search:  ${running.url}/v1/tenders?q=roads`);
  console.log(`  openapi: ${running.url}/openapi.json`);

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
