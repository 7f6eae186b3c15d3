import { z } from 'zod';

const instant = z.iso.datetime({ offset: true });

/** One registry row as GET /v1/tenders/sources answers an anonymous caller (no homepage link). */
export const SourceRow = z.object({
  id: z.string(),
  tag: z.string(),
  name: z.string(),
  jurisdiction: z.string(),
  tier: z.string(),
  kinds: z.array(z.string()),
  mode: z.string(),
  refresh: z.string(),
  tender_count: z.number().int(),
  award_count: z.number().int(),
  plan_count: z.number().int(),
  reference_count: z.number().int(),
  last_run_at: instant.optional(),
  last_success_at: instant.optional(),
  status: z.string(),
  why: z.string().optional(),
  licence: z.string(),
  attribution: z.string(),
  caveats: z.array(z.string()),
});
export type SourceRow = z.infer<typeof SourceRow>;

/** The `/sources/` page's data: the reply of GET /v1/tenders/sources. */
export const SourcesPage = z.object({ sources: z.array(SourceRow), computed_at: instant });
export type SourcesPage = z.infer<typeof SourcesPage>;
