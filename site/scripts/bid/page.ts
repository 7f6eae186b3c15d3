// The bid page's script: each section wires its controls and draws its part of the overview; once the reader
// is signed in, the bid is read in one call and the page drawn, with what a viewer may not change left out.
import { idFromAddress } from '../../lib/bids-api.ts';
import { marked, say } from '../../lib/dom.ts';
import { signedInArea } from '../../lib/signed-in-area.ts';
import { BidState } from './bid-state.ts';
import { offerExport } from './export-links.ts';
import { filesSection } from './files.ts';
import { gapsSection } from './gaps.ts';
import { followPack, packSection } from './pack.ts';
import { paymentSection, showCheckoutReturn } from './payment.ts';
import { planSection } from './plan.ts';
import { requirementsSection } from './requirements.ts';
import { runSection } from './run.ts';
import { stageSection } from './stage.ts';
import { threadSection } from './thread.ts';
import { worthSection } from './worth.ts';

const bidId = idFromAddress();
const state = new BidState(bidId);
for (const section of [stageSection, worthSection, paymentSection, runSection, filesSection, packSection, requirementsSection, gapsSection, planSection, threadSection]) section(state);

void (async () => {
  if (!(await signedInArea())) return;
  if (bidId === null) {
    say(marked('bid-refused'), 'This page shows one bid: open it from your bids.');
    return;
  }
  const refused = await state.read();
  if (refused !== null) {
    say(marked('bid-refused'), refused);
    return;
  }
  for (const control of document.querySelectorAll<HTMLElement>('[data-writes]')) control.hidden = !state.view.mayWrite;
  marked('read-only').hidden = state.view.mayWrite;
  state.drawAll();
  offerExport(state);
  showCheckoutReturn(state.overview.payment);
  marked('bid').hidden = false;
  await followPack(state);
})();
