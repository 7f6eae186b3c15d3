import { element } from '../../lib/dom.ts';

/** One listed item of the account page: its words (a link when `href`), a line of detail, and the button that removes it. */
export function listItem(words: { text: string; href?: string | undefined }, detail: string, button: HTMLButtonElement): HTMLLIElement {
  const item = element('li');
  const what = element('span');
  if (words.href) {
    const link = element('a', words.text);
    link.href = words.href;
    what.append(link);
  } else {
    what.append(words.text);
  }
  what.append(element('br'), element('span', detail, 'meta'));
  item.append(what, button);
  return item;
}
