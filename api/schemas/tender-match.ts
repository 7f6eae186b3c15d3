import { z } from '@hono/zod-openapi';
import { JURISDICTIONS } from '../../lib/jurisdictions.ts';
import { MATCH_EXAMPLES } from '../../data/intelligence/match-examples.ts';
import { sandboxField } from './common.ts';
import { AttributionSchema, TenderSchema } from './tender.ts';

/** Wire schemas of POST /v1/tenders/match (spec, Tender match result), shared by the route and its MCP tool. */

export const TenderMatchBody = z
  .strictObject({
    url: z.string().trim().min(1, { error: 'must not be empty' }).max(2048, { error: 'must be at most 2048 characters' }).optional()
      .openapi({ description: "The company's website; a bare domain such as `example.com.au` is read over https.", example: 'example.com.au' }),
    example: z.enum(MATCH_EXAMPLES, { error: `must be one of ${MATCH_EXAMPLES.join(', ')}` }).optional()
      .openapi({ description: 'An example company instead of a site: nothing is read.' }),
    jurisdiction: z.enum(JURISDICTIONS, { error: `must be one of ${JURISDICTIONS.join(', ')}` }).optional()
      .openapi({ description: '`AU` matches every Australian state too; New Zealand tenders are considered only with `NZ`.' }),
    closing_before: z.iso.date({ error: 'must be an ISO date such as 2026-10-31' }).optional()
      .openapi({ description: 'Only tenders closing on or before this date (tenders without a closing date are left out).' }),
    sandbox: sandboxField,
  })
  .refine((body) => (body.url === undefined) !== (body.example === undefined), {
    error: `give exactly one of url (the company's website) and example (${MATCH_EXAMPLES.join(', ')})`,
    path: ['url'],
  })
  .openapi('TenderMatchRequest');

export const TenderMatchResultSchema = z
  .object({
    ...TenderSchema.shape,
    score: z.number().int().min(1).max(100).optional()
      .openapi({ description: 'Fit from 1 to 100, relative to the best result of this reply; not a probability of winning. Absent when `degraded`.' }),
    why: z.array(z.string()).optional()
      .openapi({ description: "The company's stated capabilities this tender needs, strongest first. Absent when `degraded`." }),
    gaps: z.array(z.string()).optional()
      .openapi({ description: 'What the tender asks for that the site does not mention (its trade first when the company does not offer it). Absent when `degraded`.' }),
  })
  .openapi('TenderMatchResult');

export const TenderMatchSchema = z
  .object({
    company: z
      .object({
        url: z.string().optional().openapi({ description: 'The home page read, after redirects.' }),
        example: z.enum(MATCH_EXAMPLES).optional().openapi({ description: 'The example company used instead of a site.' }),
        pages_read: z.array(z.string()).openapi({ description: 'Every page of the site read, home first.' }),
        trades: z.array(z.object({ trade: z.string(), name: z.string() })).openapi({ description: 'Trades the site gives evidence for, strongest first.' }),
        capabilities: z.array(z.string()).openapi({ description: "The company's stated capabilities recognised on the site." }),
      })
      .openapi({ description: 'What was read and what it says the company does.' }),
    score_meaning: z.string().openapi({ description: 'What a score means: relative fit within this reply, never a probability of winning.' }),
    degraded: z.boolean().openapi({ description: 'True when scoring was unavailable: results are in keyword-relevance order only, without score, why or gaps.' }),
    degraded_reason: z.string().optional(),
    matched: z.number().int().openapi({ description: 'Tenders this match returns, best first; always shown plus withheld.' }),
    withheld: z.number().int().openapi({ description: 'Results hidden from an anonymous call (it sees the strongest few); 0 with a key or session.' }),
    withheld_reason: z.string().optional(),
    considered: z.number().int().openapi({ description: 'Open tenders the match looked at (within `jurisdiction` and `closing_before`).' }),
    results: z.array(TenderMatchResultSchema),
    computed_at: z.iso.datetime({ offset: true }).openapi({ description: 'The night the tender data is true for.' }),
    sources: z.array(AttributionSchema).openapi({ description: 'Licence and attribution of every source the results shown come from.' }),
  })
  .openapi('TenderMatch');
export type TenderMatchReply = z.infer<typeof TenderMatchSchema>;
