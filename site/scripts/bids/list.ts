// The bids of the reader's organisations (`?org=` narrows to one) as a board: a column for each stage (a list,
// stage by stage, on a narrow screen), each card linking its bid's page. The bids come in one API call; each
// card's value is read from its tender's JSON twin, a static file, a few at a time.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { BidList, bidPath, TenderNamed, tenderTwinPath, type Bid } from '../../lib/bids-api.ts';
import { boardColumns, boardSummary, cardLines, valueWords, type BoardColumn } from '../../lib/bid-board.ts';
import { element, link, marked, say } from '../../lib/dom.ts';
import { plural } from '../../lib/format.ts';

/** Tender files read at once: the browser would queue more anyway, and a long board should not hold up the page. */
const TWINS_AT_ONCE = 4;

interface Shown {
  asOf: string;
  /** The signed-in reader's email address. */
  reader: string;
  /** Whether the bids are of more than one organisation, so each card names its own. */
  showCompany: boolean;
  /** Each card's value line, by bid id, filled once its tender's twin is read. */
  values: Map<string, HTMLElement>;
}

function card(bid: Bid, shown: Shown): HTMLLIElement {
  const item = element('li', undefined, 'bid-card');
  const lines = cardLines(bid, shown.asOf, shown.reader);
  const title = element('h4');
  title.append(link(bid.title, bidPath(bid.bid_id)));
  const facts = element('ul', undefined, 'card-facts');
  const fact = (text: string, className?: string) => {
    if (text) facts.append(element('li', text, className));
  };
  fact(lines.outcome, 'outcome');
  fact(lines.buyer);
  if (bid.tender_key) {
    const value = element('li', '', 'value');
    value.hidden = true;
    shown.values.set(bid.bid_id, value);
    facts.append(value);
  }
  fact(lines.closing, 'closing');
  fact(lines.due);
  fact(lines.owner);
  if (shown.showCompany) fact(`For ${bid.company_name}`, 'meta');
  item.append(title, facts);
  return item;
}

function column(stage: BoardColumn<Bid>, cards: HTMLLIElement[]): HTMLElement {
  const section = element('section', undefined, stage.bids.length === 0 ? 'stage empty' : 'stage');
  section.setAttribute('aria-labelledby', stage.id);
  const heading = element('h3', stage.heading);
  heading.id = stage.id;
  heading.append(' ', element('span', `(${plural(stage.bids.length, 'bid')})`, 'meta'));
  section.append(heading);
  if (cards.length === 0) section.append(element('p', 'None.', 'meta'));
  else {
    const list = element('ul', undefined, 'bid-cards');
    list.append(...cards);
    section.append(list);
  }
  return section;
}

/** Fills each card's value from its tender's JSON twin, `TWINS_AT_ONCE` at a time; a twin that cannot be read leaves the line out. */
async function fillValues(bids: readonly Bid[], values: Map<string, HTMLElement>): Promise<void> {
  const waiting = bids.filter((bid) => bid.tender_key !== null && values.has(bid.bid_id));
  const next = async (): Promise<void> => {
    const bid = waiting.shift();
    if (!bid) return;
    const tender = await callApi(TenderNamed, tenderTwinPath(bid.tender_key!));
    const line = values.get(bid.bid_id)!;
    if (tender.ok) {
      line.textContent = valueWords(tender.value.value_text);
      line.hidden = false;
    }
    await next();
  };
  await Promise.all(Array.from({ length: TWINS_AT_ONCE }, next));
}

/** Shows the board to `reader` (their email address); returns how many bids it holds, or null when the API refused. */
export async function showBids(org: string | null, reader: string): Promise<number | null> {
  const status = marked('bids-status');
  const reply = await answered(() => callApi(BidList, `/v1/bids${org ? `?org_id=${encodeURIComponent(org)}` : ''}`), status);
  if (reply === null) return null;
  const { bids } = reply;
  const company = org && bids[0] ? bids[0].company_name : null;
  say(status, boardSummary(bids, company));
  const shown: Shown = { asOf: new Date().toISOString(), reader, showCompany: new Set(bids.map((bid) => bid.org_id)).size > 1, values: new Map() };
  const board = marked('bids');
  board.replaceChildren(...boardColumns(bids).map((stage) => column(stage, stage.bids.map((bid) => card(bid, shown)))));
  board.hidden = bids.length === 0;
  void fillValues(bids, shown.values);
  return bids.length;
}
