import type { Requirement } from './requirements/store.ts';

/** A requirement as the workspace (drafts, gaps, plan, export, worth-bidding) reads it: the part of the requirements module's shape it uses. */
export type WorkspaceRequirement = Pick<Requirement, 'requirement_id' | 'ref' | 'text' | 'kind' | 'mandatory' | 'state' | 'weight'>;
