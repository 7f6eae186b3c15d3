import { z } from 'zod';
import type { Store } from '../store.ts';
import type { IntelContext } from './context.ts';

/**
 * What a figure counts over: which rows, from which sources, in which jurisdictions, over which days.
 * Every figure of an intelligence reply carries one, so a zero reads as "none among these", never "none".
 */
export const Covers = z
  .object({
    counts: z.string().meta({ description: 'What is counted, in words.' }),
    jurisdictions: z.array(z.string()).meta({ description: 'Jurisdictions of the buyers counted.' }),
    sources: z.array(z.string()).meta({ description: 'Registry ids of the sources that publish such rows for those jurisdictions.' }),
    from: z.iso.date().optional().meta({ description: 'First day counted; absent when the figure is not bounded below.' }),
    to: z.iso.date().optional().meta({ description: 'Last day counted; absent when the figure is not bounded above.' }),
  })
  .meta({ id: 'Covers' });
export type Covers = z.infer<typeof Covers>;

export type CoveredTable = 'tenders' | 'grants' | 'awards' | 'plans';

type Coverage = Map<CoveredTable, Map<string, string[]>>;
const coverageByStore = new WeakMap<Store, Promise<Coverage>>();

/** Which sources publish rows of each table per jurisdiction in this release (read once per store). */
function coverageOf(store: Store): Promise<Coverage> {
  let coverage = coverageByStore.get(store);
  if (!coverage) {
    coverage = store
      .all<{ kind: CoveredTable; jurisdiction: string; sources: string[] }>(`
        SELECT CASE WHEN kind = 'grant' THEN 'grants' ELSE 'tenders' END AS kind, jurisdiction, list(DISTINCT source ORDER BY source) AS sources FROM tenders GROUP BY ALL
        UNION ALL SELECT 'awards', jurisdiction, list(DISTINCT source ORDER BY source) FROM awards GROUP BY ALL
        UNION ALL SELECT 'plans', jurisdiction, list(DISTINCT source ORDER BY source) FROM plans GROUP BY ALL`)
      .then((rows) => {
        const map: Coverage = new Map();
        for (const row of rows) {
          if (!map.has(row.kind)) map.set(row.kind, new Map());
          map.get(row.kind)!.set(row.jurisdiction, row.sources);
        }
        return map;
      });
    coverage.catch(() => coverageByStore.delete(store));
    coverageByStore.set(store, coverage);
  }
  return coverage;
}

/** A `Covers` for rows of `table` whose buyers are in `jurisdictions`, over the days given. */
export async function covers(
  ctx: IntelContext,
  table: CoveredTable,
  jurisdictions: readonly string[],
  counts: string,
  days: { from?: string; to?: string } = {},
): Promise<Covers> {
  const byJurisdiction = (await coverageOf(ctx.store)).get(table) ?? new Map<string, string[]>();
  const sources = [...new Set(jurisdictions.flatMap((j) => byJurisdiction.get(j) ?? []))].sort();
  return { counts, jurisdictions: [...jurisdictions], sources, ...(days.from ? { from: days.from } : {}), ...(days.to ? { to: days.to } : {}) };
}
