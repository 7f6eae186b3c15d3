// Page paths of jurisdictions and trades, from the same slugs the API accepts.
import { JURISDICTIONS, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { TRADES } from '../../lib/trades.ts';
import { JURISDICTION_NAMES, jurisdictionSlug } from '../../data/intelligence/places.ts';

export { JURISDICTIONS, JURISDICTION_NAMES, jurisdictionSlug };

export function statePath(jurisdiction: string): string {
  return `/states/${jurisdictionSlug(jurisdiction as Jurisdiction)}/`;
}

export function tradeStatePath(trade: string, jurisdiction: string): string {
  return `/trades/${trade}/${jurisdictionSlug(jurisdiction as Jurisdiction)}/`;
}

export function jurisdictionName(jurisdiction: string): string {
  return JURISDICTION_NAMES[jurisdiction as Jurisdiction] ?? jurisdiction;
}

const tradeNames = new Map(TRADES.map((trade) => [trade.id, trade.name]));

export function tradeName(id: string): string {
  return tradeNames.get(id) ?? id;
}

/** A jurisdiction's short name, for chart axes: "NSW", "NZ", "Federal". */
export function jurisdictionAbbreviation(jurisdiction: string): string {
  return jurisdiction === 'AU' ? 'Federal' : jurisdiction.replace(/^AU-/, '');
}
