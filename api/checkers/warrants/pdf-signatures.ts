import { PDFDict, PDFName, PDFRef } from 'pdf-lib';
import type { Signal, SignalSeverity } from './signal.ts';
import type { PdfLayout } from './pdf-layout.ts';
import { byteRangeCoverage, type Coverage } from './pdf-byte-range.ts';
import { compareWithSigned, type RevisionDifference } from './pdf-difference.ts';
import { levelRank, maxLevel, type ModificationLevel, type ObjectChange, type Snapshot } from './pdf-modification-level.ts';
import { objectRoles, roleWords } from './pdf-object-roles.ts';
import { asDict, lookup, nameOf, numbersOf, textOf, type RevisionState } from './pdf-objects.ts';
import { isLocked, signaturePermissions, type SignaturePermissions } from './pdf-permissions.ts';
import { refText } from './pdf-revisions.ts';
import { pdfSignal } from './pdf-signals.ts';

/** What one signature covers and what changed after it, judged as a reference validator judges it. */
export interface SignatureAnalysis {
  object: string;
  kind: 'signature' | 'document timestamp';
  signer: string;
  field: string | null;
  coverage: Coverage;
  permissions: SignaturePermissions;
  /** The most the signature (and any certification before it) lets later updates do. */
  allowed: ModificationLevel;
  /** pyHanko's ModificationLevel of everything after the signed revision; NONE when nothing follows; null when it could not be judged. */
  level: ModificationLevel | null;
  /** Whether every change after signing is within `allowed` and touches no locked field; null when not judged. */
  permitted: boolean | null;
  differences: RevisionDifference[];
  /** Changes to fields the signature's FieldMDP lock covers. */
  lockViolations: ObjectChange[];
  /** Bytes after the signed revision (its offsets are signedEnd–file end). */
  appendedBytes: number;
  /** Why the comparison is incomplete (a revision past the limit or unreadable), or null. */
  shortfall: string | null;
}

const permissionLevel: Record<number, ModificationLevel> = { 1: 'LTA_UPDATES', 2: 'FORM_FILLING', 3: 'ANNOTATIONS' };

const levelWords: Record<ModificationLevel, string> = {
  NONE: 'nothing (NONE)',
  LTA_UPDATES: 'only validation data and document timestamps (LTA_UPDATES)',
  FORM_FILLING: 'form filling and further signatures (FORM_FILLING)',
  ANNOTATIONS: 'annotations (ANNOTATIONS)',
  OTHER: 'changes beyond form filling and annotation (OTHER)',
};

/**
 * Every signature of the file: its byte range checked exactly, the revision it signs, and for each later
 * revision the difference analysis against it, judged against its DocMDP and FieldMDP permissions.
 * `snapshotAt(i)` gives revision i's objects with their roles, or null when that revision was not read.
 */
export function analyseSignatures(bytes: Uint8Array, text: string, layout: PdfLayout, final: RevisionState, snapshotAt: (revision: number) => Snapshot | null, revisionsRead: number): SignatureAnalysis[] {
  const found = readSignatures(bytes, text, layout, final, snapshotAt, revisionsRead);
  const certifications = found.filter((signature) => signature.permissions.docMdp !== null && signature.coverage.kind !== 'invalid');
  const cache = new Map<string, RevisionDifference>();
  for (const signature of found) judgeSignature(signature, certifications, layout, snapshotAt, revisionsRead, cache);
  return found;
}

/** Every signature dictionary of the final state with its byte-range coverage, field and permissions, not yet judged, in signing order. */
function readSignatures(bytes: Uint8Array, text: string, layout: PdfLayout, final: RevisionState, snapshotAt: (revision: number) => Snapshot | null, revisionsRead: number): SignatureAnalysis[] {
  const { context } = final;
  const signatures = context.enumerateIndirectObjects().filter(([, object]) => object instanceof PDFDict && object.has(PDFName.of('ByteRange')));
  if (signatures.length === 0) return [];
  const finalRoles = (revisionsRead === layout.revisions.length ? snapshotAt(revisionsRead - 1)?.roles : null) ?? objectRoles(final);
  // A certification signature is named by the catalog's /Perms /DocMDP (its /P is 2 when its transform gives none).
  const perms = asDict(lookup(context, final.root, 'Perms'))?.get(PDFName.of('DocMDP'));
  const found: SignatureAnalysis[] = [];
  for (const [ref, object] of signatures) {
    const dict = object as PDFDict;
    const key = refText(ref);
    const field = finalRoles?.signatureField.get(key) ?? null;
    const fieldDict = field ? (finalRoles?.fields.get(field)?.dict ?? null) : null;
    const permissions = signaturePermissions(context, dict, fieldDict);
    if (permissions.docMdp === null && perms instanceof PDFRef && refText(perms) === key) permissions.docMdp = 2;
    const name = textOf(context, dict.get(PDFName.of('Name')));
    const signedAt = textOf(context, dict.get(PDFName.of('M')));
    const coverage = byteRangeCoverage(bytes, text, layout, key, numbersOf(context, dict.get(PDFName.of('ByteRange'))));
    found.push({
      object: key,
      kind: nameOf(context, dict.get(PDFName.of('Type'))) === 'DocTimeStamp' ? 'document timestamp' : 'signature',
      signer: [name ? `by ${name}` : null, signedAt ? `dated ${signedAt}` : null].filter(Boolean).join(', ') || 'no signer name or date',
      field,
      coverage,
      permissions,
      allowed: 'ANNOTATIONS',
      level: null,
      permitted: null,
      differences: [],
      lockViolations: [],
      appendedBytes: coverage.kind === 'invalid' ? 0 : bytes.length - coverage.signedEnd,
      shortfall: null,
    });
  }
  found.sort((a, b) => signedEnd(a) - signedEnd(b));
  return found;
}

/** Sets what one signature allows and, for each revision after the one it signs, how far the changes go and whether they are permitted. */
function judgeSignature(signature: SignatureAnalysis, certifications: SignatureAnalysis[], layout: PdfLayout, snapshotAt: (revision: number) => Snapshot | null, revisionsRead: number, cache: Map<string, RevisionDifference>): void {
  if (signature.coverage.kind === 'invalid') return;
  const signedRevision = signature.coverage.revision;
  signature.allowed = allowedLevel(signature, certifications, signedRevision);
  if (signature.coverage.kind === 'whole_file') {
    signature.level = 'NONE';
    signature.permitted = true;
    return;
  }
  const { level, missing } = compareAfterSigning(signature, signedRevision, layout, snapshotAt, revisionsRead, cache);
  if (layout.revisions.length - 1 === signedRevision && signature.appendedBytes > 0) {
    signature.shortfall = `the ${signature.appendedBytes} bytes after the signed revision are not a saved revision`;
    return;
  }
  if (missing.length > 0) {
    signature.shortfall = `revision(s) ${missing.join(', ')} could not be compared with the signed revision`;
    return;
  }
  signature.level = signature.lockViolations.length > 0 ? 'OTHER' : level;
  signature.permitted = levelRank(signature.level) <= levelRank(signature.allowed) && signature.lockViolations.length === 0;
}

/** The strictest of the certifications made at or before the signed revision and the signature's own field lock. */
function allowedLevel(signature: SignatureAnalysis, certifications: SignatureAnalysis[], signedRevision: number): ModificationLevel {
  const limits = [
    ...certifications.filter((certification) => certification.coverage.kind !== 'invalid' && certification.coverage.revision <= signedRevision).map((certification) => certification.permissions.docMdp!),
    ...(signature.permissions.lock?.permission ? [signature.permissions.lock.permission] : []),
  ];
  return limits.length > 0 ? permissionLevel[Math.min(...limits)]! : 'ANNOTATIONS';
}

/**
 * Each later revision compared with the signed one (the differences and field-lock violations are kept on the
 * signature); returns the highest level reached and the revisions that could not be compared.
 */
function compareAfterSigning(signature: SignatureAnalysis, signedRevision: number, layout: PdfLayout, snapshotAt: (revision: number) => Snapshot | null, revisionsRead: number, cache: Map<string, RevisionDifference>): { level: ModificationLevel; missing: number[] } {
  const base = snapshotAt(signedRevision);
  const missing: number[] = [];
  let level: ModificationLevel = 'NONE';
  for (let revision = signedRevision + 1; revision < layout.revisions.length; revision++) {
    const previous = revision < revisionsRead ? snapshotAt(revision - 1) : null;
    const later = revision < revisionsRead ? snapshotAt(revision) : null;
    if (!base || !previous || !later) {
      missing.push(revision);
      continue;
    }
    const cacheKey = `${signedRevision}:${revision}`;
    const difference = cache.get(cacheKey) ?? compareWithSigned(base, previous, later, revision);
    cache.set(cacheKey, difference);
    signature.differences.push(difference);
    level = maxLevel(level, difference.level);
    recordLockViolations(signature, difference, base, later);
  }
  return { level, missing };
}

/** Fields changed in one update that the signature's FieldMDP lock covers, each recorded once. */
function recordLockViolations(signature: SignatureAnalysis, difference: RevisionDifference, base: Snapshot, later: Snapshot): void {
  const lock = signature.permissions.lock;
  if (!lock) return;
  for (const name of difference.changedFields) {
    if (!isLocked(lock, name) || signature.lockViolations.some((violation) => violation.field === name)) continue;
    const entry = later.roles.fields.get(name) ?? base.roles.fields.get(name);
    signature.lockViolations.push({ object: entry ? refText(entry.ref) : '?', change: 'changed', what: 'field', level: 'OTHER', reason: `form field "${name}" changed although this signature's field lock (FieldMDP /${lock.action}) forbids it`, field: name });
  }
}

function signedEnd(signature: SignatureAnalysis): number {
  return signature.coverage.kind === 'invalid' ? Number.POSITIVE_INFINITY : signature.coverage.signedEnd;
}

/** Objects listed in one finding at most (the count says how many more). */
const LISTED_OBJECTS = 30;
/** `change_not_permitted` signals per file at most. */
const CHANGE_SIGNAL_LIMIT = 40;

export function signatureSignals(analyses: SignatureAnalysis[], bytes: Uint8Array, layout: PdfLayout, objectOffset: (object: string, revision?: number) => number | undefined): Signal[] {
  const signals: Signal[] = [];
  const reported = new Set<string>();
  for (const signature of analyses) {
    const at = { object: signature.object, byte_offset: objectOffset(signature.object) };
    const coverage = signature.coverage;
    if (coverage.kind === 'invalid') {
      signals.push(pdfSignal('signature_byte_range_invalid', `The ${signature.kind} in ${signature.object} (${signature.signer}) does not protect what it claims to: ${coverage.problem}.`, { ...at, byte_offset: coverage.offset }));
      continue;
    }
    const exact = `its byte range was checked exactly: it starts at byte 0, leaves out only its own /Contents (bytes ${coverage.gap[0]}–${coverage.gap[1]})`;
    if (coverage.kind === 'whole_file') {
      signals.push(pdfSignal('digital_signature', `A ${signature.kind} (${signature.signer}) in ${signature.object} covers the whole file (bytes 0–${coverage.signedEnd}); ${exact} and ends at the end of the file. Its certificate and cryptography are not checked here.`, at));
      continue;
    }
    signals.push(pdfSignal('digital_signature', `A ${signature.kind} (${signature.signer}) in ${signature.object} signs revision ${coverage.revision} (bytes 0–${coverage.signedEnd}); ${exact} and ends where revision ${coverage.revision} ends. Its certificate and cryptography are not checked here.`, { ...at, revision: coverage.revision }));
    signals.push(modifiedSignal(signature, bytes, layout));
    if (signature.permitted !== false) continue;
    for (const change of beyond(signature)) {
      const key = `${change.object}@${change.revision}`;
      if (reported.has(key) || reported.size >= CHANGE_SIGNAL_LIMIT) continue;
      reported.add(key);
      const where: Signal['where'] = { object: change.object, revision: change.revision, byte_offset: objectOffset(change.object, change.change === 'removed' ? coverage.revision : change.revision) ?? layout.revisions[change.revision]?.start };
      if (change.page) where.page = change.page;
      if (change.field) where.field = change.field;
      signals.push(pdfSignal('change_not_permitted', `Revision ${change.revision} ${change.change === 'added' ? 'added' : change.change === 'removed' ? 'stopped using' : 'changed'} ${change.object} (${whatWords(change)}) after the ${signature.kind} in ${signature.object}: ${change.reason}. That is ${change.level}, beyond what the ${signature.kind} permits (${signature.allowed}).`, where));
    }
  }
  return signals;
}

type LocatedChange = ObjectChange & { revision: number };

/** Every change after the signature that its permission does not cover, with the revision that made it. */
function beyond(signature: SignatureAnalysis): LocatedChange[] {
  const allowed = levelRank(signature.allowed);
  const changes = signature.differences.flatMap((difference) => difference.changes.filter((change) => levelRank(change.level) > allowed).map((change) => ({ ...change, revision: difference.revision })));
  const firstRevision = signature.differences[0]?.revision ?? 0;
  const locks = signature.lockViolations.map((change) => ({ ...change, revision: signature.differences.find((difference) => change.field && difference.changedFields.has(change.field))?.revision ?? firstRevision }));
  return [...changes, ...locks];
}

function whatWords(change: ObjectChange): string {
  return change.what === 'unused' ? 'an object nothing uses' : roleWords[change.what];
}

function modifiedSignal(signature: SignatureAnalysis, bytes: Uint8Array, layout: PdfLayout): Signal {
  const coverage = signature.coverage as Exclude<Coverage, { kind: 'invalid' }>;
  const appended = `${signature.appendedBytes} bytes (offsets ${coverage.signedEnd}–${bytes.length})`;
  const updates = layout.revisions.length - 1 - coverage.revision;
  const where = { byte_offset: coverage.signedEnd, revision: coverage.revision + 1, object: signature.object };
  const head = `${appended} in ${updates} update(s) were added after the ${signature.kind} in ${signature.object} was applied`;
  if (signature.level === null) return pdfSignal('modified_after_signing', `${head}; ${signature.shortfall ?? 'they could not be compared with the signed revision'}, so what they change is not known.`, where, 'medium');
  const permission = permissionWords(signature);
  const severity: SignalSeverity = signature.permitted ? 'low' : 'high';
  const changes = signature.differences.flatMap((difference) => difference.changes.map((change) => ({ ...change, revision: difference.revision })));
  if (signature.permitted) {
    const classes = new Map<string, number>();
    for (const change of changes) classes.set(whatWords(change), (classes.get(whatWords(change)) ?? 0) + 1);
    const summary = changes.length === 0 ? 'no object' : `${changes.length} object(s) (${[...classes].map(([what, count]) => `${what} ${count}`).join(', ')})`;
    return pdfSignal('modified_after_signing', `${head}. Compared object by object with the signed revision they change ${summary}: ${levelWords[signature.level]}, which ${permission} allows.`, where, severity);
  }
  const offending = beyond(signature);
  const listed = offending.slice(0, LISTED_OBJECTS).map((change) => `${change.object} in revision ${change.revision} (${whatWords(change)}: ${change.reason})`);
  const more = offending.length > LISTED_OBJECTS ? `; and ${offending.length - LISTED_OBJECTS} more` : '';
  return pdfSignal('modified_after_signing', `${head}. Compared object by object with the signed revision they make ${levelWords[signature.level]}, beyond what ${permission} allows (${signature.allowed}): ${listed.join('; ')}${more}.`, where, severity);
}

function permissionWords(signature: SignatureAnalysis): string {
  const lock = signature.permissions.lock;
  const parts: string[] = [];
  if (signature.permissions.docMdp !== null) parts.push(`its certification (DocMDP P=${signature.permissions.docMdp})`);
  if (lock) parts.push(`its field lock (FieldMDP /${lock.action}${lock.fields.length > 0 ? ` ${lock.fields.map((field) => `"${field}"`).join(', ')}` : ''}${lock.permission ? `, P=${lock.permission}` : ''})`);
  if (parts.length === 0) return signature.allowed === 'ANNOTATIONS' ? 'an approval signature' : `the document's certification (up to ${signature.allowed})`;
  return parts.join(' and ');
}
