import { z } from '@hono/zod-openapi';

/** Wire schemas of the checkout and the payment provider's webhook (api/routes/bid-checkout.ts). */

const instant = z.iso.datetime({ offset: true });

export const CheckoutSchema = z
  .object({
    checkout_id: z.string(),
    bid_id: z.string(),
    status: z.enum(['pending', 'paid', 'expired', 'failed']).openapi({
      description: 'pending: the hosted page is open for payment; paid: the provider confirmed the payment; expired: the page closed unpaid; failed: a delayed payment (bank debit) failed.',
    }),
    url: z.string().nullable().openapi({ description: 'The hosted payment page to send the payer to.' }),
    amount: z.number().openapi({ description: 'The flat fee, in major units of `currency`.' }),
    currency: z.string().openapi({ description: 'ISO 4217 code.' }),
    expires_at: instant.openapi({ description: 'When the payment page closes, unpaid.' }),
    paid_at: instant.nullable(),
    created_at: instant,
  })
  .openapi('BidCheckout');

export const WebhookReceiptSchema = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().openapi({ description: 'True when this event id was received before: nothing changed this time.' }),
    outcome: z.string().openapi({ description: 'What the event did: paid, expired, failed, pending, or `ignored: …` with the reason.' }),
  })
  .openapi('PaymentWebhookReceipt');
