import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import type { StateDb } from '../../data/state/db.ts';

/** Onboarding progress: which steps of the site's onboarding are done, and whether it is finished. */
export interface Onboarding {
  completed_steps: string[];
  complete: boolean;
}

/** The organisation profile (spec, Organisation profile): the full record every GET and PATCH answers with. */
export interface OrgProfile {
  org_id: string;
  company_name: string;
  /** 11 digits without spaces, or null until given. */
  abn: string | null;
  region: Jurisdiction | null;
  /** What the organisation does, in its own words. */
  description: string | null;
  onboarding: Onboarding;
  updated_at: string;
}

/** Any subset of the profile; null clears a field. `onboarding` merges into the stored progress. */
export interface ProfileChanges {
  company_name?: string;
  abn?: string | null;
  region?: Jurisdiction | null;
  description?: string | null;
  onboarding?: Partial<Onboarding>;
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

/**
 * The Australian Business Register's ABN check: subtract 1 from the first digit, weight the 11 digits,
 * and the sum must divide by 89. Spaces between digit groups are allowed, as ABNs are usually printed.
 */
export function isValidAbn(abn: string): boolean {
  const digits = abn.replace(/ /g, '');
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = [...digits].reduce((total, digit, index) => total + (Number(digit) - (index === 0 ? 1 : 0)) * ABN_WEIGHTS[index]!, 0);
  return sum % 89 === 0;
}

interface ProfileRow {
  org_id: string;
  company_name: string;
  abn: string | null;
  region: Jurisdiction | null;
  description: string | null;
  onboarding: string;
  updated_at: string;
}

export async function readProfile(state: StateDb, orgId: string): Promise<OrgProfile | null> {
  const row = await state.get<ProfileRow>('SELECT org_id, company_name, abn, region, description, onboarding, updated_at FROM orgs WHERE org_id = ?', orgId);
  return row ? { ...row, onboarding: JSON.parse(row.onboarding) as Onboarding } : null;
}

/** Applies `changes` and returns the full profile, or null when the organisation does not exist. */
export async function updateProfile(state: StateDb, orgId: string, changes: ProfileChanges, now: Date): Promise<OrgProfile | null> {
  return await state.transaction(async () => {
    const current = await readProfile(state, orgId);
    if (!current) return null;
    const next: OrgProfile = {
      ...current,
      ...(changes.company_name !== undefined && { company_name: changes.company_name }),
      ...(changes.abn !== undefined && { abn: changes.abn === null ? null : changes.abn.replace(/ /g, '') }),
      ...(changes.region !== undefined && { region: changes.region }),
      ...(changes.description !== undefined && { description: changes.description }),
      onboarding: { ...current.onboarding, ...changes.onboarding },
      updated_at: now.toISOString(),
    };
    await state.run(
      'UPDATE orgs SET company_name = ?, abn = ?, region = ?, description = ?, onboarding = ?, updated_at = ? WHERE org_id = ?',
      next.company_name,
      next.abn,
      next.region,
      next.description,
      JSON.stringify(next.onboarding),
      next.updated_at,
      orgId,
    );
    return next;
  });
}
