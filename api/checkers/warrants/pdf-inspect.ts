import type { PageText } from '../../documents/types.ts';
import { measurePdfOnce } from '../../documents/guard.ts';
import { openPdf, readPagesText } from '../../documents/pdf.ts';
import type { AnalysisContext } from '../types.ts';
import type { Signal } from './signal.ts';
import type { InspectionQuality } from './band.ts';
import { arithmeticSignals } from './arithmetic.ts';
import { activeContentSignals } from './pdf-active.ts';
import { drawingSignals, fontSubsetSignals, textOverTextSignals } from './pdf-content.ts';
import { latin1, scanLayout, type PdfLayout } from './pdf-layout.ts';
import { metadataSignals, type DocumentMetadata } from './pdf-metadata.ts';
import { loadRevisionState, type RevisionState } from './pdf-objects.ts';
import { compareRevisions, refText } from './pdf-revisions.ts';
import { pdfSignal } from './pdf-signals.ts';
import { compareWithSigned, type RevisionDifference } from './pdf-difference.ts';
import { snapshot, type ObjectChange, type Snapshot } from './pdf-modification-level.ts';
import { analyseSignatures, signatureSignals, type SignatureAnalysis } from './pdf-signatures.ts';
import { structureSignals } from './pdf-structure.ts';
import { revisionPageTexts, TEXT_DIFF_PAGE_LIMIT } from './pdf-text-diff.ts';
import { updateFindings, type PageTextPair, type UpdateFindings } from './pdf-updates.ts';

/** Revisions loaded and compared at most; a file with more is compared up to here and says so. */
export const REVISION_LIMIT = 12;
/** Bytes parsed across all revision prefixes at most (each prefix is parsed whole), bounding time on large files. */
export const PARSE_BYTES_LIMIT = 96 * 1024 * 1024;
/** Pages whose text is read for arithmetic and overlap checks. */
export const TEXT_PAGE_LIMIT = 50;

export interface PdfInspection {
  signals: Signal[];
  quality: InspectionQuality;
  /** Why the quality is below full (or why the file failed), in words; null when full. */
  shortfall: string | null;
  pages: number | null;
  revisions: number | null;
  metadata: DocumentMetadata;
  /** Each signature's coverage and the difference analysis after it (empty for an unsigned file). */
  signatures: SignatureAnalysis[];
}

/** Every PDF check over one file, each stage guarded so a failing stage lowers the quality instead of the whole result. */
export async function inspectPdf(bytes: Uint8Array, context: AnalysisContext): Promise<PdfInspection> {
  const shortfalls: string[] = [];
  const layout = scanLayout(bytes);
  const text = latin1(bytes);
  const offsets = objectOffsets(layout);
  const signals: Signal[] = [...structureSignals(bytes, layout)];
  context.progress?.('structure');

  const inflation = await measurePdfOnce(bytes);
  if (inflation.refusal !== null) {
    signals.push(pdfSignal('stream_inflation_limit', `Reading stopped: ${inflation.refusal.reason}; the file's objects and text were not read further.`, { byte_offset: inflation.refusal.offset }));
    const parsed = layout.headerOffset >= 0;
    return finish(signals, parsed ? 'minimal' : 'failed', parsed ? 'a stream inflates past the limit' : 'no PDF header', null, layout.revisions.length || null, { producer: null, creator: null }, []);
  }

  // Each revision as it stood when saved, plus the whole file when bytes follow the last revision.
  const states: (RevisionState | null)[] = [];
  let parsedBytes = 0;
  for (const revision of layout.revisions.slice(0, REVISION_LIMIT)) {
    parsedBytes += revision.end;
    if (parsedBytes > PARSE_BYTES_LIMIT && states.length > 0) break;
    states.push(await loadRevisionState(bytes.subarray(0, revision.end)).catch(() => null));
  }
  if (states.length < layout.revisions.length) shortfalls.push(`only the first ${states.length} of ${layout.revisions.length} revisions were compared`);
  const unreadable = states.flatMap((state, index) => (state ? [] : [index]));
  if (unreadable.length > 0) signals.push(pdfSignal('revision_unreadable', `Revision(s) ${unreadable.join(', ')} could not be parsed as saved, so what they changed is not known.`, { revision: unreadable[0] }));
  const lastEnd = layout.revisions.at(-1)?.end ?? 0;
  const coversFile = layout.revisions.length > 0 && states.length === layout.revisions.length && layout.trailingBytes === 0 && states.at(-1);
  const final = coversFile ? states.at(-1)! : await loadRevisionState(bytes).catch(() => null);
  if (!coversFile && lastEnd < bytes.length && layout.trailingBytes > 0) shortfalls.push('bytes after the last %%EOF were read as part of the file');
  context.progress?.('revisions');

  // Each revision's objects with the roles they play, computed once for the update and signature comparisons.
  const snapshots = new Map<number, Snapshot | null>();
  const snapshotAt = (revision: number): Snapshot | null => {
    if (!snapshots.has(revision)) {
      const state = states[revision];
      snapshots.set(revision, state ? snapshot(state) : null);
    }
    return snapshots.get(revision)!;
  };
  const updates: UpdateFindings[] = [];
  for (let index = 1; index < states.length; index++) {
    const before = states[index - 1];
    const after = states[index];
    if (!before || !after) continue;
    const revision = layout.revisions[index]!;
    const change = compareRevisions(before, after, index);
    const texts = await changedPageTexts(bytes, layout.revisions[index - 1]!.end, revision.end, change.pagesChanged.map((page) => page.page).slice(0, TEXT_DIFF_PAGE_LIMIT));
    const previous = snapshotAt(index - 1);
    const current = snapshotAt(index);
    let unexplained: ObjectChange[] = [];
    try {
      if (previous && current) unexplained = otherChanges(compareWithSigned(previous, previous, current, index));
    } catch (error) {
      shortfalls.push(`revision ${index}'s objects could not be classified (${reason(error)})`);
    }
    const findings = updateFindings(change, revision, (object) => (object ? offsets(object, revision.start, revision.end) : undefined), texts, unexplained);
    updates.push(findings);
    signals.push(...findings.signals);
  }
  context.progress?.('updates');

  const anywhere = (object: string): number | undefined => offsets(object, 0, bytes.length);
  // Where an object was written in a given revision (its last header there), else anywhere in the file.
  const inRevision = (object: string, revision?: number): number | undefined => {
    const section = revision === undefined ? undefined : layout.revisions[revision];
    return (section ? offsets(object, 0, section.end) : undefined) ?? anywhere(object);
  };
  let metadata: DocumentMetadata = { producer: null, creator: null };
  let signatures: SignatureAnalysis[] = [];
  if (final) {
    for (const stage of [
      () => {
        signatures = analyseSignatures(bytes, text, layout, final, snapshotAt, states.length);
        return signatureSignals(signatures, bytes, layout, inRevision);
      },
      () => activeContentSignals(text, final, anywhere),
      () => fontSubsetSignals(final, anywhere),
      () => (layout.encrypted ? [] : drawingSignals(final)),
    ]) {
      try {
        signals.push(...stage());
      } catch (error) {
        shortfalls.push(`a check failed (${reason(error)})`);
      }
    }
  } else {
    shortfalls.push('the object table could not be read');
  }
  try {
    const read = metadataSignals(text, layout.encrypted ? null : final, context.now);
    signals.push(...read.signals);
    metadata = read.metadata;
  } catch (error) {
    shortfalls.push(`the metadata could not be read (${reason(error)})`);
  }
  context.progress?.('objects');

  let pages: PageText[] = [];
  let pageCount: number | null = final?.pages.length ?? null;
  try {
    const pdf = await openPdf(bytes);
    try {
      pageCount = pdf.numPages;
      pages = await readPagesText(pdf, TEXT_PAGE_LIMIT);
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    if (!final) return finish(signals, 'failed', `the file could not be parsed as a PDF (${reason(error)})`, null, layout.revisions.length || null, metadata, signatures);
    shortfalls.push(`the page text could not be read (${reason(error)})`);
  }
  if (pageCount !== null && pageCount > TEXT_PAGE_LIMIT) shortfalls.push(`only the first ${TEXT_PAGE_LIMIT} of ${pageCount} pages were read for text`);
  signals.push(...textOverTextSignals(pages), ...arithmeticSignals(pages));
  context.progress?.('text');

  const characters = pages.reduce((sum, page) => sum + page.text.replace(/\s/g, '').length, 0);
  // Fewer than three characters a page: page numbers at most, the rest is pictures of text.
  const textless = pages.length > 0 && characters < 3 * pages.length;
  const firstPage = final?.pages[0]?.ref;
  const pageObject = firstPage ? refText(firstPage) : null;
  // The finding is about every page read; it points at the first, where a reader sees it first.
  if (textless) signals.push(pdfSignal('no_text_layer', `The ${pages.length} page(s) read carry ${characters} characters of text: the pages are images, so text edits, overlaps and arithmetic cannot be checked.`, { page: 1, ...(pageObject ? { object: pageObject, byte_offset: anywhere(pageObject) } : {}) }));
  // An encrypted file that opens without a password (an owner password only restricts printing or copying)
  // still shows its text; only its strings and metadata stay unread here.
  if (layout.encrypted && characters > 0) shortfalls.push('the file is encrypted (it opens without a password): metadata, form values and drawing were not decrypted');
  const minimal = layout.encrypted && characters === 0 ? 'the file is encrypted' : textless ? 'the pages have no text layer' : pages.length === 0 && pageCount !== 0 ? 'no page text could be read' : null;
  const quality: InspectionQuality = minimal ? 'minimal' : shortfalls.length > 0 || unreadable.length > 0 ? 'partial' : 'full';
  return finish(signals, quality, minimal ?? (shortfalls.join('; ') || null), pageCount, layout.revisions.length || null, metadata, signatures);
}

function finish(signals: Signal[], quality: InspectionQuality, shortfall: string | null, pages: number | null, revisions: number | null, metadata: DocumentMetadata, signatures: SignatureAnalysis[]): PdfInspection {
  return { signals, quality, shortfall, pages, revisions, metadata, signatures };
}

/** Text of the changed pages before and after one update (pages that cannot be read in both are left out). */
async function changedPageTexts(bytes: Uint8Array, beforeEnd: number, afterEnd: number, pages: number[]): Promise<PageTextPair[]> {
  if (pages.length === 0) return [];
  try {
    const before = await revisionPageTexts(bytes.subarray(0, beforeEnd), pages);
    const after = await revisionPageTexts(bytes.subarray(0, afterEnd), pages);
    return pages.flatMap((page) => (before.has(page) && after.has(page) ? [{ page, before: before.get(page)!, after: after.get(page)! }] : []));
  } catch {
    return [];
  }
}

/** Byte offset of the last header of `object` ("N G R") between `from` and `to`. */
function objectOffsets(layout: PdfLayout): (object: string, from: number, to: number) => number | undefined {
  return (object, from, to) => {
    const key = object.replace(/\s+R$/, '');
    return layout.objectHeaders.get(key)?.filter((offset) => offset >= from && offset < to).at(-1);
  };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]!.slice(0, 160) : String(error);
}

/** Changes of one update that neither page, form, annotation, signature nor metadata rules explain (pyHanko's OTHER, pages aside: the page checks name those). */
function otherChanges(difference: RevisionDifference): ObjectChange[] {
  const pageRoles = new Set(['page', 'page_content', 'page_resources', 'page_tree']);
  return difference.changes.filter((change) => change.level === 'OTHER' && !pageRoles.has(change.what));
}
