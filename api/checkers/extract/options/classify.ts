import { z } from '@hono/zod-openapi';
import { classifyDocument, extractDocumentTypes } from '../classify.ts';
import { parseSettings } from './settings.ts';
import type { OptionInput } from './types.ts';

export const classifySettings = z.object({}).strict().openapi('ClassifySettings');

export const classifyOutput = z
  .object({
    document_type: z.enum([...extractDocumentTypes, 'unrecognised']),
    confidence: z.number().min(0).max(1).describe('Share of the cue weight that points to this type, lowered when the cues are few'),
    cues: z.array(z.object({ cue: z.string(), page: z.number().int(), weight: z.number() })).describe('The cues that decided the type'),
    scores: z.record(z.string(), z.number()).describe('Summed cue weight per type'),
  })
  .openapi('ClassifyOutput');

export type ClassifyOutput = z.infer<typeof classifyOutput>;

/** The document's type (the template vocabulary) by weighted title and label cues. */
export async function classify(input: OptionInput): Promise<ClassifyOutput> {
  parseSettings(classifySettings, input.settings);
  const found = classifyDocument(input.pages);
  return { document_type: found.document_type, confidence: found.confidence, cues: found.cues.map(({ cue, page, weight }) => ({ cue, page, weight })), scores: found.scores };
}
