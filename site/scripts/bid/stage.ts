// The bid's heading, what it answers and when it closes, its stage, and the form that moves it on (a move the
// API refuses shows why, and where the bid stands now).
import { stageName } from '../../../lib/glossary.ts';
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Bid, orgPath } from '../../lib/bids-api.ts';
import { link, marked, say } from '../../lib/dom.ts';
import { day, instant, instantIn } from '../../lib/format.ts';
import { jurisdictionName } from '../../lib/places.ts';
import type { BidState } from './bid-state.ts';

export function stageSection(state: BidState): void {
  const form = marked<HTMLFormElement>('stage-form');
  const select = form.querySelector<HTMLSelectElement>('select')!;

  function showBid(bid: Bid): void {
    state.bid = bid;
    document.title = `${bid.title} · Tender intelligence`;
    marked('bid-heading').textContent = bid.title;
    const about = marked('bid-about');
    const closes = bid.closing_at ? `closes ${bid.buyer_time_zone ? instantIn(bid.closing_at, bid.buyer_time_zone) : instant(bid.closing_at)}` : bid.closing_date ? `closes ${day(bid.closing_date)}` : 'no closing date';
    about.replaceChildren('By ', link(bid.company_name, orgPath(bid.org_id)), bid.tender_key ? ' for ' : ' for a tender outside this site');
    if (bid.tender_key) about.append(link('the tender', `/tenders/${bid.tender_key}/`));
    about.append(`${bid.buyer ? ` from ${bid.buyer}` : ''}${bid.jurisdiction ? ` in ${jurisdictionName(bid.jurisdiction)}` : ''}; ${closes}${bid.due_date ? `; your due date ${day(bid.due_date)}` : ''}.`);
    marked('stage').textContent = stageName(bid.stage);
    select.replaceChildren(...bid.next_stages.map((stage) => new Option(stageName(stage), stage)));
    form.hidden = !state.view.mayWrite || bid.next_stages.length === 0;
  }

  state.drawsWith(() => showBid(state.bid));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const refused = marked('stage-refused');
    say(refused, '');
    const moved = await answered(() => callApi(Bid, state.view.api(), { method: 'PATCH', body: { stage: select.value } }), refused);
    if (moved === null) {
      // A refused move usually means the bid moved on elsewhere: show where it stands now.
      await state.refresh();
      return;
    }
    showBid(moved);
  });
}
