import { OpenAPIHono, createRoute, type RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { StateDb } from '../../data/state/db.ts';
import { timeZoneOf } from '../../lib/jurisdictions.ts';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, requireBidAccount, writeRefusal, type BidEnv } from '../bids/access.ts';
import { bidView, companyNames, createBid, listBids, memberIdByEmail, updateBid, type BidTender } from '../bids/bids.ts';
import { bidChat } from '../bids/chat.ts';
import type { BidFileStore } from '../bids/file-store.ts';
import { bidSale, type BidSale } from '../bids/checkout.ts';
import { bidOverview, OverviewSchema } from '../bids/overview.ts';
import { BidListQuery, BidListSchema, BidParams, BidReadQuery, BidSchema, ChatSchema, CreateBidBody, PatchBidBody, ThreadMessageSchema, ThreadPostBody, ThreadSchema } from '../bids/schemas.ts';
import { storedRequirements } from '../bids/workspace.ts';
import { transitionProblem } from '../bids/stages.ts';
import { postMessage, threadOf } from '../bids/thread.ts';
import type { AnalysisPool } from '../checkers/_runner/pool.ts';
import { membershipOf, orgsOf } from '../orgs/orgs.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { may } from '../orgs/roles.ts';
import type { ReleaseStore } from '../release-store.ts';
import { bidFileRoutes, type FileReadListener } from './bid-files.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface BidRoutesOptions {
  state: StateDb;
  /** The served release: a bid created for a tender takes its title, buyer, closing date and time zone from it. */
  store: Pick<ReleaseStore, 'state' | 'now'>;
  /** Where bid files and their page renders are kept on disk (`<dataDir>/state/bid-files`). */
  files: BidFileStore;
  /** The analysis threads uploaded files are read and drawn in (api/checkers/_runner/pool.ts). */
  pool: AnalysisPool;
  /** Signs the short-lived file links: `SVC_BID_LINK_SECRET`, or the one kept in the state folder (api/bids/signed-links.ts). */
  linkSecret: string;
  /** The service's public base address, which file and page links start with. */
  publicUrl: string;
  /** Whether bid preparation can be bought here (the overview's payment part); default not on sale. */
  sale?: BidSale;
  /** Told after a file's pages are stored, before its upload is answered (api/bids/README.md). */
  onFileRead?: readonly FileReadListener[];
  now?: () => Date;
  /** Where a failing file-read listener is reported. */
  log?: (error: unknown, c: Context) => void;
}

const ORG_NOT_VISIBLE = 'No organisation with this id is visible to you: check the id (GET /v1/orgs lists yours), or ask one of its owners or admins to invite you.';

const noAccount = errorReply(NO_ACCOUNT_REPLY);
const bidNotVisible = errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.');
const wrongMediaType = errorReply('The body is not in the media type this route reads.');
const tags = ['Bids'];
const accountCallers = BID_SECURITY;

const createBidRoute = createRoute({
  method: 'post',
  path: '/v1/bids',
  tags,
  security: accountCallers,
  summary: 'Create a bid',
  description:
    'For a tender of the corpus (`page_key`: its title, buyer, closing date and the buyer\'s time zone are recorded) or a free `title`. ' +
    'Starts in the stage `qualifying`, owned by its creator. Owners, admins and members may create bids.',
  middleware: [bodyMediaType('json')] as const,
  request: { body: { required: true, content: json(CreateBidBody) } },
  responses: {
    201: { description: 'The new bid.', content: json(BidSchema) },
    400: errorReply('An unknown field, neither page_key nor title, or an invalid value; `detail` names the field.'),
    401: noAccount,
    403: errorReply("The caller's role in the organisation may not create bids."),
    404: errorReply('The organisation is not visible to the caller, or no tender of the served release has this page_key.'),
    415: wrongMediaType,
    503: errorReply('A page_key was given while no release is loaded; retry shortly, or create the bid with a title.'),
  },
});

const listBidsRoute = createRoute({
  method: 'get',
  path: '/v1/bids',
  tags,
  security: accountCallers,
  summary: 'Bids of your organisations',
  request: { query: BidListQuery },
  responses: {
    200: { description: 'Bids of every organisation the caller belongs to (or of `org_id`), newest first.', content: json(BidListSchema) },
    401: noAccount,
    404: errorReply('`org_id` names an organisation not visible to the caller.'),
  },
});

const readBidRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}',
  tags,
  security: accountCallers,
  summary: 'One bid',
  description:
    'With `include=overview`, also everything the bid page shows in one read (`overview`): the caller\'s role, files, requirements, drafts, ' +
    'gaps with partners, plan, thread, the worth-bidding card and the payment state, each as its own route answers it.',
  request: { params: BidParams, query: BidReadQuery },
  responses: {
    200: { description: 'The bid, with the stages it may move to next (and its overview when asked).', content: json(BidSchema.extend({ overview: OverviewSchema.optional() })) },
    401: noAccount,
    404: bidNotVisible,
  },
});

const patchBidRoute = createRoute({
  method: 'patch',
  path: '/v1/bids/{bid}',
  tags,
  security: accountCallers,
  summary: 'Change a bid',
  description: 'Any of stage, goal, owner (a member\'s email address) and due_date; null clears one. A stage must be one of `next_stages`. Owners, admins and members may change bids.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: BidParams, body: { required: true, content: json(PatchBidBody) } },
  responses: {
    200: { description: 'The bid after the change.', content: json(BidSchema) },
    400: errorReply('An unknown field, an unknown stage, an owner who is not a member, or another invalid value; `detail` names it.'),
    401: noAccount,
    403: errorReply("The caller's role may not change bids (viewers read only)."),
    404: bidNotVisible,
    409: errorReply('The bid may not move to that stage from its current one; `detail` says which moves are allowed.'),
    415: wrongMediaType,
  },
});

const threadRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/thread',
  tags,
  security: accountCallers,
  summary: "The bid's thread",
  request: { params: BidParams },
  responses: {
    200: { description: 'Every message, oldest first, with its author and time.', content: json(ThreadSchema) },
    401: noAccount,
    404: bidNotVisible,
  },
});

const postThreadRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/thread',
  tags,
  security: accountCallers,
  summary: "Post to the bid's thread",
  description: 'Owners, admins and members may post.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: BidParams, body: { required: true, content: json(ThreadPostBody) } },
  responses: {
    201: { description: 'The message as stored.', content: json(ThreadMessageSchema) },
    400: errorReply('An empty or over-long message, or an unknown field.'),
    401: noAccount,
    403: errorReply("The caller's role may not change bids (viewers read only)."),
    404: bidNotVisible,
    415: wrongMediaType,
  },
});

const chatRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/chat',
  tags,
  security: accountCallers,
  summary: 'Where the bid stands',
  description: 'Stage, goal, the background jobs not yet finished (state, step, progress), what the run is doing or how the last one ended, and a recap built from the bid\'s files, dates, work and thread.',
  request: { params: BidParams },
  responses: {
    200: { description: 'The bid at a glance.', content: json(ChatSchema) },
    401: noAccount,
    404: bidNotVisible,
  },
});

/**
 * The bid routes of bids-core (spec, Bids): create, list, read and change bids, their files
 * (api/routes/bid-files.ts), thread and chat. Every route but the signed file link needs a signed-in session
 * or an account's API key and opens its bid through the bid door (`bidDoor`, api/bids/access.ts). Mount it after the caller middleware.
 *
 * @example
 * app.route('/', bidRoutes({ state, store, files: new BidFileStore(join(dataDir, 'state', 'bid-files')), pool, linkSecret, publicUrl }));
 */
export function bidRoutes(options: BidRoutesOptions): OpenAPIHono<BidEnv> {
  const { state, store } = options;
  const now = options.now ?? (() => new Date());
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  // Before the validators, so a caller without an account learns nothing about the inputs.
  app.use('/v1/bids/*', requireBidAccount);

  app.openapi(createBidRoute, createBidHandler(state, store, now));

  app.openapi(listBidsRoute, async (c) => {
    const accountId = c.get('accountId');
    const orgId = c.req.valid('query').org_id ?? null;
    if (orgId !== null && !await membershipOf(state, orgId, accountId)) return c.json({ detail: ORG_NOT_VISIBLE }, 404);
    const names = companyNames(await orgsOf(state, accountId));
    return c.json({ bids: await Promise.all((await listBids(state, accountId, orgId)).map(async (bid) => await bidView(state, bid, names.get(bid.org_id)!))) }, 200);
  });

  const sale = options.sale ?? bidSale(undefined, null);
  const door = bidDoor(app, state);
  door.read(readBidRoute, async (c) => {
    const { bid, membership } = c.var;
    const view = await bidView(state, bid, membership.company_name);
    if (c.req.valid('query').include !== 'overview') return c.json(view, 200);
    return c.json({ ...view, overview: await bidOverview({ state, store, requirements: storedRequirements, sale, now }, bid, membership) }, 200);
  });

  door.write(patchBidRoute, async (c) => {
    const { bid, membership } = c.var;
    const { owner, stage, goal, due_date: dueDate } = c.req.valid('json');
    if (stage !== undefined) {
      const problem = transitionProblem(bid.stage, stage);
      if (problem !== null) return c.json({ detail: problem }, 409);
    }
    let ownerId: string | null | undefined;
    if (owner !== undefined) {
      ownerId = owner === null ? null : await memberIdByEmail(state, bid.org_id, owner);
      if (ownerId === null && owner !== null) {
        return c.json({ detail: `owner: ${owner} is not a member of ${membership.company_name}; GET /v1/orgs/${bid.org_id}/members lists who is.` }, 400);
      }
    }
    const changed = await updateBid(state, bid, { stage, goal, ownerId, dueDate }, now());
    return c.json(await bidView(state, changed, membership.company_name), 200);
  });

  door.read(threadRoute, async (c) => c.json({ messages: await threadOf(state, c.var.bid.bid_id) }, 200));

  door.write(postThreadRoute, async (c) => c.json(await postMessage(state, c.var.bid.bid_id, c.get('accountId'), c.req.valid('json').text, now()), 201));

  // The release's clock, as the worth-bidding card's: in fixture mode both count days from the fixtures' day.
  door.read(chatRoute, async (c) => c.json(await bidChat(state, c.var.bid, store.now()), 200));

  app.route(
    '/',
    bidFileRoutes({
      state,
      files: options.files,
      pool: options.pool,
      linkSecret: options.linkSecret,
      publicUrl: options.publicUrl,
      now,
      onFileRead: options.onFileRead ?? [],
      log: options.log ?? ((error, c) => console.error(`${c.req.method} ${c.req.path}: a file-read listener failed:`, error)),
    }),
  );

  return app;
}

/** POST /v1/bids: a bid for a tender of the served release (its title, buyer, closing and time zone kept) or on a free title. */
function createBidHandler(state: StateDb, store: BidRoutesOptions['store'], now: () => Date): RouteHandler<typeof createBidRoute, BidEnv> {
  return async (c) => {
    const body = c.req.valid('json');
    const membership = await membershipOf(state, body.org_id, c.get('accountId'));
    if (!membership) return c.json({ detail: ORG_NOT_VISIBLE }, 404);
    if (!may(membership.role, 'write_bids')) return c.json({ detail: writeRefusal(membership) }, 403);
    let tender: BidTender | null = null;
    if (body.page_key !== undefined) {
      const served = store.state();
      if (!served.ready) {
        c.header('Retry-After', '30');
        return c.json({ detail: `No release is loaded yet, so the tender ${body.page_key} cannot be looked up; retry shortly, or create the bid with a title instead of page_key.` }, 503);
      }
      const hit = served.release.tenders.get(body.page_key, store.now());
      if (!hit) return c.json({ detail: `No tender has the page_key ${body.page_key} in the served release; use the page_key of a search result (GET /v1/tenders), or create the bid with a title.` }, 404);
      const row = hit.tender.row;
      tender = {
        page_key: body.page_key,
        title: row.title,
        buyer: row.buyer,
        jurisdiction: hit.tender.jurisdiction,
        closing_date: hit.tender.closingDate,
        closing_at: row.closing_at,
        time_zone: timeZoneOf(hit.tender.jurisdiction),
      };
    }
    const bid = await createBid(state, {
      orgId: membership.org_id,
      accountId: c.get('accountId'),
      tender,
      // The schema requires a title when there is no tender.
      title: body.title ?? tender!.title,
      dueDate: body.due_date ?? null,
      goal: body.goal ?? null,
      now: now(),
    });
    return c.json(await bidView(state, bid, membership.company_name), 201);
  };
}
