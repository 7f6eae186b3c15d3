// The small DOM helpers the pages' scripts share: build an element, a link or a button, say a sentence in a
// status or alert line, find what the page marked.

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

/** The form's control named `name`. */
export function field<T extends HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement = HTMLInputElement>(form: HTMLFormElement, name: string): T {
  return form.querySelector<T>(`[name="${name}"]`)!;
}

/** The form's submit button. */
export function submitButton(form: HTMLFormElement): HTMLButtonElement {
  return form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
}
