import { isJurisdiction, localDate, timeZoneOf, type Jurisdiction } from '../../lib/jurisdictions.ts';
import type { StateDb } from '../../data/state/db.ts';
import { readProfile } from '../orgs/profile.ts';
import type { BidRecord } from './access.ts';
import { listRequirements, recomputeRequirements, type RecomputeOptions } from './requirements/store.ts';
import { libraryTexts } from './drafts/library-text.ts';
import { recomputeDrafts, type DraftDeps } from './drafts/recompute.ts';
import { listDrafts } from './drafts/store.ts';
import { deriveGaps, hasEvidence, listGaps, storeGaps, type StoredGap } from './gaps.ts';
import { activePartners, partnerCatalogue, type Partner } from './partners.ts';
import { worthBiddingCard, type WorthBiddingCard } from './worth-bidding.ts';
import { intelContextOf } from '../schemas/intelligence.ts';
import type { ReleaseStore } from '../release-store.ts';
import { listPlan, schedulePlan, storePlan, type ServedTask } from './plan.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

/**
 * The bid workspace as one recompute: the requirements (extracted again from the bid's files), then the
 * drafts (a person's never overwritten), the requirements' drafted state from those drafts, the gaps and
 * the plan, in that order, each reading what the one before wrote.
 */

/** Where the workspace reads a bid's requirements from, and how it asks for them to be brought up to date. */
export interface RequirementSource {
  list(state: StateDb, bidId: string): Promise<WorkspaceRequirement[]>;
  recompute(state: StateDb, bidId: string, options: RecomputeOptions): Promise<unknown>;
}

/** The requirements module's store (api/bids/requirements/store.ts). */
export const storedRequirements: RequirementSource = {
  list: async (state, bidId) => await listRequirements(state, bidId),
  recompute: recomputeRequirements,
};

export interface WorkspaceDeps extends DraftDeps {
  requirements: RequirementSource;
}

/** The organisation profile's region, else the tender's jurisdiction: where a gap is to be closed. */
export async function bidRegion(state: StateDb, bid: BidRecord): Promise<Jurisdiction | null> {
  const region = (await readProfile(state, bid.org_id))?.region ?? null;
  if (region) return region;
  return bid.jurisdiction !== null && isJurisdiction(bid.jurisdiction) ? bid.jurisdiction : null;
}

/** The buyer's time zone (else the region's, else Sydney's) and the day the plan counts back from (closing, else the bid's due date). */
export async function planFrame(state: StateDb, bid: BidRecord): Promise<{ timeZone: string; closingDate: string | null }> {
  const region = await bidRegion(state, bid);
  return { timeZone: bid.buyer_time_zone ?? (region ? timeZoneOf(region) : 'Australia/Sydney'), closingDate: bid.closing_date ?? bid.due_date };
}

export interface PlanView {
  time_zone: string | null;
  closing_date: string | null;
  tasks: ServedTask[];
}

export async function planView(state: StateDb, bid: BidRecord): Promise<PlanView> {
  const frame = await planFrame(state, bid);
  return { time_zone: frame.timeZone, closing_date: frame.closingDate, tasks: await listPlan(state, bid.bid_id) };
}

export interface RecomputeSummary {
  requirements: number;
  drafts: number;
  open_gaps: number;
  plan: PlanView;
}

export async function recomputeWorkspace(deps: WorkspaceDeps, bid: BidRecord, now: Date): Promise<RecomputeSummary> {
  const { state } = deps;
  await deps.requirements.recompute(state, bid.bid_id, { now });
  await recomputeDrafts(deps, bid, await deps.requirements.list(state, bid.bid_id), now);
  await markDrafted(deps, bid.bid_id, now);
  await recomputeGaps(deps, bid, now);
  await recomputePlan(deps, bid, now);
  const openGaps = (await listGaps(state, bid.bid_id)).filter((gap) => gap.status === 'open');
  return { requirements: (await deps.requirements.list(state, bid.bid_id)).length, drafts: (await listDrafts(state, bid.bid_id)).length, open_gaps: openGaps.length, plan: await planView(state, bid) };
}

/** A requirement whose draft carries evidence is drafted; one whose draft lost it is open again. */
export async function markDrafted(deps: Pick<WorkspaceDeps, 'state' | 'requirements'>, bidId: string, now: Date): Promise<void> {
  const drafts = await listDrafts(deps.state, bidId);
  await deps.requirements.recompute(deps.state, bidId, { now, drafted: new Set(drafts.filter(hasEvidence).map((draft) => draft.requirement_id)) });
}

/** Derives and stores the gaps from the requirements and drafts as they stand; returns how many are open. */
export async function recomputeGaps(deps: WorkspaceDeps, bid: BidRecord, now: Date): Promise<number> {
  const { state } = deps;
  const frame = await planFrame(state, bid);
  await storeGaps(
    state,
    bid.bid_id,
    deriveGaps({
      requirements: await deps.requirements.list(state, bid.bid_id),
      drafts: await listDrafts(state, bid.bid_id),
      library: await libraryTexts(state, deps.library, bid.org_id, deps.pool, now),
      today: localDate(now, frame.timeZone),
      closingDate: bid.closing_date,
      region: await bidRegion(state, bid),
    }),
    now,
  );
  return (await listGaps(state, bid.bid_id)).filter((gap) => gap.status === 'open').length;
}

/** Back-schedules and stores the plan from the requirements and open gaps; returns how many tasks it has. */
export async function recomputePlan(deps: Pick<WorkspaceDeps, 'state' | 'requirements'>, bid: BidRecord, now: Date): Promise<number> {
  const { state } = deps;
  const frame = await planFrame(state, bid);
  const openGaps = (await listGaps(state, bid.bid_id)).filter((gap) => gap.status === 'open');
  const requirements = await deps.requirements.list(state, bid.bid_id);
  const tasks = frame.closingDate === null ? [] : schedulePlan({ closingDate: frame.closingDate, timeZone: frame.timeZone, requirements, openGaps, ownerId: bid.owner_id });
  await storePlan(state, bid.bid_id, tasks, now);
  return tasks.length;
}

/** Today in the buyer's time zone (else the region's, else Sydney's) at `now`: the day the chat's recap, the worth-bidding card and a run's checks count from. */
export async function bidToday(state: StateDb, bid: BidRecord, now: Date): Promise<string> {
  return localDate(now, (await planFrame(state, bid)).timeZone);
}

/**
 * The bid's own checks, as the worth-bidding card and the chat's recap both show them: mandatory requirements
 * in force without evidence (a person's text or a cited passage; one a person marked met or not applicable is
 * settled; an instruction to tenderers needs none), and open gaps.
 */
export async function bidChecks(state: StateDb, requirements: readonly WorkspaceRequirement[], bidId: string): Promise<{ mandatoryWithoutDraft: number; openGaps: number }> {
  const drafts = new Map((await listDrafts(state, bidId)).map((draft) => [draft.requirement_id, draft]));
  return {
    mandatoryWithoutDraft: requirements.filter(
      (requirement) => requirement.mandatory && requirement.kind !== 'instruction' && requirement.state !== 'met' && requirement.state !== 'not_applicable' && !hasEvidence(drafts.get(requirement.requirement_id)),
    ).length,
    openGaps: (await listGaps(state, bidId)).filter((gap) => gap.status === 'open').length,
  };
}

export interface GapListView {
  gaps: (StoredGap & { partners: Partner[] })[];
  /** Rows per category. */
  counts: Record<string, number>;
}

/** GET …/gaps: the stored gaps, each with the active partners serving its category and region, and a count per category. */
export async function gapListView(state: StateDb, bidId: string): Promise<GapListView> {
  const gaps = await listGaps(state, bidId);
  const counts: Record<string, number> = {};
  for (const gap of gaps) counts[gap.category] = (counts[gap.category] ?? 0) + 1;
  return { gaps: gaps.map((gap) => withPartners(gap)), counts };
}

export function withPartners(gap: StoredGap): StoredGap & { partners: Partner[] } {
  return { ...gap, partners: activePartners(partnerCatalogue(), gap.category, gap.region) };
}

/** GET …/worth-bidding: the card, or why it cannot be built yet (no release is loaded). */
export async function worthBidding(
  deps: { state: StateDb; store: Pick<ReleaseStore, 'state' | 'now'>; requirements: RequirementSource },
  bid: BidRecord,
): Promise<{ ready: true; card: WorthBiddingCard } | { ready: false; detail: string }> {
  const served = deps.store.state();
  if (!served.ready) return { ready: false, detail: `${served.detail} Try again later.` };
  const checks = { ...await bidChecks(deps.state, await deps.requirements.list(deps.state, bid.bid_id), bid.bid_id), today: await bidToday(deps.state, bid, deps.store.now()) };
  return { ready: true, card: await worthBiddingCard(intelContextOf(served.release, deps.store.now()), bid, checks) };
}
