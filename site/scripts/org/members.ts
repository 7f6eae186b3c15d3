// The organisation's members, and the invitation form owners and admins are offered.
import { roleName } from '../../../lib/glossary.ts';
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Invitation, ROLES, type Member, type Membership } from '../../lib/bids-api.ts';
import { element, field, marked, say, submitButton } from '../../lib/dom.ts';
import { day, instant } from '../../lib/format.ts';

export function showMembers(members: readonly Member[]): void {
  marked('members').replaceChildren(...members.map((member) => {
    const item = element('li');
    const what = element('span');
    what.append(member.email, element('br'), element('span', `${roleName(member.role)}, joined ${day(member.joined_at)}`, 'meta'));
    item.append(what);
    return item;
  }));
}

/** The invitation form (POST `invitesPath`), offering the roles up to the inviter's own. */
export function offerInvitations(membership: Membership, invitesPath: string): void {
  const form = marked<HTMLFormElement>('invite');
  form.hidden = false;
  const role = field<HTMLSelectElement>(form, 'role');
  // An invitation may grant at most the inviter's own role.
  for (const name of ROLES.slice(ROLES.indexOf(membership.role))) role.append(new Option(roleName(name), name, name === 'member', name === 'member'));
  const done = marked('invite-done', form);
  const refused = marked('invite-refused', form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(done, '');
    say(refused, '');
    const sent = await answered(() => callApi(Invitation, invitesPath, { method: 'POST', body: { email: field(form, 'email').value.trim(), role: role.value } }), refused, submitButton(form));
    if (sent === null) return;
    say(done, `Invitation emailed to ${sent.email} as ${roleName(sent.role).toLowerCase()}; the link works until ${instant(sent.expires_at)}.`);
    form.reset();
  });
}
