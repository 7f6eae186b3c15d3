// The client half of SignedInArea.astro, and the small DOM helpers the organisation and bid pages share.
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

export const element = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

export const link = (text: string, href: string): HTMLAnchorElement => {
  const anchor = element('a', text);
  anchor.href = href;
  return anchor;
};

/** A button whose visible word is `label` and whose accessible name also says what it acts on. */
export const actionButton = (label: string, about: string): HTMLButtonElement => {
  const button = element('button', label, 'quiet');
  button.type = 'button';
  button.append(element('span', ` ${about}`, 'visually-hidden'));
  return button;
};

/** Shows `text` in a status or alert line (hidden when empty). */
export function say(line: HTMLElement, text: string): void {
  line.textContent = text;
  line.hidden = text === '';
}

/** The element the page marked `data-<name>`. */
export function marked<T extends HTMLElement = HTMLElement>(name: string, within: ParentNode = document): T {
  return within.querySelector<T>(`[data-${name}]`)!;
}
