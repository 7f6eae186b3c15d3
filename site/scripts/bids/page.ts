// The bids page's script: once the reader is signed in, the board is shown; the form that prepares a bid opens
// on request, or at once for a tender named in the address or when there is no bid yet.
import { signedInArea } from '../../lib/signed-in-area.ts';
import { openCreateForm, wireCreateForm } from './create-form.ts';
import { showBids } from './list.ts';

const address = new URLSearchParams(location.search);
wireCreateForm();

void (async () => {
  const account = await signedInArea();
  if (!account) return;
  const tender = address.get('tender');
  const org = address.get('org');
  if (tender) void openCreateForm(org, tender, false);
  const shown = await showBids(org, account.email);
  if (shown === 0) await openCreateForm(org, null, false);
})();
