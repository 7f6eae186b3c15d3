// The organisations the reader belongs to, with the role held in each, each linked to its page.
import { roleName } from '../../../lib/glossary.ts';
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { MembershipList, orgPath } from '../../lib/bids-api.ts';
import { element, link, marked, say } from '../../lib/dom.ts';
import { day, plural } from '../../lib/format.ts';

export async function showOrgs(): Promise<void> {
  const status = marked('orgs-status');
  const reply = await answered(() => callApi(MembershipList, '/v1/orgs'), status);
  if (reply === null) return;
  const { orgs } = reply;
  say(status, orgs.length === 0 ? 'You belong to no organisation yet: create one below, or accept an invitation.' : `You belong to ${plural(orgs.length, 'organisation')}.`);
  marked('orgs').replaceChildren(...orgs.map((org) => {
    const item = element('li');
    const what = element('span');
    what.append(link(org.company_name, orgPath(org.org_id)), element('br'), element('span', `${roleName(org.role)}, joined ${day(org.joined_at)}`, 'meta'));
    item.append(what);
    return item;
  }));
}
