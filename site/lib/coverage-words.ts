// Coverage in words, for every page's coverage line (at build time) and the search page's "Searched …" line (in
// the browser): the sources of a scope come from lib/coverage.ts, the one definition the API's `coverage` uses.
import { sourcesInScope, wasRead, type CoverageScope, type CoveredSource } from '../../lib/coverage.ts';
import { sourceStatusWhy } from '../../lib/glossary.ts';

/** A registry row with the name a reader knows it by. */
export interface NamedSource extends CoveredSource {
  name: string;
}

export interface CoverageLine {
  /** Sources in scope read on the last run, by name. */
  read: { id: string; name: string }[];
  /** Sources in scope that were not read, with why in a few words. */
  unread: { id: string; name: string; why: string }[];
}

/** The sources of a scope, split into those read on the last run and those not (with why). */
export function coverageLine(sources: readonly NamedSource[], scope: CoverageScope): CoverageLine {
  const inScope = sourcesInScope(sources, scope);
  return {
    read: inScope.filter((s) => wasRead(s.status)).map((s) => ({ id: s.id, name: s.name })),
    unread: inScope.filter((s) => !wasRead(s.status)).map((s) => ({ id: s.id, name: s.name, why: sourceStatusWhy(s.status) })),
  };
}

/** Names listed inline; a longer list is given as a count with the names one click away. */
export const NAMED_INLINE = 4;

/** "A", "A and B", "A, B and C". */
export function listed(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "Tenderlink council tenders (needs a login) and Tenders WA (refused by robots.txt)". */
export function unreadWords(line: CoverageLine): string {
  return listed(line.unread.map((s) => `${s.name} (${s.why})`));
}

/**
 * The line's words: `lead` then the sources read (named when a few, else counted), then those not read.
 * "Searched buy.nsw opportunities and VendorPanel public tenders; not read: Tenderlink council tenders (needs a login)."
 */
export function coverageSentence(line: CoverageLine, lead: string, none: string): string {
  if (line.read.length === 0 && line.unread.length === 0) return none;
  const read = line.read.length === 0
    ? `${lead} no source: none was read on the last run`
    : line.read.length <= NAMED_INLINE ? `${lead} ${listed(line.read.map((s) => s.name))}` : `${lead} ${line.read.length} sources`;
  return line.unread.length === 0 ? `${read}.` : `${read}; not read: ${unreadWords(line)}.`;
}
