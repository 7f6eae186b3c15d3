import { z } from '@hono/zod-openapi';

/** One document of an identity check (spec, Identity-check result: documents). */
export const identityDocument = z
  .object({
    filename: z.string().nullable(),
    classified_type: z.string().describe('A document type of api/checkers/document-types.ts, or "unrecognised"'),
    shows: z.array(z.enum(['N', 'P', 'A', 'S'])).describe('N name, P photo, A address, S signature'),
    points: z.number().int(),
    counts: z.boolean(),
    note: z.string(),
  })
  .openapi('IdentityDocument');

export const identityResult = z
  .object({
    scheme: z.object({ id: z.enum(['afp_100_point', 'austrac_safe_harbour']), name: z.string(), source: z.string() }),
    established: z.boolean(),
    rule: z.enum(['points_accumulation', 'category_path']),
    points: z.number().int().nullable(),
    target: z.number().int().nullable(),
    primaries: z.number().int().nullable(),
    satisfied_path: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable(),
    reason: z.string(),
    documents: z.array(identityDocument),
    limitations: z.string(),
  })
  .openapi('IdentityCheckResult');

export type IdentityResult = z.infer<typeof identityResult>;
