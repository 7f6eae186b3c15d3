import { z } from '@hono/zod-openapi';

/** The document-pack result (spec). */
export const packResult = z
  .object({
    scheme: z.object({ id: z.string(), name: z.string() }),
    complete: z.boolean(),
    slots: z.array(z.object({ key: z.string(), label: z.string(), optional: z.boolean(), satisfied: z.boolean(), matched: z.string().nullable() })),
    missing: z.array(z.string()),
    documents: z.array(z.object({ filename: z.string().nullable(), classified_type: z.string(), confidence: z.number() })),
    unmatched_documents: z.array(z.object({ filename: z.string().nullable(), classified_type: z.string(), reason: z.string() })),
    flags: z.array(z.object({ filename: z.string().nullable(), code: z.string(), message: z.string(), source: z.string() })).describe('Documents a scheme should not collect, where a published rule says so'),
    limitations: z.string(),
  })
  .openapi('DocumentPackResult');

export type PackResult = z.infer<typeof packResult>;
