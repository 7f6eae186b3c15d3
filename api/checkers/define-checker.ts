import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { StateDb } from '../../data/state/db.ts';
import type { SafeFetcher } from '../../lib/safe-fetch.ts';
import type { ContentCache } from './_runner/content-cache.ts';
import type { DocumentFormat } from '../documents/sniff.ts';
import type { Intake } from './_runner/intake.ts';
import type { AnalysisLocation, AnalysisPool } from './_runner/pool.ts';
import type { CallerEnv } from '../accounts/caller.ts';
import type { SandboxEnv } from '../schemas/common.ts';
import type { Services } from '../providers/index.ts';
import type { ReleaseStore } from '../release-store.ts';
import type { Meter } from '../usage/meter.ts';
import type { RouteMethod, RouteRequest } from '../schemas/mcp-tool.ts';

/**
 * The contract of a checker (DESIGN §10): one descriptor per checker, `api/checkers/<name>/checker.ts`
 * declaring it with `defineChecker`, the way `sources/<id>.ts` declares a source with `defineSource`. The
 * registry (registry.ts) loads the descriptors; api/routes/checkers.ts mounts every checker's POST from
 * them; the body limits, the MCP tools, the OpenAPI operations and the discovery documents read them.
 */

/** The OpenAPI tag of every checker route, and how the discovery documents find them. */
export const CHECKER_TAG = 'Document checkers';

/**
 * What every checker is built over: the app's meter, analysis pool, caches, stores and clients. The sandbox is
 * not among them: api/routes/checkers.ts registers each descriptor's `sandbox` reply and mounts its middleware.
 */
export interface CheckerDeps {
  meter: Meter;
  /** The analysis processes (api/checkers/_runner/pool.ts). */
  pool: AnalysisPool;
  /** Results by content hash (api/checkers/_runner/content-cache.ts). */
  cache: ContentCache;
  /** Reads `{url}` documents: the SSRF-safe fetcher. */
  fetchDocument: SafeFetcher;
  /** Outside clients (api/providers/) for the checkers that judge against the outside world. */
  services: Services;
  /** The service clock: the analyses' `now`. */
  now: () => Date;
  /** Milliseconds between streamed heartbeats (default 5 s). */
  heartbeatMs?: number;
  /** The state store, where checkers that keep results under an id (warrants, fact-checks) keep them. */
  state: StateDb;
  /** Where permalinks point: the service's public origin. */
  publicUrl: string;
  /** The release being served: its sanctions lists and registers. */
  store: Pick<ReleaseStore, 'state' | 'now'>;
}

/**
 * How a checker runs. `pool`: on untrusted bytes, in the pool's analysis processes (the module and export of
 * its `Analysis`). `judge`: the bytes are read to text in the pool, then judged in the main thread with the
 * outside clients (`stored`: the judge asks no outside service, so its replies are kept in the content
 * cache). `direct`: answered in the main thread, no document read; `countIf` says which replies count.
 */
export type CheckerLane =
  | { kind: 'pool'; analysis: AnalysisLocation }
  | { kind: 'judge'; stored: boolean }
  | { kind: 'direct'; countIf: (response: Response) => boolean | Promise<boolean> };

/** What a checker takes: its requests named as a plural subject ("warrants"), formats, documents per request, `{url}`, `text`. */
export interface CheckerIntake {
  subject: string;
  accepts: readonly DocumentFormat[];
  maxDocuments: number;
  /** Whether `{url}` documents are read (through the SSRF-safe fetcher), or answered 501. */
  url: 'fetch' | 'unavailable';
  /** Whether a JSON body's `text` field is a document (api/checkers/_runner/intake.ts `IntakeRules.textField`). */
  textField?: boolean;
}

/** An OpenAPI reply (`{description, content}`), as `errorReply` makes one. */
export interface DeclaredReply {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/** The checker's POST as /openapi.json declares it. */
export interface CheckerRoute<Query extends z.ZodType, Json extends z.ZodType, Form extends z.ZodType> {
  summary: string;
  description: string;
  query?: Query;
  body: { required: boolean; json: Json; form?: Form };
  /** The 200 reply: the result's schema and a sentence (with `?stream=1` its events, except on the direct lane). */
  reply: { schema: z.ZodType; description: string };
  /** Error replies besides the shared checker errors (`schemas/checkers.ts`), or on the direct lane instead of them. */
  errors?: Record<number, DeclaredReply>;
  /**
   * The one media type a direct checker's body may come in: another is answered 415 naming it, after the sandbox
   * and before the meter (api/routes/checkers.ts mounts the check). The other lanes' intake reads the body itself.
   */
  mediaType?: 'json' | 'multipart';
}

/**
 * An MCP tool over one of the checker's routes (api/mcp/tools.ts `McpTool`, without the request builder
 * when the route's own is right).
 */
export interface CheckerTool {
  name: string;
  title: string;
  description: string;
  route: { method: RouteMethod; path: string };
  input: z.ZodType;
  output: z.ZodType;
  metered?: boolean;
  toRequest?(input: Record<string, unknown>): RouteRequest;
}

/**
 * The checker's own MCP tool (its name is the descriptor's `tool`, its route the POST). `request`:
 * `document` sends `fresh` in the query and the rest as the JSON body, never streaming; a function builds
 * the request itself; absent, the arguments are the JSON body.
 */
export interface CheckerMcp {
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  request?: 'document' | ((input: Record<string, unknown>) => RouteRequest);
}

/** A request to the checker's POST, validated against its route. */
export interface CheckerCall<Query, Json, Form> {
  c: Context<CallerEnv & SandboxEnv>;
  query: Query;
  /** The JSON body, when the request sent one. */
  json: Json | undefined;
  /** The multipart body, when the request sent one. */
  form: Form | undefined;
  /** Reads the request's documents by the checker's intake (throws the 400, 413, 501 and 502 replies). */
  documents(): Promise<Intake>;
}

export interface CheckerDescriptor<Query extends z.ZodType = z.ZodType, Json extends z.ZodType = z.ZodType, Form extends z.ZodType = z.ZodType> {
  /** The folder's name: `api/checkers/<name>/checker.ts`. */
  name: string;
  /** The MCP tool's name, the sandbox fixture's, and for the pool lane the analysis's. */
  tool: string;
  /** The POST's path. */
  path: string;
  lane: CheckerLane;
  /** Absent for a checker that reads no document. */
  intake?: CheckerIntake;
  route: CheckerRoute<Query, Json, Form>;
  mcp: CheckerMcp;
  /** The fixed reply `Svc-Sandbox: true` gets, and a sentence saying what it shows. */
  sandbox: { summary: string; reply(deps: CheckerDeps): Record<string, unknown> };
  /** A sentence for /agents.md and /llms.txt on how this checker differs from the rest, when it does. */
  agentNote?: string;
  /** The checker's other routes (stored results, feedback) and their MCP tools. */
  companions?: { routes?(deps: CheckerDeps): OpenAPIHono<CallerEnv & SandboxEnv>; tools?: readonly CheckerTool[] };
  /** Builds the POST's handler once per app (its stores, its readers), over the app's deps. */
  handler(deps: CheckerDeps): (call: CheckerCall<z.output<Query>, z.output<Json>, z.output<Form>>) => Promise<Response>;
}

/** Declares a checker; the registry checks that `name` is its folder's. */
export function defineChecker<Query extends z.ZodType, Json extends z.ZodType, Form extends z.ZodType = z.ZodNever>(
  descriptor: CheckerDescriptor<Query, Json, Form>,
): CheckerDescriptor {
  return descriptor as unknown as CheckerDescriptor;
}

/** What every sandbox reply's `limitations` opens with (each checker's sandbox.ts adds what a real reply would do). */
export const SANDBOX_LIMITATIONS = 'Sandbox reply: an invented result showing the shape of a real one. No document was read.';
