import { JURISDICTIONS, isJurisdiction, type Jurisdiction } from '../../lib/jurisdictions.ts';

/** How each jurisdiction is named on pages and in replies. `AU` alone is the federal government. */
export const JURISDICTION_NAMES: Record<Jurisdiction, string> = {
  AU: 'Australian Government (federal)',
  NZ: 'New Zealand',
  'AU-NSW': 'New South Wales',
  'AU-VIC': 'Victoria',
  'AU-QLD': 'Queensland',
  'AU-WA': 'Western Australia',
  'AU-SA': 'South Australia',
  'AU-TAS': 'Tasmania',
  'AU-ACT': 'Australian Capital Territory',
  'AU-NT': 'Northern Territory',
};

/** The currency a jurisdiction's buyers publish in: its contracts' values are summed in it, never converted. */
export function currencyOf(jurisdiction: Jurisdiction): 'AUD' | 'NZD' {
  return jurisdiction === 'NZ' ? 'NZD' : 'AUD';
}

/** The lower-case slug a page path uses: `nsw` for AU-NSW, `au` for federal, `nz`. */
export function jurisdictionSlug(jurisdiction: Jurisdiction): string {
  return jurisdiction.replace(/^AU-/, '').toLowerCase();
}

/**
 * The jurisdiction a path segment names: a code in any case (`AU-NSW`, `au-nsw`) or a page slug (`nsw`,
 * `au`, `nz`). Null for anything else.
 */
export function jurisdictionFromPath(segment: string): Jurisdiction | null {
  const upper = segment.toUpperCase();
  if (isJurisdiction(upper)) return upper;
  return JURISDICTIONS.find((j) => jurisdictionSlug(j) === segment.toLowerCase()) ?? null;
}

/** The jurisdictions a scope covers: `AU` takes every Australian state too unless `exact`. */
export function scopeOf(jurisdiction: Jurisdiction, exact: boolean): Jurisdiction[] {
  if (jurisdiction !== 'AU' || exact) return [jurisdiction];
  return JURISDICTIONS.filter((j) => j === 'AU' || j.startsWith('AU-'));
}
