// Contracts of one buyer, as published (anonymous: no supplier or notice link), as a sortable table (the markup of
// SortableTable.astro; site/scripts/tables.ts sorts it and, when it names its rows' path in the page's JSON twin,
// downloads them as CSV). Written as text: five of a buyer's contracts are on every tender page. A contract the
// source gave no number has one made up for it (`unnumbered-…`), which is not shown.
import type { Award } from '../../data/intelligence/awards.ts';
import { day, money } from './format.ts';
import { attr, html, type Html } from './html.ts';

export function awardTableHtml(caption: string, awards: readonly Award[], csv?: string): Html {
  const rows = awards.map((a) => html`<tr><td>${a.title}${!a.contract_id.startsWith('unnumbered-') && html`<br><span class="meta">${a.contract_id}</span>`}</td><td data-sort="${a.awarded_date ?? ''}">${day(a.awarded_date)}</td><td data-sort="${a.end_date ?? ''}">${day(a.end_date)}</td><td class="num" data-sort="${a.value_amount ?? ''}">${money(a.value_amount, a.value_currency)}</td></tr>`);
  return html`<div class="table-scroll" tabindex="0"><table${attr('data-csv', csv)}><caption>${caption}</caption><thead><tr><th scope="col">Contract</th><th scope="col">Awarded</th><th scope="col">Ends</th><th scope="col" class="num">Value</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}
