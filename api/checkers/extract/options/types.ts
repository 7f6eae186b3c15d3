import type { IntakeDocument, PageText } from '../../../documents/types.ts';
import type { z } from '@hono/zod-openapi';
import type { extractedField } from '../result.ts';

/** The extraction options of the spec (all off by default), in the order their keys appear in a result. */
export const extractOptionNames = ['tables', 'grounding', 'classify', 'redact', 'layout', 'links', 'figures', 'chunks', 'split', 'flag_below'] as const;

export type OptionName = (typeof extractOptionNames)[number];

export type ExtractedField = z.infer<typeof extractedField>;

/**
 * What an option reads: the document as it came in (bytes for PDF annotations and images), the pages the
 * extract core read (text layer or OCR), the fields it extracted, and the option's own settings as the
 * request gave them (`true`, a number or an object; each option checks them with its zod schema).
 */
export interface OptionInput {
  document: IntakeDocument;
  pages: PageText[];
  fields: Record<string, ExtractedField>;
  settings: unknown;
}

/** A box `[x, y, width, height]` in PDF points from the page's top-left corner. */
export type Box = [number, number, number, number];
