import { sha256Hex } from '../../../lib/hash.ts';
import type { StateDb } from '../../../data/state/db.ts';
import type { AnalysisPool } from '../../checkers/_runner/pool.ts';
import type { DocumentLibrary } from '../../orgs/documents.ts';
import { readProfile } from '../../orgs/profile.ts';
import type { ChatModel } from '../../providers/chat-model.ts';
import type { WorkspaceRequirement } from '../workspace-requirement.ts';
import { composeDraft, type ComposedDraft } from './compose.ts';
import { libraryTexts } from './library-text.ts';
import { rankPassages, type Passage } from './retrieval.ts';
import { organisationPassages } from './sources.ts';
import { draftBasis, removeStaleDrafts, saveComposedDraft } from './store.ts';

export interface DraftDeps {
  state: StateDb;
  library: DocumentLibrary;
  /** The checkers' reading threads, which read library documents not read before. */
  pool: AnalysisPool;
  model: ChatModel;
}

/** The passages of the organisation's own words a bid's drafts retrieve from: its profile, library and earlier bids. */
export async function bidPassages(deps: DraftDeps, bid: { bid_id: string; org_id: string }, now: Date): Promise<Passage[]> {
  const profile = await readProfile(deps.state, bid.org_id);
  if (!profile) throw new Error(`The organisation ${bid.org_id} of bid ${bid.bid_id} has no profile row.`);
  return await organisationPassages(deps.state, profile, await libraryTexts(deps.state, deps.library, bid.org_id, deps.pool, now), bid.bid_id);
}

/** How one requirement's draft came out: kept as it was, or written now (and whether it cites anything). */
export type DraftOutcome =
  | { outcome: 'kept'; reason: 'person' | 'unchanged' }
  | { outcome: 'written'; origin: ComposedDraft['origin']; cited: number; undrafted: string | null };

/**
 * Writes the draft of one requirement unless a person wrote it, or the model wrote it from the same
 * requirement and passages (asking again would only cost). `withoutModel`: the reason the model is not to be
 * asked, for composeDraft. A model reply that cites nothing is stored without a basis, so the next recompute
 * asks again.
 */
export async function draftRequirement(
  deps: DraftDeps,
  bidId: string,
  requirement: Pick<WorkspaceRequirement, 'requirement_id' | 'text'>,
  passages: readonly Passage[],
  now: Date,
  withoutModel?: string,
): Promise<DraftOutcome> {
  const stored = await draftBasis(deps.state, bidId, requirement.requirement_id);
  if (stored?.origin === 'person') return { outcome: 'kept', reason: 'person' };
  const retrieved = rankPassages(passages, requirement.text);
  const modelName = withoutModel === undefined ? deps.model.model : null;
  const basis = sha256Hex(JSON.stringify([modelName, requirement.text, retrieved.map(({ text, citation }) => [text, citation])]));
  if (stored?.origin === 'model' && stored.model === modelName && stored.basis === basis) return { outcome: 'kept', reason: 'unchanged' };
  const draft = await composeDraft(requirement.text, retrieved, deps.model, withoutModel);
  await saveComposedDraft(deps.state, bidId, requirement.requirement_id, draft, draft.undrafted === null ? basis : null, now);
  return { outcome: 'written', origin: draft.origin, cited: draft.citations.length, undrafted: draft.undrafted };
}

/**
 * Writes the draft of every requirement a person has not written (instructions to tenderers have none): the passages of the organisation's own
 * documents that answer it, retrieved and cited, worded by the model when one is configured. A model's draft
 * whose requirement and passages are unchanged is kept rather than asked for again. Drafts of requirements
 * the bid no longer has are removed, unless a person wrote them.
 */
export async function recomputeDrafts(deps: DraftDeps, bid: { bid_id: string; org_id: string }, requirements: readonly WorkspaceRequirement[], now: Date): Promise<void> {
  const passages = await bidPassages(deps, bid, now);
  // An instruction to tenderers (how and where to lodge) is followed, not answered: it has no draft.
  for (const requirement of requirements) if (requirement.kind !== 'instruction') await draftRequirement(deps, bid.bid_id, requirement, passages, now);
  await removeStaleDrafts(deps.state, bid.bid_id, requirements.map((requirement) => requirement.requirement_id));
}
