import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import { asArray, asDict, lookup, nameOf, pageContent, textOf, type RevisionState } from './pdf-objects.ts';

/** What one incremental update changed, compared with the revision before it. */
export interface RevisionChange {
  /** Index of the later revision. */
  revision: number;
  newObjects: number;
  redefinedObjects: number;
  /** Pages (1-based, numbered in the later revision) whose content streams or drawn objects changed. */
  pagesChanged: { page: number; object: string | null }[];
  pageCount: { before: number; after: number };
  formValues: { field: string; before: string | null; after: string | null; object: string | null }[];
  annotationsAdded: { page: number; subtype: string; object: string | null }[];
  signaturesAdded: { field: string; object: string | null }[];
  infoChanges: { key: string; before: string | null; after: string | null }[];
  metadataStreamChanged: boolean;
  securityStoreChanged: boolean;
}

/** Objects compared per revision (beyond, the comparison stops and the caller says so). */
export const OBJECT_LIMIT = 200_000;

export function compareRevisions(before: RevisionState, after: RevisionState, revision: number): RevisionChange {
  let newObjects = 0;
  let redefinedObjects = 0;
  for (const [ref, object] of after.context.enumerateIndirectObjects().slice(0, OBJECT_LIMIT)) {
    const previous = before.context.lookup(ref);
    if (previous === undefined) newObjects += 1;
    else if (!sameObject(previous, object)) redefinedObjects += 1;
  }
  return {
    revision,
    newObjects,
    redefinedObjects,
    pagesChanged: changedPages(before, after),
    pageCount: { before: before.pages.length, after: after.pages.length },
    formValues: changedFormValues(before, after),
    annotationsAdded: addedAnnotations(before, after),
    signaturesAdded: addedSignatures(before, after),
    infoChanges: changedInfo(before, after),
    metadataStreamChanged: !sameResolved(lookup(before.context, before.root, 'Metadata'), lookup(after.context, after.root, 'Metadata')),
    securityStoreChanged: !sameResolved(lookup(before.context, before.root, 'DSS'), lookup(after.context, after.root, 'DSS')),
  };
}

function sameObject(a: PDFObject, b: PDFObject): boolean {
  if (a instanceof PDFRawStream && b instanceof PDFRawStream) return a.dict.toString() === b.dict.toString() && Buffer.from(a.contents).equals(Buffer.from(b.contents));
  if (a instanceof PDFRawStream || b instanceof PDFRawStream) return false;
  return a.toString() === b.toString();
}

function sameResolved(a: PDFObject | undefined, b: PDFObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameObject(a, b);
}

/** Pages whose drawn content differs: their content streams, or a form XObject they draw, changed. */
function changedPages(before: RevisionState, after: RevisionState): RevisionChange['pagesChanged'] {
  const changed: RevisionChange['pagesChanged'] = [];
  const count = Math.min(before.pages.length, after.pages.length);
  for (let index = 0; index < count; index++) {
    const old = before.pages[index]!;
    const now = after.pages[index]!;
    const contentChanged = !Buffer.from(pageContent(before.context, old.dict)).equals(Buffer.from(pageContent(after.context, now.dict)));
    if (contentChanged || !sameXObjects(before.context, old.dict, after.context, now.dict)) {
      const contents = now.dict.get(PDFName.of('Contents'));
      changed.push({ page: now.number, object: contents instanceof PDFRef ? refText(contents) : now.ref ? refText(now.ref) : null });
    }
  }
  return changed;
}

function sameXObjects(contextA: PDFContext, pageA: PDFDict, contextB: PDFContext, pageB: PDFDict): boolean {
  const xobjectsA = asDict(lookup(contextA, asDict(lookup(contextA, pageA, 'Resources')), 'XObject'));
  const xobjectsB = asDict(lookup(contextB, asDict(lookup(contextB, pageB, 'Resources')), 'XObject'));
  if (!xobjectsA || !xobjectsB) return !xobjectsA === !xobjectsB;
  const keysA = xobjectsA.keys().map((key) => key.decodeText()).sort();
  const keysB = xobjectsB.keys().map((key) => key.decodeText()).sort();
  if (keysA.join('/') !== keysB.join('/')) return false;
  return keysA.every((key) => {
    const a = lookup(contextA, xobjectsA, key);
    const b = lookup(contextB, xobjectsB, key);
    return a !== undefined && b !== undefined && sameObject(a, b);
  });
}

interface FieldEntry {
  name: string;
  dict: PDFDict;
  ref: PDFRef | null;
}

/** Terminal form fields by fully qualified name (parents' /T joined with dots), walking /Kids with a visited set. */
export function formFields(state: RevisionState, limit = 5000): FieldEntry[] {
  const { context } = state;
  const fields: FieldEntry[] = [];
  const seen = new Set<string>();
  const walk = (node: PDFObject | undefined, prefix: string, depth: number): void => {
    if (fields.length >= limit || depth > 32) return;
    const ref = node instanceof PDFRef ? node : null;
    if (ref) {
      if (seen.has(refText(ref))) return;
      seen.add(refText(ref));
    }
    const dict = asDict(context.lookup(node));
    if (!dict) return;
    const partial = textOf(context, dict.get(PDFName.of('T')));
    const name = partial === null ? prefix : prefix === '' ? partial : `${prefix}.${partial}`;
    const kids = asArray(lookup(context, dict, 'Kids'));
    const namedKids = kids ? kidsOf(kids).filter((kid) => asDict(context.lookup(kid))?.has(PDFName.of('T'))) : [];
    if (kids && namedKids.length > 0) {
      for (const kid of namedKids) walk(kid, name, depth + 1);
    } else if (name !== '') {
      fields.push({ name, dict, ref });
    }
  };
  const acroForm = asDict(lookup(context, state.root, 'AcroForm'));
  const roots = asArray(lookup(context, acroForm, 'Fields'));
  if (roots) for (const kid of kidsOf(roots)) walk(kid, '', 0);
  return fields;
}

function kidsOf(array: PDFArray): PDFObject[] {
  return Array.from({ length: Math.min(array.size(), 5000) }, (_, index) => array.get(index));
}

/** A field's value as text (a signature value is its dictionary's reference). */
function fieldValue(context: PDFContext, dict: PDFDict): string | null {
  const raw = dict.get(PDFName.of('V'));
  if (raw === undefined) return null;
  const text = textOf(context, raw);
  if (text !== null) return text;
  const resolved = context.lookup(raw);
  if (resolved instanceof PDFArray) return kidsOf(resolved).map((item) => textOf(context, item) ?? '').join(', ');
  return raw instanceof PDFRef ? refText(raw) : raw.toString();
}

function changedFormValues(before: RevisionState, after: RevisionState): RevisionChange['formValues'] {
  const old = new Map(formFields(before).map((field) => [field.name, fieldValue(before.context, field.dict)]));
  const changes: RevisionChange['formValues'] = [];
  for (const field of formFields(after)) {
    if (nameOf(after.context, field.dict.get(PDFName.of('FT'))) === 'Sig') continue;
    const value = fieldValue(after.context, field.dict);
    const previous = old.get(field.name) ?? null;
    if (value !== previous) changes.push({ field: field.name, before: previous, after: value, object: field.ref ? refText(field.ref) : null });
  }
  return changes;
}

function addedSignatures(before: RevisionState, after: RevisionState): RevisionChange['signaturesAdded'] {
  const signed = new Set(formFields(before).filter((field) => field.dict.has(PDFName.of('V'))).map((field) => field.name));
  return formFields(after)
    .filter((field) => nameOf(after.context, field.dict.get(PDFName.of('FT'))) === 'Sig' && field.dict.has(PDFName.of('V')) && !signed.has(field.name))
    .map((field) => {
      const value = field.dict.get(PDFName.of('V'));
      return { field: field.name, object: value instanceof PDFRef ? refText(value) : field.ref ? refText(field.ref) : null };
    });
}

function addedAnnotations(before: RevisionState, after: RevisionState): RevisionChange['annotationsAdded'] {
  const added: RevisionChange['annotationsAdded'] = [];
  const count = Math.min(before.pages.length, after.pages.length);
  for (let index = 0; index < count; index++) {
    const old = new Set(annotationKeys(before.context, before.pages[index]!.dict));
    const annots = asArray(lookup(after.context, after.pages[index]!.dict, 'Annots'));
    if (!annots) continue;
    for (const item of kidsOf(annots)) {
      if (old.has(annotationKey(item))) continue;
      const subtype = nameOf(after.context, asDict(after.context.lookup(item))?.get(PDFName.of('Subtype'))) ?? 'unknown';
      added.push({ page: index + 1, subtype, object: item instanceof PDFRef ? refText(item) : null });
    }
  }
  return added;
}

function annotationKeys(context: PDFContext, page: PDFDict): string[] {
  const annots = asArray(lookup(context, page, 'Annots'));
  return annots ? kidsOf(annots).map(annotationKey) : [];
}

function annotationKey(item: PDFObject): string {
  return item instanceof PDFRef ? refText(item) : item.toString();
}

function changedInfo(before: RevisionState, after: RevisionState): RevisionChange['infoChanges'] {
  const keys = new Set([...(before.info?.keys() ?? []), ...(after.info?.keys() ?? [])].map((key) => key.decodeText()));
  const changes: RevisionChange['infoChanges'] = [];
  for (const key of [...keys].sort()) {
    const old = textOf(before.context, lookup(before.context, before.info, key));
    const now = textOf(after.context, lookup(after.context, after.info, key));
    if (old !== now) changes.push({ key, before: old, after: now });
  }
  return changes;
}

export function refText(ref: PDFRef): string {
  return `${ref.objectNumber} ${ref.generationNumber} R`;
}

/** The reference a `refText` names. */
export function refFromText(text: string): PDFRef {
  const [number, generation] = text.split(' ').map(Number);
  return PDFRef.of(number!, generation!);
}
