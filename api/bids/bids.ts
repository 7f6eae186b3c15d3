import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';
import type { Membership } from '../orgs/orgs.ts';
import { bidRecord, type BidRecord } from './access.ts';
import { FIRST_STAGE, TRANSITIONS, type Stage } from './stages.ts';

/** The tender a bid answers, as recorded when the bid is created (from the served release). */
export interface BidTender {
  page_key: string;
  title: string;
  buyer: string | null;
  jurisdiction: string;
  closing_date: string | null;
  closing_at: string | null;
  time_zone: string;
}

export interface NewBid {
  orgId: string;
  accountId: string;
  /** The tender from the release, or null for a bid on a free title. */
  tender: BidTender | null;
  /** The bid's title (the route gives the tender's when the caller names none). */
  title: string;
  dueDate: string | null;
  goal: string | null;
  now: Date;
}

/** A bid as the routes reply with it. */
export interface BidView {
  bid_id: string;
  org_id: string;
  company_name: string;
  title: string;
  tender_key: string | null;
  buyer: string | null;
  jurisdiction: string | null;
  closing_date: string | null;
  closing_at: string | null;
  buyer_time_zone: string | null;
  stage: Stage;
  next_stages: Stage[];
  goal: string | null;
  owner: { account_id: string; email: string } | null;
  due_date: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The changes PATCH /v1/bids/{bid} may make; an absent field stays as it is, null clears it. */
export interface BidChanges {
  stage?: Stage | undefined;
  goal?: string | null | undefined;
  /** The account id of a member of the bid's organisation, or null for nobody. */
  ownerId?: string | null | undefined;
  dueDate?: string | null | undefined;
}

export async function createBid(state: StateDb, bid: NewBid): Promise<BidRecord> {
  const bidId = newId('bid_');
  const at = bid.now.toISOString();
  const tender = bid.tender;
  await state.run(
    `INSERT INTO bids (bid_id, org_id, title, tender_key, buyer, jurisdiction, closing_date, closing_at, buyer_time_zone, stage, goal, owner_id, due_date, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    bidId,
    bid.orgId,
    bid.title,
    tender?.page_key ?? null,
    tender?.buyer ?? null,
    tender?.jurisdiction ?? null,
    tender?.closing_date ?? null,
    tender?.closing_at ?? null,
    tender?.time_zone ?? null,
    FIRST_STAGE,
    bid.goal,
    // The creator owns the bid until someone hands it on.
    bid.accountId,
    bid.dueDate,
    bid.accountId,
    at,
    at,
  );
  return (await bidRecord(state, bidId))!;
}

/** Bids of the organisations `accountId` belongs to (or of `orgId` alone), newest first. */
export async function listBids(state: StateDb, accountId: string, orgId: string | null): Promise<BidRecord[]> {
  return await state.all<BidRecord>(
    `SELECT b.* FROM bids b JOIN memberships m ON m.org_id = b.org_id AND m.account_id = ?
      WHERE (CAST(? AS TEXT) IS NULL OR b.org_id = ?)
      ORDER BY b.created_at DESC, b.bid_id`,
    accountId,
    orgId,
    orgId,
  );
}

/** Applies the changes in one statement and returns the bid as stored after them. */
export async function updateBid(state: StateDb, bid: BidRecord, changes: BidChanges, now: Date): Promise<BidRecord> {
  const next = {
    stage: changes.stage ?? bid.stage,
    goal: changes.goal === undefined ? bid.goal : changes.goal,
    owner_id: changes.ownerId === undefined ? bid.owner_id : changes.ownerId,
    due_date: changes.dueDate === undefined ? bid.due_date : changes.dueDate,
  };
  await state.run(
    'UPDATE bids SET stage = ?, goal = ?, owner_id = ?, due_date = ?, updated_at = ? WHERE bid_id = ?',
    next.stage,
    next.goal,
    next.owner_id,
    next.due_date,
    now.toISOString(),
    bid.bid_id,
  );
  return (await bidRecord(state, bid.bid_id))!;
}

/** The account id of the member of `orgId` with this email address, or null when no member has it. */
export async function memberIdByEmail(state: StateDb, orgId: string, email: string): Promise<string | null> {
  return (
    (await state.get<{ account_id: string }>(
      'SELECT a.account_id FROM memberships m JOIN accounts a ON a.account_id = m.account_id WHERE m.org_id = ? AND a.email = ? COLLATE NOCASE',
      orgId,
      email,
    ))?.account_id ?? null
  );
}

/** The reply for one bid: the stored fields, the organisation's name, the stages it may move to and the people by email. */
export async function bidView(state: StateDb, bid: BidRecord, companyName: string): Promise<BidView> {
  const emailOf = async (accountId: string | null) =>
    accountId === null ? null : ((await state.get<{ email: string }>('SELECT email FROM accounts WHERE account_id = ?', accountId))?.email ?? null);
  const ownerEmail = await emailOf(bid.owner_id);
  return {
    bid_id: bid.bid_id,
    org_id: bid.org_id,
    company_name: companyName,
    title: bid.title,
    tender_key: bid.tender_key,
    buyer: bid.buyer,
    jurisdiction: bid.jurisdiction,
    closing_date: bid.closing_date,
    closing_at: bid.closing_at,
    buyer_time_zone: bid.buyer_time_zone,
    stage: bid.stage,
    next_stages: [...TRANSITIONS[bid.stage]],
    goal: bid.goal,
    owner: bid.owner_id !== null && ownerEmail !== null ? { account_id: bid.owner_id, email: ownerEmail } : null,
    due_date: bid.due_date,
    created_by: await emailOf(bid.created_by) ?? bid.created_by,
    created_at: bid.created_at,
    updated_at: bid.updated_at,
  };
}

/** Company names of the caller's organisations, for listing bids across them. */
export function companyNames(memberships: readonly Membership[]): Map<string, string> {
  return new Map(memberships.map((membership) => [membership.org_id, membership.company_name]));
}
