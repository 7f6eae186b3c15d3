import { z } from '@hono/zod-openapi';

/**
 * One forensic signal (spec, Warrant: "tampering, structure, metadata and arithmetic-reconciliation
 * signals"). A signal is evidence for a person to look at, never a verdict: it says what was found and
 * exactly where, so the person can open the file at that place and judge.
 */
export const signalGroup = z.enum(['tampering', 'structure', 'metadata', 'arithmetic']);
export const signalSeverity = z.enum(['info', 'low', 'medium', 'high']);

export const signalLocation = z
  .object({
    byte_offset: z.number().int().nonnegative().optional().describe('Byte offset in the file where the evidence starts'),
    object: z.string().optional().describe('PDF object reference, e.g. "12 0 R"'),
    page: z.number().int().positive().optional().describe('1-based page number'),
    revision: z.number().int().nonnegative().optional().describe('0 = the original file, 1 = the first incremental update, …'),
    exif_tag: z.string().optional().describe('EXIF/XMP/IPTC tag name, e.g. "Software"'),
    field: z.string().optional().describe('Form field name, an invoice line such as "GST", or the path of an XML element in an embedded e-invoice, e.g. "Invoice/LegalMonetaryTotal/PayableAmount"'),
  })
  .openapi('SignalLocation');

export const signal = z
  .object({
    code: z.string().regex(/^[a-z][a-z0-9_]*$/).describe('Stable identifier of the signal, e.g. "incremental_update"'),
    group: signalGroup,
    severity: signalSeverity,
    title: z.string().describe('The signal in a few words'),
    found: z.string().describe('What was found, in a sentence a person can check'),
    where: signalLocation,
  })
  .openapi('WarrantSignal');

export type Signal = z.infer<typeof signal>;
export type SignalGroup = z.infer<typeof signalGroup>;
export type SignalSeverity = z.infer<typeof signalSeverity>;
