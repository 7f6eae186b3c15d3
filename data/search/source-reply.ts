import { z } from 'zod';
import type { SourceRow } from './tender-index.ts';
import type { TenderAudience } from './tender-reply.ts';

/**
 * One row of the source registry as GET /v1/tenders/sources gives it, built here so the API, the static site's
 * `/sources/` page and its JSON twin (`sources.json`) share one schema and one builder, as tenders share
 * `tenderReply`. A value the release does not hold is absent, never null; the homepage is a link to another
 * site, so only an audience allowed links gets it (spec, Authentication 7).
 */

const isoInstant = z.iso.datetime({ offset: true });
const linkNote = 'Only for a caller with an API key or a signed-in session.';

export const SourceRegistryRowSchema = z
  .object({
    id: z.string(),
    tag: z.string(),
    name: z.string(),
    jurisdiction: z.string(),
    tier: z.string(),
    kinds: z.array(z.string()),
    mode: z.string().meta({ description: 'How it is read: rss, json-api, csv, xml, html or browser.' }),
    refresh: z.string().meta({ description: 'incremental (rows merged night to night) or snapshot (a register replaced whole when it changes).' }),
    tender_count: z.number().int(),
    award_count: z.number().int(),
    plan_count: z.number().int().meta({ description: 'Planned procurements held from it.' }),
    reference_count: z.number().int().meta({ description: 'Register entries held from it (companies, ABNs).' }),
    last_run_at: isoInstant.optional(),
    last_success_at: isoInstant.optional(),
    status: z.string().meta({ description: 'ok, empty, error, stale, login_walled, robots_refused or not_run.' }),
    why: z.string().optional().meta({ description: 'Diagnosis when the last run did not end ok.' }),
    licence: z.string(),
    attribution: z.string(),
    caveats: z.array(z.string()),
    homepage: z.url().optional().meta({ description: `The source's own site. ${linkNote}` }),
  })
  .meta({ id: 'TenderSource' });
export type SourceRegistryRow = z.infer<typeof SourceRegistryRowSchema>;

export const TenderSourcesSchema = z
  .object({
    sources: z.array(SourceRegistryRowSchema),
    computed_at: isoInstant,
  })
  .meta({ id: 'TenderSources' });
export type TenderSources = z.infer<typeof TenderSourcesSchema>;

/** The reply for one registry row; the homepage is a link to another site, shown like a tender's. */
export function sourceReply(source: SourceRow, audience: TenderAudience): SourceRegistryRow {
  return {
    id: source.id,
    tag: source.tag,
    name: source.name,
    jurisdiction: source.jurisdiction,
    tier: source.tier,
    kinds: source.kinds,
    mode: source.mode,
    refresh: source.refresh,
    tender_count: source.tender_count,
    award_count: source.award_count,
    plan_count: source.plan_count,
    reference_count: source.reference_count,
    last_run_at: source.last_run_at ?? undefined,
    last_success_at: source.last_success_at ?? undefined,
    status: source.status,
    why: source.why ?? undefined,
    licence: source.licence,
    attribution: source.attribution,
    caveats: source.caveats,
    homepage: audience.links ? source.homepage : undefined,
  };
}

/** The whole registry reply, rows in id order as the release holds them. */
export function sourcesReply(sources: readonly SourceRow[], computedAt: string, audience: TenderAudience): TenderSources {
  return { sources: sources.map((source) => sourceReply(source, audience)), computed_at: computedAt };
}
