// The requirements with their drafts (all, or the mandatory ones only), and recomputing drafts, gaps and plan.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { draftAnswers, requirementItem } from '../../lib/bid-items.ts';
import { Recomputed } from '../../lib/bids-api.ts';
import { marked, say } from '../../lib/dom.ts';
import { count, plural } from '../../lib/format.ts';
import type { BidState } from './bid-state.ts';

export function requirementsSection(state: BidState): void {
  const status = marked('requirements-status');
  const mandatoryOnly = marked<HTMLInputElement>('mandatory-only');

  function showRequirements(): void {
    const { drafts, requirements } = state.overview;
    const byRequirement = new Map(drafts.map((draft) => [draft.requirement_id, draft]));
    const list = requirements.filter((requirement) => !mandatoryOnly.checked || requirement.mandatory);
    const mandatory = list.filter((requirement) => requirement.mandatory).length;
    say(status, list.length === 0 ? (mandatoryOnly.checked ? 'No mandatory requirements.' : 'No requirements yet: upload the tender files and they are read from them.') : `${plural(list.length, 'requirement')}${mandatoryOnly.checked ? ' that are mandatory' : `, ${count(mandatory)} mandatory`}; ${count(list.filter((requirement) => draftAnswers(byRequirement.get(requirement.requirement_id))).length)} with a draft that answers it.`);
    marked('requirements').replaceChildren(...list.map((requirement, index) => requirementItem(state.view, requirement, index + 1, byRequirement.get(requirement.requirement_id))));
  }

  state.drawsWith(showRequirements);
  mandatoryOnly.addEventListener('change', () => showRequirements());
  const recompute = marked<HTMLButtonElement>('recompute');
  recompute.addEventListener('click', async () => {
    say(status, 'Recomputing drafts, gaps and plan…');
    const recomputed = await answered(() => callApi(Recomputed, state.view.api('/plan/recompute'), { method: 'POST' }), status, recompute);
    if (recomputed !== null) await state.refreshInto(status);
  });
}
