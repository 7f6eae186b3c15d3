// The client half of SignedInArea.astro (and of the account page, which marks the same three parts).
import { callApi, Session, SESSION_PATH, type Account } from './account-api.ts';

/**
 * Asks who is signed in and shows the matching part of the page: the account when signed in, null with the
 * sign-in form shown when not, null with the service's sentence when it cannot say.
 */
export async function signedInArea(): Promise<Account | null> {
  const checking = document.querySelector<HTMLElement>('[data-account-checking]')!;
  const session = await callApi(Session, SESSION_PATH);
  if (!session.ok) {
    checking.textContent = session.detail;
    return null;
  }
  checking.hidden = true;
  const { signed_in, email, session_expires_at } = session.value;
  if (!signed_in || email === undefined || session_expires_at === undefined) {
    document.querySelector<HTMLElement>('[data-signed-out]')!.hidden = false;
    return null;
  }
  document.querySelector<HTMLElement>('[data-signed-in]')!.hidden = false;
  return { email, session_expires_at };
}
