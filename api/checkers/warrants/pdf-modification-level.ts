import type { RevisionState } from './pdf-objects.ts';
import { objectRoles, type ObjectRole, type ObjectRoles } from './pdf-object-roles.ts';

/** pyHanko's ModificationLevel: the strictest level at which every change after a signature is explained. */
export const modificationLevels = ['NONE', 'LTA_UPDATES', 'FORM_FILLING', 'ANNOTATIONS', 'OTHER'] as const;
export type ModificationLevel = (typeof modificationLevels)[number];

export function levelRank(level: ModificationLevel): number {
  return modificationLevels.indexOf(level);
}

export function maxLevel(a: ModificationLevel, b: ModificationLevel): ModificationLevel {
  return levelRank(a) >= levelRank(b) ? a : b;
}

/** One object a later revision added, rewrote or stopped using, with the level it was cleared at. */
export interface ObjectChange {
  object: string;
  change: 'added' | 'changed' | 'removed';
  /** What the object is, by where the document uses it ('unused' for objects nothing refers to). */
  what: ObjectRole | 'unused';
  level: ModificationLevel;
  /** Why it was cleared at that level, in words. */
  reason: string;
  field?: string;
  page?: number;
}

/** A rule's judgement of one object: the level it clears it at and why. */
export interface Verdict {
  level: ModificationLevel;
  reason: string;
  /** What the object is, when the rule knows better than its role (a page whose /Contents changed is page content). */
  what?: ObjectRole;
}

/** One revision's object table with the roles of its objects (computed once, shared by every comparison). */
export interface Snapshot {
  state: RevisionState;
  roles: ObjectRoles;
}

export function snapshot(state: RevisionState): Snapshot {
  return { state, roles: objectRoles(state) };
}
