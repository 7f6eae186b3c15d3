// The bids of the reader's organisations (`?org=` narrows to one), each linked to its page.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { BidList, bidPath } from '../../lib/bids-api.ts';
import { element, link, marked, say } from '../../lib/dom.ts';
import { day, plural } from '../../lib/format.ts';

export async function showBids(org: string | null): Promise<void> {
  const status = marked('bids-status');
  const reply = await answered(() => callApi(BidList, `/v1/bids${org ? `?org_id=${encodeURIComponent(org)}` : ''}`), status);
  if (reply === null) return;
  const { bids } = reply;
  say(status, bids.length === 0 ? 'No bids yet: prepare one below.' : `${plural(bids.length, 'bid')}${org ? ` of ${bids[0]!.company_name}` : ''}.`);
  marked('bids').replaceChildren(...bids.map((bid) => {
    const item = element('li');
    const what = element('span');
    const closes = bid.closing_date ? `closes ${day(bid.closing_date)}` : 'no closing date';
    const due = bid.due_date ? ` · due ${day(bid.due_date)}` : '';
    what.append(link(bid.title, bidPath(bid.bid_id)), element('br'), element('span', `${bid.company_name} · ${bid.stage} · ${closes}${due}`, 'meta'));
    item.append(what);
    return item;
  }));
}
