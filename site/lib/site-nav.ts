// The site's navigation, on every page: written once for each item that can be the current one (eleven variants
// in all), not rendered link by link on each of 50,000 pages.
import { html } from './html.ts';

const NAV = [
  { href: '/', label: 'Home' },
  { href: '/states/', label: 'States' },
  { href: '/trades/', label: 'Trades' },
  { href: '/buyers/', label: 'Buyers' },
  { href: '/grants/', label: 'Grants' },
  { href: '/sources/', label: 'Sources' },
  { href: '/search/', label: 'Search' },
  { href: '/match/', label: 'Match my business' },
  { href: '/check/', label: 'Check a document' },
  // A plain link: the account page offers sign-in to a reader who is signed out.
  { href: '/account/', label: 'Account' },
];

const written = new Map<number, string>();

/** The navigation list for a page at `pathname`, its section marked `aria-current="page"`. */
export function navHtml(pathname: string): string {
  const current = NAV.findIndex((item) => (item.href === '/' ? pathname === '/' : pathname.startsWith(item.href)));
  let text = written.get(current);
  if (text === undefined) {
    text = html`<ul>${NAV.map((item, i) => html`<li><a href="${item.href}"${i === current ? html` aria-current="page"` : ''}>${item.label}</a></li>`)}</ul>`.text;
    written.set(current, text);
  }
  return text;
}
