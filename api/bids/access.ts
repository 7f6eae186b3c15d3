import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { MiddlewareHandler, Next } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { StateDb } from '../../data/state/db.ts';
import type { Caller } from '../accounts/caller.ts';
import { membershipOf, type Membership } from '../orgs/orgs.ts';
import { may, rolesThatMay } from '../orgs/roles.ts';
import type { Stage } from './stages.ts';

/**
 * The one membership and permission check of the bid area: every bid route opens its bid through the bid
 * door (`bidDoor`), which asks `accessBid`. A bid of an organisation the caller does not belong to answers
 * exactly as a missing bid (404), so an outsider learns nothing; every member role reads; writing needs
 * `write_bids` (403).
 */

/** The caller middleware's variables plus the signed-in account every bid route acts for. */
export interface BidEnv {
  Variables: { caller: Caller; accountId: string };
}

/** A bid as stored (data/state/migrations/009_bids.sql). */
export interface BidRecord {
  bid_id: string;
  org_id: string;
  title: string;
  /** The tender's page_key, or null for a bid on a free title. */
  tender_key: string | null;
  buyer: string | null;
  jurisdiction: string | null;
  /** The tender's closing day (YYYY-MM-DD) in the buyer's time zone, or null. */
  closing_date: string | null;
  /** The tender's closing instant (ISO), when the source publishes a time, or null. */
  closing_at: string | null;
  /** The buyer's IANA time zone (e.g. `Australia/Sydney`), or null for a free-title bid. */
  buyer_time_zone: string | null;
  stage: Stage;
  goal: string | null;
  owner_id: string | null;
  /** The organisation's own due date for the response (YYYY-MM-DD), or null. */
  due_date: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** What the bid door sets for the route behind it: the bid the path names and the caller's membership (role) in its organisation. */
export interface OpenBidEnv {
  Variables: BidEnv['Variables'] & { bid: BidRecord; membership: Membership };
}

/** What a bid route needs of the caller: to read the bid, or to change it. */
export type BidNeed = 'read' | 'write';

type BidAccess =
  | { ok: true; bid: BidRecord; membership: Membership }
  | { ok: false; status: 403 | 404; detail: string };

const NO_CALLER =
  'Bid routes need a signed-in session (POST /v1/auth/login, then the svc_session cookie) or an API key of your account (Authorization: Bearer svc_…).';
const KEY_WITHOUT_ACCOUNT =
  'This API key belongs to no account, so it opens no bids: link it to your account with POST /v1/account/keys/link, or create a key while signed in (POST /v1/keys).';

/** Who may call the bid routes (OpenAPI security): a signed-in session, or an API key acting as its account. */
export const BID_SECURITY: Record<string, string[]>[] = [{ session: [] }, { bearer: [] }];
/** The 401 every bid route may answer. */
export const NO_ACCOUNT_REPLY = 'Neither a signed-in session nor an API key of an account.';

/** One sentence for a missing bid and for a bid of an organisation the caller does not belong to. */
const BID_NOT_VISIBLE = 'No bid with this id is visible to you: check the id (GET /v1/bids lists your bids), or ask the organisation to invite you.';

/**
 * Answers 401 unless the caller acts for an account: a signed-in session, or an API key of an account (spec,
 * Authentication 1: a key works on any REST call), which opens the bids of that account's organisations with
 * the account's role. Records the account. Each bid sub-app registers it on `/v1/bids/*` (which also matches
 * `/v1/bids`) before its routes, so it runs first whatever order the sub-apps are mounted in; running it
 * twice is harmless.
 */
export const requireBidAccount: MiddlewareHandler<BidEnv> = async (c, next) => {
  const caller = c.get('caller');
  if (caller.kind === 'anonymous') return c.json({ detail: NO_CALLER }, 401);
  if (caller.kind === 'key' && caller.accountId === null) return c.json({ detail: KEY_WITHOUT_ACCOUNT }, 401);
  c.set('accountId', caller.accountId!);
  await next();
};

/** The stored bid, or null: callers other than `accessBid` must check membership themselves. */
export async function bidRecord(state: StateDb, bidId: string): Promise<BidRecord | null> {
  return await state.get<BidRecord>('SELECT * FROM bids WHERE bid_id = ?', bidId) ?? null;
}

/** The bid `bidId` for `accountId` when it may `need` it; otherwise the status and sentence to answer. */
async function accessBid(state: StateDb, bidId: string, accountId: string, need: BidNeed): Promise<BidAccess> {
  const bid = await bidRecord(state, bidId);
  const membership = bid && await membershipOf(state, bid.org_id, accountId);
  if (!bid || !membership) return { ok: false, status: 404, detail: BID_NOT_VISIBLE };
  if (need === 'write' && !may(membership.role, 'write_bids')) {
    return { ok: false, status: 403, detail: writeRefusal(membership) };
  }
  return { ok: true, bid, membership };
}

/** Why this member may not create or change bids, and whom to ask. */
export function writeRefusal(membership: Membership): string {
  return `Your role in ${membership.company_name} (${membership.role}) may read its bids but not create or change them; ask someone with the role ${rolesThatMay('write_bids').join(', ')}.`;
}

/**
 * Middleware that opens the bid of the path's `{bid}` once for the caller and sets `c.var.bid` and
 * `c.var.membership`, or answers 404 (not visible) or 403 (a reader who writes) with `accessBid`'s sentence.
 */
export function openBid(state: StateDb, need: BidNeed): MiddlewareHandler<OpenBidEnv> {
  return createMiddleware<OpenBidEnv>(async (c, next) => {
    const access = await accessBid(state, c.req.param('bid')!, c.get('accountId'), need);
    if (!access.ok) return c.json({ detail: access.detail }, access.status);
    c.set('bid', access.bid);
    c.set('membership', access.membership);
    await next();
  });
}

/**
 * The bid door of a sub-app: `door.read(route, handler)` and `door.write(route, handler)` register an
 * OpenAPI route whose handler runs behind `openBid`, with `c.var.bid` and `c.var.membership` typed. The door
 * runs in the handler's place rather than in the route's `middleware`, because zod-openapi runs those before
 * the request validators, and a bad input has always answered 400 before a hidden bid's 404 or a reader's 403.
 *
 * @example
 * const door = bidDoor(app, state);
 * door.read(threadRoute, (c) => c.json({ messages: threadOf(state, c.var.bid.bid_id) }, 200));
 */
export function bidDoor(app: OpenAPIHono<BidEnv>, state: StateDb) {
  const behind = (need: BidNeed) => {
    const door = openBid(state, need);
    return <R extends RouteConfig>(route: R, handler: RouteHandler<R, OpenBidEnv>): void => {
      const opened = async (c: Parameters<typeof handler>[0], next: Next) => {
        let answer: Awaited<ReturnType<typeof handler>> | undefined;
        const refused = await door(c, async () => {
          answer = await handler(c, next);
        });
        return refused ?? answer;
      };
      // zod-openapi types a handler's variables from the route's middleware; the door sets its own in the handler's place.
      app.openapi(route, opened as never);
    };
  };
  return { read: behind('read'), write: behind('write') };
}
