// Tenders as a list a bidder scans (TenderList.astro, and the similar tenders on every tender page): each title
// links its page, then who buys it, where, its trade and its value as published, and how many days are left as of
// the build. Rows name a tender by its key; the facts come from the tender's own page data, so every list says the
// same of a tender. When there are more than shown, says how many and where to find the rest.
import { count, day, publishedValue } from './format.ts';
import { html, attr, type Html } from './html.ts';
import { jurisdictionName, tradeName } from './places.ts';
import { pageEntry } from './site-data.ts';
import { buyerOf, tenderByKey, tenderPath, timeLeft } from './tenders.ts';

export interface TenderListRow { page_key: string; title: string; buyer?: string | undefined; kind?: string | undefined; closing_date?: string | undefined }

export interface TenderListOptions {
  rows: readonly TenderListRow[];
  /** Open tenders in all, when more than `rows` exist. */
  total?: number | undefined;
  /** Where the rest are found. */
  more?: { href: string; label: string } | undefined;
  /** Leave out the buyer on a page about one buyer. */
  showBuyer?: boolean | undefined;
  /** Leave out the place on a page about one place. */
  showPlace?: boolean | undefined;
  /** The rows have closed: say "closed", not "closes". */
  closed?: boolean | undefined;
  /** The heading level of each title (3 under a page's h2). */
  level?: 3 | 4 | undefined;
  /** The list's accessible name, when a page shows more than one list. */
  label?: string | undefined;
}

export async function tenderListHtml(options: TenderListOptions): Promise<Html> {
  const { rows, total = rows.length, more, showBuyer = true, showPlace = true, closed = false, level = 3, label } = options;
  const asOf = (await pageEntry('sources', 'sources')).data.computed_at;
  const items: Html[] = [];
  for (const row of rows) {
    const tender = (await tenderByKey(row.page_key))?.data;
    const buyer = tender?.buyer ?? row.buyer;
    const buyerPage = buyer && tender ? await buyerOf(buyer, tender.jurisdiction) : undefined;
    const closing = tender?.closing_date ?? row.closing_date;
    const left = tender ? timeLeft(tender, asOf).words : undefined;
    const open = tender?.open ?? !closed;
    const place = tender && showPlace ? jurisdictionName(tender.jurisdiction) : undefined;
    const trade = tender?.trade ? tradeName(tender.trade) : undefined;
    const value = tender?.value_text ? publishedValue(tender.value_text) : undefined;
    const buyerWords = buyer ? (buyerPage ? html`<a href="${`/buyers/${buyerPage.id}/`}">${buyer}</a>` : buyer) : 'Buyer not published';
    items.push(html`<li id="${`tender-${row.page_key}`}"><h${level} class="title"><a href="${tenderPath(row.page_key)}">${tender?.title ?? row.title}</a></h${level}><p class="facts">${
      (tender?.kind ?? row.kind) === 'grant' && html`<span>Grant round</span>`}${
      showBuyer && html`<span>${buyerWords}</span>`}${
      place && html`<span>${place}</span>`}${
      trade && html`<span>${trade}</span>`}${
      value && html`<span>${value}</span>`}</p><p class="when">${
      !closed && left && html`<strong class="${`status ${open ? 'status-ok' : 'status-error'}`}">${left}</strong>`} ${
      closing ? html`<span class="meta">${closed ? 'closed' : 'closes'} ${day(closing)}</span>` : html`<span class="meta">no closing date published</span>`}</p></li>`);
  }
  const list = rows.length === 0
    ? html`<p>${closed ? 'No closed tender is held.' : 'None open tonight.'}</p>`
    : html`<ol class="results tenders"${attr('aria-label', label)}>${items}</ol>`;
  const rest = total > rows.length && html`<p>Showing the ${count(rows.length)} closing soonest of ${count(total)}.${more && html` <a href="${more.href}">${more.label}</a>`}</p>`;
  return html`${list}${rest}`;
}
