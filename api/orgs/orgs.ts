import { newId } from '../../lib/tokens.ts';
import type { StateDb } from '../../data/state/db.ts';
import { ROLE_TABLE, type Role } from './roles.ts';

/** An organisation as one account sees it: with the role that account holds. */
export interface Membership {
  org_id: string;
  company_name: string;
  role: Role;
  joined_at: string;
}

export interface Member {
  account_id: string;
  email: string;
  role: Role;
  joined_at: string;
}

/** Creates an organisation named `companyName` with `accountId` as its owner. */
export async function createOrg(state: StateDb, accountId: string, companyName: string, now: Date): Promise<Membership> {
  const orgId = newId('org_');
  const at = now.toISOString();
  await state.transaction(async () => {
    await state.run(
      'INSERT INTO orgs (org_id, company_name, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
      orgId,
      companyName,
      accountId,
      at,
      at,
    );
    await state.run("INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, 'owner', ?)", orgId, accountId, at);
  });
  return { org_id: orgId, company_name: companyName, role: 'owner', joined_at: at };
}

/** The organisations `accountId` belongs to, oldest membership first. */
export async function orgsOf(state: StateDb, accountId: string): Promise<Membership[]> {
  return await state.all<Membership>(
    `SELECT o.org_id, o.company_name, m.role, m.joined_at
       FROM memberships m JOIN orgs o ON o.org_id = m.org_id
      WHERE m.account_id = ?
      ORDER BY m.joined_at, o.org_id`,
    accountId,
  );
}

/** The account's membership of one organisation, or null when it is not a member (or no such organisation exists). */
export async function membershipOf(state: StateDb, orgId: string, accountId: string): Promise<Membership | null> {
  return (
    await state.get<Membership>(
      `SELECT o.org_id, o.company_name, m.role, m.joined_at
         FROM memberships m JOIN orgs o ON o.org_id = m.org_id
        WHERE m.org_id = ? AND m.account_id = ?`,
      orgId,
      accountId,
    ) ?? null
  );
}

/** Members of an organisation, highest role first, then by when they joined. */
export async function membersOf(state: StateDb, orgId: string): Promise<Member[]> {
  const members = await state.all<Member>(
    `SELECT a.account_id, a.email, m.role, m.joined_at
       FROM memberships m JOIN accounts a ON a.account_id = m.account_id
      WHERE m.org_id = ?
      ORDER BY m.joined_at, a.email`,
    orgId,
  );
  return members.sort((a, b) => ROLE_TABLE[b.role].rank - ROLE_TABLE[a.role].rank);
}

/** Whether an account with this email address already belongs to the organisation. */
export async function isMemberEmail(state: StateDb, orgId: string, email: string): Promise<boolean> {
  return (
    await state.get<{ found: number }>(
      'SELECT 1 AS found FROM memberships m JOIN accounts a ON a.account_id = m.account_id WHERE m.org_id = ? AND a.email = ?',
      orgId,
      email,
    ) !== undefined
  );
}

export async function emailOf(state: StateDb, accountId: string): Promise<string | null> {
  return (await state.get<{ email: string }>('SELECT email FROM accounts WHERE account_id = ?', accountId))?.email ?? null;
}
