// Markup written as text for the parts of a page there are tens of thousands of (a tender page's facts, its list of
// similar tenders, its buyer's contracts): each `{expression}` in an Astro template is a step of Astro's renderer,
// and at 50,000 tender pages a build those steps cost more than writing every page's file. `html` escapes what it
// is given as Astro does (text and attribute values alike), so what reaches the page is the same.

/** Markup already written by `html`: inserted as it is, never escaped again. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

/** What may stand in a `${}` of `html`: text (escaped), numbers, markup, lists of these; nothing for false, null or undefined. */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;

/** Text safe in an element or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (char) => ESCAPED[char]!);
}

function written(value: HtmlValue): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof Html) return value.text;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return escapeHtml(value);
  return value.map(written).join('');
}

/** A tagged template: html`<a href="${href}">${title}</a>` escapes `href` and `title`, keeps nested `html` as markup. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += written(values[i]!) + strings[i + 1]!;
  return new Html(text);
}

/** An attribute written only when it has a value: attr('aria-label', label) is ` aria-label="…"` or nothing. */
export function attr(name: string, value: string | undefined): Html {
  return new Html(value === undefined ? '' : ` ${name}="${escapeHtml(value)}"`);
}
