import { newId, newSecret, secretHash } from '../../lib/tokens.ts';
import type { MailMessage } from '../../lib/mailer.ts';
import type { StateDb } from '../../data/state/db.ts';
import { emailOf, isMemberEmail, membershipOf, type Membership } from './orgs.ts';
import { may, mayGrant, type Role } from './roles.ts';

/** How long an invitation link stays valid. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** What the inviter is told: never the token, which only the recipient's mailbox receives. */
export interface IssuedInvitation {
  invite_id: string;
  org_id: string;
  email: string;
  role: Role;
  expires_at: string;
}

export type IssueOutcome =
  | { kind: 'issued'; invitation: IssuedInvitation; token: string }
  | { kind: 'refused'; reason: 'no_permission' | 'role_above_inviter' | 'already_member' };

export interface IssueRequest {
  orgId: string;
  inviterId: string;
  inviterRole: Role;
  email: string;
  role: Role;
  now: Date;
}

/**
 * Issues an invitation to `email` with `role`, if the inviter may grant that role and the address is not
 * already a member. A newer invitation to the same address withdraws the earlier unused ones, so only the
 * latest link (and the latest role) works.
 */
export async function issueInvitation(state: StateDb, request: IssueRequest): Promise<IssueOutcome> {
  if (!may(request.inviterRole, 'invite')) return { kind: 'refused', reason: 'no_permission' };
  if (!mayGrant(request.inviterRole, request.role)) return { kind: 'refused', reason: 'role_above_inviter' };
  const email = request.email.trim().toLowerCase();
  const token = newSecret('inv_');
  const invitation: IssuedInvitation = {
    invite_id: newId('invite_'),
    org_id: request.orgId,
    email,
    role: request.role,
    expires_at: new Date(request.now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
  };
  const at = request.now.toISOString();
  const issued = await state.transaction(async () => {
    if (await isMemberEmail(state, request.orgId, email)) return false;
    await state.run(
      'UPDATE org_invitations SET withdrawn_at = ? WHERE org_id = ? AND email = ? AND used_at IS NULL AND withdrawn_at IS NULL',
      at,
      request.orgId,
      email,
    );
    await state.run(
      `INSERT INTO org_invitations (invite_id, org_id, token_hash, email, role, invited_by, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      invitation.invite_id,
      invitation.org_id,
      secretHash(token),
      email,
      invitation.role,
      request.inviterId,
      at,
      invitation.expires_at,
    );
    return true;
  });
  if (!issued) return { kind: 'refused', reason: 'already_member' };
  return { kind: 'issued', invitation, token };
}

/** Withdraws an invitation whose email could not be sent, so a link nobody received never works. */
export async function withdrawInvitation(state: StateDb, inviteId: string, now: Date): Promise<void> {
  await state.run('UPDATE org_invitations SET withdrawn_at = ? WHERE invite_id = ? AND withdrawn_at IS NULL', now.toISOString(), inviteId);
}

/**
 * Accepts an invitation for the signed-in account: the token must be known, unexpired, unused and not
 * withdrawn, and the account's email must be the recipient's. Any other case is null, and the caller
 * learns nothing about which check failed. A wrong recipient leaves the invitation usable by the right one.
 * An account that is already a member keeps the role it has.
 */
export async function acceptInvitation(state: StateDb, token: string, accountId: string, now: Date): Promise<Membership | null> {
  const at = now.toISOString();
  return await state.transaction(async () => {
    const invitation = await state.get<{ invite_id: string; org_id: string; email: string; role: Role }>(
      `SELECT invite_id, org_id, email, role FROM org_invitations
        WHERE token_hash = ? AND used_at IS NULL AND withdrawn_at IS NULL AND expires_at > ?`,
      secretHash(token),
      at,
    );
    if (!invitation) return null;
    if ((await emailOf(state, accountId))?.toLowerCase() !== invitation.email.toLowerCase()) return null;
    await state.run('UPDATE org_invitations SET used_at = ?, used_by = ? WHERE invite_id = ?', at, accountId, invitation.invite_id);
    await state.run(
      'INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, ?, ?) ON CONFLICT (org_id, account_id) DO NOTHING',
      invitation.org_id,
      accountId,
      invitation.role,
      at,
    );
    return await membershipOf(state, invitation.org_id, accountId);
  });
}

export interface InvitationEmail {
  to: string;
  companyName: string;
  inviterEmail: string;
  role: Role;
  /** The organisations page that accepts it in a browser, the token in its fragment (never sent to a server). */
  acceptPageUrl: string;
  /** The API's accept address, for a program. */
  acceptUrl: string;
  expiresAt: string;
}

/** The email that carries the accept links; they are the only place the token ever appears. */
export function invitationEmail(invitation: InvitationEmail): MailMessage {
  return {
    to: invitation.to,
    subject: `You are invited to join ${invitation.companyName} on Tender Intel`,
    text: [
      `${invitation.inviterEmail} invited you to join ${invitation.companyName} on Tender Intel as ${invitation.role}.`,
      '',
      `To accept, open this page and sign in as ${invitation.to} (the link works once):`,
      invitation.acceptPageUrl,
      '',
      `From a program signed in as ${invitation.to}, send a POST request to this address instead:`,
      invitation.acceptUrl,
      '',
      `The invitation expires at ${invitation.expiresAt}. If you did not expect it, ignore this email.`,
    ].join('\n'),
  };
}
