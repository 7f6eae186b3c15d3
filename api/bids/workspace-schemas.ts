import { z } from '@hono/zod-openapi';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { strictBody } from '../orgs/schemas.ts';
import { GAP_CATEGORIES } from './credentials.ts';
import { Partner } from './partners.ts';
import { BidParams } from './schemas.ts';

/** Wire schemas of the bid workspace routes (api/routes/bid-workspace.ts). Request bodies are strict: an unknown field is 400. */

export const RequirementParams = BidParams.extend({
  requirement: z.string().openapi({ param: { name: 'requirement', in: 'path' }, description: 'The requirement id.' }),
});

export const GapParams = BidParams.extend({
  gap: z.string().openapi({ param: { name: 'gap', in: 'path' }, description: 'The gap id (`gap_…`).' }),
});

export const CitationSchema = z
  .object({
    n: z.number().int().openapi({ description: 'The number the draft cites it by, `[n]`.' }),
    source: z.enum(['profile', 'library', 'bid']).openapi({ description: 'The organisation profile, a library document, or an earlier bid\'s draft.' }),
    document: z.string().openapi({ description: 'The library file\'s name, "Organisation profile", or the earlier bid\'s title.' }),
    page: z.number().int().nullable().openapi({ description: '1-based page of a library document; null otherwise.' }),
    doc_id: z.string().optional(),
    bid_id: z.string().optional(),
    requirement_id: z.string().optional(),
    excerpt: z.string().openapi({ description: 'The passage as retrieved.' }),
    score: z.number().openapi({ description: 'Its BM25+ score against the requirement (higher is closer).' }),
  })
  .openapi('DraftCitation');

export const DraftSchema = z
  .object({
    requirement_id: z.string(),
    text: z.string(),
    origin: z.enum(['assembled', 'model', 'person']).openapi({
      description: '`assembled`: the cited passages as found (no language model configured, or it failed); `model`: written by the language model from them; `person`: typed by a person, never overwritten by a recompute.',
    }),
    note: z.string().openapi({ description: 'Why the draft reads as it does.' }),
    citations: z.array(CitationSchema),
    model: z.string().nullable(),
    edited_by: z.string().nullable().openapi({ description: 'The email of the person who wrote it (origin `person`).' }),
    updated_at: z.string(),
  })
  .openapi('Draft');

export const DraftListSchema = z.object({ drafts: z.array(DraftSchema) }).openapi('DraftList');

export const DraftPatchBody = strictBody({
  text: z
    .string({ error: 'must be the draft as text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(20_000, { error: 'must be at most 20000 characters' })
    .openapi({ description: "The person's text; kept over every recompute." }),
});

export const PartnerSchema = Partner;

export const GapSchema = z
  .object({
    gap_id: z.string(),
    gap_key: z.string().openapi({ description: 'What the gap is about, stable across recomputes: `evidence:<requirement>`, `expiry:<doc_id>`, `credential:<id>`.' }),
    kind: z.enum(['no_evidence', 'document_expiry', 'missing_credential']),
    category: z.enum(GAP_CATEGORIES),
    region: z.enum(JURISDICTIONS).nullable().openapi({ description: "The organisation profile's region, else the tender's jurisdiction." }),
    title: z.string(),
    detail: z.string(),
    requirement_id: z.string().nullable(),
    doc_id: z.string().nullable(),
    status: z.enum(['open', 'closed', 'NA']).openapi({ description: '`open` and `closed` come from recompute; `NA` is a person\'s call, with `na_reason`.' }),
    na_reason: z.string().nullable(),
    updated_at: z.string(),
    partners: z.array(PartnerSchema).openapi({ description: 'Active partners serving the gap\'s category in its region.' }),
  })
  .openapi('Gap');

export const GapListSchema = z
  .object({
    gaps: z.array(GapSchema),
    counts: z.record(z.string(), z.number().int()).openapi({ description: 'Rows per category.' }),
  })
  .openapi('GapList');

export const GapPatchBody = strictBody({
  status: z.literal('NA', { error: 'must be NA: a gap can only be marked not applicable; every other status comes from recompute' }),
  reason: z
    .string({ error: 'must say why the gap does not apply to this bid' })
    .trim()
    .min(1, { error: 'must say why the gap does not apply to this bid' })
    .max(1000, { error: 'must be at most 1000 characters' }),
});

export const PlanTaskSchema = z
  .object({
    task_id: z.string(),
    title: z.string(),
    owner: z.string().nullable().openapi({ description: "The owner's email: the bid's owner when it was computed." }),
    due_at: z.string().openapi({ description: 'When it is due (ISO instant, UTC).' }),
    due_local: z.string().openapi({ description: "The same as the buyer's wall-clock time, `YYYY-MM-DD HH:MM`." }),
    depends_on: z.array(z.string()).openapi({ description: 'Tasks to finish first.' }),
  })
  .openapi('PlanTask');

export const PlanSchema = z
  .object({
    time_zone: z.string().nullable().openapi({ description: "The buyer's time zone the plan is scheduled in." }),
    closing_date: z.string().nullable().openapi({ description: "The day the plan is back-scheduled from (the tender's closing day, else the bid's due date); null when the bid has neither, and the plan is empty." }),
    tasks: z.array(PlanTaskSchema),
  })
  .openapi('Plan');

export const RecomputeSchema = z
  .object({
    requirements: z.number().int(),
    drafts: z.number().int(),
    open_gaps: z.number().int(),
    plan: PlanSchema,
  })
  .openapi('Recompute');

export const PartnersQuery = z.object({
  category: z
    .enum(GAP_CATEGORIES, { error: `must be one of ${GAP_CATEGORIES.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'category', in: 'query' }, description: 'Only partners serving this gap category.' }),
});

export const PartnerListSchema = z.object({ partners: z.array(PartnerSchema) }).openapi('PartnerList');
