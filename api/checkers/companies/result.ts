import { z } from '@hono/zod-openapi';
import { MATCH_RULE_MEANINGS, MATCH_RULES } from './names.ts';

/** The company resolution result (spec, Company resolution result). */

export const RESOLUTION_STATUSES = ['resolved', 'ambiguous', 'not_found', 'inconclusive'] as const;
export const COVERAGE_SOURCES = ['abr', 'asic', 'abn_lookup', 'nzbn'] as const;
export const COVERAGE_STATUSES = ['read', 'stale', 'unreadable', 'not_configured', 'unreachable', 'refused', 'not_searched'] as const;
export const CANDIDATE_RULES = ['identifier', 'transposed_digits', 'one_digit_correction', ...MATCH_RULES] as const;

const date = z.iso.date();

const asicStanding = z
  .object({
    acn: z.string(),
    status: z.string().describe('ASIC status code as the register gives it: REGD, DRGD, EXAD, SOFF, NOAC, …'),
    status_meaning: z.string().describe("The code's meaning from the help file of ASIC's company dataset."),
    in_good_standing: z.boolean().describe('True only for REGD (registered); strike-off in progress and external administration are not good standing.'),
    registered: date.nullable(),
    deregistered: date.nullable(),
    former_names: z.array(z.string()),
    as_of: z.iso.datetime().describe("The date of ASIC's weekly file held in this release, as the start of that day (UTC)."),
    age_days: z.number().int().describe('Days from `as_of` to the time of this answer.'),
    caveat: z.string(),
  })
  .openapi('AsicStanding');

const company = z.object({
  identifiers: z.object({ abn: z.string().nullable(), acn: z.string().nullable() }),
  names: z.object({
    legal: z.string().nullable().describe("The ABN register's entity name, else ASIC's company name; null for an individual (the bulk extract's personal names are not kept)."),
    business: z.array(z.string()),
    trading: z.array(z.string()),
  }),
  entity_type: z.string().nullable(),
  abn_status: z.enum(['active', 'cancelled']).nullable().describe("The ABN's status; null when no ABN is known."),
  abn_status_from: date.nullable(),
  abn_status_source: z.enum(['abn_lookup', 'abn_bulk_extract']).nullable().describe('ABN Lookup (live) when it answered, else the bulk extract held in this release.'),
  asic: asicStanding.nullable().describe("ASIC's company dataset entry; null when the entity is not a company there."),
});

export const companyMatch = z.object({
  rule: z.enum(CANDIDATE_RULES).describe(
    `How it matched: identifier (the number asked for); transposed_digits (a valid number with two adjacent digits of a mistyped one swapped back); one_digit_correction (a valid number one digit from a mistyped one); ` +
      MATCH_RULES.map((rule) => `${rule} (${MATCH_RULE_MEANINGS[rule]})`).join('; '),
  ),
  score: z.number().describe('0 to 1; orders the candidates, never selects one.'),
  matched: z.string().describe('The name or number that matched.'),
  name_kind: z.enum(['legal', 'trading', 'business', 'other', 'former', 'identifier']),
  found_in: z.array(z.enum(['abr', 'asic', 'abn_lookup'])),
});

export const companyCandidate = company.extend({ match: companyMatch }).openapi('CompanyCandidate');

export const companyResolution = z
  .object({
    query: z.string(),
    parsed_as: z.enum(['abn', 'acn', 'nzbn', 'name', 'number']).describe('`number`: digits that are no identifier (wrong count).'),
    jurisdiction: z.enum(['AU', 'NZ']).describe('The country searched: the one asked for, else Australia (NZ for an NZBN).'),
    status: z.enum(RESOLUTION_STATUSES),
    resolved_because: z.string().describe('Why the status is what it is, in a sentence or two, naming the registers that answered.'),
    identifier: z
      .object({
        scheme: z.enum(['abn', 'acn', 'nzbn']).nullable(),
        digits: z.string(),
        formatted: z.string(),
        check_digits: z.enum(['valid', 'invalid', 'wrong_length']),
        nearest_valid: z
          .array(z.string())
          .describe('For a number failing its check digit: every valid number it may have been meant as (formatted), most likely first: two adjacent digits swapped back, then one digit changed.'),
        corrections: z
          .array(z.object({ number: z.string().describe('Formatted.'), change: z.enum(['adjacent_transposition', 'one_digit_change']) }))
          .describe(
            '`nearest_valid` with how each differs from the number asked for. Transpositions come first: in keying-error studies one wrong digit is about 8 times as common as two adjacent digits swapped, but a number has about 10 times as many single-digit readings, so each transposition reading is the likelier one.',
          ),
      })
      .nullable(),
    selected: company.nullable().describe('Only when `resolved`: null for a name (ambiguous), an unknown number and an unread register.'),
    candidates: z.array(companyCandidate).describe('Every match, best first (at most 25); the order never selects one.'),
    coverage: z.array(z.object({ source: z.enum(COVERAGE_SOURCES), status: z.enum(COVERAGE_STATUSES), detail: z.string() })),
    limitations: z.string(),
  })
  .openapi('CompanyResolution');

export type CompanyResolution = z.infer<typeof companyResolution>;
export type Company = z.infer<typeof company>;
export type CompanyCandidate = z.infer<typeof companyCandidate>;
export type Coverage = CompanyResolution['coverage'][number];
