import type { Signal } from './signal.ts';
import type { RevisionLayout } from './pdf-layout.ts';
import type { RevisionChange } from './pdf-revisions.ts';
import type { ObjectChange } from './pdf-modification-level.ts';
import { roleWords } from './pdf-object-roles.ts';
import { pdfSignal, quote } from './pdf-signals.ts';
import { diffWords, type TextDiff } from './pdf-text-diff.ts';

/** What an update changed, in the words a person reads and the categories the band rule weighs. */
export type ChangeKind = 'page_text' | 'page_content' | 'page_count' | 'form_values' | 'annotations' | 'signatures' | 'security_store' | 'info' | 'metadata_stream' | 'other_objects';

export interface UpdateFindings {
  revision: number;
  kinds: ChangeKind[];
  signals: Signal[];
}

/** Text of a changed page before and after the update, when both could be read. */
export interface PageTextPair {
  page: number;
  before: string;
  after: string;
}

const overlayAnnotations = new Set(['FreeText', 'Square', 'Stamp', 'Redact', 'Ink', 'Polygon']);

/**
 * Signals for one incremental update and the kinds of change it made. `unexplained` are the objects it
 * changed that no page, form, annotation, signature or metadata rule explains: they are "other objects"
 * whatever else the update did, so an update that signs and rewrites other objects says both.
 */
export function updateFindings(change: RevisionChange, layout: RevisionLayout, objectOffset: (object: string | null) => number | undefined, texts: PageTextPair[], unexplained: ObjectChange[] = []): UpdateFindings {
  const signals: Signal[] = [];
  const kinds = new Set<ChangeKind>();
  const at = { revision: change.revision };

  const textByPage = new Map(texts.map((pair) => [pair.page, diffWords(pair.before, pair.after)]));
  for (const page of change.pagesChanged) {
    const diff = textByPage.get(page.page);
    const where = { ...at, page: page.page, object: page.object ?? undefined, byte_offset: objectOffset(page.object) ?? layout.start };
    if (diff && (diff.removed.length > 0 || diff.added.length > 0)) {
      kinds.add('page_text');
      signals.push(pdfSignal('page_text_changed', `Revision ${change.revision} changed the text of page ${page.page}: ${describeDiff(diff)}.`, where));
    } else {
      kinds.add('page_content');
      const why = diff ? 'its text reads the same, so something drawn (a shape, an image or a text position) changed' : 'the text of both versions could not be compared';
      signals.push(pdfSignal('page_content_changed', `Revision ${change.revision} redefined what page ${page.page} draws; ${why}.`, where));
    }
  }
  if (change.pageCount.before !== change.pageCount.after) {
    kinds.add('page_count');
    signals.push(pdfSignal('page_count_changed', `Revision ${change.revision} changed the page count from ${change.pageCount.before} to ${change.pageCount.after}.`, { ...at, byte_offset: layout.start }));
  }
  for (const value of change.formValues.slice(0, 20)) {
    kinds.add('form_values');
    const before = value.before === null ? 'empty' : quote(value.before, 40);
    const after = value.after === null ? 'empty' : quote(value.after, 40);
    signals.push(pdfSignal('form_value_changed', `Revision ${change.revision} set form field "${value.field}" from ${before} to ${after}.`, { ...at, field: value.field, object: value.object ?? undefined, byte_offset: objectOffset(value.object) }));
  }
  const addedByPage = new Map<number, RevisionChange['annotationsAdded']>();
  for (const annotation of change.annotationsAdded) addedByPage.set(annotation.page, [...(addedByPage.get(annotation.page) ?? []), annotation]);
  for (const [page, annotations] of addedByPage) {
    kinds.add('annotations');
    const subtypes = [...new Set(annotations.map((annotation) => annotation.subtype))];
    const overlays = subtypes.filter((subtype) => overlayAnnotations.has(subtype));
    const note = overlays.length > 0 ? `; ${overlays.join(', ')} annotations draw on top of the page and can hide what is under them` : '';
    signals.push(
      pdfSignal('annotation_added', `Revision ${change.revision} added ${annotations.length} annotation(s) (${subtypes.join(', ')}) to page ${page}${note}.`, { ...at, page, object: annotations[0]!.object ?? undefined, byte_offset: objectOffset(annotations[0]!.object) }, overlays.length > 0 ? 'medium' : 'low'),
    );
  }
  if (change.signaturesAdded.length > 0) kinds.add('signatures');
  if (change.securityStoreChanged) kinds.add('security_store');
  if (change.metadataStreamChanged) kinds.add('metadata_stream');
  if (change.infoChanges.length > 0) {
    kinds.add('info');
    const keys = change.infoChanges.map((item) => `${item.key} ${item.before === null ? '(none)' : quote(item.before, 40)} → ${item.after === null ? '(none)' : quote(item.after, 40)}`);
    signals.push(pdfSignal('info_changed', `Revision ${change.revision} changed the document information: ${keys.slice(0, 6).join('; ')}.`, { ...at, byte_offset: layout.start }));
  }
  if (unexplained.length > 0) kinds.add('other_objects');

  const other = unexplained.slice(0, 5).map((item) => `${item.object} (${item.what === 'unused' ? 'unused object' : roleWords[item.what]})`);
  const described = kinds.size === 0 ? 'nothing a reader shows' : [...kinds].map((kind) => (kind === 'other_objects' ? `other objects: ${other.join(', ')}${unexplained.length > 5 ? ` and ${unexplained.length - 5} more` : ''}` : changeWords[kind])).join(', ');
  signals.unshift(
    pdfSignal('incremental_update', `Revision ${change.revision} (bytes ${layout.start}–${layout.end}) was appended to the file: ${change.newObjects} new and ${change.redefinedObjects} redefined objects; it changed ${described}.`, { ...at, byte_offset: layout.start }),
  );
  return { revision: change.revision, kinds: [...kinds], signals };
}

export const changeWords: Record<ChangeKind, string> = {
  page_text: 'page text',
  page_content: 'page drawing',
  page_count: 'the page count',
  form_values: 'form values',
  annotations: 'annotations',
  signatures: 'signatures',
  security_store: 'signature validation data',
  info: 'document information',
  metadata_stream: 'XMP metadata',
  other_objects: 'other objects',
};

function describeDiff(diff: TextDiff): string {
  const part = (label: string, words: string[]): string | null => (words.length === 0 ? null : `${label} ${quote(words.slice(0, 12).join(' '), 60)}${words.length > 12 ? ` (+${words.length - 12} words)` : ''}`);
  return [part('removed', diff.removed), part('added', diff.added)].filter(Boolean).join(', ');
}
