/**
 * A requirement as the workspace (drafts, gaps, plan, export, worth-bidding) reads it. The requirements
 * module (api/bids/requirements/store.ts) owns the table; this is the part of its shape the workspace uses.
 */
export interface WorkspaceRequirement {
  requirement_id: string;
  /** The clause number, or null. */
  ref: string | null;
  text: string;
  kind: 'clause' | 'schedule' | 'criterion' | 'condition';
  mandatory: boolean;
  state: string;
  weight: number | null;
}
