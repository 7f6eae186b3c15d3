// A saved watch as a person reads it on the account page: what it matches in a sentence, and the page that
// shows the same thing now (the search, the match or the buyer). Criteria are as POST /v1/tenders/watch saved
// them (data/watches/criteria.ts); a buyer watch names its buyer once the page has looked the name up.
import { day, plural } from './format.ts';
import { jurisdictionName, tradeName } from './places.ts';
import { tierName } from '../../lib/glossary.ts';

export interface WatchWords {
  text: string;
  /** Where the watched thing is shown now; absent when no page shows it. */
  href?: string;
}

const EXAMPLE_NAMES: Record<string, string> = { civil: 'a civil contractor', it: 'an IT services company', facilities: 'a facility services company' };
const SIGNAL_NAMES: Record<string, string> = { contract_expiry: 'contracts ending', planned_procurement: 'planned procurements', recurring_tender: 'tenders that recur' };

const text = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/** The filters of a search (GET /v1/tenders' names) as phrases: "matching “cleaning”", "in Victoria", … */
function filterPhrases(criteria: Record<string, unknown>): string[] {
  const phrases: string[] = [];
  const q = text(criteria['q']);
  if (q) phrases.push(`matching “${q}”`);
  const jurisdiction = text(criteria['jurisdiction']);
  if (jurisdiction) phrases.push(`in ${jurisdictionName(jurisdiction)}`);
  const trade = text(criteria['trade']);
  if (trade) phrases.push(`in the trade ${tradeName(trade)}`);
  const tier = text(criteria['tier']);
  if (tier) phrases.push(`from ${tierName(tier).toLowerCase()} buyers`);
  const buyer = text(criteria['buyer']);
  if (buyer) phrases.push(`from ${buyer}`);
  const category = text(criteria['category']);
  if (category) phrases.push(`in category ${category}`);
  const source = text(criteria['source']);
  if (source) phrases.push(`from the source ${source}`);
  const closingBefore = text(criteria['closing_before']);
  if (closingBefore) phrases.push(`closing by ${day(closingBefore)}`);
  const within = criteria['closing_within_days'];
  if (typeof within === 'number') phrases.push(`closing within ${plural(within, 'day')}`);
  const changed = criteria['changed_within_days'];
  if (typeof changed === 'number') phrases.push(`with dates changed in the last ${plural(changed, 'day')}`);
  return phrases;
}

/** The criteria as a query string of the same names, for the page that runs the same search. */
function query(criteria: Record<string, unknown>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  for (const [name, value] of Object.entries(criteria)) {
    const written = text(value);
    if (written !== undefined) params.set(name, written);
  }
  return params.toString();
}

const sentence = (subject: string, phrases: string[]) => (phrases.length === 0 ? subject : `${subject} ${phrases.join(', ')}`);

/**
 * What a watch matches and where to see it; `named` is what a buyer or tender watch follows, looked up (its name
 * or title, and its page), when found.
 */
export function watchWords(kind: string, criteria: Record<string, unknown>, named?: { name: string; path: string }): WatchWords {
  const buyer = named;
  switch (kind) {
    case 'search': {
      const what = criteria['kind'] === 'grant' ? 'Grant rounds' : criteria['kind'] === 'tender' ? 'Tenders' : 'Tenders and grant rounds';
      return { text: sentence(`Saved search: ${what}`, filterPhrases(criteria)), href: `/search/?${query(criteria)}` };
    }
    case 'grants':
      return { text: sentence('Saved search: Grant rounds', filterPhrases(criteria)), href: `/search/?${query(criteria, { kind: 'grant' })}` };
    case 'company': {
      const url = text(criteria['url']);
      const example = text(criteria['example']);
      if (url) return { text: `Tenders that match the website ${url}`, href: `/match/?${query({ url })}` };
      return { text: `Tenders that match ${EXAMPLE_NAMES[example ?? ''] ?? 'an example company'}`, href: `/match/?${query({ example })}` };
    }
    case 'buyer':
      return buyer
        ? { text: `New contracts, plans and tenders of ${buyer.name}`, href: buyer.path }
        : { text: `New contracts, plans and tenders of the buyer ${text(criteria['buyer_key']) ?? ''}` };
    case 'signals': {
      const signal = text(criteria['kind']);
      const phrases = filterPhrases({ q: criteria['q'], jurisdiction: criteria['jurisdiction'], buyer: criteria['buyer'] });
      return { text: sentence(`Signals: ${signal ? SIGNAL_NAMES[signal] ?? signal : 'every kind'}`, phrases) };
    }
    case 'tender': {
      const key = text(criteria['page_key']);
      return named
        ? { text: `Changes to the closing date of “${named.name}”, and its closing`, href: named.path }
        : { text: 'Changes to the closing date of a tender the release no longer holds', ...(key ? { href: `/tenders/${key}/` } : {}) };
    }
    default:
      return { text: `A ${kind} watch` };
  }
}
