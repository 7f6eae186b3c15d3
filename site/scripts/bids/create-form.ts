// The form that prepares a bid: for an organisation the reader may write for, answering a tender of the
// corpus (named as its key is typed) or one outside it by its title.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Bid, bidPath, MembershipList, TenderNamed } from '../../lib/bids-api.ts';
import { field, marked, say, submitButton } from '../../lib/dom.ts';
import { day } from '../../lib/format.ts';

const form = marked<HTMLFormElement>('create-bid');
const refused = marked('create-refused');
const orgSelect = field<HTMLSelectElement>(form, 'org_id');
const tenderInput = field(form, 'page_key');
const titleInput = field(form, 'title');
const tenderNamed = marked('tender-named');
const answers = () => form.querySelector<HTMLInputElement>('input[name="answers"]:checked')!.value;

/** Names the tender a key points at, so the reader sees what the bid will answer before creating it. */
async function nameTender(): Promise<void> {
  const key = tenderInput.value.trim();
  if (!key) {
    tenderNamed.textContent = '';
    return;
  }
  const tender = await callApi(TenderNamed, `/v1/tenders/${encodeURIComponent(key)}`);
  tenderNamed.textContent = tender.ok
    ? `${tender.value.title}${tender.value.buyer ? `, from ${tender.value.buyer}` : ''}${tender.value.closing_date ? `, closing ${day(tender.value.closing_date)}` : ''}.`
    : tender.detail;
}

function showAnswerFields(): void {
  const byTitle = answers() === 'title';
  marked('tender-field').hidden = byTitle;
  marked('title-field').hidden = !byTitle;
}

/** The form's fields follow what the bid answers; sent, it creates the bid and opens its page. */
export function wireCreateForm(): void {
  for (const choice of form.querySelectorAll<HTMLInputElement>('input[name="answers"]')) choice.addEventListener('change', showAnswerFields);
  tenderInput.addEventListener('change', () => void nameTender());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(refused, '');
    const due = field(form, 'due_date').value;
    const body = {
      org_id: orgSelect.value,
      ...(answers() === 'tender' ? { page_key: tenderInput.value.trim() } : { title: titleInput.value.trim() }),
      ...(due ? { due_date: due } : {}),
    };
    const created = await answered(() => callApi(Bid, '/v1/bids', { method: 'POST', body }), refused, submitButton(form));
    if (created !== null) location.assign(bidPath(created.bid_id));
  });
}

/**
 * Offers the organisations the reader may write for (`org` chosen), or says why no bid can be prepared, and
 * fills in the tender (`tender`, from the tender page's "Prepare a bid").
 */
export async function offerCreateForm(org: string | null, tender: string | null): Promise<void> {
  const orgs = await callApi(MembershipList, '/v1/orgs');
  if (!orgs.ok) {
    form.hidden = true;
    say(refused, orgs.detail);
    refused.hidden = false;
  }
  const writable = orgs.ok ? orgs.value.orgs.filter((membership) => membership.role !== 'viewer') : [];
  for (const membership of writable) orgSelect.append(new Option(membership.company_name, membership.org_id, false, membership.org_id === org));
  if (orgs.ok && writable.length === 0) {
    form.hidden = true;
    marked('no-org').hidden = false;
  }
  if (tender) {
    tenderInput.value = tender;
    void nameTender();
  }
}
