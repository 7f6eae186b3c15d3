// The organisation page's script: once the reader is signed in, the organisation is read in one call and
// shown, with only what the reader's role may change offered.
import { roleName } from '../../../lib/glossary.ts';
import { callApi } from '../../lib/account-api.ts';
import { BIDS_PATH, idFromAddress, OrgOverview } from '../../lib/bids-api.ts';
import { marked, say } from '../../lib/dom.ts';
import { signedInArea } from '../../lib/signed-in-area.ts';
import { Library } from './library.ts';
import { offerInvitations, showMembers } from './members.ts';
import { enableProfile, offerProfileEdits, showProfile } from './profile.ts';

void (async () => {
  if (!(await signedInArea())) return;
  const orgId = idFromAddress();
  const refused = marked('org-refused');
  if (orgId === null) {
    say(refused, 'This page shows one organisation: open it from your organisations.');
    return;
  }
  const api = (rest = '') => `/v1/orgs/${encodeURIComponent(orgId)}${rest}`;
  // One call for the whole page (GET /v1/orgs/{org}): a non-member gets the same refusal as a missing organisation.
  const reply = await callApi(OrgOverview, api());
  if (!reply.ok) {
    say(refused, reply.detail);
    return;
  }
  const { profile, members, documents, ...membership } = reply.value;
  marked('org').hidden = false;
  showProfile(profile);
  marked('org-role').textContent = `Your role here: ${roleName(membership.role)}.`;
  marked<HTMLAnchorElement>('org-bids').href = `${BIDS_PATH}?org=${encodeURIComponent(orgId)}`;
  const mayEdit = membership.role === 'owner' || membership.role === 'admin';
  const mayUpload = membership.role !== 'viewer';
  enableProfile(mayEdit);
  if (mayEdit) {
    offerProfileEdits(api('/profile'));
    offerInvitations(membership, api('/invites'));
  }
  const library = new Library(api('/documents'), mayUpload);
  marked('upload').hidden = !mayUpload;
  if (mayUpload) library.offerUploads();
  showMembers(members);
  library.draw(documents);
})();
