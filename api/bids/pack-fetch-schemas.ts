import { z } from '@hono/zod-openapi';
import { DAILY_FETCHES, PACK_PORTAL } from './pack-fetch.ts';

/** Wire schemas of the tender-pack fetch (api/routes/bid-pack-fetch.ts, and the bid overview's part). */

const instant = z.iso.datetime({ offset: true });

export const FetchSchema = z
  .object({
    fetch_id: z.string(),
    state: z.enum(['queued', 'running', 'succeeded', 'failed']).openapi({ description: 'queued → running → succeeded or failed.' }),
    detail: z.string().nullable().openapi({ description: 'What came of it, as a sentence; null until it ends.' }),
    file_ids: z.array(z.string()).openapi({ description: 'The bid files it added (GET …/files lists them).' }),
    tender_url: z.string(),
    requested_at: instant,
    started_at: instant.nullable(),
    finished_at: instant.nullable(),
  })
  .openapi('PackFetch');

export const PackFetchStatusSchema = z
  .object({
    offer: z
      .object({
        available: z.boolean(),
        portal: z.string().openapi({ description: `The one supported portal: ${PACK_PORTAL.name}.` }),
        source: z.string().nullable(),
        tender_url: z.string().nullable(),
        detail: z.string(),
      })
      .openapi({ description: 'Whether this bid\'s tender pack can be fetched, and why not when it cannot.' }),
    today: z
      .object({ limit: z.number().int(), used: z.number().int(), remaining: z.number().int(), reset_at: instant })
      .openapi({ description: `The caller's fetches this Sydney day: at most ${DAILY_FETCHES}; the count starts again at midnight in Sydney.` }),
    last_fetch: FetchSchema.nullable(),
  })
  .openapi('PackFetchStatus');

