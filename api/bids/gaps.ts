import { newId } from '../../lib/tokens.ts';
import type { Jurisdiction } from '../../lib/jurisdictions.ts';
import type { StateDb } from '../../data/state/db.ts';
import { credentialsNamedIn, type Credential, type GapCategory } from './credentials.ts';
import type { LibraryText } from './drafts/library-text.ts';
import type { StoredDraft } from './drafts/store.ts';
import type { WorkspaceRequirement } from './workspace-requirement.ts';

/**
 * Gaps are derived, never typed in: what stands between the organisation and a compliant response. A
 * mandatory requirement (other than an instruction to tenderers) with no evidence in its draft; a library document the bid relies on (cited by a
 * draft, or holding a certificate or insurance the tender asks for) that has expired or expires before the
 * tender closes; a certificate or insurance the tender asks for that no library document holds.
 */

export type GapKind = 'no_evidence' | 'document_expiry' | 'missing_credential';

export interface DerivedGap {
  /** Stable across recomputes: what the gap is about. */
  gap_key: string;
  kind: GapKind;
  category: GapCategory;
  region: Jurisdiction | null;
  title: string;
  detail: string;
  requirement_id: string | null;
  doc_id: string | null;
}

export interface GapInputs {
  requirements: readonly WorkspaceRequirement[];
  drafts: readonly StoredDraft[];
  library: readonly LibraryText[];
  /** Today in the buyer's time zone (YYYY-MM-DD). */
  today: string;
  /** The tender's closing day in the buyer's time zone, or null when the bid has none. */
  closingDate: string | null;
  /** The organisation profile's region, else the tender's jurisdiction. */
  region: Jurisdiction | null;
}

const QUOTE_CHARACTERS = 160;
const PERSON_SETTLED: ReadonlySet<string> = new Set(['met', 'not_applicable']);

const quoted = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > QUOTE_CHARACTERS ? `${flat.slice(0, QUOTE_CHARACTERS - 1)}…` : flat}"`;
};
const named = (requirement: WorkspaceRequirement) => (requirement.ref ? `requirement ${requirement.ref}` : 'a requirement');

/** Whether a draft carries evidence: a person's text, or at least one cited passage. */
export function hasEvidence(draft: StoredDraft | undefined): boolean {
  return draft !== undefined && (draft.origin === 'person' || draft.citations.length > 0);
}

const documentNames = (text: LibraryText, credential: Credential) =>
  credential.pattern.test(text.document.filename) || text.pages.some((page) => credential.pattern.test(page.text));

export function deriveGaps(inputs: GapInputs): DerivedGap[] {
  const { requirements, drafts, library, today, closingDate, region } = inputs;
  const draftOf = new Map(drafts.map((draft) => [draft.requirement_id, draft]));
  const gaps: DerivedGap[] = [];

  for (const requirement of requirements) {
    // A person's call that it is met or does not apply stands in for evidence; an instruction to tenderers (how
    // and where to lodge) is followed when lodging, not answered with evidence.
    if (!requirement.mandatory || requirement.kind === 'instruction' || PERSON_SETTLED.has(requirement.state) || hasEvidence(draftOf.get(requirement.requirement_id))) continue;
    gaps.push({
      gap_key: `evidence:${requirement.requirement_id}`,
      kind: 'no_evidence',
      category: 'bid_writing',
      region,
      title: `No evidence for mandatory ${named(requirement)}`,
      detail: `${quoted(requirement.text)} is mandatory, and nothing in the profile, the library or earlier bids answers it: add a document that does and recompute, or write the draft.`,
      requirement_id: requirement.requirement_id,
      doc_id: null,
    });
  }

  // Each certificate or insurance the tender asks for, with the first requirement that asks.
  const asked = new Map<string, { credential: Credential; requirement: WorkspaceRequirement }>();
  for (const requirement of requirements) {
    for (const credential of credentialsNamedIn(requirement.text)) {
      if (!asked.has(credential.credential_id)) asked.set(credential.credential_id, { credential, requirement });
    }
  }
  const citedDocuments = new Set(drafts.flatMap((draft) => draft.citations.flatMap((citation) => (citation.doc_id ? [citation.doc_id] : []))));
  for (const { credential, requirement } of asked.values()) {
    if (library.some((text) => documentNames(text, credential))) continue;
    gaps.push({
      gap_key: `credential:${credential.credential_id}`,
      kind: 'missing_credential',
      category: credential.category,
      region,
      title: `No ${credential.name} in the library`,
      detail: `The tender asks for ${credential.name} (${named(requirement)}: ${quoted(requirement.text)}), and no library document names it: upload the certificate or policy, or ask a partner who can help.`,
      requirement_id: requirement.requirement_id,
      doc_id: null,
    });
  }

  for (const text of library) {
    const { document } = text;
    const heldCredential = [...asked.values()].find(({ credential }) => documentNames(text, credential))?.credential;
    if (document.expires_on === null || (!heldCredential && !citedDocuments.has(document.doc_id))) continue;
    const expired = document.expires_on < today;
    if (!expired && (closingDate === null || document.expires_on >= closingDate)) continue;
    gaps.push({
      gap_key: `expiry:${document.doc_id}`,
      kind: 'document_expiry',
      category: heldCredential?.category ?? 'compliance_documents',
      region,
      title: expired ? `${document.filename} expired on ${document.expires_on}` : `${document.filename} expires on ${document.expires_on}, before the tender closes`,
      detail: expired
        ? `The bid relies on ${document.filename}${heldCredential ? ` for ${heldCredential.name}` : ''}, which expired on ${document.expires_on}: upload the renewed document and set its expiry date.`
        : `The bid relies on ${document.filename}${heldCredential ? ` for ${heldCredential.name}` : ''}, which expires on ${document.expires_on}, before the tender closes on ${closingDate}: renew it and upload the new one.`,
      requirement_id: null,
      doc_id: document.doc_id,
    });
  }
  return gaps;
}

/** A gap as stored and served (without its partners). */
export interface StoredGap extends DerivedGap {
  gap_id: string;
  status: 'open' | 'closed' | 'NA';
  /** Why a person marked it NA; null otherwise. */
  na_reason: string | null;
  updated_at: string;
}

const SELECT_GAP = `SELECT gap_id, gap_key, kind, category, region, title, detail, requirement_id, doc_id, status, na_reason, updated_at FROM bid_gaps`;

export async function listGaps(state: StateDb, bidId: string): Promise<StoredGap[]> {
  return await state.all<StoredGap>(`${SELECT_GAP} WHERE bid_id = ? ORDER BY CASE status WHEN 'open' THEN 0 WHEN 'NA' THEN 1 ELSE 2 END, kind, gap_key`, bidId);
}

export async function readGap(state: StateDb, bidId: string, gapId: string): Promise<StoredGap | null> {
  return await state.get<StoredGap>(`${SELECT_GAP} WHERE bid_id = ? AND gap_id = ?`, bidId, gapId) ?? null;
}

/**
 * Stores a recompute's gaps: a new one opens; one derived again reopens unless a person marked it NA (their
 * call and reason stay); an open one no longer derived is closed.
 */
export async function storeGaps(state: StateDb, bidId: string, derived: readonly DerivedGap[], now: Date): Promise<void> {
  const at = now.toISOString();
  await state.transaction(async () => {
    for (const gap of derived) {
      await state.run(
        `INSERT INTO bid_gaps (gap_id, bid_id, gap_key, kind, category, region, title, detail, requirement_id, doc_id, status, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)
         ON CONFLICT (bid_id, gap_key) DO UPDATE SET kind = excluded.kind, category = excluded.category, region = excluded.region,
           title = excluded.title, detail = excluded.detail, requirement_id = excluded.requirement_id, doc_id = excluded.doc_id,
           status = CASE bid_gaps.status WHEN 'NA' THEN 'NA' ELSE 'open' END, updated_at = excluded.updated_at`,
        newId('gap_'), bidId, gap.gap_key, gap.kind, gap.category, gap.region, gap.title, gap.detail, gap.requirement_id, gap.doc_id, at,
      );
    }
    const current = new Set(derived.map((gap) => gap.gap_key));
    for (const { gap_key } of await state.all<{ gap_key: string }>("SELECT gap_key FROM bid_gaps WHERE bid_id = ? AND status = 'open'", bidId)) {
      if (!current.has(gap_key)) await state.run("UPDATE bid_gaps SET status = 'closed', updated_at = ? WHERE bid_id = ? AND gap_key = ?", at, bidId, gap_key);
    }
  });
}

/** A person's one call on a gap: it does not apply to this bid, for `reason`. */
export async function markGapNotApplicable(state: StateDb, bidId: string, gapId: string, reason: string, accountId: string, now: Date): Promise<StoredGap | null> {
  const { changes } = await state.run(
    "UPDATE bid_gaps SET status = 'NA', na_reason = ?, na_by = ?, updated_at = ? WHERE bid_id = ? AND gap_id = ?",
    reason, accountId, now.toISOString(), bidId, gapId,
  );
  return changes === 0 ? null : await readGap(state, bidId, gapId);
}
