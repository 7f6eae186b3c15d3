// The form that creates an organisation (the creator is its owner) and opens its page.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Membership, orgPath } from '../../lib/bids-api.ts';
import { field, marked, say, submitButton } from '../../lib/dom.ts';

export function wireCreateForm(): void {
  const form = marked<HTMLFormElement>('create-org');
  const refused = marked('create-refused');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(refused, '');
    const name = field(form, 'company_name').value.trim();
    if (!name) {
      say(refused, 'Enter the company name first.');
      return;
    }
    const created = await answered(() => callApi(Membership, '/v1/orgs', { method: 'POST', body: { company_name: name } }), refused, submitButton(form));
    if (created !== null) location.assign(orgPath(created.org_id));
  });
}
