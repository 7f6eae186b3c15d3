import { sha256Hex } from '../../../lib/hash.ts';
import type { StateDb } from '../../../data/state/db.ts';
import type { AnalysisPool } from '../../documents/pool.ts';
import type { DocumentLibrary } from '../../orgs/documents.ts';
import { readProfile } from '../../orgs/profile.ts';
import type { ChatModel } from '../../providers/chat-model.ts';
import type { WorkspaceRequirement } from '../workspace-requirement.ts';
import { composeDraft } from './compose.ts';
import { libraryTexts } from './library-text.ts';
import { rankPassages } from './retrieval.ts';
import { organisationPassages } from './sources.ts';
import { draftBasis, removeStaleDrafts, saveComposedDraft } from './store.ts';

export interface DraftDeps {
  state: StateDb;
  library: DocumentLibrary;
  /** The checkers' reading threads, which read library documents not read before. */
  pool: AnalysisPool;
  model: ChatModel;
}

/**
 * Writes the draft of every requirement a person has not written (instructions to tenderers have none): the passages of the organisation's own
 * documents that answer it, retrieved and cited, worded by the model when one is configured. A model's draft
 * whose requirement and passages are unchanged is kept rather than asked for again. Drafts of requirements
 * the bid no longer has are removed, unless a person wrote them.
 */
export async function recomputeDrafts(deps: DraftDeps, bid: { bid_id: string; org_id: string }, requirements: readonly WorkspaceRequirement[], now: Date): Promise<void> {
  const profile = readProfile(deps.state, bid.org_id);
  if (!profile) throw new Error(`The organisation ${bid.org_id} of bid ${bid.bid_id} has no profile row.`);
  const passages = organisationPassages(deps.state, profile, await libraryTexts(deps.state, deps.library, bid.org_id, deps.pool, now), bid.bid_id);
  for (const requirement of requirements) {
    // An instruction to tenderers (how and where to lodge) is followed, not answered: it has no draft.
    if (requirement.kind === 'instruction') continue;
    const stored = draftBasis(deps.state, bid.bid_id, requirement.requirement_id);
    if (stored?.origin === 'person') continue;
    const retrieved = rankPassages(passages, requirement.text);
    const basis = sha256Hex(JSON.stringify([deps.model.model, requirement.text, retrieved.map(({ text, citation }) => [text, citation])]));
    // The model wrote this draft from the same requirement and passages: asking again would only cost.
    if (stored?.origin === 'model' && stored.model === deps.model.model && stored.basis === basis) continue;
    const draft = await composeDraft(requirement.text, retrieved, deps.model);
    saveComposedDraft(deps.state, bid.bid_id, requirement.requirement_id, draft, basis, now);
  }
  removeStaleDrafts(deps.state, bid.bid_id, requirements.map((requirement) => requirement.requirement_id));
}
