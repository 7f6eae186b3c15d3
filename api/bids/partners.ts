import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import { JURISDICTIONS, withinScope, type Jurisdiction } from '../../lib/jurisdictions.ts';
import { GAP_CATEGORIES, type GapCategory } from './credentials.ts';

/**
 * The partners catalogue: businesses that can close a gap (a broker for missing insurance, a consultant for
 * an ISO certificate), each serving categories in regions. Kept in the repository as
 * data/partners/partners.json and checked against this schema when first read.
 */

export const Partner = z
  .object({
    partner_id: z.string().regex(/^ptn_[a-z0-9_]+$/),
    name: z.string().min(1),
    summary: z.string().min(1),
    categories: z.array(z.enum(GAP_CATEGORIES)).min(1),
    regions: z.array(z.enum(JURISDICTIONS)).min(1).meta({ description: '`AU` serves every Australian state and territory.' }),
    website: z.url(),
    active: z.boolean(),
  })
  .strict()
  .openapi('Partner');
export type Partner = z.infer<typeof Partner>;

const Catalogue = z.object({ partners: z.array(Partner) }).strict();

const CATALOGUE_FILE = new URL('../../data/partners/partners.json', import.meta.url);

let catalogue: readonly Partner[] | undefined;

/** Every partner in the catalogue file, active or not; read and checked once. */
export function partnerCatalogue(): readonly Partner[] {
  catalogue ??= Catalogue.parse(JSON.parse(readFileSync(CATALOGUE_FILE, 'utf8'))).partners;
  return catalogue;
}

/**
 * Active partners serving `category`, and when `region` is given, serving it too (a partner listed for
 * `AU` serves every Australian state). Sorted by name.
 */
export function activePartners(partners: readonly Partner[], category?: GapCategory, region?: Jurisdiction | null): Partner[] {
  return partners
    .filter((partner) => partner.active)
    .filter((partner) => category === undefined || partner.categories.includes(category))
    .filter((partner) => !region || partner.regions.some((served) => withinScope(region, served)))
    .sort((a, b) => a.name.localeCompare(b.name));
}
