import { z } from '@hono/zod-openapi';
import { daysBetween } from '../../lib/jurisdictions.ts';
import type { IntelContext } from '../../data/intelligence/context.ts';
import { requiredOverlap, titleKeywords, titleTerms } from '../../data/intelligence/title-terms.ts';
import { tenderContext, type ContextAward } from '../../data/intelligence/tender-context.ts';

/**
 * The worth-bidding card: what the release knows about the buyer (its awards, their median value, recent
 * suppliers), how much similar work is awarded (the title-keyword heuristic, labelled as such), the
 * incumbent when one of the buyer's contracts ending soonest is for the same work, and the bid's own checks.
 * Built from the tender context (data/intelligence/tender-context.ts) as a signed-in caller sees it.
 */

const SimilarRule =
  "Similar work is a contract of the same country in the last three years whose title shares the tender's title keywords: all of one or two, two of three or four, three of five or six.";

export const WorthBiddingCard = z
  .object({
    tender_key: z.string().nullable().openapi({ description: 'The tender the bid answers; null for a bid on a free title (no buyer or similar work is then known).' }),
    buyer: z
      .object({
        name: z.string(),
        award_count: z.number().int().openapi({ description: 'Contracts of the buyer in its three-year award window.' }),
        median_value: z.number().nullable(),
        value_currency: z.string().nullable(),
        recent_suppliers: z.array(z.string()).openapi({ description: 'Suppliers of its most recent contracts, newest first, each once.' }),
      })
      .nullable()
      .openapi({ description: 'Null when the tender names no buyer or the release holds no summary for it.' }),
    similar_work: z
      .object({
        method: z.literal('heuristic'),
        rule: z.string(),
        keywords: z.array(z.string()),
        award_count: z.number().int(),
        value_min: z.number().nullable(),
        value_max: z.number().nullable(),
        value_currency: z.string().nullable(),
      })
      .nullable(),
    incumbent: z
      .object({
        supplier: z.string().nullable().openapi({ description: 'Null when the source names no supplier.' }),
        contract_title: z.string(),
        end_date: z.string().nullable(),
        value_amount: z.number().nullable(),
        value_currency: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "One of the buyer's contracts ending soonest whose title shares the tender's keywords by the same rule; null when none does." }),
    checks: z.object({
      days_to_close: z.number().int().nullable().openapi({ description: "Whole days from today to the closing day, in the buyer's time zone; negative once closed; null without a closing day." }),
      mandatory_without_draft: z.number().int(),
      open_gaps: z.number().int(),
    }),
    computed_at: z.string().nullable().openapi({ description: 'The night the release figures are true for.' }),
  })
  .openapi('WorthBiddingCard');
export type WorthBiddingCard = z.infer<typeof WorthBiddingCard>;

export interface CardBid {
  tender_key: string | null;
  title: string;
  closing_date: string | null;
  buyer_time_zone: string | null;
}

export interface BidChecks {
  mandatoryWithoutDraft: number;
  openGaps: number;
  /** Today in the buyer's time zone (workspace.ts bidToday): the chat's recap counts days from the same day. */
  today: string;
}

export async function worthBiddingCard(ctx: IntelContext, bid: CardBid, checks: BidChecks): Promise<WorthBiddingCard> {
  const context = bid.tender_key ? await tenderContext(ctx, bid.tender_key, { identified: true }) : null;
  const buyer = context?.buyer ?? null;
  const similar = context?.similar ?? null;
  return {
    tender_key: bid.tender_key,
    buyer: buyer && {
      name: buyer.summary.name,
      award_count: buyer.summary.award_count,
      median_value: buyer.summary.median_value ?? null,
      value_currency: buyer.summary.value_currency ?? null,
      recent_suppliers: [...new Set(buyer.recent_awards.flatMap((award) => (award.supplier ? [award.supplier] : [])))],
    },
    similar_work: similar && {
      method: 'heuristic' as const,
      rule: SimilarRule,
      keywords: similar.keywords,
      award_count: similar.awards.count,
      value_min: similar.awards.value_min ?? null,
      value_max: similar.awards.value_max ?? null,
      value_currency: similar.awards.value_currency ?? null,
    },
    incumbent: incumbentOf(buyer?.ending_soonest ?? [], similar?.keywords ?? titleKeywords(bid.title)),
    checks: {
      days_to_close: bid.closing_date === null ? null : daysBetween(checks.today, bid.closing_date),
      mandatory_without_draft: checks.mandatoryWithoutDraft,
      open_gaps: checks.openGaps,
    },
    computed_at: context?.computed_at ?? null,
  };
}

/** The first of the buyer's contracts ending soonest whose title shares enough of the tender's title keywords. */
function incumbentOf(endingSoonest: readonly ContextAward[], keywords: readonly string[]): WorthBiddingCard['incumbent'] {
  if (keywords.length === 0) return null;
  const needed = requiredOverlap(keywords.length);
  const match = endingSoonest.find((award) => {
    const terms = new Set(titleTerms(award.title));
    return keywords.filter((keyword) => terms.has(keyword)).length >= needed;
  });
  return match
    ? { supplier: match.supplier ?? null, contract_title: match.title, end_date: match.end_date ?? null, value_amount: match.value_amount ?? null, value_currency: match.value_currency ?? null }
    : null;
}
