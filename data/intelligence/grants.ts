import { z } from 'zod';
import { moneyAmount } from '../../lib/text.ts';
import { buyerTodaySql, monthEnd, referenceDay } from './calendar.ts';
import { Attribution, attributions, type IntelContext } from './context.ts';

const CLOSING_SOON_ROWS = 10;
/** Grant values are summed in Australian dollars: every grant source is Australian, and values are never converted. */
const GRANT_CURRENCY = 'AUD';

const ClosingGrant = z.object({
  page_key: z.string(),
  title: z.string(),
  buyer: z.string().optional(),
  jurisdiction: z.string(),
  closing_date: z.iso.date(),
  value_text: z.string().optional(),
});

export const GrantsSummary = z
  .object({
    open: z.number().int().meta({ description: 'Open grant rounds (no closing date, or closing today or later in the buyer\'s day).' }),
    closing_month: z.number().int().meta({ description: 'Open rounds closing by `month_end`.' }),
    month_end: z.iso.date().meta({ description: 'The last day of the current month (Sydney).' }),
    value_open: z.number().meta({ description: 'The summed value of the open Australian rounds that state one; rounds stating none are not guessed.' }),
    value_currency: z.literal(GRANT_CURRENCY),
    with_value: z.number().int().meta({ description: 'How many open rounds `value_open` sums.' }),
    by_jurisdiction: z.array(z.object({ jurisdiction: z.string(), open: z.number().int(), value_open: z.number(), with_value: z.number().int() })),
    closing_soon: z.array(ClosingGrant).meta({ description: 'The ten open rounds closing soonest.' }),
    computed_at: z.string(),
    sources: z.array(Attribution),
  })
  .meta({ id: 'GrantsSummary' });
export type GrantsSummary = z.infer<typeof GrantsSummary>;

type OpenGrant = { page_key: string; title: string; buyer: string | null; jurisdiction: string; closing_date: string | null; value_text: string | null; source: string };

/**
 * GET /v1/grants/summary: open grant rounds (tenders of kind `grant`), how many close this month, and the
 * value of those that state one, read from `value_text` with lib/text.ts moneyAmount (a range is no value).
 */
export async function grantsSummary(ctx: IntelContext): Promise<GrantsSummary> {
  const today = referenceDay(ctx.now);
  const end = monthEnd(today);
  const grants = await ctx.store.all<OpenGrant>(
    `SELECT t.tender_key AS page_key, t.title, t.buyer, t.jurisdiction, strftime(t.closing_date, '%Y-%m-%d') AS closing_date, t.value_text, t.source
     FROM tenders t JOIN ${buyerTodaySql(ctx.now)} USING (jurisdiction)
     WHERE t.kind = 'grant' AND (t.closing_date IS NULL OR t.closing_date >= buyer_today.today)
     ORDER BY t.closing_date NULLS LAST, t.title, t.tender_key`,
  );
  const byJurisdiction = new Map<string, { jurisdiction: string; open: number; value_open: number; with_value: number }>();
  let valueCents = 0;
  let withValue = 0;
  for (const grant of grants) {
    const entry = byJurisdiction.get(grant.jurisdiction) ?? { jurisdiction: grant.jurisdiction, open: 0, value_open: 0, with_value: 0 };
    entry.open += 1;
    const amount = grant.jurisdiction.startsWith('AU') ? moneyAmount(grant.value_text, { rangeIsNull: true }) : null;
    if (amount !== null) {
      // Summed in cents so a long list of amounts does not drift.
      const cents = Math.round(Number(amount) * 100);
      entry.value_open = (Math.round(entry.value_open * 100) + cents) / 100;
      entry.with_value += 1;
      valueCents += cents;
      withValue += 1;
    }
    byJurisdiction.set(grant.jurisdiction, entry);
  }
  const closingSoon = grants.filter((g) => g.closing_date !== null).slice(0, CLOSING_SOON_ROWS).map(({ source: _source, ...grant }) =>
    Object.fromEntries(Object.entries(grant).filter(([, v]) => v !== null)) as z.infer<typeof ClosingGrant>);
  return {
    open: grants.length,
    closing_month: grants.filter((g) => g.closing_date !== null && g.closing_date <= end).length,
    month_end: end,
    value_open: valueCents / 100,
    value_currency: GRANT_CURRENCY,
    with_value: withValue,
    by_jurisdiction: [...byJurisdiction.values()].sort((a, b) => b.open - a.open || a.jurisdiction.localeCompare(b.jurisdiction)),
    closing_soon: closingSoon,
    computed_at: ctx.computedAt,
    sources: attributions(grants.map((g) => g.source), ctx.registry),
  };
}
