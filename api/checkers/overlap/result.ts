import { z } from '@hono/zod-openapi';

/** The reply of POST /v1/check-source-overlap (spec, Source-overlap result). */

export const OVERLAP_OUTCOMES = ['assessed', 'abstained_too_short', 'abstained_not_prose', 'search_unavailable', 'sources_unreachable'] as const;
export type OverlapOutcome = (typeof OVERLAP_OUTCOMES)[number];

const span = z.object({ start_char: z.number().int(), end_char: z.number().int() });

export const overlapMatch = z
  .object({
    tier: z.literal('exact'),
    source_url: z.string(),
    matched_quote: z.string().describe('The passage as the document has it.'),
    source_quote: z.string().describe('The same passage as the fetched page has it.'),
    passage_span: span.describe("UTF-16 offsets into the document's text as read (pages joined by a blank line); end exclusive."),
    source_span: span.describe("Offsets into the page's visible text."),
    tokens_matched: z.number().int().describe('Words in the passage; at least 10.'),
  })
  .openapi('OverlapMatch');

export const overlapSource = z
  .object({
    url: z.string(),
    host: z.string(),
    title: z.string().nullable(),
    tokens_matched: z.number().int().describe("Document words inside this page's matches, each once."),
    share: z.number().describe("Those words as a share of the document's words."),
    matches: z.number().int(),
  })
  .openapi('OverlapSource');

const unanswered = z.object({
  status: z.enum(['not configured', 'unreachable now', 'refused', 'not found', 'not text', 'excluded']).describe(
    '`not configured`: no search provider is set up on this server; `unreachable now`: no answer, a 5xx or the time limit (one attempt); `refused`: the provider rejected the key or query, or the page\'s robots.txt, a non-public address or a 4xx; `not found`: 404 or 410; `not text`: neither HTML nor plain text; `excluded`: on the `url` input\'s own site.',
  ),
  detail: z.string(),
});

export const overlapResult = z
  .object({
    outcome: z.enum(OVERLAP_OUTCOMES).describe(
      '`assessed`; abstentions `abstained_too_short` and `abstained_not_prose`; outages `search_unavailable` (no search provider configured, or none answered) and `sources_unreachable` (no candidate page could be read). Only `assessed` counts against the weekly allowance.',
    ),
    overlap_band: z.enum(['none', 'low', 'moderate', 'high', 'very_high', 'not_assessed']).describe(
      '`none` no match; `low` under 5% of the words; `moderate` 5% to under 20%; `high` 20% to under 50%; `very_high` 50% or more; `not_assessed` for abstentions and outages.',
    ),
    overlap_ratio: z.number().nullable().describe("Share of the document's words inside a confirmed match (0 to 1, three decimals); null when not assessed."),
    matches: z.array(overlapMatch),
    possible_paraphrases: z.array(z.unknown()).max(0).describe('Always empty: the paraphrase tier is disabled.'),
    paraphrase_checked: z.literal(false),
    note: z.string(),
    top_sources: z.array(overlapSource),
    headline: z.string(),
    coverage: z.object({
      words: z.number().int(),
      search_provider: z.string(),
      queries_sent: z.number().int(),
      queries_answered: z.number().int(),
      search_failures: z.array(unanswered.extend({ query: z.string() })),
      pages_compared: z.number().int(),
      pages_not_read: z.array(unanswered.extend({ url: z.string() })),
      excluded_host: z.string().nullable().describe("The `url` input's own host: pages there are never compared."),
    }),
    limitations: z.string(),
  })
  .openapi('SourceOverlapResult');

export type OverlapResult = z.infer<typeof overlapResult>;
