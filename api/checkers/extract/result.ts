import { z } from '@hono/zod-openapi';

/** A value found in the document (spec, Extraction result: fields). */
export const extractedField = z
  .object({
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
    confidence: z.number().min(0).max(1),
    page: z.number().int().positive(),
    bbox: z.array(z.number()).length(4).nullable().optional().describe('[x, y, width, height] in PDF points from the top-left; null on scans. Present with grounding'),
    text_layer_match: z.boolean().optional().describe('With grounding: the value was found verbatim in the PDF text layer'),
  })
  .openapi('ExtractedField');

export const extractedTable = z
  .object({
    page: z.number().int().positive(),
    source: z.enum(['native_pdf', 'vlm']),
    header: z.array(z.string()),
    json: z.array(z.record(z.string(), z.string())),
  })
  .openapi('ExtractedTable');

/**
 * The extraction result (spec). One extra key per enabled option (tables, grounding, classify, redact,
 * layout, links, figures, chunks, split, flag_below); their item shapes are declared in the option modules.
 */
export const extractionResult = z
  .object({
    mode: z.enum(['fields', 'template', 'classified', 'classify_only', 'redact_only', 'options_only']),
    document_type: z.string(),
    fields: z.record(z.string(), extractedField),
    not_found: z.array(z.string()),
    pages_read: z.number().int(),
    page_limit: z.number().int(),
    page_count: z.number().int(),
    capabilities_used: z.array(z.string()),
    tables: z.array(extractedTable).optional(),
    limitations: z.string(),
  })
  .catchall(z.unknown())
  .openapi('ExtractionResult');

export type ExtractionResult = z.infer<typeof extractionResult>;
