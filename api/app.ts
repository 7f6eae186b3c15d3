import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { withinPrefix, type FileStore } from '../lib/file-store/store.ts';
import { createMailer, type Mailer } from '../lib/mailer.ts';
import { createSafeFetcher, type SafeFetcher } from '../lib/safe-fetch.ts';
import { BID_FILES_PREFIX, BidFileStore } from './bids/file-store.ts';
import { requirementsOnFileRead } from './bids/requirements/store.ts';
import type { CheckerDeps, CheckerDescriptor } from './checkers/define-checker.ts';
import { analysesOf, checkers as serviceCheckers, publishedOrder } from './checkers/registry.ts';
import { servicesFromEnv, type Services } from './providers/index.ts';
import { createContentCache } from './checkers/_runner/content-cache.ts';
import { createAnalysisPool, type AnalysisPool, type AnalysisPoolOptions } from './checkers/_runner/pool.ts';
import { burstStep, createBurstBuckets, type BurstGuardOptions } from './middleware/burst-guard.ts';
import { cachedReads, ReadCache } from './middleware/cached-reads.ts';
import { clientErrors } from './middleware/client-errors.ts';
import { callerStep, defaultClientIp, SESSION_COOKIE } from './middleware/caller.ts';
import { errorReplies } from './middleware/errors.ts';
import { invalidInputHook } from './schemas/invalid-input.ts';
import { bodyLimit, wellFormedForm, wellFormedJson } from './middleware/body-limit.ts';
import { idempotency } from './middleware/idempotency.ts';
import { isMcpForward, keyScopeStep, type ForwardEnv } from './middleware/key-scope.ts';
import { rateHeaders } from './middleware/rate-headers.ts';
import { createSandbox, type Sandbox } from './middleware/sandbox.ts';
import { sameOrigin } from './middleware/same-origin.ts';
import { steps } from './middleware/steps.ts';
import type { ReleaseStore } from './release-store.ts';
import { connectorKeyAsAuthorization, mcpRoutes } from './mcp/server.ts';
import { mcpToolsOf } from './mcp/tools.ts';
import type { McpTool } from './schemas/mcp-tool.ts';
import { declareAccessReplies } from './openapi-access.ts';
import { awardRoutes } from './routes/awards.ts';
import { bidRequirementRoutes } from './routes/bid-requirements.ts';
import { bidRoutes } from './routes/bids.ts';
import { bidWorkspaceRoutes } from './routes/bid-workspace.ts';
import { bidRunRoutes } from './routes/bid-runs.ts';
import { JobWorker, type JobWorkerOptions } from './bids/jobs/worker.ts';
import { portalPackFetcher } from './bids/runs/portal-pack-fetcher.ts';
import { bidRunHandler, type PackFetcher } from './bids/runs/run-job.ts';
import { RUN_JOB_KIND } from './bids/runs/runs.ts';
import { storedRequirements } from './bids/workspace.ts';
import { DOCUMENTS_PREFIX, DocumentLibrary } from './orgs/documents.ts';
import { chatModelFromEnv, type ChatModel } from './providers/chat-model.ts';
import { checkoutProviderFromEnv, type CheckoutProvider } from './providers/stripe.ts';
import { bidSale } from './bids/checkout.ts';
import { bidCheckoutRoutes } from './routes/bid-checkout.ts';
import { bidPackFetchRoutes } from './routes/bid-pack-fetch.ts';
import { PACK_FETCH_JOB_KIND, PACK_FETCH_TIMEOUT_MS, type PackFetchDeps } from './bids/pack-fetch.ts';
import { packFetchHandler } from './bids/pack-fetch-job.ts';
import { accountRoutes } from './routes/account.ts';
import { checkerBodyLimits, checkerRoutes } from './routes/checkers.ts';
import { authRoutes } from './routes/auth.ts';
import { contactRoutes } from './routes/contact.ts';
import { discoveryRoutes } from './routes/discovery.ts';
import { healthRoutes } from './routes/health.ts';
import { keyRoutes } from './routes/keys.ts';
import { orgRoutes } from './routes/orgs.ts';
import { grantRoutes } from './routes/grants.ts';
import { intelligenceRoutes } from './routes/intelligence.ts';
import { signalRoutes } from './routes/signals.ts';
import { tenderContextRoutes } from './routes/tender-context.ts';
import { tenderMatchRoutes } from './routes/tender-match.ts';
import { tenderRoutes } from './routes/tenders.ts';
import { usageRoutes } from './routes/usage.ts';
import { watchRoutes } from './routes/watches.ts';
import { apiRouteMatcher, siteFiles } from './routes/site.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { createMeter, type Meter, type WeeklyCaps } from './usage/meter.ts';

export interface AppOptions {
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** Accounts, sessions, keys and usage. Default: a fresh in-memory store (tests that need no accounts). */
  state?: StateDb;
  /** Sends sign-in links and invitations. Default: `.eml` files in the system temp folder's `tender-intel-outbox/`. */
  mailer?: Mailer;
  /** The sandbox registry tools register their fixtures in (default: a new, empty one). */
  sandbox?: Sandbox;
  /** Where organisations' library files are kept (`<dataDir>/state/documents`) without a `fileStore`. Default: the system temp folder. */
  documentsDir?: string;
  /** Where bid files and their page renders are kept (`<dataDir>/state/bid-files`). Default: the system temp folder. */
  bidFilesDir?: string;
  /**
   * The file store shared by this service's instances (lib/file-store/, `SVC_FILE_STORE_URL`): bid files and their
   * renders go under its `bid-files/`, in place of `bidFilesDir`, and library documents under its `documents/`, in
   * place of `documentsDir`.
   */
  fileStore?: FileStore;
  /** Signs short-lived bid file links (api/bids/signed-links.ts `bidLinkSecret`). Default: a random secret for this process. */
  bidLinkSecret?: string;
  /** Where people and clients reach the service (`SVC_PUBLIC_URL`): sign-in links, connector URLs, the origin cookie writes must come from. */
  publicUrl?: string;
  /**
   * The burst guard's numbers; default the spec's (10 at once, 30 a minute). `false` turns it off, for
   * in-process tests that send many requests from the one "unknown" address.
   */
  burst?: BurstGuardOptions | false;
  /**
   * The weekly checker meter every metered route and the rate headers share. Default: the spec's caps (20
   * per anonymous IP, 100 per account) over `state`, on `now`.
   */
  meter?: Meter;
  /**
   * This process as the owner of the Idempotency-Key runs and usage units it holds (data/state/instances.ts
   * `registerInstance`), so the next start can release them should it die holding them. Default: unrecorded.
   */
  instanceId?: string;
  /** The weekly caps of the default meter (`SVC_WEEKLY_CAP_*`); unset ones keep the spec's 20 and 100. */
  caps?: Partial<WeeklyCaps>;
  /** The flat fee for preparing a bid, shown by GET /v1/pricing; absent while it is not on sale. */
  bidPrice?: { amount: number; currency: string } | undefined;
  /**
   * The payment provider bid checkouts go through (api/providers/stripe.ts); default the one `SVC_STRIPE_SECRET_KEY`,
   * `SVC_STRIPE_WEBHOOK_SECRET` and `SVC_STRIPE_API_BASE` configure, or none (null): then checkout answers 503.
   */
  payments?: CheckoutProvider | null;
  /** Read client addresses from X-Forwarded-For (only behind a proxy you run). */
  trustProxy?: boolean;
  /** The clock of sessions, sign-in links and the meter; the system clock by default (release clocks may be pinned). */
  now?: () => Date;
  /** Where unexpected exceptions are reported. */
  log?: (error: unknown, c: Context) => void;
  /** Where one-line notices go, such as a client that hung up mid-request (default stdout). */
  notice?: (line: string) => void;
  /** Reads company websites for POST /v1/tenders/match. Default: the SSRF-safe fetcher (lib/safe-fetch.ts) with its real guard. */
  fetchSite?: SafeFetcher;
  /**
   * The MCP tool registry (default: every tool of `api/mcp/tools.ts` and of the checkers), a hook that sees each forwarded tool
   * call, and where a tool reply that breaks its output schema is reported (default: stderr).
   */
  mcp?: { tools?: readonly McpTool[]; onForward?: (path: string, init: RequestInit) => void; log?: (error: unknown) => void };
  /**
   * The document checkers: the pool of analysis threads (default: threads over the real analyses, with
   * `poolLimits` or the pool's defaults), the fetcher of `{url}` documents (default: the SSRF-safe fetcher)
   * and the interval of streamed heartbeats.
   */
  checkers?: {
    /** The checkers (default: every `api/checkers/<name>/checker.ts`, api/checkers/registry.ts). */
    descriptors?: readonly CheckerDescriptor[];
    pool?: AnalysisPool;
    poolLimits?: Omit<AnalysisPoolOptions, 'analyses'>;
    fetchDocument?: SafeFetcher;
    heartbeatMs?: number;
    /** The outside clients of the checkers that judge against the outside world (default: `servicesFromEnv(process.env, …)`). */
    services?: Services;
  };
  /**
   * The tender-pack fetch (api/bids/pack-fetch.ts): its fetcher (default the SSRF-safe fetcher), and for tests the
   * address the portal is reached at and the spacing between requests (default the portal's own and its source's).
   */
  packFetch?: { fetch?: SafeFetcher; portalOrigin?: string; delayMs?: number };
  /** The language model bid drafts are worded by (default: the one `SVC_LLM_URL`, `SVC_LLM_MODEL` and `SVC_LLM_KEY` name, or none). */
  chatModel?: ChatModel;
  /**
   * The background job worker (api/bids/jobs/worker.ts): lease, jobs at once, back-off, its clock, and
   * whether it takes up jobs at start (default true; false leaves them to POST /v1/jobs/drain).
   */
  jobs?: Omit<JobWorkerOptions, 'state' | 'handlers' | 'now' | 'log'> & { start?: boolean };
  /** Fetches a tender's documents into a bid for runs (default: the tender-pack fetch of the supported portal, as the bid page queues it). */
  packFetcher?: PackFetcher;
  /** How long a reconnecting run-event stream waits (`retry:`) and how often it looks for another instance's events. */
  runEventStream?: { retryMs?: number; pollMs?: number };
  /** Serve the static site built into each release (`<dataDir>/releases/<id>/site/`) at `/`; off when absent. */
  site?: { dataDir: string };
}

/** The OpenAPI version of the interface (spec, Versioning), distinct from the package's engine version. */
export const API_VERSION = '0.6.0';

const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:8787';

/** The API as served by Node: the Hono app, and the lane that answers repeated anonymous reads before it. */
export interface Service {
  app: OpenAPIHono<ForwardEnv>;
  /** Answers a request from the read cache and returns true, or returns false for the app to answer it (cached-reads.ts). */
  answerCachedRead: (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<boolean>;
  /** `{detail}` replies with rate headers to requests Node refuses before the app sees them (client-errors.ts). */
  refusals: ReturnType<typeof clientErrors>;
  /** The document checkers' analysis threads; close it when the server stops. */
  analysisPool: AnalysisPool;
  /** The background job worker. */
  jobs: JobWorker;
  /** Ends open run-event streams and lets running jobs hand their leases back; call first when the server stops. */
  stopBackground(): Promise<void>;
}

/** The whole API as one Hono app (see `createService`); what tests and in-process callers use. */
export async function createApp(options: AppOptions): Promise<OpenAPIHono<ForwardEnv>> {
  return (await createService(options)).app;
}

/**
 * The whole API as one Hono app; `/openapi.json` is generated from the routes' zod schemas.
 * Middleware order: error handlers wrap everything; rate headers wrap every reply, errors included; the
 * caller is resolved; the burst guard applies to every caller; connector keys are confined to /mcp;
 * cookie-authenticated writes must come from our own origin; then the routes.
 */
export async function createService(options: AppOptions): Promise<Service> {
  const state = options.state ?? await openStateDb(':memory:');
  const mailer = options.mailer ?? createMailer({ outboxDir: join(tmpdir(), 'tender-intel-outbox') });
  const publicUrl = options.publicUrl ?? DEFAULT_PUBLIC_URL;
  const now = options.now ?? (() => new Date());
  const trustProxy = options.trustProxy ?? false;
  // A tool call the MCP server forwards in process carries its client's address in X-Forwarded-For; only
  // in-process forwards can be marked so, so the header is trusted there and nowhere else.
  const clientIp = (c: Context) => (isMcpForward(c) ? (c.req.header('x-forwarded-for') ?? 'unknown') : defaultClientIp(c, trustProxy));
  const owner = options.instanceId === undefined ? {} : { owner: options.instanceId };
  const meter = options.meter ?? createMeter({ state, now, ...owner, ...(options.caps ? { caps: options.caps } : {}) });
  const sandbox = options.sandbox ?? createSandbox();
  const checkers = options.checkers?.descriptors ?? serviceCheckers;

  const errors = errorReplies<ForwardEnv>({ ...(options.log ? { log: options.log } : {}), ...(options.notice ? { notice: options.notice } : {}) });
  const app = new OpenAPIHono<ForwardEnv>({ defaultHook: invalidInputHook<ForwardEnv>() });
  app.notFound(errors.notFound);
  app.onError(errors.onError);

  // The static site comes first so page views skip the API's caller, meter and burst guard; it passes on
  // every path an API route answers (the matcher is built once every route is registered, below).
  let isApiRoute: (method: string, path: string) => boolean = () => true;
  if (options.site) app.use('*', siteFiles({ store: options.store, dataDir: options.site.dataDir, isApiRoute: (method, path) => isApiRoute(method, path) }));

  const rate = rateHeaders({ meter, clientIp });
  const burst = options.burst !== false ? createBurstBuckets(options.burst ?? {}) : null;
  // One read cache for every cached read route: one memory budget, and the keys the Node-level lane looks up.
  const cache = new ReadCache({ clock: options.store.now });
  // A connector URL's token is its caller's key: presented as the Authorization header before the caller is resolved.
  app.use('/mcp/c/:token', connectorKeyAsAuthorization());
  // Who is calling, their rate headers (on every reply, errors included), the burst guard (every caller) and
  // connector keys confined to /mcp: checks that never wait, run as steps of one middleware (steps.ts says why).
  app.use('*', steps([
    callerStep({ state, now, clientIp }),
    rate.early,
    ...(burst ? [burstStep(burst)] : []),
    keyScopeStep(),
  ], { after: rate.fallback }));
  // Cookie writes from our own origin only; bodies bounded before anything reads them; idempotent replays
  // before any meter, so a replay is never counted twice. None of it concerns a read: registered for the
  // writing methods alone, a read never enters it.
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '*', sameOrigin({ publicUrl }), bodyLimit({ largerFor: checkerBodyLimits(checkers) }), wellFormedJson({ exceptPrefixes: ['/mcp'] }), wellFormedForm(), idempotency({ state, now, ...owner }));

  app.route('/', healthRoutes({ store: options.store }));
  const analysisPool = options.checkers?.pool ?? createAnalysisPool({ analyses: analysesOf(checkers), ...options.checkers?.poolLimits });
  const checkerDeps: CheckerDeps = {
    meter,
    pool: analysisPool,
    cache: createContentCache(state),
    fetchDocument: options.checkers?.fetchDocument ?? createSafeFetcher(),
    services: options.checkers?.services ?? servicesFromEnv(process.env, createSafeFetcher()),
    now,
    ...(options.checkers?.heartbeatMs === undefined ? {} : { heartbeatMs: options.checkers.heartbeatMs }),
    state,
    publicUrl,
    store: options.store,
  };
  app.route('/', checkerRoutes(publishedOrder(checkers, 'routes'), checkerDeps, sandbox));
  // Before the tender routes, whose /v1/tenders/{key} would otherwise take /v1/tenders/watch.
  app.route('/', watchRoutes({ state, store: options.store, now, ...(options.fetchSite ? { fetchSite: options.fetchSite } : {}) }));
  // Before the tender routes, whose release check would otherwise refuse a sandbox call while no release is loaded.
  app.route('/', tenderMatchRoutes({ store: options.store, meter, sandbox, ...(options.fetchSite ? { fetchSite: options.fetchSite } : {}) }));
  app.route('/', tenderContextRoutes({ store: options.store, cache }));
  app.route('/', tenderRoutes({ store: options.store, cache }));
  app.route('/', awardRoutes({ store: options.store, cache }));
  app.route('/', signalRoutes({ store: options.store, cache }));
  app.route('/', intelligenceRoutes({ store: options.store, cache }));
  app.route('/', grantRoutes({ store: options.store, cache }));
  app.route('/', authRoutes({ state, mailer, publicUrl, now, ...(options.log ? { log: options.log } : {}) }));
  app.route('/', accountRoutes({ state }));
  app.route('/', keyRoutes({ state, meter, publicUrl, now }));
  const sale = bidSale(options.bidPrice, options.payments === undefined ? checkoutProviderFromEnv(process.env).provider : options.payments);
  app.route('/', usageRoutes({ meter, sale }));
  const log = options.log ? { log: options.log } : {};
  const documentFiles = options.fileStore ? withinPrefix(options.fileStore, DOCUMENTS_PREFIX) : (options.documentsDir ?? join(tmpdir(), 'tender-intel-documents'));
  app.route('/', orgRoutes({ state, mailer, documentFiles, publicUrl, now, ...log }));
  app.route('/', contactRoutes({ state, now }));
  const bidFiles = new BidFileStore(options.fileStore ? withinPrefix(options.fileStore, BID_FILES_PREFIX) : (options.bidFilesDir ?? join(tmpdir(), 'tender-intel-bid-files')));
  const bidLinkSecret = options.bidLinkSecret ?? randomBytes(32).toString('base64url');
  const onFileRead = [requirementsOnFileRead(state, now)];
  app.route('/', bidRoutes({ state, store: options.store, files: bidFiles, pool: analysisPool, linkSecret: bidLinkSecret, publicUrl, now, sale, onFileRead, ...log }));
  const notice = options.notice ?? ((line: string) => console.log(line));
  const packFetch: PackFetchDeps = {
    state,
    store: options.store,
    intake: { state, files: bidFiles, pool: analysisPool, onFileRead, log: (error) => notice(`a file-read listener failed on a fetched tender pack: ${String(error)}`) },
    // The worker is made below, with this fetch's handler among its own; the fetch queues on it only once requests come.
    jobs: { enqueue: async (job) => await jobs.enqueue(job), kick: async () => await jobs.kick(), runAfterNow: () => jobs.runAfterNow() },
    fetch: options.packFetch?.fetch ?? createSafeFetcher({ timeoutMs: PACK_FETCH_TIMEOUT_MS }),
    ...(options.packFetch?.portalOrigin ? { portalOrigin: options.packFetch.portalOrigin } : {}),
    ...(options.packFetch?.delayMs === undefined ? {} : { delayMs: options.packFetch.delayMs }),
    now,
    log: notice,
  };
  app.route('/', bidPackFetchRoutes(packFetch));
  app.route('/', bidRequirementRoutes({ state, now }));
  const packFetcher = options.packFetcher ?? portalPackFetcher(packFetch);
  const workspace = { state, library: new DocumentLibrary(state, documentFiles), pool: analysisPool, model: options.chatModel ?? chatModelFromEnv(process.env), requirements: storedRequirements };
  app.route('/', bidCheckoutRoutes({ state, sale, publicUrl, now, ...(options.notice ? { log: options.notice } : {}) }));
  app.route('/', bidWorkspaceRoutes({ ...workspace, store: options.store, now }));
  const jobs = new JobWorker({
    ...options.jobs,
    state,
    now,
    handlers: { [RUN_JOB_KIND]: bidRunHandler({ ...workspace, mailer, now, today: () => options.store.now(), packFetcher }), [PACK_FETCH_JOB_KIND]: packFetchHandler(packFetch) },
    ...(options.notice ? { log: options.notice } : {}),
  });
  const stopping = new AbortController();
  app.route('/', bidRunRoutes({
    state,
    worker: jobs,
    model: workspace.model,
    bidPrice: options.bidPrice,
    now,
    stream: { ...options.runEventStream, signal: stopping.signal },
  }));

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key beginning `svc_`. Without one, calls are anonymous (never 401 on reads); an invalid, revoked or disabled key is 401.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'A signed-in session (POST /v1/auth/login). Changes made with it must come from the service\'s own origin.',
  });
  const openApiConfig = {
    openapi: '3.1.0',
    info: {
      title: 'Tender intelligence API',
      version: API_VERSION,
      description:
        `${packageJson.description}. Every response carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset: ` +
        'the caller\'s weekly allowance of metered calls, what is left and the seconds until it resets. Every error is `{detail}`.',
    },
  };
  // Agent surfaces are generated from the route and tool registries: MCP tools forward to their REST routes
  // in process (metered, validated and shaped exactly alike), and the discovery documents list both.
  // The access steps' replies (401, 429, rate headers) are declared on every route of the generated document.
  const openApiDocument = () => declareAccessReplies(app.getOpenAPI31Document(openApiConfig));
  const tools = options.mcp?.tools ?? mcpToolsOf(publishedOrder(checkers, 'tools'));
  const forward = (path: string, init: RequestInit) => {
    options.mcp?.onForward?.(path, init);
    return app.request(path, init, { mcpForward: true });
  };
  app.route('/', mcpRoutes({ forward, tools, openApiDocument, burst, ...(options.mcp?.log ? { log: options.mcp.log } : {}) }));
  app.route('/', discoveryRoutes({
    openApiDocument,
    tools,
    caps: meter.caps,
    publicUrl,
    sandboxFixtures: () => sandbox.fixtures(),
    checkerNotes: publishedOrder(checkers, 'notes').flatMap((checker) => checker.agentNote ?? []),
  }));
  app.get('/openapi.json', (c) => c.json(openApiDocument()));
  isApiRoute = apiRouteMatcher(app.routes);
  // Jobs a stopped instance left (their leases expired) and queued ones start now; later expiries wake the worker.
  if (options.jobs?.start !== false) await jobs.start();
  return {
    jobs,
    async stopBackground() {
      stopping.abort();
      await jobs.close();
    },
    app,
    answerCachedRead: cachedReads({ cache, state, now, store: options.store, meter, burst, trustProxy }),
    refusals: clientErrors({ meter, trustProxy }),
    analysisPool,
  };
}
