// The tender pack fetched from the portal (one portal's documents are public): the offer, the fetch under
// way, and how it ended.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { PackFetch, type PackFetchPart } from '../../lib/bids-api.ts';
import { marked, say } from '../../lib/dom.ts';
import type { BidState } from './bid-state.ts';

const PACK_POLL_MS = 3000;
const PACK_POLLS = 40;
const packBusy = (part: PackFetchPart) => part.last_fetch?.state === 'queued' || part.last_fetch?.state === 'running';

function showPack(state: BidState, part: PackFetchPart): void {
  const box = marked('pack');
  box.hidden = !part.offer.available && part.last_fetch === null;
  const last = part.last_fetch;
  say(marked('pack-status'), packBusy(part) ? `Fetching the tender documents from ${part.offer.portal}…` : (last?.detail ?? part.offer.detail));
  const button = marked<HTMLButtonElement>('pack-fetch');
  button.textContent = `Fetch the tender documents from ${part.offer.portal}`;
  button.hidden = !state.view.mayWrite || !part.offer.available || packBusy(part);
}

/** Reads the overview every few seconds (well inside the burst guard's refill) until the fetch has ended. */
export async function followPack(state: BidState): Promise<void> {
  for (let poll = 0; poll < PACK_POLLS && packBusy(state.overview.pack_fetch); poll++) {
    await new Promise((resolve) => setTimeout(resolve, PACK_POLL_MS));
    const refused = await state.refresh();
    if (refused !== null) {
      say(marked('pack-refused'), refused);
      return;
    }
  }
}

export function packSection(state: BidState): void {
  state.drawsWith(() => showPack(state, state.overview.pack_fetch));
  marked<HTMLButtonElement>('pack-fetch').addEventListener('click', async () => {
    const refused = marked('pack-refused');
    say(refused, '');
    const queued = await answered(() => callApi(PackFetch, state.view.api('/pack/fetch'), { method: 'POST' }), refused);
    if (queued === null) return;
    state.overview.pack_fetch.last_fetch = queued;
    showPack(state, state.overview.pack_fetch);
    await followPack(state);
  });
}
