import { z } from '@hono/zod-openapi';
import { ABSTENTION_REASONS } from './applicability.ts';
import { LEANS } from './model.ts';

/** The reply of POST /v1/detect-ai-text (spec, AI-text estimate), with the reason for an abstention and the words read. */
export const aiTextEstimate = z
  .object({
    applicable: z.boolean().describe('false when the checker abstains (forms, tables, lists, code, scans, non-English text, too few words); `reasoning` says why'),
    probability: z.number().min(0).max(1).nullable().describe("The model's probability that the text is AI-written: a confidence, not a calibrated truth; null when abstaining"),
    lean: z.enum(LEANS).nullable().describe('ai, likely_ai, uncertain, likely_human or human, from the probability by the cut-points in `reasoning`; null when abstaining'),
    tells: z.array(z.string()).describe('Specific linguistic tells that fired, each with its published basis and the passage that shows it'),
    reasoning: z.string(),
    limitations: z.string().describe('Always present: the measured AUROC and false-positive rate, and why this is never a verdict'),
    abstention_reason: z.enum(ABSTENTION_REASONS).nullable().describe('Why the checker abstained; null when it answered'),
    word_count: z.number().int().describe('Words of text read from the document'),
  })
  .openapi('AiTextEstimate');

export type AiTextEstimate = z.infer<typeof aiTextEstimate>;
