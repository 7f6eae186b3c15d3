import { serve } from '@hono/node-server';
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.ts';
import { mcpTools } from '../../api/mcp/tools.ts';
import type { McpTool } from '../../api/schemas/mcp-tool.ts';
import { ReleaseStore } from '../../api/release-store.ts';
import { type StateDb } from '../../data/state/db.ts';
import { seedIntelRelease, type IntelStoreSeed } from './intel-seed.ts';
import { makeDataDir, seedRelease, type SourceSeed, type TenderSeed } from './seed-release.ts';
import { openTestState } from './state.ts';

type App = Awaited<ReturnType<typeof createApp>>;

/** The address the discovery documents are told clients use; distinct from the test server's own. */
export const PUBLIC_URL = 'https://tenders.example';

export interface AgentAppOptions {
  tenders: TenderSeed[];
  sources: SourceSeed[];
  /** The service clock, pinned so `open` and the strip do not drift. */
  now: Date;
  /** Awards, plans, buyers and register rows, with the intelligence models run at `now`; default none. */
  intelligence?: Omit<IntelStoreSeed, 'tenders'>;
  /** Default: the real registry. */
  tools?: readonly McpTool[];
  /** Registers extra routes on the app before the agent surfaces are mounted. */
  extend?: (app: App) => void;
  log?: (error: unknown) => void;
}

/** One in-process request the MCP server sent to a route. */
export interface ForwardedRequest {
  path: string;
  headers: Headers;
}

export interface AgentApp {
  /** The real HTTP server's address. */
  url: string;
  app: App;
  state: StateDb;
  /** Every request the MCP server forwarded, in order. */
  forwarded: ForwardedRequest[];
  close(): Promise<void>;
}

/**
 * The full app over a seeded release, with the MCP server and discovery routes mounted the way the app
 * mounts them, served over real HTTP on 127.0.0.1 at a random port.
 */
export async function startAgentApp(options: AgentAppOptions): Promise<AgentApp> {
  const dataDir = await makeDataDir();
  if (options.intelligence) {
    await seedIntelRelease({ dataDir, tenders: options.tenders, sources: options.sources, computedAt: options.now.toISOString(), ...options.intelligence });
  } else {
    await seedRelease({ dataDir, tenders: options.tenders, sources: options.sources });
  }
  const store = await ReleaseStore.open({ dataDir, now: () => options.now, log: () => {} });
  const state = await openTestState();
  const forwarded: ForwardedRequest[] = [];
  // The burst guard is off: every test here calls from the one loopback address.
  const app = await createApp({
    store,
    state,
    burst: false,
    publicUrl: PUBLIC_URL,
    mcp: {
      tools: options.tools ?? mcpTools,
      onForward: (path, init) => forwarded.push({ path, headers: new Headers(init.headers) }),
      ...(options.log ? { log: options.log } : {}),
    },
  });
  options.extend?.(app);

  const server = await new Promise<Server>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    listening.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    state,
    forwarded,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
      await state.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once GET /v1/awards answers 200: the award list answers 503 until the release's award index is read, in the background. */
export async function awardIndexReady(agent: AgentApp): Promise<void> {
  for (let tries = 0; (await fetch(new URL('/v1/awards', agent.url))).status !== 200; tries += 1) {
    if (tries >= 100) throw new Error('the award index was never ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
