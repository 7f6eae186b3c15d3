import { daysBetween } from '../../../lib/jurisdictions.ts';
import type { Analysis } from '../types.ts';
import { documentTypeLabel, documentTypePhrase, isDocumentType } from '../document-types.ts';
import { classifyFirstPages, type ClassifiedDocument } from '../first-page.ts';
import { packSchemes, type PackScheme, type PackSlot } from './options.ts';
import type { PackResult } from './result.ts';

type Requirement = string | { key: string; accepts: string[]; optional?: boolean };
export type PackAnalysisOptions = { scheme?: string; requirements?: Requirement[] };

interface Slot {
  key: string;
  label: string;
  accepts: string[];
  optional: boolean;
  recency?: PackSlot['recency'];
}

/** A document of the pack as the matcher sees it. */
export type PackDocument = ClassifiedDocument;

const LIMITATIONS =
  'A completeness signal, not verification. Each document is classified from the text of its first page (OCR for pictures), with no field extraction: ' +
  'nothing is authenticated, names, dates and amounts are not compared across documents, a statement\'s period is not checked, ' +
  'a slot that asks for a recent or current document takes one only when its page-1 date could be read and is recent enough (the date read is not checked against the period printed), ' +
  'and a document of the right type for the wrong person still fills its slot. Flags cite the published rule they come from; they say a document should not have been collected, not that it is false.';

export const analysePack: Analysis<PackAnalysisOptions, PackResult> = async (documents, options, context) =>
  judgePack(options, await classifyFirstPages(documents, context), context.now);

/** The pack's judgement over classified documents: pure, so slot matching is tested without reading files. */
export function judgePack(options: PackAnalysisOptions, documents: PackDocument[], now: string): PackResult {
  const { id, name, slots, scheme } = packDefinition(options);
  const assignment = matchSlots(slots, documents, now);
  const slotOf = new Map<number, number>();
  assignment.forEach((documentIndex, slotIndex) => {
    if (documentIndex !== null) slotOf.set(documentIndex, slotIndex);
  });
  const resultSlots = slots.map((slot, slotIndex) => {
    const documentIndex = assignment[slotIndex] ?? null;
    return { key: slot.key, label: slot.label, optional: slot.optional, satisfied: documentIndex !== null, matched: documentIndex === null ? null : (documents[documentIndex]!.filename ?? `document ${documentIndex + 1}`) };
  });
  const missing = resultSlots.filter((slot) => !slot.satisfied && !slot.optional).map((slot) => slot.key);
  return {
    scheme: { id, name },
    complete: missing.length === 0,
    slots: resultSlots,
    missing,
    documents: documents.map((document) => ({ filename: document.filename, classified_type: document.classification.type, confidence: document.classification.confidence })),
    unmatched_documents: documents.flatMap((document, index) => (slotOf.has(index) ? [] : [{ filename: document.filename, classified_type: document.classification.type, reason: unmatchedReason(document, slots, now) }])),
    flags: scheme ? collectionFlags(scheme, documents) : [],
    limitations: LIMITATIONS,
  };
}

function packDefinition(options: PackAnalysisOptions): { id: string; name: string; slots: Slot[]; scheme: PackScheme | null } {
  if (options.requirements && options.requirements.length > 0) return { id: 'custom', name: 'Custom requirements', slots: customSlots(options.requirements), scheme: null };
  const scheme = options.scheme === undefined ? undefined : packSchemes[options.scheme];
  if (!scheme) throw new Error(`Unknown pack scheme ${JSON.stringify(options.scheme)}; known schemes: ${Object.keys(packSchemes).join(', ')}.`);
  return { id: options.scheme!, name: scheme.name, slots: scheme.slots, scheme };
}

/** A type name becomes a slot keyed by the name (a repeated name gets `_2`, `_3` so two payslips are two slots). */
function customSlots(requirements: Requirement[]): Slot[] {
  const used = new Map<string, number>();
  return requirements.map((requirement) => {
    const base = typeof requirement === 'string' ? { key: requirement, accepts: [requirement], optional: false } : { key: requirement.key, accepts: requirement.accepts, optional: requirement.optional ?? false };
    const seen = (used.get(base.key) ?? 0) + 1;
    used.set(base.key, seen);
    return { ...base, key: seen === 1 ? base.key : `${base.key}_${seen}`, label: base.accepts.map(typeLabel).join(' or ') };
  });
}

/**
 * Documents to slots, one each, filling as many required slots as possible and then as many optional ones
 * (augmenting paths, Kuhn's algorithm: a later slot may move an earlier slot's document to another fitting
 * document, so order in the upload never costs a slot).
 */
function matchSlots(slots: Slot[], documents: PackDocument[], now: string): (number | null)[] {
  const slotOfDocument: (number | null)[] = documents.map(() => null);
  const fits = (slotIndex: number, documentIndex: number) => {
    const document = documents[documentIndex]!;
    const slot = slots[slotIndex]!;
    return document.unreadable === null && slot.accepts.includes(document.classification.type) && dateRefusal(slot, document, now) === null;
  };
  const augment = (slotIndex: number, visited: Set<number>): boolean => {
    // A free fitting document first, so documents stay in upload order wherever nothing needs to move.
    const free = documents.findIndex((_, documentIndex) => slotOfDocument[documentIndex] === null && !visited.has(documentIndex) && fits(slotIndex, documentIndex));
    if (free !== -1) {
      slotOfDocument[free] = slotIndex;
      return true;
    }
    for (let documentIndex = 0; documentIndex < documents.length; documentIndex++) {
      if (visited.has(documentIndex) || !fits(slotIndex, documentIndex)) continue;
      visited.add(documentIndex);
      const holder = slotOfDocument[documentIndex];
      if (holder === null || holder === undefined || augment(holder, visited)) {
        slotOfDocument[documentIndex] = slotIndex;
        return true;
      }
    }
    return false;
  };
  const order = slots.map((slot, index) => ({ slot, index })).sort((a, b) => Number(a.slot.optional) - Number(b.slot.optional));
  for (const { index } of order) augment(index, new Set());
  return slots.map((_, slotIndex) => {
    const documentIndex = slotOfDocument.indexOf(slotIndex);
    return documentIndex === -1 ? null : documentIndex;
  });
}

function unmatchedReason(document: PackDocument, slots: Slot[], now: string): string {
  if (document.unreadable) return `could not be read: ${document.unreadable}`;
  const type = document.classification.type;
  if (type === 'unrecognised') return 'not recognised as a document type this checker knows from its first page';
  const taking = slots.filter((slot) => slot.accepts.includes(type));
  if (taking.length === 0) return `${documentTypePhrase(type)} is not asked for here`;
  const refusals = taking.map((slot) => dateRefusal(slot, document, now));
  if (refusals.some((refusal) => refusal === null)) return `every slot that takes ${documentTypePhrase(type)} is already filled`;
  return refusals.join('; ');
}

/**
 * Why a slot that asks for a recent or current document does not take this one, or null when it may: an unread
 * date is not a recent one, so a document whose page-1 date could not be read never fills such a slot.
 */
function dateRefusal(slot: Slot, document: PackDocument, now: string): string | null {
  const type = document.classification.type;
  if (type === 'unrecognised') return null;
  const withinDays = slot.recency?.within_days[type];
  if (withinDays === undefined) return null;
  const issued = document.classification.issued;
  if (issued === null) return `its date could not be read from page 1, and "${slot.label}" takes ${documentTypePhrase(type)} only when dated within ${withinDays} days`;
  const age = daysBetween(issued, now);
  if (age > withinDays) return `dated ${issued}, ${age} days before the check, and "${slot.label}" takes ${documentTypePhrase(type)} only when dated within ${withinDays} days`;
  return null;
}

function collectionFlags(scheme: PackScheme, documents: PackDocument[]): PackResult['flags'] {
  return documents.flatMap((document) =>
    scheme.flags
      .filter((flag) => (flag.types as string[]).includes(document.classification.type) && document.classification.transactionLines >= flag.min_transaction_lines)
      .map((flag) => ({ filename: document.filename, code: flag.code, message: flag.message, source: flag.source })),
  );
}

function typeLabel(type: string): string {
  return isDocumentType(type) ? documentTypeLabel(type) : type;
}
