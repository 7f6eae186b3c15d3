import { z } from '@hono/zod-openapi';
import { parseSettings } from './settings.ts';
import type { OptionInput } from './types.ts';

export const flagBelowSettings = z
  .union([
    z.number().min(0).max(1).transform((threshold) => ({ threshold })),
    z.object({ threshold: z.number().min(0).max(1).default(0.8).describe('Fields with a confidence below this are listed') }).strict(),
  ])
  .openapi('FlagBelowSettings');

export const flagBelowOutput = z
  .object({
    threshold: z.number(),
    fields: z.array(z.object({ name: z.string(), confidence: z.number(), page: z.number().int() })).describe('Lowest confidence first'),
  })
  .openapi('FlagBelowOutput');

export type FlagBelowOutput = z.infer<typeof flagBelowOutput>;

/** The extracted fields whose confidence is under the threshold, so a person checks those first. */
export async function flagBelow(input: OptionInput): Promise<FlagBelowOutput> {
  const { threshold } = parseSettings(flagBelowSettings, input.settings);
  const fields = Object.entries(input.fields)
    .filter(([, field]) => field.confidence < threshold)
    .map(([name, field]) => ({ name, confidence: field.confidence, page: field.page }))
    .sort((a, b) => a.confidence - b.confidence || a.name.localeCompare(b.name));
  return { threshold, fields };
}
