// The form that accepts an invitation from the link its email carries, and opens the organisation's page.
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Membership, orgPath } from '../../lib/bids-api.ts';
import { field, marked, say, submitButton } from '../../lib/dom.ts';

// The email's links: this page with the token in its fragment (…/account/orgs/#invite=<token>), and the API's
// accept address (…/v1/orgs/invites/<token>/accept), which takes a POST. Either pasted here works.
const INVITATION_LINK = /#invite=([^&\s]+)|\/v1\/orgs\/invites\/([^/?#\s]+)\/accept\b/;
const invitationToken = (link: string): string | undefined => {
  const found = INVITATION_LINK.exec(link);
  return found?.[1] ?? found?.[2];
};

const form = marked<HTMLFormElement>('accept');

export function wireAcceptForm(): void {
  const refused = marked('accept-refused');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(refused, '');
    const token = invitationToken(field(form, 'link').value);
    if (!token) {
      say(refused, 'Paste the whole link from the invitation email: it ends in #invite= and a code, or contains /v1/orgs/invites/ and ends in /accept.');
      return;
    }
    const joined = await answered(() => callApi(Membership, `/v1/orgs/invites/${encodeURIComponent(token)}/accept`, { method: 'POST' }), refused, submitButton(form));
    if (joined !== null) location.assign(orgPath(joined.org_id));
  });
}

/** Opened from the invitation email: the link is filled in, and accepting is one press. */
export function offerEmailedInvitation(): void {
  if (!invitationToken(location.hash)) return;
  field(form, 'link').value = location.href;
  form.scrollIntoView();
  submitButton(form).focus();
}
