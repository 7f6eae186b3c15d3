import { z } from '@hono/zod-openapi';
import { strictBody } from '../../orgs/schemas.ts';
import { BidParams } from '../schemas.ts';
import { requirementKinds } from './extract.ts';
import { personStates, requirementStates } from './store.ts';

/** Wire schemas of the requirement routes (api/routes/bid-requirements.ts). Bodies are strict: an unknown field is 400. */

const instant = z.iso.datetime({ offset: true });
const kindChoice = `must be one of ${requirementKinds.join(', ')}`;

export const RequirementKindSchema = z.enum(requirementKinds, { error: kindChoice }).openapi('RequirementKind', {
  description:
    'clause: an obligation in the conditions; schedule: a returnable schedule or form; criterion: an evaluation criterion; condition: a condition for participation (pass or fail); instruction: how, where, when or in what form to lodge (followed when lodging, never a gap).',
});

export const RequirementStateSchema = z.enum(requirementStates, { error: `must be one of ${requirementStates.join(', ')}` }).openapi('RequirementState', {
  description:
    'open: nothing answers it yet; drafted: it has a draft (set by recompute); met and not_applicable: set by a person; superseded: split or merged into others; withdrawn: no longer in the bid\'s files. api/bids/README.md says who sets each.',
});

const text = z
  .string({ error: 'must be the requirement as text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(4000, { error: 'must be at most 4000 characters' });
const ref = z.string({ error: 'must be a clause number as text, or null' }).trim().max(40, { error: 'must be at most 40 characters' }).nullable();
const weight = z.number({ error: 'must be a number of percent from 0 to 100, or null' }).min(0).max(100).nullable();
const mandatory = z.boolean({ error: 'must be true or false' });

export const RequirementParams = BidParams.extend({
  requirement: z.string().openapi({ param: { name: 'requirement', in: 'path' }, description: 'The requirement id (`req_…`).', example: 'req_5b0c2e7f9a1d3c44' }),
});

export const RequirementListQuery = z.object({
  kind: RequirementKindSchema.optional().openapi({ param: { name: 'kind', in: 'query' } }),
  mandatory: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional()
    .openapi({ param: { name: 'mandatory', in: 'query' }, description: 'true: only mandatory requirements; false: only the others.' }),
  state: RequirementStateSchema.optional().openapi({
    param: { name: 'state', in: 'query' },
    description: 'Only requirements in this state; without it, every state but superseded and withdrawn.',
  }),
});

export const RequirementSchema = z
  .object({
    requirement_id: z.string(),
    bid_id: z.string(),
    ref: z.string().nullable().openapi({ description: 'The clause number it sits under, e.g. 5(a)(ii).' }),
    text: z.string(),
    kind: RequirementKindSchema,
    mandatory: z.boolean(),
    state: RequirementStateSchema,
    weight: z.number().nullable().openapi({ description: 'An evaluation criterion\'s weight in percent, when the tender states one.' }),
    source: z
      .object({ file_id: z.string(), page: z.number().int(), start: z.number().int(), end: z.number().int() })
      .nullable()
      .openapi({ description: 'The file, page and character offsets in that page\'s text (GET …/files/{file_id}/pages/{n}) it came from; null for one a person added.' }),
    confidence: z.number().openapi({ description: '0 to 1: how sure extraction is; 1 for a person\'s own.' }),
    parents: z.array(z.string()).openapi({ description: 'The requirements this one was split or merged from.' }),
    superseded_by: z.array(z.string()).openapi({ description: 'The requirements that replaced this one.' }),
    origin: z.enum(['extracted', 'person', 'split', 'merged']),
    edited: z.boolean().openapi({ description: 'A person changed its wording, kind, mandatory flag or weight; recompute keeps them.' }),
    created_at: instant,
    updated_at: instant,
  })
  .openapi('Requirement');

export const RequirementListSchema = z.object({ requirements: z.array(RequirementSchema) }).openapi('RequirementList');

export const CreateRequirementBody = strictBody({
  text,
  ref: ref.optional(),
  kind: RequirementKindSchema.optional().openapi({ description: 'Default clause.' }),
  mandatory: mandatory.optional().openapi({ description: 'Default true.' }),
  weight: weight.optional().openapi({ description: 'Kept for criteria only.' }),
});

export const PatchRequirementBody = strictBody({
  text: text.optional(),
  ref: ref.optional(),
  kind: RequirementKindSchema.optional(),
  mandatory: mandatory.optional(),
  weight: weight.optional(),
  state: z.enum(personStates, { error: `must be one of ${personStates.join(', ')} (the others are set by recompute, split and merge)` }).optional(),
}).refine((body) => Object.keys(body).length > 0, { error: 'give at least one of text, ref, kind, mandatory, weight, state' });

const part = strictBody({ text, ref: ref.optional(), kind: RequirementKindSchema.optional(), mandatory: mandatory.optional(), weight: weight.optional() });

export const SplitRequirementBody = strictBody({
  parts: z.array(part, { error: 'must be a list of parts, each with its text' }).min(2, { error: 'must hold at least two parts' }).max(20, { error: 'must hold at most 20 parts' }),
});

export const SplitSchema = z.object({ parent: RequirementSchema, parts: z.array(RequirementSchema) }).openapi('RequirementSplit');

export const MergeRequirementsBody = strictBody({
  requirement_ids: z
    .array(z.string(), { error: 'must be a list of requirement ids' })
    .min(2, { error: 'must name at least two requirements' })
    .max(50, { error: 'must name at most 50 requirements' })
    .refine((ids) => new Set(ids).size === ids.length, { error: 'must not name a requirement twice' }),
  text: text.optional().openapi({ description: 'Default: the texts joined.' }),
  ref: ref.optional(),
  kind: RequirementKindSchema.optional(),
  mandatory: mandatory.optional(),
  weight: weight.optional(),
});

export const MergeSchema = z.object({ merged: RequirementSchema, parents: z.array(RequirementSchema) }).openapi('RequirementMerge');
