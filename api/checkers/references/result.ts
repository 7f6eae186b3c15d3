import { z } from '@hono/zod-openapi';

/** The fact-check result (spec, Fact-check result); item fields are this service's own (the spec does not show them). */

const location = z
  .object({
    document: z.number().int().describe('0-based index of the document in the request'),
    filename: z.string().nullable(),
    page: z.number().int().describe('1-based page'),
    start_char: z.number().int().describe("Offset of the first character in the page's text"),
    end_char: z.number().int(),
  })
  .openapi('FactCheckLocation');

const registeredWork = z.object({ doi: z.string(), title: z.string().nullable(), year: z.number().int().nullable(), container: z.string().nullable(), first_author: z.string().nullable() }).openapi('RegisteredWork');

export const factCheckReference = z
  .object({
    reference_id: z.string().describe('`ref_1`, `ref_2`, … in the order written'),
    kind: z.enum(['url', 'doi', 'citation']),
    as_written: z.string(),
    location,
    url: z.string().nullable(),
    doi: z.string().nullable(),
    claimed_title: z.string().nullable(),
    year: z.number().int().nullable(),
    status: z
      .enum(['live', 'archived', 'dead', 'unreachable_now', 'not_checked', 'verified', 'partial_title_match', 'title_mismatch', 'registered', 'registered_elsewhere', 'not_found', 'found', 'possible_match'])
      .describe(
        'URLs: `live`, `archived` (dead now, the Wayback Machine has a copy), `dead`, `unreachable_now` (one failed attempt), `not_checked`. ' +
          'DOIs: `verified`, `partial_title_match`, `title_mismatch`, `registered` (no title to compare), `registered_elsewhere`, `not_found`, `unreachable_now`, `not_checked`. ' +
          'Citations without a DOI: `found`, `possible_match`, `not_found`, `unreachable_now`, `not_checked`.',
      ),
    evidence: z.array(z.string()),
    http_status: z.number().int().nullable(),
    final_url: z.string().nullable(),
    archived_copy: z.object({ url: z.string(), captured_at: z.string() }).nullable(),
    registered: registeredWork.nullable().describe('The Crossref record the DOI or citation was compared with'),
    title_similarity: z.number().nullable().describe('0..1: 1 − Levenshtein distance ÷ longer length of the normalised titles; ≥ 0.90 matches, ≥ 0.70 partly'),
    cited_in_text: z
      .number()
      .int()
      .nullable()
      .describe('For a reference-list entry: how many times the text cites it (inline markers naming its label, such as `[3]`, `[2, 3]`, `[4–7]`, `[note 1]`, and author–year citations of its first author and year); null for a reference written outside a list'),
  })
  .openapi('FactCheckReference');

export const factCheckClaim = z
  .object({
    reference_id: z.string(),
    sentence: z.string().describe('The citing sentence in the document'),
    location,
    source_url: z.string().describe('The page the claim was judged against (the archived copy for an archived link)'),
    verdict: z.enum(['supports', 'contradicts', 'unclear']),
    evidence: z.string().nullable().describe('The closest sentence of the cited page'),
    overlap: z.number().describe("Share of the claim's content words in `evidence`"),
    reason: z.string(),
  })
  .openapi('FactCheckClaim');

export const consistencyItem = z
  .object({
    kind: z.enum(['expression', 'table_total', 'total', 'percentage', 'percentage_change', 'year_span']),
    statement: z.string(),
    numbers_used: z.array(z.number()),
    stated: z.number(),
    recomputed: z.number(),
    tolerance: z.number(),
    consistent: z.boolean(),
    explanation: z.string(),
    location,
  })
  .openapi('FactCheckConsistency');

const counts = z.record(z.string(), z.number().int());

export const factCheckResult = z
  .object({
    check_id: z.string().describe('`fc_` followed by 16 lowercase hex (from the content hash)'),
    summary: z.object({
      headline: z.string(),
      references: z.number().int(),
      urls: counts,
      dois: counts,
      citations: counts,
      claims: counts,
      internal_consistency: z.object({ checked: z.number().int(), inconsistent: z.number().int() }),
    }),
    references: z.array(factCheckReference),
    claims: z.array(factCheckClaim).describe('Deep mode only: each citing sentence judged against the page it cites'),
    internal_consistency: z.array(consistencyItem),
    deep: z.boolean(),
    checked_at: z.string(),
    limitations: z.string(),
    permalink: z.string(),
  })
  .openapi('FactCheckResult');

export type FactCheckResult = z.infer<typeof factCheckResult>;
export type FactCheckReference = z.infer<typeof factCheckReference>;
export type FactCheckClaim = z.infer<typeof factCheckClaim>;
export type ConsistencyItem = z.infer<typeof consistencyItem>;
