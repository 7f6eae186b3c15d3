/** Organisation roles, highest first. */
export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a role may do beyond reading. Every role may read the organisation's members, profile, document
 * library and bids; a caller who is not a member sees none of it. `write_bids`: create bids and change
 * everything in them (stage, files, thread and the rest of the bid workspace).
 */
export type Permission = 'invite' | 'edit_profile' | 'manage_documents' | 'write_bids';

/**
 * The one table of roles (the README's "Organisation roles" section describes it). `rank` orders the
 * roles: an invitation may grant a role of at most the inviter's rank.
 */
export const ROLE_TABLE: Record<Role, { rank: number; permissions: readonly Permission[] }> = {
  owner: { rank: 4, permissions: ['invite', 'edit_profile', 'manage_documents', 'write_bids'] },
  admin: { rank: 3, permissions: ['invite', 'edit_profile', 'manage_documents', 'write_bids'] },
  member: { rank: 2, permissions: ['manage_documents', 'write_bids'] },
  viewer: { rank: 1, permissions: [] },
};

export function may(role: Role, permission: Permission): boolean {
  return ROLE_TABLE[role].permissions.includes(permission);
}

/** Whether `inviter` may invite someone as `invited`: it needs the invite permission and a rank at least as high. */
export function mayGrant(inviter: Role, invited: Role): boolean {
  return may(inviter, 'invite') && ROLE_TABLE[invited].rank <= ROLE_TABLE[inviter].rank;
}

/** Roles that hold `permission`, for error sentences ("ask an owner or admin"). */
export function rolesThatMay(permission: Permission): Role[] {
  return ROLES.filter((role) => may(role, permission));
}
