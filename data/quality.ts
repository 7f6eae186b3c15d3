import { z } from 'zod';
import type { Store } from './store.ts';

/**
 * Release-level data-quality checks: what looks wrong across sources, which no one source's warnings can say.
 * Each check is one set-based query over the finished models; its findings go into the manifest and the run
 * summary, and never stop a release.
 */

export const DataQualityFinding = z.object({
  check: z.enum(['repeated_amount']),
  /** One sentence a person can act on. */
  detail: z.string(),
  value_amount: z.string(),
  value_currency: z.string().nullable(),
  awards: z.number().int(),
  sources: z.array(z.string()),
  /** A few of the awards carrying it, `<source>:<contract_id>`, to look up. */
  examples: z.array(z.string()),
});
export type DataQualityFinding = z.infer<typeof DataQualityFinding>;

/** Independent registers rarely publish the same exact amount; from this many sources on, it is flagged. */
export const REPEATED_AMOUNT_MIN_SOURCES = 3;
/** At most this many findings per check are kept, the most widespread first. */
const FINDINGS_KEPT = 20;
const EXAMPLES_KEPT = 5;

// A round amount (a whole multiple of 100) is a common budget or panel ceiling and repeats honestly across
// registers, so only amounts with cents or tens count: `1234567.00` in six registers is a test value or a
// placeholder, not six contracts. Zero is no value.
const REPEATED_AMOUNT_SQL = `
  SELECT
    value_amount::VARCHAR AS value_amount,
    value_currency,
    count(*)::INTEGER AS awards,
    list(DISTINCT source ORDER BY source) AS sources,
    list(source || ':' || contract_id ORDER BY source, contract_id)[1:${EXAMPLES_KEPT}] AS examples
  FROM awards
  WHERE value_amount IS NOT NULL AND value_amount <> 0 AND value_amount % 100 <> 0
  GROUP BY value_amount, value_currency
  HAVING count(DISTINCT source) >= ${REPEATED_AMOUNT_MIN_SOURCES}
  ORDER BY count(DISTINCT source) DESC, awards DESC, value_amount
  LIMIT ${FINDINGS_KEPT}`;

const RepeatedAmountRow = z.object({
  value_amount: z.string(),
  value_currency: z.string().nullable(),
  awards: z.number().int(),
  sources: z.array(z.string()),
  examples: z.array(z.string()),
});

/** Every release-level data-quality finding of the store's models. */
export async function dataQualityFindings(store: Store): Promise<DataQualityFinding[]> {
  const rows = z.array(RepeatedAmountRow).parse(await store.all(REPEATED_AMOUNT_SQL));
  return rows.map((row) => {
    const amount = [row.value_currency, row.value_amount].filter((part) => part !== null).join(' ');
    return {
      check: 'repeated_amount',
      detail: `${row.awards} awards from ${row.sources.length} sources state the same amount, ${amount}: check those sources for a placeholder or test value.`,
      ...row,
    };
  });
}
