// The bids page's script: once the reader is signed in, the form is offered and the bids listed.
import { signedInArea } from '../../lib/signed-in-area.ts';
import { offerCreateForm, wireCreateForm } from './create-form.ts';
import { showBids } from './list.ts';

const address = new URLSearchParams(location.search);
wireCreateForm();

void (async () => {
  if (!(await signedInArea())) return;
  await offerCreateForm(address.get('org'), address.get('tender'));
  await showBids(address.get('org'));
})();
