// Which registered sources a search or a page covers: one definition for the API's `coverage` on a tender
// search, the search page's "Searched …" line and every page's coverage line, so they always agree.
import { isJurisdiction, withinScope, type Jurisdiction } from './jurisdictions.ts';

/** The registry fields coverage reads (the `sources` table, or its anonymous reply in the site's sources.json). */
export interface CoveredSource {
  id: string;
  jurisdiction: string;
  tier: string;
  kinds: readonly string[];
  status: string;
  why?: string | null | undefined;
  tender_count: number;
  award_count: number;
  plan_count: number;
}

/** The kinds of record a person searches or reads about on a page; registers (ABN, companies, sanctions) are not among them. */
export const RECORD_KINDS = ['tender', 'grant', 'award', 'plan'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export interface CoverageScope {
  /**
   * The places covered; absent is the default search scope, Australia (every state and federal): New Zealand
   * only when asked for by name, as GET /v1/tenders judges it.
   */
  jurisdictions?: readonly Jurisdiction[] | undefined;
  kinds: readonly string[];
  /** One registry source only (a search's `source` filter, a tender's own page). */
  source?: string | undefined;
  /**
   * A country itself only, not the states inside it: the federal page covers the sources filed under `AU`
   * whose buyers are federal, as it lists only federal tenders. A state is the same either way.
   */
  exactly?: boolean | undefined;
}

/** The sources that file every buyer under the country though their buyers are states' or councils' (a multi-state platform such as VendorPanel). */
function filesStatesUnderCountry(source: CoveredSource): boolean {
  return (source.jurisdiction === 'AU' || source.jurisdiction === 'NZ') && source.tier !== 'federal' && source.tier !== 'national';
}

/**
 * Whether a source publishes for a place: its own jurisdiction falls within it (a state source for its state,
 * every Australian source for Australia), or it is a multi-state platform of that place's country, whose
 * notices are placed in the buyer's state. A federal source is not a state's: search by state finds no
 * federal tender.
 */
export function sourceCovers(source: CoveredSource, place: Jurisdiction, exactly = false): boolean {
  if (!isJurisdiction(source.jurisdiction)) return false;
  if (exactly && (place === 'AU' || place === 'NZ')) return source.jurisdiction === place && !filesStatesUnderCountry(source);
  if (withinScope(source.jurisdiction, place)) return true;
  return filesStatesUnderCountry(source) && place.startsWith(`${source.jurisdiction}-`);
}

/** The registry's sources within a scope, in registry order. */
export function sourcesInScope<S extends CoveredSource>(sources: readonly S[], scope: CoverageScope): S[] {
  const places = scope.jurisdictions ?? (['AU'] as const);
  return sources.filter((source) =>
    (scope.source === undefined || source.id === scope.source)
    && source.kinds.some((kind) => scope.kinds.includes(kind))
    && places.some((place) => sourceCovers(source, place, scope.exactly)));
}

/** The source answered on the last run: with records (`ok`) or with none (`empty`). Any other status was not read. */
export function wasRead(status: string): boolean {
  return status === 'ok' || status === 'empty';
}

/** How many records of the scope's kinds the source holds. */
function heldOf(source: CoveredSource, kinds: readonly string[]): number {
  let held = 0;
  if (kinds.includes('tender') || kinds.includes('grant')) held += source.tender_count;
  if (kinds.includes('award')) held += source.award_count;
  if (kinds.includes('plan')) held += source.plan_count;
  return held;
}

export interface EmptySource {
  source: string;
  status: string;
  why: string;
}

export interface Coverage {
  sources_total: number;
  /** Sources in scope that were not read on the last run, or were read and hold nothing of the scope's kinds. */
  sources_empty: EmptySource[];
}

/** The coverage of a scope: how many sources it spans, and which of them hold nothing tonight and why. */
export function coverageOf(sources: readonly CoveredSource[], scope: CoverageScope): Coverage {
  const inScope = sourcesInScope(sources, scope);
  const empty = inScope
    .filter((source) => source.status !== 'ok' || heldOf(source, scope.kinds) === 0)
    .map((source) => ({ source: source.id, status: source.status, why: source.why ?? emptyReason(source, scope.kinds) }));
  return { sources_total: inScope.length, sources_empty: empty };
}

const KIND_PLURALS: Record<string, string> = { tender: 'tenders', grant: 'grants', award: 'contract awards', plan: 'procurement plans' };

function emptyReason(source: CoveredSource, kinds: readonly string[]): string {
  const listed = kinds.filter((kind) => source.kinds.includes(kind)).map((kind) => KIND_PLURALS[kind] ?? kind);
  if (source.status === 'ok') return `The source answered on the last run but listed no ${listed.join(' or ')}.`;
  if (source.status === 'not_run') return 'The source has not been run yet.';
  return `The last run ended with status ${source.status} and recorded no diagnosis.`;
}
