import type { StateDb } from '../../../data/state/db.ts';
import { newId } from '../../../lib/tokens.ts';
import { filePages } from '../files.ts';
import { extractRequirements, type ExtractedRequirement, type RequirementKind, type RequirementSource } from './extract.ts';

/**
 * The bid's requirements in the state store (data/state/migrations/010_bid_requirements.sql): reading them, and
 * recomputing the extracted ones from the bid's files without touching what people added, edited, split or merged.
 */

export const requirementStates = ['open', 'drafted', 'met', 'not_applicable', 'superseded', 'withdrawn'] as const;
export type RequirementState = (typeof requirementStates)[number];
/** The states a person may set; the others come from recompute, split and merge. */
export const personStates = ['open', 'met', 'not_applicable'] as const;
/** Superseded (split or merged away) and withdrawn (no longer in the files) requirements are kept but not live. */
const retiredStates: readonly RequirementState[] = ['superseded', 'withdrawn'];

export type RequirementOrigin = 'extracted' | 'person' | 'split' | 'merged';

/** A requirement as the routes and the drafts, gaps and plan read it. */
export interface Requirement {
  requirement_id: string;
  bid_id: string;
  ref: string | null;
  text: string;
  kind: RequirementKind;
  mandatory: boolean;
  state: RequirementState;
  weight: number | null;
  source: RequirementSource | null;
  confidence: number;
  /** The requirements this one was split or merged from. */
  parents: string[];
  /** The requirements that replaced this one, when it is superseded. */
  superseded_by: string[];
  origin: RequirementOrigin;
  /** A person changed its wording, kind, mandatory flag or weight (recompute keeps them). */
  edited: boolean;
  created_at: string;
  updated_at: string;
}

export interface RequirementRow {
  requirement_id: string;
  bid_id: string;
  origin: RequirementOrigin;
  ref: string | null;
  text: string;
  kind: RequirementKind;
  mandatory: number;
  weight: number | null;
  state: RequirementState;
  state_by_person: number;
  edited: number;
  file_id: string | null;
  page: number | null;
  span_start: number | null;
  span_end: number | null;
  extraction_key: string | null;
  confidence: number;
  parents: string;
  superseded_by: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export function requirementView(row: RequirementRow): Requirement {
  return {
    requirement_id: row.requirement_id,
    bid_id: row.bid_id,
    ref: row.ref,
    text: row.text,
    kind: row.kind,
    mandatory: row.mandatory === 1,
    state: row.state,
    weight: row.weight,
    source: row.file_id !== null && row.page !== null && row.span_start !== null && row.span_end !== null ? { file_id: row.file_id, page: row.page, start: row.span_start, end: row.span_end } : null,
    confidence: row.confidence,
    parents: JSON.parse(row.parents) as string[],
    superseded_by: JSON.parse(row.superseded_by) as string[],
    origin: row.origin,
    edited: row.edited === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface RequirementFilter {
  kind?: RequirementKind | undefined;
  mandatory?: boolean | undefined;
  /** One state; without it, the live requirements (every state but superseded and withdrawn). */
  state?: RequirementState | undefined;
}

/** The bid's requirements in document order (file, page, place on the page), people's own after the extracted. */
export async function listRequirements(state: StateDb, bidId: string, filter: RequirementFilter = {}): Promise<Requirement[]> {
  const rows = await state.all<RequirementRow>(
    `SELECT r.* FROM bid_requirements r LEFT JOIN bid_files f ON f.file_id = r.file_id
      WHERE r.bid_id = ?
      ORDER BY f.uploaded_at IS NULL, f.uploaded_at, r.file_id IS NOT NULL, r.file_id, r.page IS NOT NULL, r.page, r.span_start IS NOT NULL, r.span_start, r.created_at, r.requirement_id`,
    bidId,
  );
  return rows
    .map(requirementView)
    .filter((requirement) => (filter.state === undefined ? !retiredStates.includes(requirement.state) : requirement.state === filter.state))
    .filter((requirement) => filter.kind === undefined || requirement.kind === filter.kind)
    .filter((requirement) => filter.mandatory === undefined || requirement.mandatory === filter.mandatory);
}

export async function requirementRow(state: StateDb, bidId: string, requirementId: string): Promise<RequirementRow | null> {
  return await state.get<RequirementRow>('SELECT * FROM bid_requirements WHERE bid_id = ? AND requirement_id = ?', bidId, requirementId) ?? null;
}

/** Finds an extracted requirement again on the next extraction: its file, page, span and text as found. */
function extractionKey(found: ExtractedRequirement): string {
  const { file_id, page, start, end } = found.source;
  return JSON.stringify([file_id, page, start, end, found.text]);
}

export interface RecomputeOptions {
  now: Date;
  /**
   * Ids of the requirements that have a draft (the drafts module knows): an open one becomes drafted, a drafted
   * one without a draft becomes open again. Without it, those two states stay as they are.
   */
  drafted?: ReadonlySet<string>;
}

export interface RecomputeSummary {
  /** Newly found in the files. */
  added: number;
  /** Extracted before and no longer in the files (their file was removed or reads differently): withdrawn. */
  withdrawn: number;
  /** Live requirements after the recompute. */
  live: number;
}

/**
 * Extracts the bid's requirements from its files' text again. A requirement found before keeps its id, state and
 * any person's edits; one no longer found is withdrawn unless a person edited it or set its state; people's own,
 * split and merged requirements are never touched, except that `drafted` moves them between open and drafted.
 */
export async function recomputeRequirements(state: StateDb, bidId: string, options: RecomputeOptions): Promise<RecomputeSummary> {
  const files = await filePages(state, bidId);
  const found = extractRequirements(files);
  const at = options.now.toISOString();
  return await state.transaction(async () => {
    const stored = new Map(
      (await state
        .all<RequirementRow>("SELECT * FROM bid_requirements WHERE bid_id = ? AND origin = 'extracted'", bidId))
        .map((row) => [row.extraction_key!, row]),
    );
    let added = 0;
    const seen = new Set<string>();
    for (const requirement of found) {
      const key = extractionKey(requirement);
      if (seen.has(key)) continue;
      seen.add(key);
      const existing = stored.get(key);
      if (existing) {
        if (existing.state === 'withdrawn') await state.run("UPDATE bid_requirements SET state = 'open', updated_at = ? WHERE requirement_id = ?", at, existing.requirement_id);
        continue;
      }
      const { source } = requirement;
      await state.run(
        `INSERT INTO bid_requirements (requirement_id, bid_id, origin, ref, text, kind, mandatory, weight, state, file_id, page, span_start, span_end, extraction_key, confidence, created_at, updated_at)
         VALUES (?, ?, 'extracted', ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?)`,
        newId('req_'),
        bidId,
        requirement.ref,
        requirement.text,
        requirement.kind,
        requirement.mandatory ? 1 : 0,
        requirement.weight,
        source.file_id,
        source.page,
        source.start,
        source.end,
        key,
        requirement.confidence,
        at,
        at,
      );
      added++;
    }
    let withdrawn = 0;
    for (const [key, row] of stored) {
      if (seen.has(key) || row.edited === 1 || row.state_by_person === 1 || retiredStates.includes(row.state)) continue;
      await state.run("UPDATE bid_requirements SET state = 'withdrawn', updated_at = ? WHERE requirement_id = ?", at, row.requirement_id);
      withdrawn++;
    }
    if (options.drafted) {
      for (const row of await state.all<RequirementRow>("SELECT * FROM bid_requirements WHERE bid_id = ? AND state IN ('open', 'drafted')", bidId)) {
        const next = options.drafted.has(row.requirement_id) ? 'drafted' : 'open';
        if (next !== row.state) await state.run('UPDATE bid_requirements SET state = ?, updated_at = ? WHERE requirement_id = ?', next, at, row.requirement_id);
      }
    }
    await state.run(
      'INSERT INTO bid_requirement_extractions (bid_id, files, extracted_at) VALUES (?, ?, ?) ON CONFLICT (bid_id) DO UPDATE SET files = excluded.files, extracted_at = excluded.extracted_at',
      bidId,
      fileSet(files.map((file) => file.file_id)),
      at,
    );
    return { added, withdrawn, live: (await listRequirements(state, bidId)).length };
  });
}

function fileSet(fileIds: readonly string[]): string {
  return [...fileIds].sort().join(',');
}

/**
 * Recomputes when the bid's readable files are not the ones last extracted (a file was added or removed), so
 * requirements appear once a file is uploaded; otherwise does nothing. Returns whether it recomputed.
 */
export async function refreshRequirements(state: StateDb, bidId: string, now: Date): Promise<boolean> {
  const current = fileSet((await state.all<{ file_id: string }>("SELECT file_id FROM bid_files WHERE bid_id = ? AND read_status = 'read'", bidId)).map((row) => row.file_id));
  const last = await state.get<{ files: string }>('SELECT files FROM bid_requirement_extractions WHERE bid_id = ?', bidId);
  if (last?.files === current) return false;
  await recomputeRequirements(state, bidId, { now });
  return true;
}

/**
 * The files routes' `onFileRead` listener (api/app.ts): extracts as soon as a file's text is stored, so the
 * requirements are there when the upload is answered.
 */
export function requirementsOnFileRead(state: StateDb, now: () => Date): (bidId: string) => Promise<void> {
  return async (bidId) => {
    await refreshRequirements(state, bidId, now());
  };
}
