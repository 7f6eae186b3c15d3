import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { StateDb } from '../../data/state/db.ts';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, requireBidAccount, type BidEnv, type BidRecord } from '../bids/access.ts';
import { listDrafts, savePersonDraft } from '../bids/drafts/store.ts';
import { responseDocx, responseMarkdown, type ResponseDocument } from '../bids/export.ts';
import { markGapNotApplicable } from '../bids/gaps.ts';
import { activePartners, partnerCatalogue } from '../bids/partners.ts';
import { BidParams } from '../bids/schemas.ts';
import {
  DraftListSchema,
  DraftPatchBody,
  DraftSchema,
  GapListSchema,
  GapParams,
  GapPatchBody,
  GapSchema,
  PartnerListSchema,
  PartnersQuery,
  PlanSchema,
  RecomputeSchema,
  RequirementParams,
} from '../bids/workspace-schemas.ts';
import { gapListView, planFrame, planView, recomputeWorkspace, withPartners, worthBidding, type WorkspaceDeps } from '../bids/workspace.ts';
import { WorthBiddingCard } from '../bids/worth-bidding.ts';
import { AnalysisPoolFullError } from '../checkers/_runner/pool.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { orgsOf } from '../orgs/orgs.ts';
import type { ReleaseStore } from '../release-store.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface BidWorkspaceRoutesOptions extends WorkspaceDeps {
  /** The served release: the worth-bidding card reads its intelligence. */
  store: Pick<ReleaseStore, 'state' | 'now'>;
  now?: () => Date;
}

const noAccount = errorReply(NO_ACCOUNT_REPLY);
const bidNotVisible = errorReply('No such bid, or the caller is not a member of its organisation: the same reply for both.');
const viewerWrites = errorReply("The caller's role may not change bids (viewers read only).");
const wrongMediaType = errorReply('The body is not in the media type this route reads.');
const NotReady = z.object({ ready: z.literal(false), detail: z.string() }).openapi('WorthBiddingNotReady');
const tags = ['Bids'];
const accountCallers = BID_SECURITY;

const listDraftsRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/drafts',
  tags,
  security: accountCallers,
  summary: 'Drafts of the bid, one per requirement',
  description: 'Each with the passages it cites (document and page). Drafts are written by POST …/plan/recompute; a person\'s text (PATCH) is never overwritten.',
  request: { params: BidParams },
  responses: { 200: { description: 'The drafts.', content: json(DraftListSchema) }, 401: noAccount, 404: bidNotVisible },
});

const patchDraftRoute = createRoute({
  method: 'patch',
  path: '/v1/bids/{bid}/drafts/{requirement}',
  tags,
  security: accountCallers,
  summary: "Store a person's draft of a requirement",
  description: 'Body `{text}`. Recompute never overwrites it. Owners, admins and members may write.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: RequirementParams, body: { required: true, content: json(DraftPatchBody) } },
  responses: {
    200: { description: 'The draft as stored.', content: json(DraftSchema) },
    400: errorReply('An unknown field, or empty text; `detail` names it.'),
    401: noAccount,
    403: viewerWrites,
    404: errorReply('No such bid visible to the caller, or the bid has no such requirement.'),
    415: wrongMediaType,
  },
});

const listGapsRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/gaps',
  tags,
  security: accountCallers,
  summary: 'Gaps of the bid, with partners who can close them',
  description: 'Derived by recompute, never typed in: a mandatory requirement with no evidence, a document the bid relies on that expires before closing, a certificate or insurance the tender asks for that the library lacks.',
  request: { params: BidParams },
  responses: { 200: { description: 'Every gap (open first), its partners, and a count of rows per category.', content: json(GapListSchema) }, 401: noAccount, 404: bidNotVisible },
});

const patchGapRoute = createRoute({
  method: 'patch',
  path: '/v1/bids/{bid}/gaps/{gap}',
  tags,
  security: accountCallers,
  summary: 'Mark a gap not applicable',
  description: 'Body `{status: "NA", reason}`: the only change a person makes; every other status comes from recompute.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: GapParams, body: { required: true, content: json(GapPatchBody) } },
  responses: {
    200: { description: 'The gap as stored.', content: json(GapSchema) },
    400: errorReply('A status other than NA, no reason, or an unknown field; `detail` names it.'),
    401: noAccount,
    403: viewerWrites,
    404: errorReply('No such bid visible to the caller, or the bid has no such gap.'),
    415: wrongMediaType,
  },
});

const planRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/plan',
  tags,
  security: accountCallers,
  summary: 'The bid plan',
  description: "Tasks back-scheduled from the closing day in the buyer's time zone, as the last recompute left them.",
  request: { params: BidParams },
  responses: { 200: { description: 'The plan.', content: json(PlanSchema) }, 401: noAccount, 404: bidNotVisible },
});

const recomputeRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/plan/recompute',
  tags,
  security: accountCallers,
  summary: 'Recompute requirements, drafts, gaps and plan',
  description: "In that order. A person's draft and a gap marked NA are kept. Library documents not read before are read now.",
  request: { params: BidParams },
  responses: {
    200: { description: 'What was computed, with the new plan.', content: json(RecomputeSchema) },
    401: noAccount,
    403: viewerWrites,
    404: bidNotVisible,
    503: errorReply('Every document reading thread is busy (`Retry-After` says when to try again).'),
  },
});

const exportRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/export',
  tags,
  security: accountCallers,
  summary: 'The response document',
  description: 'Every requirement, its draft and the citations: a Word document (.docx), or Markdown with `?format=md`.',
  request: {
    params: BidParams,
    query: z.object({
      format: z.enum(['docx', 'md'], { error: 'must be docx or md' }).default('docx').openapi({ param: { name: 'format', in: 'query' }, default: 'docx' }),
    }),
  },
  responses: {
    200: {
      description: 'The document, as an attachment.',
      content: {
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { schema: z.string().openapi({ format: 'binary' }) },
        'text/markdown': { schema: z.string() },
      },
    },
    400: errorReply('An unknown format.'),
    401: noAccount,
    404: bidNotVisible,
  },
});

const worthBiddingRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/worth-bidding',
  tags,
  security: accountCallers,
  summary: 'Is this tender worth bidding?',
  description:
    "A card from the release's intelligence: the buyer's awards (count, median value, recent suppliers), awards for similar work " +
    "(a heuristic, with its rule), the incumbent on the buyer's expiring contract for the same work, and the bid's checks.",
  request: { params: BidParams },
  responses: {
    200: { description: 'The card.', content: json(WorthBiddingCard) },
    401: noAccount,
    404: bidNotVisible,
    503: { description: 'The intelligence store is still loading (`Retry-After` says when to try again).', content: json(NotReady) },
  },
});

const partnersRoute = createRoute({
  method: 'get',
  path: '/v1/partners',
  tags,
  security: [{ session: [] }],
  summary: 'Partners who can close a gap',
  description: 'The active rows of the partners catalogue, for a signed-in session that belongs to at least one organisation.',
  request: { query: PartnersQuery },
  responses: {
    200: { description: 'Active partners, by name.', content: json(PartnerListSchema) },
    400: errorReply('An unknown category.'),
    401: errorReply('No signed-in session (API keys do not open the catalogue).'),
    403: errorReply('The account belongs to no organisation yet.'),
  },
});

const PARTNERS_NOT_SIGNED_IN = 'The partners catalogue needs a signed-in session: sign in with POST /v1/auth/login and send the svc_session cookie; API keys do not open it.';
const NO_ORGANISATION = 'The partners catalogue is for members of an organisation: create one with POST /v1/orgs, or accept an invitation, then ask again.';

/**
 * The bid workspace routes (spec, Bids): drafts, gaps with partners, plan and recompute, export,
 * worth-bidding, and the partners catalogue. Every bid route opens its bid through `bidDoor`: viewers
 * read, members and above write, a non-member gets the missing bid's 404. Mount it after the caller middleware.
 *
 * @example
 * app.route('/', bidWorkspaceRoutes({ state, store, library, pool, model, requirements, now }));
 */
export function bidWorkspaceRoutes(options: BidWorkspaceRoutesOptions): OpenAPIHono<BidEnv> {
  const { state, store } = options;
  const now = options.now ?? (() => new Date());
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  // Before the validators, so a caller without an account learns nothing about the inputs.
  app.use('/v1/bids/*', requireBidAccount);

  const door = bidDoor(app, state);

  door.read(listDraftsRoute, async (c) => c.json({ drafts: await listDrafts(state, c.var.bid.bid_id) }, 200));

  door.write(patchDraftRoute, async (c) => {
    const { bid: bidId, requirement } = c.req.valid('param');
    if (!(await options.requirements.list(state, bidId)).some((row) => row.requirement_id === requirement)) {
      return c.json({ detail: `This bid has no requirement ${requirement.slice(0, 80)}; GET /v1/bids/${bidId}/requirements lists them.` }, 404);
    }
    return c.json(await savePersonDraft(state, bidId, requirement, c.req.valid('json').text, c.get('accountId'), now()), 200);
  });

  door.read(listGapsRoute, async (c) => c.json(await gapListView(state, c.var.bid.bid_id), 200));

  door.write(patchGapRoute, async (c) => {
    const { bid: bidId, gap: gapId } = c.req.valid('param');
    const gap = await markGapNotApplicable(state, bidId, gapId, c.req.valid('json').reason, c.get('accountId'), now());
    if (!gap) return c.json({ detail: `This bid has no gap ${gapId.slice(0, 80)}; GET /v1/bids/${bidId}/gaps lists them.` }, 404);
    return c.json(withPartners(gap), 200);
  });

  door.read(planRoute, async (c) => c.json(await planView(state, c.var.bid), 200));

  door.write(recomputeRoute, async (c) => {
    try {
      return c.json(await recomputeWorkspace(options, c.var.bid, now()), 200);
    } catch (error) {
      if (!(error instanceof AnalysisPoolFullError)) throw error;
      c.header('Retry-After', String(error.retryAfterSeconds));
      return c.json({ detail: `The library documents could not be read now: ${error.message}` }, 503);
    }
  });

  door.read(exportRoute, async (c) => {
    const document = await responseDocument(state, options, c.var.bid, c.var.membership.company_name);
    const name = fileName(c.var.bid.title);
    if (c.req.valid('query').format === 'md') {
      c.header('content-disposition', `attachment; filename="${name}.md"`);
      return c.body(responseMarkdown(document), 200, { 'content-type': 'text/markdown; charset=utf-8' });
    }
    c.header('content-disposition', `attachment; filename="${name}.docx"`);
    return c.body(await responseDocx(document), 200, { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
  });

  door.read(worthBiddingRoute, async (c) => {
    const worth = await worthBidding({ state, store, requirements: options.requirements }, c.var.bid);
    if (!worth.ready) {
      c.header('Retry-After', '30');
      return c.json({ ready: false as const, detail: worth.detail }, 503);
    }
    return c.json(worth.card, 200);
  });

  // Before the query's validator, so a caller who may not see the catalogue learns nothing about its categories.
  const memberOfAnOrganisation: MiddlewareHandler<BidEnv> = async (c, next) => {
    const caller = c.get('caller');
    if (caller.kind !== 'session') return c.json({ detail: PARTNERS_NOT_SIGNED_IN }, 401);
    if ((await orgsOf(state, caller.accountId)).length === 0) return c.json({ detail: NO_ORGANISATION }, 403);
    await next();
  };
  app.use('/v1/partners', memberOfAnOrganisation);
  app.openapi(partnersRoute, (c) => c.json({ partners: activePartners(partnerCatalogue(), c.req.valid('query').category) }, 200));

  return app;
}

async function responseDocument(state: StateDb, options: BidWorkspaceRoutesOptions, bid: BidRecord, company: string): Promise<ResponseDocument> {
  const drafts = new Map((await listDrafts(state, bid.bid_id)).map((draft) => [draft.requirement_id, draft]));
  const frame = await planFrame(state, bid);
  return {
    title: bid.title,
    company,
    closing: bid.closing_date ? `Closes ${bid.closing_date} (${frame.timeZone})` : null,
    items: (await options.requirements.list(state, bid.bid_id)).map((requirement) => ({ requirement, draft: drafts.get(requirement.requirement_id) ?? null })),
  };
}

/** The bid title as a download name: ASCII letters, digits, spaces and dashes (a header value), at most 80 characters. */
function fileName(title: string): string {
  return title.replace(/[^A-Za-z0-9 -]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80) || 'bid-response';
}
