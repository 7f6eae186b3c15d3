// The search page: reads the search from the address, asks the API, shows the results, the sources searched and
// the way to save the search (signed out, sign in first and come back to it saved).
import { element, link } from '../../lib/dom.ts';
import { ACCOUNT_PATH, WatchSaved, callApi, signedInAccount, signInHref } from '../../lib/account-api.ts';
import { takePendingAction, THEN_SAVE } from '../../lib/pending-action.ts';
import type { NamedSource } from '../../lib/coverage-words.ts';
import {
  PAGE_SIZE, SearchReply, apiPathOf, coverageView, resultView, searchFromQuery, searchPath, statusLine, suggestions, watchRequestOf, type TenderSearch,
} from '../../lib/tender-search.ts';

const form = document.querySelector<HTMLFormElement>('[data-search-form]')!;
const tenders = document.querySelector<HTMLElement>('[data-tenders]')!;
const status = document.getElementById('search-status')!;
const list = document.getElementById('search-results')!;
const tips = document.getElementById('search-tips')!;
const pager = document.querySelector<HTMLElement>('[data-pager]')!;
const coverageBox = document.getElementById('search-coverage')!;
const saveButton = document.querySelector<HTMLButtonElement>('[data-save]')!;
const saveStatus = document.getElementById('save-status')!;
const pages = document.querySelector<HTMLElement>('[data-pages]')!;
const pagesStatus = document.getElementById('pages-status')!;
const pagesList = document.getElementById('pages-results')!;
const registry = JSON.parse(document.getElementById('source-registry')!.textContent!) as NamedSource[];

const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;

/** Shows a search in the form, so the page restored from a link shows what it searched for. */
function fillForm(search: TenderSearch): void {
  field('q').value = search.q ?? '';
  field('jurisdiction').value = search.jurisdiction ?? '';
  field('trade').value = search.trade ?? '';
  field('kind').value = search.kind ?? '';
  field('tier').value = search.tier ?? '';
  field('closing_within_days').value = search.closing_within_days === undefined ? '' : String(search.closing_within_days);
  // Best match is the form's empty choice; a shared link may spell it out as sort=relevance.
  field('sort').value = search.sort === 'closing' ? 'closing' : '';
  (field('include_closed') as HTMLInputElement).checked = search.include_closed === true;
}

/** The search the form shows, read with the same rules as a URL. */
function searchInForm(): TenderSearch {
  const query = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value !== '') query.set(name, value);
  return searchFromQuery(query);
}

let shown: TenderSearch = {};
let asked = 0;

const heading = document.getElementById('tenders-heading')!;

async function runSearch(search: TenderSearch): Promise<void> {
  const ask = ++asked;
  shown = search;
  tenders.hidden = false;
  status.textContent = 'Searching…';
  saveStatus.replaceChildren();
  const answered = await callApi(SearchReply, apiPathOf(search));
  if (ask !== asked) return; // a newer search has started
  if (!answered.ok) {
    showNothing(`The search failed: ${answered.detail}`);
    return;
  }
  const reply = answered.value;
  const asOf = new Date().toISOString();
  status.textContent = statusLine(search, reply.total);
  list.replaceChildren(...reply.results.map((tender) => {
    const view = resultView(tender, asOf);
    const item = element('li');
    const title = element('h3');
    title.append(link(view.title, view.href));
    const closes = element('p');
    closes.append(element('strong', view.countdown, `status ${view.open ? 'status-ok' : 'status-error'}`));
    if (view.closes) {
      const time = element('time', view.closes);
      if (view.closesAt) time.dateTime = view.closesAt;
      closes.append(` ${view.open ? 'closing' : 'closed'} `, time);
    }
    item.append(title, element('p', view.about, 'meta'), closes);
    return item;
  }));
  tips.replaceChildren(...(reply.total === 0 ? suggestions(search).map((tip) => element('li', tip)) : []));
  showPager(search, reply.total);
  showCoverage(reply.coverage, search);
  saveButton.hidden = false;
}

function showNothing(message: string): void {
  status.textContent = message;
  list.replaceChildren();
  tips.replaceChildren();
  pager.replaceChildren();
  coverageBox.replaceChildren();
  saveButton.hidden = true;
}

function showPager(search: TenderSearch, total: number): void {
  const page = search.page ?? 1;
  const links: HTMLAnchorElement[] = [];
  if (page > 1) links.push(link(`← Previous ${PAGE_SIZE}`, searchPath({ ...search, page: page - 1 })));
  if (page * PAGE_SIZE < total) links.push(link(`Next ${PAGE_SIZE} →`, searchPath({ ...search, page: page + 1 })));
  pager.replaceChildren(...links);
}

function showCoverage(coverage: SearchReply['coverage'], search: TenderSearch): void {
  const view = coverageView(coverage, registry, search);
  const heading = element('h3', 'Sources searched');
  const summary = element('p', view.summary);
  const more = element('p');
  more.append('What each source covers and how often it is read: ', link('Sources', '/sources/'), '.');
  const empty = element('ul');
  for (const source of view.empty) {
    const item = element('li');
    item.append(link(source.name, `/sources/#source-${source.source}`), `: ${source.words}.`);
    empty.append(item);
  }
  coverageBox.replaceChildren(heading, summary, ...(view.empty.length ? [empty] : []), more);
}

saveButton.addEventListener('click', () => {
  saveStatus.textContent = 'Saving…';
  void saveSearch(shown);
});

/** The search page of `search`, asking to finish saving it once back from signing in. */
const saveAfterSignIn = (search: TenderSearch) => {
  const path = searchPath(search);
  return `${path}${path.includes('?') ? '&' : '?'}${THEN_SAVE}`;
};

async function saveSearch(search: TenderSearch): Promise<void> {
  // Asked first, so a reader who is not signed in is offered sign-in without a refused request.
  if ((await signedInAccount()) === null) {
    saveStatus.replaceChildren(link('Sign in to save this search', signInHref(saveAfterSignIn(search))), ': back here, it is saved, and you get an email when new tenders match it.');
    return;
  }
  const saved = await callApi(WatchSaved, '/v1/tenders/watch', { method: 'POST', body: watchRequestOf(search) });
  if (!saved.ok) {
    saveStatus.textContent = `Not saved: ${saved.detail}`;
    return;
  }
  saveStatus.replaceChildren('Saved. New tenders matching it come by email after the nightly run; see or remove it on ', link('your account page', ACCOUNT_PATH), '.');
}

interface PagefindResult { url: string; meta: { title?: string; kind?: string } }
type PlaceFilter = { any: string[] } | { none: string[] };
let pagefind: Promise<{ search(query: string, options: { filters: { place: PlaceFilter } }): Promise<{ results: { data(): Promise<PagefindResult> }[] }> }> | undefined;
const PAGES_SHOWN = 10;

async function findPages(words: string | undefined, jurisdiction: string | undefined): Promise<void> {
  if (!words) { pages.hidden = true; return; }
  pages.hidden = false;
  pagesStatus.textContent = 'Searching pages…';
  // A path held in a variable, so the bundler leaves Pagefind's own script to be fetched when first needed.
  const pagefindPath = '/pagefind/pagefind.js';
  pagefind ??= import(/* @vite-ignore */ pagefindPath);
  // The place searched, as the tender search keeps to it: "Anywhere in Australia" leaves New Zealand out.
  const found = await (await pagefind).search(words, { filters: { place: jurisdiction ? { any: [jurisdiction] } : { none: ['NZ'] } } });
  const named = await Promise.all(found.results.slice(0, PAGES_SHOWN).map((result) => result.data()));
  pagesStatus.textContent = named.length === 0 ? `No buyer or trade page matches “${words}”.` : '';
  pagesList.replaceChildren(...named.map((data) => {
    const item = element('li');
    item.append(link(data.meta.title ?? data.url, data.url));
    if (data.meta.kind) item.append(' ', element('span', `(${data.meta.kind})`, 'meta'));
    return item;
  }));
}

/** Shows a search; after a search the reader asked for, focus moves to the results' heading, so the first result is a Tab away. */
function show(search: TenderSearch, focusResults = false): void {
  fillForm(search);
  runSearch(search)
    .then(() => { if (focusResults) heading.focus(); })
    .catch((error: unknown) => showNothing(`The search failed: ${(error as Error).message}`));
  findPages(search.q, search.jurisdiction).catch((error: unknown) => { pagesStatus.textContent = `The page search failed: ${(error as Error).message}`; });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const search = searchInForm();
  history.pushState(null, '', searchPath(search));
  show(search, true);
});
addEventListener('popstate', () => show(searchFromQuery(new URLSearchParams(location.search))));
const arrived = searchFromQuery(new URLSearchParams(location.search));
// Back from signing in to save this search: the address asks to finish the save.
const finishSave = takePendingAction('save');
show(arrived, location.search !== '');
if (finishSave) {
  saveStatus.textContent = 'Saving…';
  shown = arrived;
  void saveSearch(arrived);
}
