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
import { readDraft, removeStaleDrafts, saveComposedDraft } from './store.ts';

export interface DraftDeps {
  state: StateDb;
  library: DocumentLibrary;
  /** The checkers' reading threads, which read library documents not read before. */
  pool: AnalysisPool;
  model: ChatModel;
}

/**
 * Writes the draft of every requirement a person has not written: the passages of the organisation's own
 * documents that answer it, retrieved and cited, worded by the model when one is configured. Drafts of
 * requirements the bid no longer has are removed, unless a person wrote them.
 */
export async function recomputeDrafts(deps: DraftDeps, bid: { bid_id: string; org_id: string }, requirements: readonly WorkspaceRequirement[], now: Date): Promise<void> {
  const profile = readProfile(deps.state, bid.org_id);
  if (!profile) throw new Error(`The organisation ${bid.org_id} of bid ${bid.bid_id} has no profile row.`);
  const passages = organisationPassages(deps.state, profile, await libraryTexts(deps.state, deps.library, bid.org_id, deps.pool, now), bid.bid_id);
  for (const requirement of requirements) {
    if (readDraft(deps.state, bid.bid_id, requirement.requirement_id)?.origin === 'person') continue;
    const draft = await composeDraft(requirement.text, rankPassages(passages, requirement.text), deps.model);
    saveComposedDraft(deps.state, bid.bid_id, requirement.requirement_id, draft, now);
  }
  removeStaleDrafts(deps.state, bid.bid_id, requirements.map((requirement) => requirement.requirement_id));
}
