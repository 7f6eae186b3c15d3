import { z } from '@hono/zod-openapi';
import { strictQuery, wholeNumber } from './common.ts';
import type { MiddlewareHandler } from 'hono';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { BUYER_KEY_PATTERN } from '../../lib/keys.ts';
import { QUARTER_PATTERN } from '../../data/intelligence/calendar.ts';
import type { IntelContext } from '../../data/intelligence/context.ts';
import { SIGNAL_KINDS } from '../../data/intelligence/signals.ts';
import { whileHeld, type LoadedRelease, type ReleaseEnv, type ReleaseStore } from '../release-store.ts';

/**
 * Query schemas and helpers shared by the signals, intelligence and grants routes. A bad value answers 400
 * naming the parameter and the value (the validation hook of api/middleware/errors.ts words it).
 */

export const NotReadySchema = z
  .object({ ready: z.literal(false), detail: z.string() })
  .openapi('NotReady', { description: 'No release is loaded yet; honour `Retry-After`.' });

/**
 * Intelligence routes answer 503 `{ready: false, detail}` until a release is loaded (spec, Errors: "awards
 * routes answer {ready: false}"); otherwise the release is fixed for the whole request.
 */
export function requireIntelligenceRelease(store: Pick<ReleaseStore, 'state'>, retryAfterSeconds = 30): MiddlewareHandler<ReleaseEnv> {
  return async function requireIntelligenceReleaseHandler(c, next) {
    const state = store.state();
    if (!state.ready) {
      c.header('Retry-After', String(retryAfterSeconds));
      return c.json({ ready: false as const, detail: `${state.detail} Try again later.` }, 503);
    }
    c.set('release', state.release);
    await whileHeld(store, state.release, next);
  };
}

/** The context every intelligence builder reads, for one release on the service clock. */
export function intelContextOf(release: LoadedRelease, now: Date): IntelContext {
  return { store: release.store, computedAt: release.computedAt, now, registry: release.tenders.sources };
}

const isoDay = (description: string) =>
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a date written YYYY-MM-DD, such as 2026-10-31' })
    .pipe(z.iso.date({ error: 'must be a real calendar date written YYYY-MM-DD' }))
    .optional().openapi({ description, example: '2026-10-31' });

/** The row filters /v1/signals and /v1/intelligence/planned share. */
export const signalFilterParameters = {
  jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
    .openapi({ description: '`AU` matches every Australian state too.' }),
  buyer: z.string().trim().min(1, { error: 'must not be empty' }).max(300, { error: 'must be at most 300 characters' }).optional()
    .openapi({ description: 'Buyer name as published: exact, ignoring case and runs of spaces.' }),
  q: z.string().trim().min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }).optional()
    .openapi({ description: 'Every word must appear in the subject, the buyer or (for identified callers) the incumbent.' }),
  window_before: isoDay('Window starts on or before this date.'),
  window_after: isoDay('Window not ended by this date; windows without an end are kept.'),
  first_seen_after: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 instant with Z or an offset, such as 2026-10-01T00:00:00Z' }).optional()
    .openapi({ description: 'First seen strictly after this instant.' }),
  limit: wholeNumber('Page size.', 1, 100).default(20).openapi({ default: 20 }),
  offset: wholeNumber('Results to skip.', 0).default(0).openapi({ default: 0 }),
};

export const SignalsQuery = strictQuery({
  kind: z.enum(SIGNAL_KINDS, { error: `must be one of ${SIGNAL_KINDS.join(', ')}` }).optional(),
  ...signalFilterParameters,
});

export const PlannedQuery = strictQuery({
  ...signalFilterParameters,
  buyer_key: z.string().regex(BUYER_KEY_PATTERN, { error: 'must be a buyer key such as au-nsw-3f2a9c1b7d4e' }).optional()
    .openapi({ description: 'A buyer key (see GET /v1/awards/buyers).' }),
  quarter: z.string().refine((value) => QUARTER_PATTERN.test(value) || value === 'later' || value === 'ended', {
    error: 'must be a quarter id such as 2026Q4 (year, Q, 1 to 4), later or ended',
  }).optional().openapi({
    description:
      'A quarter id such as 2026Q4: plans whose window starts in that calendar quarter (a well-formed id outside the current five quarters ' +
      'gives an empty list). `later`: plans whose window starts after the current five quarters. `ended`: plans whose window has ended ' +
      '(instead of the plans still to come).',
  }),
  sort: z.enum(['soon', 'buyer'], { error: 'must be soon or buyer' }).default('soon').openapi({ default: 'soon', description: '`soon`: window start, undated last; `buyer`: buyer name.' }),
  exact: z.enum(['1', '0'], { error: 'must be 1 or 0' }).optional()
    .openapi({ description: '`1`: the jurisdiction code alone (AU without its states).' }),
});

export const PlanIdParams = z.object({
  plan_id: z.string().min(1).max(200, { error: 'must be at most 200 characters' }).openapi({ param: { name: 'plan_id', in: 'path' }, description: 'The plan\'s id (`evidence_ref` of a planned procurement).', example: 'FIN-APP-2026-27-014' }),
});

export const JurisdictionParams = z.object({
  jurisdiction: z.string().max(20).openapi({ param: { name: 'jurisdiction', in: 'path' }, description: 'A jurisdiction code (`AU-NSW`, any case) or page slug (`nsw`, `au`, `nz`).', example: 'AU-NSW' }),
});

export const TradeStateParams = z.object({
  trade: z.string().max(60).openapi({ param: { name: 'trade', in: 'path' }, description: 'A trade id of lib/trades.ts.', example: 'civil-works' }),
  state: z.string().max(20).openapi({ param: { name: 'state', in: 'path' }, description: 'A jurisdiction slug (`nsw`, `au` for federal, `nz`) or code.', example: 'nsw' }),
});
