// The organisations page's script: once the reader is signed in, the organisations listed, and an invitation
// the page was opened from offered for accepting.
import { signedInArea } from '../../lib/signed-in-area.ts';
import { offerEmailedInvitation, wireAcceptForm } from './accept-form.ts';
import { wireCreateForm } from './create-form.ts';
import { showOrgs } from './list.ts';

wireCreateForm();
wireAcceptForm();

void (async () => {
  if (!(await signedInArea())) return;
  await showOrgs();
  offerEmailedInvitation();
})();
