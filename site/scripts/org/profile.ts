// The organisation's profile: shown in its form, which owners and admins may save (drafts quote it).
import { answered } from '../../lib/api-controls.ts';
import { callApi } from '../../lib/account-api.ts';
import { Profile } from '../../lib/bids-api.ts';
import { field, marked, say } from '../../lib/dom.ts';

const form = () => marked<HTMLFormElement>('profile');

export function showProfile(profile: Profile): void {
  const profileForm = form();
  document.title = `${profile.company_name} · Tender intelligence`;
  marked('org-heading').textContent = profile.company_name;
  field(profileForm, 'company_name').value = profile.company_name;
  field(profileForm, 'abn').value = profile.abn ?? '';
  field(profileForm, 'region').value = profile.region ?? '';
  field(profileForm, 'description').value = profile.description ?? '';
}

/** The profile's controls, enabled only for those who may edit it. */
export function enableProfile(mayEdit: boolean): void {
  for (const control of form().querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement>('input, select, textarea, button')) control.disabled = !mayEdit;
}

/** Saving the profile (PATCH `profilePath`), which then shows as the API stored it. */
export function offerProfileEdits(profilePath: string): void {
  const profileForm = form();
  const done = marked('profile-done', profileForm);
  const refused = marked('profile-refused', profileForm);
  profileForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    say(done, '');
    say(refused, '');
    const text = (name: string) => field(profileForm, name).value.trim() || null;
    const body = { company_name: field(profileForm, 'company_name').value.trim(), abn: text('abn'), region: text('region'), description: text('description') };
    const saved = await answered(() => callApi(Profile, profilePath, { method: 'PATCH', body }), refused, marked<HTMLButtonElement>('profile-save', profileForm));
    if (saved === null) return;
    showProfile(saved);
    say(done, 'Saved.');
  });
}
