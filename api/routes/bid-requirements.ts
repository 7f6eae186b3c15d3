import { OpenAPIHono, createRoute } from '@hono/zod-openapi';
import type { StateDb } from '../../data/state/db.ts';
import { bidDoor, BID_SECURITY, NO_ACCOUNT_REPLY, requireBidAccount, type BidEnv } from '../bids/access.ts';
import { addRequirement, changeRequirement, mergeRequirements, retiredProblem, splitRequirement } from '../bids/requirements/edits.ts';
import {
  CreateRequirementBody,
  MergeRequirementsBody,
  MergeSchema,
  PatchRequirementBody,
  RequirementListQuery,
  RequirementListSchema,
  RequirementParams,
  RequirementSchema,
  SplitRequirementBody,
  SplitSchema,
} from '../bids/requirements/schemas.ts';
import { listRequirements, refreshRequirements, requirementRow, type RequirementRow } from '../bids/requirements/store.ts';
import { BidParams } from '../bids/schemas.ts';
import { bodyMediaType, invalidInputAnswers } from '../middleware/request-checks.ts';
import { errorReply, json } from '../schemas/openapi-content.ts';

export interface BidRequirementRoutesOptions {
  state: StateDb;
  now?: () => Date;
}

const noAccount = errorReply(NO_ACCOUNT_REPLY);
const notVisible = errorReply('No such bid or requirement, or the caller is not a member of the bid\'s organisation: the same reply for each.');
const readOnly = errorReply("The caller's role may not change bids (viewers read only).");
const wrongMediaType = errorReply('The body is not JSON.');
const tags = ['Bids'];
const accountCallers = BID_SECURITY;

const listRoute = createRoute({
  method: 'get',
  path: '/v1/bids/{bid}/requirements',
  tags,
  security: accountCallers,
  summary: "A bid's requirements",
  description:
    "Clauses, returnable schedules, evaluation criteria and conditions for participation extracted from the bid's files (again whenever its files change), and those members added, split or merged, each with the file, page and characters it came from. Filters: `kind`, `mandatory`, `state`.",
  request: { params: BidParams, query: RequirementListQuery },
  responses: {
    200: { description: 'The requirements in document order.', content: json(RequirementListSchema) },
    400: errorReply('A filter has a value it does not take; `detail` names it and the values allowed.'),
    401: noAccount,
    404: notVisible,
  },
});

const createRequirementRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/requirements',
  tags,
  security: accountCallers,
  summary: 'Add a requirement',
  description: 'A requirement a member adds by hand (`text`; `kind` default clause, `mandatory` default true). Recompute never changes it.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: BidParams, body: { required: true, content: json(CreateRequirementBody) } },
  responses: {
    201: { description: 'The new requirement.', content: json(RequirementSchema) },
    400: errorReply('An unknown field or an invalid value; `detail` names it.'),
    401: noAccount,
    403: readOnly,
    404: notVisible,
    415: wrongMediaType,
  },
});

const patchRequirementRoute = createRoute({
  method: 'patch',
  path: '/v1/bids/{bid}/requirements/{requirement}',
  tags,
  security: accountCallers,
  summary: 'Change a requirement',
  description: 'Any of text, ref, kind, mandatory, weight (recompute keeps a person\'s changes) and state (open, met or not_applicable; met and not_applicable stay until a person changes them).',
  middleware: [bodyMediaType('json')] as const,
  request: { params: RequirementParams, body: { required: true, content: json(PatchRequirementBody) } },
  responses: {
    200: { description: 'The requirement after the change.', content: json(RequirementSchema) },
    400: errorReply('An unknown field or an invalid value; `detail` names it.'),
    401: noAccount,
    403: readOnly,
    404: notVisible,
    409: errorReply('The requirement was superseded by a split or merge, or withdrawn; `detail` says what replaced it.'),
    415: wrongMediaType,
  },
});

const splitRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/requirements/{requirement}/split',
  tags,
  security: accountCallers,
  summary: 'Split a requirement into parts',
  description: 'Each part (`parts`, two or more, each with its `text`) names the requirement as its parent and keeps its place in the file; the requirement stays, superseded.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: RequirementParams, body: { required: true, content: json(SplitRequirementBody) } },
  responses: {
    201: { description: 'The superseded parent and the new parts.', content: json(SplitSchema) },
    400: errorReply('An unknown field, fewer than two parts or an invalid value; `detail` names it.'),
    401: noAccount,
    403: readOnly,
    404: notVisible,
    409: errorReply('The requirement was already superseded or withdrawn.'),
    415: wrongMediaType,
  },
});

const mergeRoute = createRoute({
  method: 'post',
  path: '/v1/bids/{bid}/requirements/merge',
  tags,
  security: accountCallers,
  summary: 'Merge requirements into one',
  description: 'The merged requirement names every one of `requirement_ids` as a parent; they stay, superseded. Text, kind, mandatory and weight may be given, else they come from the parents.',
  middleware: [bodyMediaType('json')] as const,
  request: { params: BidParams, body: { required: true, content: json(MergeRequirementsBody) } },
  responses: {
    201: { description: 'The merged requirement and its superseded parents.', content: json(MergeSchema) },
    400: errorReply('An unknown field, fewer than two ids or an invalid value; `detail` names it.'),
    401: noAccount,
    403: readOnly,
    404: notVisible,
    409: errorReply('One of the requirements was already superseded or withdrawn.'),
    415: wrongMediaType,
  },
});

const REQUIREMENT_NOT_FOUND = (id: string) => `No requirement ${id} in this bid: GET /v1/bids/{bid}/requirements lists them.`;

type Changeable = { ok: true; row: RequirementRow } | { ok: false; detail: string; status: 404 | 409 };

/** A requirement a person may still change: one of this bid's, neither superseded nor withdrawn. */
async function changeableRequirement(state: StateDb, bidId: string, requirementId: string): Promise<Changeable> {
  const row = await requirementRow(state, bidId, requirementId);
  if (!row) return { ok: false, detail: REQUIREMENT_NOT_FOUND(requirementId), status: 404 };
  const problem = retiredProblem(row);
  return problem === null ? { ok: true, row } : { ok: false, detail: problem, status: 409 };
}

/**
 * The requirement routes of a bid (spec, Bids): list with filters, add, change, split and merge. Every route needs
 * a signed-in session or an account's API key and opens its bid through the bid door (`bidDoor`): viewers read, members and above write.
 *
 * @example
 * app.route('/', bidRequirementRoutes({ state, now }));
 */
export function bidRequirementRoutes(options: BidRequirementRoutesOptions): OpenAPIHono<BidEnv> {
  const { state } = options;
  const now = options.now ?? (() => new Date());
  const app = new OpenAPIHono<BidEnv>({ defaultHook: invalidInputAnswers<BidEnv>(400) });
  app.use('/v1/bids/*', requireBidAccount);
  const door = bidDoor(app, state);

  door.read(listRoute, async (c) => {
    await refreshRequirements(state, c.var.bid.bid_id, now());
    return c.json({ requirements: await listRequirements(state, c.var.bid.bid_id, c.req.valid('query')) }, 200);
  });

  door.write(createRequirementRoute, async (c) => c.json(await addRequirement(state, c.var.bid.bid_id, c.req.valid('json'), c.get('accountId'), now()), 201));

  door.write(patchRequirementRoute, async (c) => {
    const { bid, requirement } = c.req.valid('param');
    const found = await changeableRequirement(state, bid, requirement);
    if (!found.ok) return c.json({ detail: found.detail }, found.status);
    const row = found.row;
    return c.json(await changeRequirement(state, row, c.req.valid('json'), now()), 200);
  });

  door.write(splitRoute, async (c) => {
    const { bid, requirement } = c.req.valid('param');
    const found = await changeableRequirement(state, bid, requirement);
    if (!found.ok) return c.json({ detail: found.detail }, found.status);
    const row = found.row;
    return c.json(await splitRequirement(state, row, c.req.valid('json').parts, c.get('accountId'), now()), 201);
  });

  door.write(mergeRoute, async (c) => {
    const { requirement_ids, ...content } = c.req.valid('json');
    const rows: RequirementRow[] = [];
    for (const id of requirement_ids) {
      const found = await changeableRequirement(state, c.var.bid.bid_id, id);
      if (!found.ok) return c.json({ detail: found.detail }, found.status);
      rows.push(found.row);
    }
    return c.json(await mergeRequirements(state, rows, content, c.get('accountId'), now()), 201);
  });

  return app;
}
