import type { StateDb } from '../../../data/state/db.ts';
import { newId } from '../../../lib/tokens.ts';
import type { RequirementKind } from './extract.ts';
import { requirementRow, requirementView, type Requirement, type RequirementRow } from './store.ts';

/**
 * What people do to a bid's requirements: add one, change one, split one into parts, merge several into one.
 * Split and merged requirements name their parents, and the parents stay (superseded), so each requirement
 * still traces back to the clause of the tender it came from.
 */

export interface RequirementContent {
  ref?: string | null | undefined;
  text?: string | undefined;
  kind?: RequirementKind | undefined;
  mandatory?: boolean | undefined;
  weight?: number | null | undefined;
}

export interface RequirementChange extends RequirementContent {
  state?: 'open' | 'met' | 'not_applicable' | undefined;
}

interface NewRow {
  origin: RequirementRow['origin'];
  ref: string | null;
  text: string;
  kind: RequirementKind;
  mandatory: boolean;
  weight: number | null;
  source: Pick<RequirementRow, 'file_id' | 'page' | 'span_start' | 'span_end'>;
  parents: string[];
  accountId: string;
}

const noSource = { file_id: null, page: null, span_start: null, span_end: null };

async function insert(state: StateDb, bidId: string, row: NewRow, at: string): Promise<string> {
  const requirementId = newId('req_');
  await state.run(
    `INSERT INTO bid_requirements (requirement_id, bid_id, origin, ref, text, kind, mandatory, weight, state, file_id, page, span_start, span_end, confidence, parents, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
    requirementId,
    bidId,
    row.origin,
    row.ref,
    row.text,
    row.kind,
    row.mandatory ? 1 : 0,
    row.kind === 'criterion' ? row.weight : null,
    row.source.file_id,
    row.source.page,
    row.source.span_start,
    row.source.span_end,
    JSON.stringify(row.parents),
    row.accountId,
    at,
    at,
  );
  return requirementId;
}

async function view(state: StateDb, bidId: string, requirementId: string): Promise<Requirement> {
  return requirementView((await requirementRow(state, bidId, requirementId))!);
}

/** A requirement a person adds: it has no place in a file, and a person's word counts as certain. */
export async function addRequirement(state: StateDb, bidId: string, content: RequirementContent & { text: string }, accountId: string, now: Date): Promise<Requirement> {
  const requirementId = await insert(
    state,
    bidId,
    { origin: 'person', ref: content.ref ?? null, text: content.text, kind: content.kind ?? 'clause', mandatory: content.mandatory ?? true, weight: content.weight ?? null, source: noSource, parents: [], accountId },
    now.toISOString(),
  );
  return await view(state, bidId, requirementId);
}

/** Why a requirement cannot be changed, split or merged any more, or null when it can. */
export function retiredProblem(row: RequirementRow): string | null {
  if (row.state === 'superseded') return `Requirement ${row.requirement_id} was replaced by ${(JSON.parse(row.superseded_by) as string[]).join(', ')}; change those instead.`;
  if (row.state === 'withdrawn') return `Requirement ${row.requirement_id} is no longer in the bid's files (its file was removed); add it again with POST if it still applies.`;
  return null;
}

/** A person's change: content changes mark it edited (recompute keeps them), a state set by a person stays set. */
export async function changeRequirement(state: StateDb, row: RequirementRow, change: RequirementChange, now: Date): Promise<Requirement> {
  const content: Partial<Record<'ref' | 'text' | 'kind' | 'mandatory' | 'weight', string | number | null>> = {};
  if (change.ref !== undefined) content.ref = change.ref;
  if (change.text !== undefined) content.text = change.text;
  if (change.kind !== undefined) content.kind = change.kind;
  if (change.mandatory !== undefined) content.mandatory = change.mandatory ? 1 : 0;
  if (change.weight !== undefined) content.weight = change.weight;
  const kind = change.kind ?? row.kind;
  if (kind !== 'criterion') content.weight = null;
  const sets = Object.keys(content).map((column) => `${column} = ?`);
  const values: (string | number | null)[] = Object.values(content).map((value) => value ?? null);
  if (Object.keys(content).some((column) => column !== 'weight' || change.weight !== undefined)) sets.push('edited = 1');
  if (change.state !== undefined) {
    sets.push('state = ?', 'state_by_person = ?');
    // Back to open hands the state to recompute again; met and not applicable are a person's call and stay.
    values.push(change.state, change.state === 'open' ? 0 : 1);
  }
  sets.push('updated_at = ?');
  values.push(now.toISOString());
  await state.run(`UPDATE bid_requirements SET ${sets.join(', ')} WHERE requirement_id = ?`, ...values, row.requirement_id);
  return await view(state, row.bid_id, row.requirement_id);
}

async function supersede(state: StateDb, requirementIds: readonly string[], by: readonly string[], at: string): Promise<void> {
  for (const requirementId of requirementIds) {
    await state.run("UPDATE bid_requirements SET state = 'superseded', superseded_by = ?, updated_at = ? WHERE requirement_id = ?", JSON.stringify(by), at, requirementId);
  }
}

/** Splits one requirement into parts; each part keeps the parent's place in the file and names the parent. */
export async function splitRequirement(state: StateDb, row: RequirementRow, parts: readonly (RequirementContent & { text: string })[], accountId: string, now: Date): Promise<{ parent: Requirement; parts: Requirement[] }> {
  const at = now.toISOString();
  return await state.transaction(async () => {
    const ids: string[] = [];
    for (const part of parts) {
      ids.push(await insert(
        state,
        row.bid_id,
        {
          origin: 'split',
          ref: part.ref === undefined ? row.ref : part.ref,
          text: part.text,
          kind: part.kind ?? row.kind,
          mandatory: part.mandatory ?? row.mandatory === 1,
          weight: part.weight === undefined ? null : part.weight,
          source: row,
          parents: [row.requirement_id],
          accountId,
        },
        at,
      ));
    }
    await supersede(state, [row.requirement_id], ids, at);
    return { parent: await view(state, row.bid_id, row.requirement_id), parts: await viewsOf(state, row.bid_id, ids) };
  });
}

/**
 * Merges requirements into one that names them all as parents. Unless told otherwise it joins their texts, is
 * mandatory when any of them is, keeps their kind when they share one, and keeps their place when they share a page.
 */
export async function mergeRequirements(state: StateDb, rows: readonly RequirementRow[], content: RequirementContent, accountId: string, now: Date): Promise<{ merged: Requirement; parents: Requirement[] }> {
  const at = now.toISOString();
  const first = rows[0]!;
  const kinds = new Set(rows.map((row) => row.kind));
  const onePage = rows.every((row) => row.file_id !== null && row.file_id === first.file_id && row.page === first.page);
  const source = onePage
    ? { file_id: first.file_id, page: first.page, span_start: Math.min(...rows.map((row) => row.span_start!)), span_end: Math.max(...rows.map((row) => row.span_end!)) }
    : noSource;
  const weights = rows.map((row) => row.weight);
  return await state.transaction(async () => {
    const mergedId = await insert(
      state,
      first.bid_id,
      {
        origin: 'merged',
        ref: content.ref === undefined ? first.ref : content.ref,
        text: content.text ?? rows.map((row) => row.text).join(' '),
        kind: content.kind ?? (kinds.size === 1 ? first.kind : 'clause'),
        mandatory: content.mandatory ?? rows.some((row) => row.mandatory === 1),
        weight: content.weight !== undefined ? content.weight : weights.every((weight) => weight !== null) ? weights.reduce((sum, weight) => sum! + weight!, 0) : null,
        source,
        parents: rows.map((row) => row.requirement_id),
        accountId,
      },
      at,
    );
    await supersede(state, rows.map((row) => row.requirement_id), [mergedId], at);
    return { merged: await view(state, first.bid_id, mergedId), parents: await viewsOf(state, first.bid_id, rows.map((row) => row.requirement_id)) };
  });
}

/** The requirements' views, in the order given. */
async function viewsOf(state: StateDb, bidId: string, requirementIds: readonly string[]): Promise<Requirement[]> {
  const views: Requirement[] = [];
  for (const requirementId of requirementIds) views.push(await view(state, bidId, requirementId));
  return views;
}
