import type { PageText } from '../../documents/types.ts';
import { measurePdfOnce } from '../../documents/guard.ts';
import { embeddedXmlFiles, openPdf, readPagesText, type EmbeddedFile } from '../../documents/pdf.ts';
import type { AnalysisContext } from '../types.ts';
import type { Signal } from './signal.ts';
import type { InspectionQuality } from './band.ts';
import { arithmeticSignals } from './arithmetic.ts';
import { activeContentSignals } from './pdf-active.ts';
import { drawingSignals, fontSubsetSignals, textOverTextSignals } from './pdf-content.ts';
import { latin1, scanLayout, type PdfLayout } from './pdf-layout.ts';
import { einvoiceSignals, embeddedFileStream, type EmbeddedPlace } from './pdf-einvoice.ts';
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

/** What the stages found so far: signals in the order they were raised, and why the reading fell short. */
interface Findings {
  signals: Signal[];
  shortfalls: string[];
}

type Offsets = (object: string, from: number, to: number) => number | undefined;
interface Locators {
  /** Where an object was last written anywhere in the file. */
  anywhere: (object: string) => number | undefined;
  /** Where an object was written in a given revision (its last header there), else anywhere in the file. */
  inRevision: (object: string, revision?: number) => number | undefined;
}
type SnapshotAt = (revision: number) => Snapshot | null;

/** Every PDF check over one file, each stage guarded so a failing stage lowers the quality instead of the whole result. */
export async function inspectPdf(bytes: Uint8Array, context: AnalysisContext): Promise<PdfInspection> {
  const layout = scanLayout(bytes);
  const text = latin1(bytes);
  const offsets = objectOffsets(layout);
  const found: Findings = { signals: [...structureSignals(bytes, layout)], shortfalls: [] };
  const { signals, shortfalls } = found;
  context.progress?.('structure');

  const inflation = await measurePdfOnce(bytes);
  if (inflation.refusal !== null) {
    signals.push(pdfSignal('stream_inflation_limit', `Reading stopped: ${inflation.refusal.reason}; the file's objects and text were not read further.`, { byte_offset: inflation.refusal.offset }));
    const parsed = layout.headerOffset >= 0;
    return finish(signals, parsed ? 'minimal' : 'failed', parsed ? 'a stream inflates past the limit' : 'no PDF header', null, layout.revisions.length || null, { producer: null, creator: null }, []);
  }

  const { states, unreadable, final } = await loadRevisions(bytes, layout, found);
  context.progress?.('revisions');

  const snapshotAt = snapshotCache(states);
  await compareUpdates(bytes, layout, states, snapshotAt, offsets, found);
  context.progress?.('updates');

  const locate = locators(layout, offsets, bytes.length);
  let signatures: SignatureAnalysis[] = [];
  if (final) signatures = finalObjectChecks(bytes, text, layout, final, snapshotAt, states.length, locate, found);
  else shortfalls.push('the object table could not be read');
  const metadata = readMetadata(text, layout.encrypted ? null : final, context.now, found);
  context.progress?.('objects');

  const read = await readPages(bytes, final?.pages.length ?? null);
  if (read.failure !== null) {
    if (!final) return finish(signals, 'failed', `the file could not be parsed as a PDF (${read.failure})`, null, layout.revisions.length || null, metadata, signatures);
    shortfalls.push(`the page text could not be read (${read.failure})`);
  }
  const { pages, pageCount } = read;
  if (pageCount !== null && pageCount > TEXT_PAGE_LIMIT) shortfalls.push(`only the first ${TEXT_PAGE_LIMIT} of ${pageCount} pages were read for text`);
  signals.push(...textOverTextSignals(pages), ...arithmeticSignals(pages));
  if (read.embedded.length > 0) signals.push(...einvoiceSignals(read.embedded, pages, embeddedPlace(final, locate.anywhere)));
  context.progress?.('text');

  const minimal = textLayerFindings(pages, pageCount, layout, final, locate.anywhere, found);
  const quality: InspectionQuality = minimal ? 'minimal' : shortfalls.length > 0 || unreadable.length > 0 ? 'partial' : 'full';
  return finish(signals, quality, minimal ?? (shortfalls.join('; ') || null), pageCount, layout.revisions.length || null, metadata, signatures);
}

/**
 * Each revision as it stood when saved (null where it could not be parsed), within the revision and parse-byte
 * limits, and the final state: the last revision when it covers the whole file, else the whole file parsed.
 */
async function loadRevisions(bytes: Uint8Array, layout: PdfLayout, found: Findings): Promise<{ states: (RevisionState | null)[]; unreadable: number[]; final: RevisionState | null }> {
  const states: (RevisionState | null)[] = [];
  let parsedBytes = 0;
  for (const revision of layout.revisions.slice(0, REVISION_LIMIT)) {
    parsedBytes += revision.end;
    if (parsedBytes > PARSE_BYTES_LIMIT && states.length > 0) break;
    states.push(await loadRevisionState(bytes.subarray(0, revision.end)).catch(() => null));
  }
  if (states.length < layout.revisions.length) found.shortfalls.push(`only the first ${states.length} of ${layout.revisions.length} revisions were compared`);
  const unreadable = states.flatMap((state, index) => (state ? [] : [index]));
  if (unreadable.length > 0) found.signals.push(pdfSignal('revision_unreadable', `Revision(s) ${unreadable.join(', ')} could not be parsed as saved, so what they changed is not known.`, { revision: unreadable[0] }));
  const lastEnd = layout.revisions.at(-1)?.end ?? 0;
  const coversFile = layout.revisions.length > 0 && states.length === layout.revisions.length && layout.trailingBytes === 0 && states.at(-1);
  const final = coversFile ? states.at(-1)! : await loadRevisionState(bytes).catch(() => null);
  if (!coversFile && lastEnd < bytes.length && layout.trailingBytes > 0) found.shortfalls.push('bytes after the last %%EOF were read as part of the file');
  return { states, unreadable, final };
}

/** Each revision's objects with the roles they play, computed once for the update and signature comparisons. */
function snapshotCache(states: (RevisionState | null)[]): SnapshotAt {
  const snapshots = new Map<number, Snapshot | null>();
  return (revision) => {
    if (!snapshots.has(revision)) {
      const state = states[revision];
      snapshots.set(revision, state ? snapshot(state) : null);
    }
    return snapshots.get(revision)!;
  };
}

/** What each update changed against the revision before it: pages, text, and the objects no rule explains. */
async function compareUpdates(bytes: Uint8Array, layout: PdfLayout, states: (RevisionState | null)[], snapshotAt: SnapshotAt, offsets: Offsets, found: Findings): Promise<void> {
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
      found.shortfalls.push(`revision ${index}'s objects could not be classified (${reason(error)})`);
    }
    const findings = updateFindings(change, revision, (object) => (object ? offsets(object, revision.start, revision.end) : undefined), texts, unexplained);
    found.signals.push(...findings.signals);
  }
}

/** The checks over the final state's objects (signatures, active content, fonts, drawing), each guarded on its own; returns the signatures read. */
function finalObjectChecks(bytes: Uint8Array, text: string, layout: PdfLayout, final: RevisionState, snapshotAt: SnapshotAt, revisionsRead: number, locate: Locators, found: Findings): SignatureAnalysis[] {
  const { anywhere, inRevision } = locate;
  let signatures: SignatureAnalysis[] = [];
  for (const stage of [
    () => {
      signatures = analyseSignatures(bytes, text, layout, final, snapshotAt, revisionsRead);
      return signatureSignals(signatures, bytes, layout, inRevision);
    },
    () => activeContentSignals(text, final, anywhere),
    () => fontSubsetSignals(final, anywhere),
    () => (layout.encrypted ? [] : drawingSignals(final)),
  ]) {
    try {
      found.signals.push(...stage());
    } catch (error) {
      found.shortfalls.push(`a check failed (${reason(error)})`);
    }
  }
  return signatures;
}

/** The metadata signals and the producer and creator, or empty metadata and a shortfall when it cannot be read. */
function readMetadata(text: string, state: RevisionState | null, now: string, found: Findings): DocumentMetadata {
  try {
    const read = metadataSignals(text, state, now);
    found.signals.push(...read.signals);
    return read.metadata;
  } catch (error) {
    found.shortfalls.push(`the metadata could not be read (${reason(error)})`);
    return { producer: null, creator: null };
  }
}

/**
 * The text of the first pages, the page count (the parser's, else `knownCount`) and the XML attachments (an
 * embedded e-invoice; pdfjs reads the attachment list in the same open, and a file without one costs nothing
 * more); `failure` says why the file could not be opened or read.
 */
async function readPages(bytes: Uint8Array, knownCount: number | null): Promise<{ pages: PageText[]; pageCount: number | null; embedded: EmbeddedFile[]; failure: string | null }> {
  let pages: PageText[] = [];
  let pageCount = knownCount;
  let embedded: EmbeddedFile[] = [];
  try {
    const pdf = await openPdf(bytes);
    try {
      pageCount = pdf.numPages;
      pages = await readPagesText(pdf, TEXT_PAGE_LIMIT);
      embedded = await embeddedXmlFiles(pdf).catch(() => []);
    } finally {
      await pdf.destroy();
    }
  } catch (error) {
    return { pages, pageCount, embedded, failure: reason(error) };
  }
  return { pages, pageCount, embedded, failure: null };
}

/** The embedded file's stream (its file specification's `/EF /F`) and where it was written, found by its name. */
function embeddedPlace(final: RevisionState | null, anywhere: (object: string) => number | undefined): EmbeddedPlace {
  return (filename) => {
    const stream = final ? embeddedFileStream(final, filename) : null;
    return stream ? { object: stream, byte_offset: anywhere(stream) } : {};
  };
}

/** Whether the pages read carry a text layer (a signal when not) and why the result is minimal, or null when it is not. */
function textLayerFindings(pages: PageText[], pageCount: number | null, layout: PdfLayout, final: RevisionState | null, anywhere: (object: string) => number | undefined, found: Findings): string | null {
  const characters = pages.reduce((sum, page) => sum + page.text.replace(/\s/g, '').length, 0);
  // Fewer than three characters a page: page numbers at most, the rest is pictures of text.
  const textless = pages.length > 0 && characters < 3 * pages.length;
  const firstPage = final?.pages[0]?.ref;
  const pageObject = firstPage ? refText(firstPage) : null;
  // The finding is about every page read; it points at the first, where a reader sees it first.
  if (textless) found.signals.push(pdfSignal('no_text_layer', `The ${pages.length} page(s) read carry ${characters} characters of text: the pages are images, so text edits, overlaps and arithmetic cannot be checked.`, { page: 1, ...(pageObject ? { object: pageObject, byte_offset: anywhere(pageObject) } : {}) }));
  // An encrypted file that opens without a password (an owner password only restricts printing or copying)
  // still shows its text; only its strings and metadata stay unread here.
  if (layout.encrypted && characters > 0) found.shortfalls.push('the file is encrypted (it opens without a password): metadata, form values and drawing were not decrypted');
  return layout.encrypted && characters === 0 ? 'the file is encrypted' : textless ? 'the pages have no text layer' : pages.length === 0 && pageCount !== 0 ? 'no page text could be read' : null;
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

function locators(layout: PdfLayout, offsets: Offsets, fileLength: number): Locators {
  const anywhere = (object: string): number | undefined => offsets(object, 0, fileLength);
  return {
    anywhere,
    inRevision: (object, revision) => {
      const section = revision === undefined ? undefined : layout.revisions[revision];
      return (section ? offsets(object, 0, section.end) : undefined) ?? anywhere(object);
    },
  };
}

/** Byte offset of the last header of `object` ("N G R") between `from` and `to`. */
function objectOffsets(layout: PdfLayout): Offsets {
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
