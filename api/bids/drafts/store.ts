import type { StateDb } from '../../../data/state/db.ts';
import type { ComposedDraft, DraftCitation } from './compose.ts';

/** A draft as stored and served. */
export interface StoredDraft {
  requirement_id: string;
  text: string;
  origin: 'assembled' | 'model' | 'person';
  note: string;
  citations: DraftCitation[];
  model: string | null;
  /** The email of the person who wrote it (origin `person`), else null. */
  edited_by: string | null;
  updated_at: string;
}

interface DraftRow extends Omit<StoredDraft, 'citations'> {
  citations: string;
}

const SELECT_DRAFT = `SELECT d.requirement_id, d.text, d.origin, d.note, d.citations, d.model, a.email AS edited_by, d.updated_at
  FROM bid_drafts d LEFT JOIN accounts a ON a.account_id = d.edited_by`;

const parsed = (row: DraftRow): StoredDraft => ({ ...row, citations: JSON.parse(row.citations) as DraftCitation[] });

export async function listDrafts(state: StateDb, bidId: string): Promise<StoredDraft[]> {
  return (await state.all<DraftRow>(`${SELECT_DRAFT} WHERE d.bid_id = ? ORDER BY d.requirement_id`, bidId)).map(parsed);
}

async function readDraft(state: StateDb, bidId: string, requirementId: string): Promise<StoredDraft | null> {
  const row = await state.get<DraftRow>(`${SELECT_DRAFT} WHERE d.bid_id = ? AND d.requirement_id = ?`, bidId, requirementId);
  return row ? parsed(row) : null;
}

/** Stores a person's text; the citations retrieved before stay beside it as the evidence it was written from. */
export async function savePersonDraft(state: StateDb, bidId: string, requirementId: string, text: string, accountId: string, now: Date): Promise<StoredDraft> {
  await state.run(
    `INSERT INTO bid_drafts (bid_id, requirement_id, text, origin, note, citations, model, edited_by, updated_at)
     VALUES (?, ?, ?, 'person', ?, '[]', NULL, ?, ?)
     ON CONFLICT (bid_id, requirement_id) DO UPDATE SET text = excluded.text, origin = 'person', note = excluded.note, model = NULL, basis = NULL,
       edited_by = excluded.edited_by, updated_at = excluded.updated_at`,
    bidId,
    requirementId,
    text,
    'Written by a person; recompute leaves it as it is.',
    accountId,
    now.toISOString(),
  );
  return (await readDraft(state, bidId, requirementId))!;
}

/**
 * Stores a computed draft, with the basis it was written from, unless a person has written this requirement's
 * draft, which is never overwritten.
 */
export async function saveComposedDraft(state: StateDb, bidId: string, requirementId: string, draft: ComposedDraft, basis: string | null, now: Date): Promise<void> {
  await state.run(
    `INSERT INTO bid_drafts (bid_id, requirement_id, text, origin, note, citations, model, basis, edited_by, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)
     ON CONFLICT (bid_id, requirement_id) DO UPDATE SET text = excluded.text, origin = excluded.origin, note = excluded.note,
       citations = excluded.citations, model = excluded.model, basis = excluded.basis, updated_at = excluded.updated_at
     WHERE bid_drafts.origin <> 'person'`,
    bidId,
    requirementId,
    draft.text,
    draft.origin,
    draft.note,
    JSON.stringify(draft.citations),
    draft.model,
    basis,
    now.toISOString(),
  );
}

/** What the stored draft was computed from and how it came out, or null when there is none. */
export async function draftBasis(state: StateDb, bidId: string, requirementId: string): Promise<{ origin: StoredDraft['origin']; model: string | null; basis: string | null } | null> {
  return await state.get<{ origin: StoredDraft['origin']; model: string | null; basis: string | null }>(
    'SELECT origin, model, basis FROM bid_drafts WHERE bid_id = ? AND requirement_id = ?',
    bidId,
    requirementId,
  ) ?? null;
}

/** Removes computed drafts of requirements the bid no longer has (merged or split away); a person's stay. */
export async function removeStaleDrafts(state: StateDb, bidId: string, requirementIds: readonly string[]): Promise<void> {
  const kept = new Set(requirementIds);
  for (const { requirement_id } of await state.all<{ requirement_id: string }>("SELECT requirement_id FROM bid_drafts WHERE bid_id = ? AND origin <> 'person'", bidId)) {
    if (!kept.has(requirement_id)) await state.run('DELETE FROM bid_drafts WHERE bid_id = ? AND requirement_id = ?', bidId, requirement_id);
  }
}
