import { z } from '@hono/zod-openapi';
import { signal } from './signal.ts';

/** What the engine reads off one file: the part of a warrant that depends only on the bytes (and the clock). */
export const warrantAnalysis = z
  .object({
    inspection_version: z.string().describe('Version of the inspection engine that produced this analysis'),
    file_kind: z.enum(['pdf', 'image']),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    risk_band: z.enum(['low', 'medium', 'high', 'insufficient', 'error']),
    inspection_quality: z.enum(['full', 'partial', 'minimal', 'failed']).describe('How much of the file could be read: full, partial (some parts unreadable), minimal (little text or structure to inspect), failed'),
    recommended_action: z.string(),
    summary: z.object({
      headline: z.string(),
      counts: z.object({ tampering: z.number().int(), structure: z.number().int(), metadata: z.number().int(), arithmetic: z.number().int() }),
      band_rule: z.string().describe('The written rule that chose the band, as applied to this file'),
      pages: z.number().int().nullable(),
      revisions: z.number().int().nullable().describe('Saved revisions of a PDF (1 = never updated)'),
      producer: z.string().nullable(),
      creator: z.string().nullable(),
    }),
    signals: z.array(signal),
  })
  .openapi('WarrantAnalysis');

export type WarrantAnalysis = z.infer<typeof warrantAnalysis>;

/** The stored warrant as the API returns it (spec, Warrant). */
export const warrantBundle = warrantAnalysis
  .extend({
    warrant_id: z.string().regex(/^warrant_[0-9a-f]{16}$/),
    filename: z.string().nullable(),
    size_bytes: z.number().int(),
    inspected_at: z.string(),
    engine_version: z.string(),
    permalink: z.string(),
    report_pdf: z.string().describe('Link to the one-or-two-page PDF scorecard'),
    limitations: z.string(),
  })
  .openapi('Warrant');

export type WarrantBundle = z.infer<typeof warrantBundle>;
