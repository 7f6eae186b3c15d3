// The bid form's tender field: the reader types words of a tender's title or buyer and chooses it from the
// matches of the tender search (GET /v1/tenders?q=), as a combobox (WAI-ARIA 1.2: arrow keys move through the
// matches, Enter chooses, Escape closes); the chosen tender's key goes in the form's hidden `page_key`.
import { callApi } from '../../lib/account-api.ts';
import { TenderMatches, type TenderNamed } from '../../lib/bids-api.ts';
import { element, say } from '../../lib/dom.ts';
import { day, plural } from '../../lib/format.ts';
import { jurisdictionName } from '../../lib/places.ts';

/** Fewer letters match too much to be worth a search. */
const FEWEST_LETTERS = 3;
/** The search waits for a pause in typing this long, so a word typed is one call, not one a letter (the burst guard counts each). */
const PAUSE_MS = 300;
const MATCHES_SHOWN = 8;

/** Who buys it, where and when it closes, as the field's description says once it is chosen. */
export function tenderDescription(tender: TenderNamed): string {
  const where = tender.jurisdiction ? ` in ${jurisdictionName(tender.jurisdiction)}` : '';
  return `${tender.buyer ? `From ${tender.buyer}` : 'Buyer not published'}${where}; ${tender.closing_date ? `closes ${day(tender.closing_date)}` : 'no closing date published'}.`;
}

export interface TenderFinder {
  /** Fills the field with a tender as if the reader had chosen it. */
  choose(tender: TenderNamed): void;
}

/**
 * Wires the combobox `input`, its `listbox` of matches, the hidden `chosen` field that holds the key sent,
 * and the `named` line that says which tender is chosen (or that nothing matches, or why the search failed).
 */
export function tenderFinder(input: HTMLInputElement, listbox: HTMLElement, chosen: HTMLInputElement, named: HTMLElement): TenderFinder {
  let matches: TenderNamed[] = [];
  let active = -1;
  let pause: ReturnType<typeof setTimeout> | undefined;
  // Replies can come back out of order: only the newest search's is shown.
  let searches = 0;

  const close = () => {
    listbox.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const highlight = (index: number) => {
    active = index;
    listbox.querySelectorAll('[role="option"]').forEach((option, n) => option.setAttribute('aria-selected', String(n === index)));
    const option = listbox.children[index];
    if (option) {
      input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    }
  };
  const choose = (tender: TenderNamed) => {
    input.value = tender.title;
    chosen.value = tender.page_key;
    close();
    say(named, `Chosen: ${tender.title}. ${tenderDescription(tender)}`);
  };
  const show = (found: TenderNamed[], total: number, words: string) => {
    matches = found;
    listbox.replaceChildren(...found.map((tender, index) => {
      const option = element('li', undefined, 'option');
      option.id = `${listbox.id}-${index}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      option.append(element('span', tender.title, 'option-title'), ' ', element('span', tenderDescription(tender), 'meta'));
      // Pressed with a mouse, the field keeps its focus, so the list stays open until the click chooses.
      option.addEventListener('mousedown', (event) => event.preventDefault());
      option.addEventListener('click', () => choose(tender));
      return option;
    }));
    if (found.length === 0) {
      close();
      say(named, `No open tender matches “${words}”. Try other words, or answer “Another tender, by its title”.`);
      return;
    }
    listbox.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    active = -1;
    say(named, total > found.length ? `The ${found.length} best of ${plural(total, 'match', 'matches')}: choose one, or type more words.` : `${plural(found.length, 'match', 'matches')}: choose one.`);
  };
  const search = async (words: string) => {
    const search = ++searches;
    const reply = await callApi(TenderMatches, `/v1/tenders?${new URLSearchParams({ q: words, limit: String(MATCHES_SHOWN) })}`);
    if (search !== searches) return;
    if (!reply.ok) {
      close();
      say(named, reply.detail);
      return;
    }
    show(reply.value.results, reply.value.total, words);
  };

  input.addEventListener('input', () => {
    chosen.value = '';
    clearTimeout(pause);
    const words = input.value.trim();
    if (words.length < FEWEST_LETTERS) {
      searches += 1;
      close();
      say(named, words ? `Type at least ${FEWEST_LETTERS} letters.` : '');
      return;
    }
    pause = setTimeout(() => void search(words), PAUSE_MS);
  });
  input.addEventListener('keydown', (event) => {
    const open = !listbox.hidden && matches.length > 0;
    if (event.key === 'ArrowDown' && open) highlight((active + 1) % matches.length);
    else if (event.key === 'ArrowUp' && open) highlight(active <= 0 ? matches.length - 1 : active - 1);
    else if (event.key === 'Enter' && open && active >= 0) choose(matches[active]!);
    else if (event.key === 'Escape' && open) close();
    else return;
    event.preventDefault();
  });
  input.addEventListener('blur', close);
  return { choose };
}
