import { isJurisdiction, localDate, timeZoneOf, type Jurisdiction } from '../../lib/jurisdictions.ts';
import type { StateDb } from '../../data/state/db.ts';
import { readProfile } from '../orgs/profile.ts';
import type { BidRecord } from './access.ts';
import { listRequirements, recomputeRequirements, type RecomputeOptions } from './requirements/store.ts';
import { libraryTexts } from './drafts/library-text.ts';
import { recomputeDrafts, type DraftDeps } from './drafts/recompute.ts';
import { listDrafts } from './drafts/store.ts';
import { deriveGaps, hasEvidence, listGaps, storeGaps } from './gaps.ts';
import { listPlan, schedulePlan, storePlan, type ServedTask } from './plan.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

/**
 * The bid workspace as one recompute: the requirements (extracted again from the bid's files), then the
 * drafts (a person's never overwritten), the requirements' drafted state from those drafts, the gaps and
 * the plan, in that order, each reading what the one before wrote.
 */

/** Where the workspace reads a bid's requirements from, and how it asks for them to be brought up to date. */
export interface RequirementSource {
  list(state: StateDb, bidId: string): WorkspaceRequirement[];
  recompute(state: StateDb, bidId: string, options: RecomputeOptions): unknown;
}

/** The requirements module's store (api/bids/requirements/store.ts). */
export const storedRequirements: RequirementSource = {
  list: (state, bidId) => listRequirements(state, bidId),
  recompute: recomputeRequirements,
};

export interface WorkspaceDeps extends DraftDeps {
  requirements: RequirementSource;
}

/** The organisation profile's region, else the tender's jurisdiction: where a gap is to be closed. */
export function bidRegion(state: StateDb, bid: BidRecord): Jurisdiction | null {
  const region = readProfile(state, bid.org_id)?.region ?? null;
  if (region) return region;
  return bid.jurisdiction !== null && isJurisdiction(bid.jurisdiction) ? bid.jurisdiction : null;
}

/** The buyer's time zone (else the region's, else Sydney's) and the day the plan counts back from (closing, else the bid's due date). */
export function planFrame(state: StateDb, bid: BidRecord): { timeZone: string; closingDate: string | null } {
  const region = bidRegion(state, bid);
  return { timeZone: bid.buyer_time_zone ?? (region ? timeZoneOf(region) : 'Australia/Sydney'), closingDate: bid.closing_date ?? bid.due_date };
}

export interface PlanView {
  time_zone: string | null;
  closing_date: string | null;
  tasks: ServedTask[];
}

export function planView(state: StateDb, bid: BidRecord): PlanView {
  const frame = planFrame(state, bid);
  return { time_zone: frame.timeZone, closing_date: frame.closingDate, tasks: listPlan(state, bid.bid_id) };
}

export interface RecomputeSummary {
  requirements: number;
  drafts: number;
  open_gaps: number;
  plan: PlanView;
}

export async function recomputeWorkspace(deps: WorkspaceDeps, bid: BidRecord, now: Date): Promise<RecomputeSummary> {
  const { state } = deps;
  deps.requirements.recompute(state, bid.bid_id, { now });
  await recomputeDrafts(deps, bid, deps.requirements.list(state, bid.bid_id), now);
  const drafts = listDrafts(state, bid.bid_id);
  // A requirement whose draft carries evidence is drafted; one whose draft lost it is open again.
  deps.requirements.recompute(state, bid.bid_id, { now, drafted: new Set(drafts.filter(hasEvidence).map((draft) => draft.requirement_id)) });
  const requirements = deps.requirements.list(state, bid.bid_id);
  const frame = planFrame(state, bid);
  storeGaps(
    state,
    bid.bid_id,
    deriveGaps({
      requirements,
      drafts,
      library: await libraryTexts(state, deps.library, bid.org_id, deps.pool, now),
      today: localDate(now, frame.timeZone),
      closingDate: bid.closing_date,
      region: bidRegion(state, bid),
    }),
    now,
  );
  const openGaps = listGaps(state, bid.bid_id).filter((gap) => gap.status === 'open');
  storePlan(state, bid.bid_id, frame.closingDate === null ? [] : schedulePlan({ closingDate: frame.closingDate, timeZone: frame.timeZone, requirements, openGaps, ownerId: bid.owner_id }), now);
  return { requirements: requirements.length, drafts: drafts.length, open_gaps: openGaps.length, plan: planView(state, bid) };
}

/** The bid's own checks for the worth-bidding card: mandatory requirements (not instructions) whose draft has no evidence, and open gaps. */
export function bidChecks(state: StateDb, requirements: readonly WorkspaceRequirement[], bidId: string): { mandatoryWithoutDraft: number; openGaps: number } {
  const drafts = new Map(listDrafts(state, bidId).map((draft) => [draft.requirement_id, draft]));
  return {
    mandatoryWithoutDraft: requirements.filter((requirement) => requirement.mandatory && requirement.kind !== 'instruction' && !hasEvidence(drafts.get(requirement.requirement_id))).length,
    openGaps: listGaps(state, bidId).filter((gap) => gap.status === 'open').length,
  };
}
