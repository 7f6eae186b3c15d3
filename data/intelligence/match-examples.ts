import { readFileSync } from 'node:fs';
import { htmlText } from './company-site.ts';
import { companyProfile, type CompanyProfile } from './match.ts';

/**
 * The example companies of the tender match (`example`: civil, it, facilities): a home page each under
 * fixtures/match/examples/, profiled exactly like a real site, so an example shows what reading a site gives.
 */
export const MATCH_EXAMPLES = ['civil', 'it', 'facilities'] as const;
export type MatchExample = (typeof MATCH_EXAMPLES)[number];

const EXAMPLES_DIR = new URL('../../fixtures/match/examples/', import.meta.url);
const profiles = new Map<MatchExample, CompanyProfile>();

/** The profile of an example company, read once. */
export function exampleProfile(example: MatchExample): CompanyProfile {
  let profile = profiles.get(example);
  if (profile === undefined) {
    profile = companyProfile([htmlText(readFileSync(new URL(`${example}.html`, EXAMPLES_DIR), 'utf8'))]);
    profiles.set(example, profile);
  }
  return profile;
}
