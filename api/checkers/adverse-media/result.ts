import { z } from '@hono/zod-openapi';
import { MEDIA_CATEGORIES, MEDIA_SEVERITIES } from './categories.ts';

/** The spec's Adverse-media result (Objects: Adverse-media result). */

export const RISK_FLAGS = ['high', 'review', 'none_found', 'incomplete'] as const;

const sanctionsCandidate = z.object({
  name: z.string(),
  score: z.number(),
  strength: z.enum(['strong', 'possible', 'weak']).openapi({ description: '`strong` needs the name and a date of birth or country that agree; a name-only hit is `possible`, never confirmed; `weak` is a name that matched while a qualifier disagreed.' }),
  corroboration: z.array(z.string()).openapi({ description: 'What agrees beside the name: `date_of_birth`, `country`.' }),
  topics: z.array(z.string()).openapi({ description: 'OpenSanctions topics the listing programmes map to (`sanction`, `crime.terror`, …).' }),
  datasets: z.number().int().openapi({ description: 'How many of the screened lists name this party.' }),
});

const mediaHit = z.object({
  url: z.string(),
  title: z.string(),
  source: z.string().openapi({ description: 'The publishing site.' }),
  match: z.enum(['name_and_details', 'name_only', 'search_only']).openapi({
    description: '`name_and_details`: the article names the subject and a detail given (age, place, occupation, employer) agrees; `name_only`: the name with nothing either way (or details that conflict); `search_only`: the news index matched the name in text this service could not read.',
  }),
  category: z.enum(MEDIA_CATEGORIES),
  severity: z.enum(MEDIA_SEVERITIES).openapi({ description: '`high`: a charge, conviction, ban or designation; `medium`: an allegation, investigation or other adverse report; `low`: cleared, acquitted or dropped.' }),
  evidence: z.string().openapi({ description: 'The sentence that ties the subject to the matter, as the article (or its title) words it.' }),
});

export const adverseMediaResult = z
  .object({
    subject: z.object({
      name: z.string(),
      source: z.string().openapi({ description: '`request`, or the document type and how the name was read, e.g. `australian_passport:machine_readable_zone`.' }),
      country: z.string().nullable().openapi({ description: 'ISO 3166-1 alpha-2, or null when none was given or read.' }),
    }),
    sanctions: z.object({
      candidates: z.array(sanctionsCandidate),
      strong_matches: z.number().int(),
      possible_matches: z.number().int(),
      common_name_ambiguity: z.boolean(),
    }),
    adverse_media: z.object({
      matched_hits: z.number().int(),
      possible_hits: z.number().int(),
      excluded_same_name: z.number().int(),
      categories: z.record(z.string(), z.number().int()).openapi({ description: 'Hits by category.' }),
      hits: z.array(mediaHit),
      excluded: z.array(z.object({ url: z.string(), title: z.string(), reason: z.string() })).openapi({ description: 'Same-name articles about someone else, with the detail that differs.' }),
    }),
    risk_flag: z.enum(RISK_FLAGS).openapi({
      description: '`high`: a strong sanctions match or a high-severity article matched on details; `review`: any other sanctions candidate or adverse article; `none_found`: nothing found and every source answered; `incomplete`: nothing found but a source did not answer.',
    }),
    headline: z.string(),
    limitations: z.string().openapi({ description: 'What was and was not screened: lists politically exposed persons are not screened; which providers answered.' }),
  })
  .openapi('AdverseMediaResult');

export type AdverseMediaResult = z.infer<typeof adverseMediaResult>;
