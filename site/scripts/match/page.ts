// The match page: sends the company's profile to the API and lists the tenders it fits, with why and the gaps.
import { callApi, MatchReply, signInHref, type MatchResult } from '../../lib/account-api.ts';
import { count, day, plural } from '../../lib/format.ts';
import { jurisdictionName } from '../../lib/places.ts';
import { element } from '../../lib/dom.ts';

const form = document.querySelector<HTMLFormElement>('[data-match-form]')!;
const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
const urlInput = form.querySelector<HTMLInputElement>('#match-url')!;
const exampleSelect = form.querySelector<HTMLSelectElement>('#match-example')!;
const whereSelect = form.querySelector<HTMLSelectElement>('#match-where')!;
const status = document.querySelector<HTMLElement>('[data-match-status]')!;
const refused = document.querySelector<HTMLElement>('[data-match-refused]')!;
const results = document.querySelector<HTMLElement>('[data-match-results]')!;
const list = document.querySelector<HTMLElement>('[data-match-list]')!;
const withheld = document.querySelector<HTMLElement>('[data-match-withheld]')!;

const chosenFrom = () => form.querySelector<HTMLInputElement>('input[name="from"]:checked')!.value as 'url' | 'example';
function showFrom(): void {
  for (const box of form.querySelectorAll<HTMLElement>('[data-from]')) box.hidden = box.dataset['from'] !== chosenFrom();
}
const choose = (from: 'url' | 'example') => {
  form.querySelector<HTMLInputElement>(`input[name="from"][value="${from}"]`)!.checked = true;
  showFrom();
};

function resultItem(result: MatchResult): HTMLLIElement {
  const item = element('li');
  const link = element('a', result.title);
  link.href = `/tenders/${encodeURIComponent(result.page_key)}/`;
  const heading = element('p');
  if (result.score !== undefined) heading.append(element('span', `${result.score} / 100`, 'score'), ' ');
  heading.append(link);
  const about = element('p', `${result.buyer ?? 'Buyer not published'} · ${jurisdictionName(result.jurisdiction)} · ${result.closing_date ? `closes ${day(result.closing_date)}` : 'no closing date published'}`, 'meta');
  item.append(heading, about);
  if (result.why && result.why.length > 0) item.append(element('p', `Why: ${result.why.join('; ')}.`));
  if (result.gaps && result.gaps.length > 0) item.append(element('p', `Gaps: ${result.gaps.join('; ')}.`));
  return item;
}

/** The match as the address says it: `url` or `example`, and `jurisdiction`. */
async function run(params: URLSearchParams): Promise<void> {
  const url = params.get('url');
  const example = params.get('example');
  const jurisdiction = params.get('jurisdiction');
  const body = { ...(url ? { url } : { example: example ?? 'civil' }), ...(jurisdiction ? { jurisdiction } : {}) };
  refused.hidden = true;
  results.hidden = true;
  button.disabled = true;
  status.textContent = url ? `Reading ${url} and ranking open tenders…` : 'Ranking open tenders…';
  const reply = await callApi(MatchReply, '/v1/tenders/match', { method: 'POST', body });
  button.disabled = false;
  if (!reply.ok) {
    status.textContent = '';
    refused.textContent = reply.detail;
    refused.hidden = false;
    return;
  }
  const match = reply.value;
  const shown = match.results.length;
  status.textContent = `${plural(match.matched, 'open tender matches', 'open tenders match')}, of ${count(match.considered)} looked at.`;
  const trades = match.company.trades.map((trade) => trade.name);
  document.querySelector('[data-match-company]')!.textContent = trades.length > 0
    ? `What the ${url ? 'site' : 'example'} says the business does: ${trades.join(', ')}${match.company.capabilities.length > 0 ? ` (${match.company.capabilities.slice(0, 8).join(', ')})` : ''}.`
    : 'The site names no trade we recognise, so matches rest on its words alone.';
  if (match.withheld > 0) {
    const signIn = element('a', 'sign in to see them all');
    signIn.href = signInHref(`${location.pathname}${location.search}`);
    withheld.replaceChildren(`${count(shown)} shown; ${plural(match.withheld, 'more matches', 'more match')}: `, signIn, '.');
    withheld.hidden = false;
  } else {
    withheld.hidden = true;
  }
  list.replaceChildren(...match.results.map(resultItem));
  document.querySelector('[data-match-meaning]')!.textContent = match.degraded ? (match.degraded_reason ?? 'Scores are unavailable: results are in order of shared words.') : match.score_meaning;
  results.hidden = false;
  results.focus();
}

form.addEventListener('change', showFrom);
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const params = new URLSearchParams();
  if (chosenFrom() === 'url') {
    if (!urlInput.value.trim()) {
      refused.textContent = 'Enter your website address, or choose an example business.';
      refused.hidden = false;
      urlInput.focus();
      return;
    }
    params.set('url', urlInput.value.trim());
  } else {
    params.set('example', exampleSelect.value);
  }
  if (whereSelect.value) params.set('jurisdiction', whereSelect.value);
  history.replaceState(null, '', `?${params}`);
  void run(params);
});

const asked = new URLSearchParams(location.search);
if (asked.has('url')) urlInput.value = asked.get('url')!;
if (asked.has('example')) {
  exampleSelect.value = asked.get('example')!;
  choose('example');
}
if (asked.has('jurisdiction')) whereSelect.value = asked.get('jurisdiction')!;
if (asked.has('url') || asked.has('example')) void run(asked);
