// The form that prepares a bid: for an organisation the reader may write for, answering a tender of the
// corpus (found by its name as the reader types) or one outside it by its title. The form opens on request,
// so the board alone loads in one API call; it opens by itself for a tender named in the address (the tender
// page's "Prepare a bid") and when there is no bid yet.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Bid, bidPath, MembershipList, TenderNamed, tenderTwinPath } from '../../lib/bids-api.ts';
import { field, marked, say, submitButton } from '../../lib/dom.ts';
import { tenderFinder } from './tender-finder.ts';

const form = marked<HTMLFormElement>('create-bid');
const refused = marked('create-refused');
const opener = marked<HTMLButtonElement>('open-create');
const orgSelect = field<HTMLSelectElement>(form, 'org_id');
const tenderKey = field(form, 'page_key');
const titleInput = field(form, 'title');
const finder = tenderFinder(form.querySelector<HTMLInputElement>('#bid-tender')!, marked('tender-options'), tenderKey, marked('tender-named'));
const answers = () => form.querySelector<HTMLInputElement>('input[name="answers"]:checked')!.value;

/**
 * The tender a key names, read from its JSON twin (a static file, so no API call); when the twin cannot be
 * read, from the API, whose refusal says why.
 */
async function fillTender(key: string): Promise<void> {
  const twin = await callApi(TenderNamed, tenderTwinPath(key));
  const tender = twin.ok ? twin : await callApi(TenderNamed, `/v1/tenders/${encodeURIComponent(key)}`);
  if (tender.ok) finder.choose(tender.value);
  else say(marked('tender-named'), tender.detail);
}

function showAnswerFields(): void {
  const byTitle = answers() === 'title';
  marked('tender-field').hidden = byTitle;
  marked('title-field').hidden = !byTitle;
}

/** The form's fields follow what the bid answers; sent, it creates the bid and opens its page. */
export function wireCreateForm(): void {
  for (const choice of form.querySelectorAll<HTMLInputElement>('input[name="answers"]')) choice.addEventListener('change', showAnswerFields);
  opener.addEventListener('click', () => void openCreateForm(null, null, true));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(refused, '');
    const byTitle = answers() === 'title';
    if (!byTitle && !tenderKey.value) {
      say(refused, 'Choose the tender from the matches: type words of its title or buyer, then pick one.');
      return;
    }
    const due = field(form, 'due_date').value;
    const body = {
      org_id: orgSelect.value,
      ...(byTitle ? { title: titleInput.value.trim() } : { page_key: tenderKey.value }),
      ...(due ? { due_date: due } : {}),
    };
    const created = await answered(() => callApi(Bid, '/v1/bids', { method: 'POST', body }), refused, submitButton(form));
    if (created !== null) location.assign(bidPath(created.bid_id));
  });
}

let opened = false;

/**
 * Opens the form once: offers the organisations the reader may write for (`org` chosen), or says why no bid
 * can be prepared, and fills in the tender (`tender`, from the tender page's "Prepare a bid"). `focus` moves
 * the reader to the form's heading, as after pressing the button that opens it.
 */
export async function openCreateForm(org: string | null, tender: string | null, focus: boolean): Promise<void> {
  if (opened) return;
  opened = true;
  opener.hidden = true;
  marked('create-area').hidden = false;
  // The button pressed is gone: the reader lands on the form's heading.
  if (focus) marked('create-heading').focus();
  const orgs = await callApi(MembershipList, '/v1/orgs');
  if (!orgs.ok) {
    form.hidden = true;
    say(marked('orgs-refused'), orgs.detail);
    return;
  }
  const writable = orgs.value.orgs.filter((membership) => membership.role !== 'viewer');
  for (const membership of writable) orgSelect.append(new Option(membership.company_name, membership.org_id, false, membership.org_id === org));
  if (writable.length === 0) {
    form.hidden = true;
    marked('no-org').hidden = false;
    return;
  }
  if (tender) await fillTender(tender);
}
