import { exampleProfile, type MatchExample } from '../intelligence/match-examples.ts';
import { rankTenders, type CompanyProfile } from '../intelligence/match.ts';
import { ITEMS_PER_LIST, newTenders, tenderItem, type DigestRelease, type ItemGroup } from './new-items.ts';
import type { Watch } from './store.ts';

/**
 * A company watch's news: the open tenders first seen after `after`, ranked against the company's profile
 * by the tender match's scorer (data/intelligence/match.ts), best first, each with its score and the
 * capabilities that make it fit. A profile with no recognised capability gives keyword order, said so.
 */
export async function rankCompanyTenders(release: DigestRelease, watch: Watch, after: string): Promise<ItemGroup[]> {
  const profile = profileOf(watch);
  if (profile === null) return [];
  const fresh = newTenders(release, { kind: 'tender' }, after, release.tenders.size).hits.map((hit) => hit.tender);
  if (fresh.length === 0) return [];
  const ranking = rankTenders(profile, fresh, { limit: fresh.length });
  if (ranking.results.length === 0) return [];
  const itemOf = (tender: (typeof fresh)[number], lead: string[]) => {
    const item = tenderItem({ tender, open: true });
    return { ...item, facts: [...lead, ...item.facts] };
  };
  if (ranking.degraded) {
    return [{
      label: 'New open tenders, in order of your site\'s words (no capability the matcher knows was found on it)',
      total: ranking.results.length,
      items: ranking.results.slice(0, ITEMS_PER_LIST).map(({ tender }) => itemOf(tender, [])),
    }];
  }
  return [{
    label: 'New open tenders ranked for your company (score 0-100 relative to the best here; not a chance of winning)',
    total: ranking.results.length,
    items: ranking.results.slice(0, ITEMS_PER_LIST).map((scored) =>
      itemOf(scored.tender, [`score ${scored.score}`, ...(scored.why.length ? [`fits: ${scored.why.join(', ')}`] : [])])),
  }];
}

/** The profile a company watch ranks with: the built-in example's, or the one read from the site when saved. */
function profileOf(watch: Watch): CompanyProfile | null {
  const criteria = watch.criteria as { example?: MatchExample; url?: string };
  return criteria.example ? exampleProfile(criteria.example) : watch.company_profile;
}
