import { z } from '@hono/zod-openapi';
import type { StateDb } from '../../data/state/db.ts';
import type { Membership } from '../orgs/orgs.ts';
import { may, ROLES } from '../orgs/roles.ts';
import type { ReleaseStore } from '../release-store.ts';
import type { BidRecord } from './access.ts';
import { checkoutView, formatPrice, type BidSale } from './checkout.ts';
import { listDrafts } from './drafts/store.ts';
import { lastFetch, offerView, packOffer } from './pack-fetch.ts';
import { PackFetchStatusSchema } from './pack-fetch-schemas.ts';
import { BidFileSchema } from './file-schemas.ts';
import { listBidFiles } from './files.ts';
import { CheckoutSchema } from './payment-schemas.ts';
import { bidIsPaid, currentPayment } from './payments.ts';
import { RequirementSchema } from './requirements/schemas.ts';
import { overviewRun, OverviewRunSchema } from './runs/overview-run.ts';
import { listRequirements, refreshRequirements } from './requirements/store.ts';
import { ThreadMessageSchema } from './schemas.ts';
import { threadOf } from './thread.ts';
import { gapListView, planView, worthBidding, type RequirementSource } from './workspace.ts';
import { DraftSchema, GapListSchema, PlanSchema } from './workspace-schemas.ts';
import { WorthBiddingCard } from './worth-bidding.ts';

/**
 * Everything the bid page shows, in one read (`GET /v1/bids/{bid}?include=overview`): the page used to make
 * about ten calls on load, the burst guard's whole capacity, so opening a second bid was refused. Each part is
 * what its own route answers (files, requirements, drafts, gaps, plan, thread, worth-bidding), plus the caller's
 * role, the payment state, the tender-pack fetch and the run part (the latest run, actions waiting for a person, findings).
 */

export const OverviewSchema = z
  .object({
    role: z.enum(ROLES).openapi({ description: "The caller's role in the bid's organisation." }),
    may_write: z.boolean().openapi({ description: 'Whether that role may change the bid (viewers read only).' }),
    files: z.array(BidFileSchema),
    requirements: z.array(RequirementSchema).openapi({ description: 'Every requirement in force, as GET …/requirements with no filter.' }),
    drafts: z.array(DraftSchema),
    gaps: GapListSchema,
    plan: PlanSchema,
    thread: z.array(ThreadMessageSchema).openapi({ description: 'Oldest first.' }),
    worth_bidding: z
      .object({ ready: z.boolean(), card: WorthBiddingCard.optional(), detail: z.string().optional() })
      .openapi({ description: 'The card of GET …/worth-bidding, or `ready: false` with why (no release loaded yet).' }),
    payment: z
      .object({
        paid: z.boolean().openapi({ description: 'The payment provider confirmed the fee for this bid.' }),
        available: z.boolean().openapi({ description: 'Whether bid preparation can be bought on this server (GET /v1/pricing).' }),
        amount: z.number().optional(),
        currency: z.string().optional(),
        detail: z.string(),
        checkout: CheckoutSchema.nullable().openapi({ description: 'The paid checkout, else the pending one, else the latest; null before any.' }),
      })
      .openapi({ description: 'What buying bid preparation stands at for this bid.' }),
    pack_fetch: PackFetchStatusSchema.omit({ today: true }).openapi({ description: 'The tender-pack fetch: its offer and the last fetch (GET …/pack/fetch).' }),
    run: OverviewRunSchema,
  })
  .openapi('BidOverview');

export type Overview = z.infer<typeof OverviewSchema>;

export interface OverviewDeps {
  state: StateDb;
  store: Pick<ReleaseStore, 'state' | 'now'>;
  requirements: RequirementSource;
  sale: BidSale;
  now: () => Date;
}

export async function bidOverview(deps: OverviewDeps, bid: BidRecord, membership: Membership): Promise<Overview> {
  const { state, sale } = deps;
  await refreshRequirements(state, bid.bid_id, deps.now());
  const worth = await worthBidding(deps, bid);
  const checkout = await currentPayment(state, bid.bid_id);
  return {
    role: membership.role,
    may_write: may(membership.role, 'write_bids'),
    files: await listBidFiles(state, bid.bid_id),
    requirements: await listRequirements(state, bid.bid_id),
    drafts: await listDrafts(state, bid.bid_id),
    gaps: await gapListView(state, bid.bid_id),
    plan: await planView(state, bid),
    thread: await threadOf(state, bid.bid_id),
    worth_bidding: worth.ready ? { ready: true, card: worth.card } : { ready: false, detail: worth.detail },
    payment: {
      paid: await bidIsPaid(state, bid.bid_id),
      available: sale.available,
      ...(sale.price ? { amount: sale.price.amount, currency: sale.price.currency } : {}),
      detail: sale.available ? `Preparing this bid costs ${formatPrice(sale.price)}, paid once.` : sale.detail,
      checkout: checkout ? checkoutView(checkout) : null,
    },
    pack_fetch: { offer: offerView(packOffer(deps, bid)), last_fetch: await lastFetch(state, bid.bid_id) },
    run: await overviewRun(state, bid.bid_id),
  };
}
