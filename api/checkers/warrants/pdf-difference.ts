import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import { contentEvents } from './pdf-content-stream.ts';
import { asArray, asDict, differingKeys, nameOf, numbersOf, sameValue, streamBytes, type RevisionState } from './pdf-objects.ts';
import { objectRoles, roleWords, type ObjectRole, type ObjectRoles } from './pdf-object-roles.ts';
import { refText } from './pdf-revisions.ts';

/**
 * Difference analysis after signing, following pyHanko's (sign/diff_analysis, DEFAULT_DIFF_POLICY): every
 * object a later revision adds, rewrites or stops using is compared with the signed revision and cleared at
 * the lowest ModificationLevel whose rules explain it; what no rule explains is OTHER. Written here for
 * pdf-lib's object tables (pyHanko is Python). Two rules follow the validators this corpus is checked against
 * (DSS and iText) where pyHanko's default policy is stricter: annotations added, changed or removed are
 * ANNOTATIONS (pyHanko's default rejects them), and a tagged file's structure tree may gain elements and
 * parent-tree entries for what was added.
 */
export const modificationLevels = ['NONE', 'LTA_UPDATES', 'FORM_FILLING', 'ANNOTATIONS', 'OTHER'] as const;
export type ModificationLevel = (typeof modificationLevels)[number];

export function levelRank(level: ModificationLevel): number {
  return modificationLevels.indexOf(level);
}

export function maxLevel(a: ModificationLevel, b: ModificationLevel): ModificationLevel {
  return levelRank(a) >= levelRank(b) ? a : b;
}

export interface ObjectChange {
  object: string;
  change: 'added' | 'changed' | 'removed';
  /** What the object is, by where the document uses it ('unused' for objects nothing refers to). */
  what: ObjectRole | 'unused';
  level: ModificationLevel;
  /** Why it was cleared at that level, in words. */
  reason: string;
  field?: string;
  page?: number;
}

export interface RevisionDifference {
  revision: number;
  level: ModificationLevel;
  changes: ObjectChange[];
  /** Fields whose value, appearance or widgets changed (what a FieldMDP lock forbids). */
  changedFields: Set<string>;
}

/** One revision's object table with the roles of its objects (computed once, shared by every comparison). */
export interface Snapshot {
  state: RevisionState;
  roles: ObjectRoles;
}

export function snapshot(state: RevisionState): Snapshot {
  return { state, roles: objectRoles(state) };
}

/**
 * Catalog keys other rules judge or that may change freely: pyHanko's ROOT_EXEMPT_STRICT_COMPARISON, with
 * /PieceInfo (applications' private data, which no reader draws from and Acrobat updates on every save; the
 * DSS validator accepts it too).
 */
const rootExempt = new Set(['AcroForm', 'DSS', 'Extensions', 'Metadata', 'MarkInfo', 'Version', 'PieceInfo']);
/** AcroForm keys that may change (pyHanko's ACROFORM_EXEMPT_STRICT_COMPARISON, with /SigFlags, which signing sets). */
const acroFormExempt = new Set(['Fields', 'DR', 'DA', 'Q', 'NeedAppearances', 'SigFlags']);
/**
 * Field keys that filling in a field may change: pyHanko's VALUE_UPDATE_KEYS, with a choice field's selected
 * indices (/I) and the default value (/DV, what a reset restores), which the DSS validator counts as form filling.
 */
const valueKeys = new Set(['Ff', 'Type', 'AP', 'AS', 'V', 'F', 'DA', 'Q', 'I', 'DV']);
/** Entries of a page tree node (ISO 32000-1 Table 29, with the inheritable page attributes); a reader draws from no other. */
const pageTreeKeys = new Set(['Type', 'Parent', 'Kids', 'Count', 'Resources', 'MediaBox', 'CropBox', 'Rotate']);
/** Field keys a locked or signed field may still change (pyHanko's FORMFIELD_ALWAYS_MODIFIABLE). */
const alwaysModifiable = new Set(['Ff', 'Type']);
const dssKeys = new Set(['Type', 'VRI', 'Certs', 'CRLs', 'OCSPs']);

/** Objects compared per revision at most, a bound on hostile files (real files stay far below). */
export const DIFFERENCE_OBJECT_LIMIT = 200_000;

/**
 * Compares revision `later` (whose predecessor is `previous`) with the signed revision `base`: the objects
 * `later` wrote that differ from what was signed, and the objects the signed revision used that `later` no
 * longer uses.
 */
export function compareWithSigned(base: Snapshot, previous: Snapshot, later: Snapshot, revision: number): RevisionDifference {
  const judge = new Judge(base, later);
  const changes: ObjectChange[] = [];
  const written = new Set<string>();
  for (const [ref, object] of later.state.context.enumerateIndirectObjects().slice(0, DIFFERENCE_OBJECT_LIMIT)) {
    const before = previous.state.context.lookup(ref);
    if (before !== undefined && sameValue(before, object)) continue;
    const key = refText(ref);
    written.add(key);
    // A signature dictionary is written once, in the revision it signs; rewriting it later falsifies its signed entries, whichever signature is being judged.
    if (asDict(before)?.has(PDFName.of('ByteRange'))) {
      changes.push({ object: key, change: 'changed', what: 'signature_value', level: 'OTHER', reason: 'a signature dictionary was rewritten after it was signed (its signed entries no longer match)' });
      continue;
    }
    const signed = base.state.context.lookup(ref);
    if (signed !== undefined && sameValue(signed, object)) continue;
    changes.push(judge.object(key, signed, object));
  }
  for (const [key, roles] of base.roles.roles) {
    if (written.has(key) || later.roles.roles.has(key)) continue;
    changes.push(judge.removed(key, roles));
  }
  changes.push(...judge.fieldChanges());
  // One entry per object: the strictest judgement of it.
  const byObject = new Map<string, ObjectChange>();
  for (const change of changes) {
    const known = byObject.get(change.object);
    if (!known || levelRank(change.level) > levelRank(known.level)) byObject.set(change.object, change);
  }
  let level: ModificationLevel = 'LTA_UPDATES';
  for (const change of byObject.values()) level = maxLevel(level, change.level);
  return { revision, level, changes: [...byObject.values()], changedFields: judge.changedFields() };
}

interface Verdict {
  level: ModificationLevel;
  reason: string;
  what?: ObjectRole;
}

/** The rules, for one signed revision and one later revision. */
class Judge {
  readonly base: Snapshot;
  readonly later: Snapshot;

  constructor(base: Snapshot, later: Snapshot) {
    this.base = base;
    this.later = later;
  }

  object(key: string, signed: PDFObject | undefined, now: PDFObject): ObjectChange {
    const change: ObjectChange['change'] = signed === undefined ? 'added' : 'changed';
    const roles = new Set<ObjectRole>([...(this.later.roles.roles.get(key) ?? []), ...(signed === undefined ? [] : (this.base.roles.roles.get(key) ?? []))]);
    const located = this.locate(key);
    if (roles.size === 0) {
      return signed === undefined
        ? { object: key, change, what: 'unused', level: 'LTA_UPDATES', reason: 'a new object nothing in the document uses', ...located }
        : { object: key, change, what: 'unused', level: 'OTHER', reason: 'an object of the signed revision that nothing uses now was rewritten', ...located };
    }
    let best: Verdict & { what: ObjectRole } = { level: 'NONE', reason: '', what: [...roles][0]! };
    for (const role of roles) {
      const verdict = this.rule(role, key, signed, now);
      if (levelRank(verdict.level) > levelRank(best.level) || best.reason === '') best = { ...verdict, what: verdict.what ?? role };
    }
    return { object: key, change, what: best.what, level: best.level, reason: best.reason, ...located };
  }

  removed(key: string, roles: Set<ObjectRole>): ObjectChange {
    const role = [...roles][0]!;
    const located = this.locate(key);
    // Replaced containers and appearances: the object that now replaces them carries the judgement.
    const replaced: ObjectRole[] = ['catalog', 'info', 'metadata', 'dss', 'extensions', 'acroform', 'form_resources', 'field_appearance', 'signature_appearance'];
    if (this.base.roles.annotsOwner.has(key) || this.base.roles.parentTree.has(key) || [...roles].every((item) => replaced.includes(item))) {
      return { object: key, change: 'removed', what: role, level: 'LTA_UPDATES', reason: `the signed revision's ${roleWords[role]} object was replaced by a new one`, ...located };
    }
    if ([...roles].every((item) => item === 'annotation' || item === 'annotation_appearance')) {
      return { object: key, change: 'removed', what: role, level: 'ANNOTATIONS', reason: 'an annotation of the signed revision was removed', ...located };
    }
    if ([...roles].every((item) => item === 'field' || item === 'signature_field')) {
      const field = this.base.roles.fieldOfObject.get(key) ?? '?';
      const signed = this.base.state.context.lookup(parseRef(key));
      if (!this.baseFieldObjects().has(key)) {
        if (nameOf(this.base.state.context, asDict(signed)?.get(PDFName.of('Subtype'))) === 'Widget') return { object: key, change: 'removed', what: role, level: 'ANNOTATIONS', reason: `a widget of form field "${field}" was removed`, ...located };
        if (signed instanceof PDFArray) return { object: key, change: 'removed', what: role, level: 'ANNOTATIONS', reason: `the widget list of form field "${field}" was replaced`, ...located };
        return { object: key, change: 'removed', what: role, level: 'FORM_FILLING', reason: `a value or setting object of form field "${field}" was replaced`, ...located };
      }
    }
    return { object: key, change: 'removed', what: role, level: 'OTHER', reason: `the signed revision's ${roleWords[role]} is no longer used`, ...located };
  }

  private fieldObjects: Set<string> | null = null;

  /** Objects that are named fields in the signed revision. */
  private baseFieldObjects(): Set<string> {
    this.fieldObjects ??= new Set([...this.base.roles.fields.values()].map((entry) => refText(entry.ref)));
    return this.fieldObjects;
  }

  /** Fields removed, added or retyped (pyHanko's SigFieldCreationRule and form listing). */
  fieldChanges(): ObjectChange[] {
    const changes: ObjectChange[] = [];
    for (const [name, field] of this.base.roles.fields) {
      const now = this.later.roles.fields.get(name);
      if (!now) changes.push({ object: refText(field.ref), change: 'removed', what: field.type === 'Sig' ? 'signature_field' : 'field', level: 'OTHER', reason: `form field "${name}" was removed after signing`, field: name });
      else if (now.type !== field.type) changes.push({ object: refText(now.ref), change: 'changed', what: 'field', level: 'OTHER', reason: `form field "${name}" changed type from ${field.type ?? 'none'} to ${now.type ?? 'none'}`, field: name });
    }
    for (const [name, field] of this.later.roles.fields) {
      if (this.base.roles.fields.has(name) || field.type === 'Sig') continue;
      if (field.children.length > 0 && field.widgets.length === 0) continue;
      changes.push({ object: refText(field.ref), change: 'added', what: 'field', level: 'OTHER', reason: `form field "${name}" was added after signing (only signature fields may be)`, field: name });
    }
    return changes;
  }

  private changed: Set<string> | null = null;

  /** Fields a FieldMDP lock would forbid changing: value, appearance or widgets changed, or a signature added to them. */
  changedFields(): Set<string> {
    if (this.changed) return this.changed;
    const changed = new Set<string>();
    this.changed = changed;
    const context = this.later.state.context;
    const baseContext = this.base.state.context;
    const appearancesOf = new Map<string, string[]>();
    for (const [object, owner] of this.later.roles.appearanceOwner) {
      const list = appearancesOf.get(owner);
      if (list) list.push(object);
      else appearancesOf.set(owner, [object]);
    }
    for (const [name, field] of this.later.roles.fields) {
      const signed = this.base.roles.fields.get(name);
      if (!signed) {
        if (field.type === 'Sig' && this.visible(name) && !this.timestamped(name)) changed.add(name);
        continue;
      }
      if (this.timestamped(name) && this.newlySigned(name)) continue;
      const objects = [field.ref, ...field.widgets];
      const differs = objects.some((ref) => {
        const before = asDict(baseContext.lookup(ref));
        const after = asDict(context.lookup(ref));
        return !before || !after || differingKeys(before, after, alwaysModifiable).length > 0;
      });
      if (differs || (appearancesOf.get(name) ?? []).some((object) => this.rewritten(object))) changed.add(name);
    }
    return changed;
  }

  private rewritten(key: string): boolean {
    const ref = parseRef(key);
    const before = this.base.state.context.lookup(ref);
    return before !== undefined && !sameValue(before, this.later.state.context.lookup(ref));
  }

  private locate(key: string): { field?: string; page?: number } {
    const field = this.later.roles.fieldOfObject.get(key) ?? this.base.roles.fieldOfObject.get(key);
    const page = (this.later.roles.pages.get(key) ?? this.base.roles.pages.get(key))?.number;
    return { ...(field ? { field } : {}), ...(page ? { page } : {}) };
  }

  private rule(role: ObjectRole, key: string, signed: PDFObject | undefined, now: PDFObject): Verdict {
    const added = signed === undefined;
    const before = asDict(signed);
    const after = asDict(now);
    switch (role) {
      case 'catalog':
        return this.catalog();
      case 'info':
        return now instanceof PDFRawStream ? { level: 'OTHER', reason: 'the document information became a stream' } : { level: 'LTA_UPDATES', reason: 'document information updated' };
      case 'metadata':
        return now instanceof PDFRawStream ? { level: 'LTA_UPDATES', reason: 'XMP metadata updated' } : { level: 'OTHER', reason: '/Metadata is not a stream' };
      case 'extensions':
        return { level: 'LTA_UPDATES', reason: 'catalog extensions or version updated' };
      case 'dss':
        return this.dss(key, signed, now);
      case 'acroform':
        return this.acroForm(after);
      case 'form_resources':
        // Default resources only serve field appearances: with no field filled in they change nothing shown.
        return this.changedFields().size > 0 ? { level: 'FORM_FILLING', reason: 'form default resources (fonts for filled-in fields) updated' } : { level: 'LTA_UPDATES', reason: 'fonts added to the form default resources, used by no changed field' };
      case 'field':
        return this.field(key, before, now);
      case 'field_appearance': {
        const owner = this.later.roles.appearanceOwner.get(key) ?? this.base.roles.appearanceOwner.get(key);
        if (added) return { level: 'FORM_FILLING', reason: `new appearance for form field "${owner ?? '?'}"` };
        if (owner && this.valueChanged(owner)) return { level: 'FORM_FILLING', reason: `appearance of form field "${owner}" redrawn with its new value` };
        const was = signed instanceof PDFRawStream ? streamText(this.base.state.context, signed) : null;
        const shows = now instanceof PDFRawStream ? streamText(this.later.state.context, now) : null;
        if (!(signed instanceof PDFRawStream) || (was !== null && was === shows)) return { level: 'FORM_FILLING', reason: `appearance of form field "${owner ?? '?'}" redrawn, showing the same text` };
        return { level: 'OTHER', reason: `an appearance stream of form field "${owner ?? '?'}" was rewritten in place${was !== null && shows !== null ? ` to show ${JSON.stringify(shows.slice(0, 60))} instead of ${JSON.stringify(was.slice(0, 60))}` : ''} while the field's value stayed the same` };
      }
      case 'signature_field':
        return this.signatureField(key, before, after, now);
      case 'signature_value':
        return this.signatureValue(key, added, now);
      case 'signature_appearance': {
        const owner = this.later.roles.appearanceOwner.get(key);
        // An invisible field's appearance is never shown; a timestamp's is part of adding it.
        if (owner && (!this.visible(owner) || this.timestamped(owner)) && (added || this.newlySigned(owner))) return { level: 'LTA_UPDATES', reason: `appearance of ${this.timestamped(owner) ? 'the document timestamp in' : 'invisible'} signature field "${owner}"` };
        if (added || (owner && this.newlySigned(owner))) return { level: 'FORM_FILLING', reason: `appearance of signature field "${owner ?? '?'}"` };
        return { level: 'OTHER', reason: `the appearance of signature field "${owner ?? '?'}", signed before, was rewritten` };
      }
      case 'page':
        return this.page(key, before, after);
      case 'annotation': {
        const owner = this.later.roles.annotsOwner.get(key) ?? this.base.roles.annotsOwner.get(key);
        if (owner && now instanceof PDFArray) return this.annotations(owner);
        return { level: 'ANNOTATIONS', reason: added ? 'annotation added' : 'annotation changed' };
      }
      case 'annotation_appearance':
        return { level: 'ANNOTATIONS', reason: added ? 'appearance of an annotation added' : 'appearance stream of an annotation (not a form field) rewritten' };
      case 'structure_tree':
        return this.structure(key, signed, now);
      case 'page_tree': {
        const keys = before && after ? differingKeys(before, after) : [];
        if (keys.length > 0 && keys.every((item) => !pageTreeKeys.has(item))) return { level: 'LTA_UPDATES', reason: `page tree node: private entries ${keys.map((item) => `/${item}`).join(', ')} changed (no reader draws from them)` };
        return { level: 'OTHER', reason: 'the page tree changed: pages added, removed or reordered' };
      }
      case 'page_content':
        return { level: 'OTHER', reason: added ? 'new page content' : 'a page content stream was rewritten' };
      case 'page_resources':
        return { level: 'OTHER', reason: added ? 'new page resources (fonts, images, forms a page draws)' : 'page resources (a font, image or form a page draws) rewritten' };
      case 'outline':
        return { level: 'OTHER', reason: 'outlines (bookmarks) changed' };
      case 'document_permissions':
        return { level: 'OTHER', reason: 'the document permissions (/Perms, DocMDP) changed' };
      case 'encryption':
        return { level: 'OTHER', reason: 'the encryption dictionary changed' };
      case 'catalog_entry': {
        const names = this.later.state.root?.get(PDFName.of('Names'));
        if (names instanceof PDFRef && refText(names) === key && this.namesOnlyAppearances()) return { level: 'ANNOTATIONS', reason: 'the names dictionary gained named annotation appearances (/AP)' };
        return { level: 'OTHER', reason: 'a catalog entry (names, actions, optional content or viewer settings) changed' };
      }
    }
  }

  private catalog(): Verdict {
    const before = this.base.state.root;
    const after = this.later.state.root;
    if (!before || !after) return { level: 'OTHER', reason: 'the catalog is missing' };
    const keys = differingKeys(before, after, rootExempt).filter((key) => key !== 'Names' || !this.namesOnlyAppearances());
    if (keys.length > 0) return { level: 'OTHER', reason: `catalog entries ${keys.map((key) => `/${key}`).join(', ')} changed`, what: keys.includes('Perms') ? 'document_permissions' : 'catalog_entry' };
    const formBefore = before.get(PDFName.of('AcroForm'));
    const formAfter = after.get(PDFName.of('AcroForm'));
    if (formBefore instanceof PDFDict || formAfter instanceof PDFDict) {
      const verdict = this.acroForm(asDict(this.later.state.context.lookup(formAfter)));
      if (verdict.level === 'OTHER') return verdict;
    }
    const dssAfter = after.get(PDFName.of('DSS'));
    if (dssAfter instanceof PDFDict) {
      const verdict = this.dssDict(dssAfter);
      if (verdict.level === 'OTHER') return verdict;
    }
    if (!sameValue(before.get(PDFName.of('Names')), after.get(PDFName.of('Names')))) return { level: 'ANNOTATIONS', reason: 'catalog: named annotation appearances added' };
    return { level: 'LTA_UPDATES', reason: 'catalog: only its form, DSS, metadata or extension entries changed' };
  }

  /** Whether the names dictionary differs from the signed one only in /AP (named appearances of annotations, as Acrobat's comment icons). */
  private namesOnlyAppearances(): boolean {
    const before = asDict(this.base.state.context.lookup(this.base.state.root?.get(PDFName.of('Names')))) ?? PDFDict.withContext(this.base.state.context);
    const after = asDict(this.later.state.context.lookup(this.later.state.root?.get(PDFName.of('Names'))));
    return !!after && differingKeys(before, after, new Set(['AP'])).length === 0;
  }

  private acroForm(after: PDFDict | null): Verdict {
    const before = asDict(this.base.state.context.lookup(this.base.state.root?.get(PDFName.of('AcroForm'))));
    if (!after) return { level: 'LTA_UPDATES', reason: 'form field list updated' };
    const keys = before ? differingKeys(before, after, acroFormExempt) : after.keys().map((key) => key.decodeText()).filter((key) => !acroFormExempt.has(key));
    if (keys.length > 0) return { level: 'OTHER', reason: `form dictionary entries ${keys.map((key) => `/${key}`).join(', ')} changed` };
    return { level: 'LTA_UPDATES', reason: 'form dictionary: field list or default appearance updated' };
  }

  private dss(key: string, signed: PDFObject | undefined, now: PDFObject): Verdict {
    const context = this.later.state.context;
    const dssRef = this.later.state.root?.get(PDFName.of('DSS'));
    const dss = asDict(context.lookup(dssRef));
    if (dssRef instanceof PDFRef && refText(dssRef) === key && dss) return this.dssDict(dss);
    const vriRef = dss?.get(PDFName.of('VRI'));
    if (vriRef instanceof PDFRef && refText(vriRef) === key && signed !== undefined) {
      const before = asDict(signed);
      const after = asDict(now);
      const lost = before?.keys().filter((name) => !sameValue(before.get(name), after?.get(name))) ?? [];
      if (lost.length > 0) return { level: 'OTHER', reason: `VRI entries ${lost.map((name) => name.decodeText()).slice(0, 3).join(', ')} of the signed revision were changed or removed` };
    }
    if (signed instanceof PDFRawStream) return { level: 'OTHER', reason: 'a certificate, CRL or OCSP stream of the signed revision was rewritten' };
    return { level: 'LTA_UPDATES', reason: 'validation data for long-term validation (DSS/VRI) added' };
  }

  private dssDict(after: PDFDict): Verdict {
    const unexpected = after.keys().map((key) => key.decodeText()).filter((key) => !dssKeys.has(key));
    if (unexpected.length > 0) return { level: 'OTHER', reason: `the DSS has unexpected entries ${unexpected.map((key) => `/${key}`).join(', ')}` };
    return { level: 'LTA_UPDATES', reason: 'document security store (DSS) updated' };
  }

  private field(key: string, before: PDFDict | null, now: PDFObject): Verdict {
    const name = this.later.roles.fieldOfObject.get(key) ?? this.base.roles.fieldOfObject.get(key) ?? '?';
    if (!before) {
      const field = this.later.roles.fields.get(name);
      if (field && refText(field.ref) === key && !this.base.roles.fields.has(name)) return { level: 'OTHER', reason: `form field "${name}" was added after signing (only signature fields may be)` };
      if (now instanceof PDFArray || field?.widgets.some((widget) => refText(widget) === key)) return { level: 'ANNOTATIONS', reason: `a widget was added to form field "${name}"` };
      return { level: 'FORM_FILLING', reason: `new data of form field "${name}"` };
    }
    const after = asDict(now);
    if (!after) return now instanceof PDFArray && before === null ? this.kids(name, asArray(this.base.state.context.lookup(parseRef(key))), now) : { level: 'OTHER', reason: `form field "${name}" is no longer a dictionary` };
    const keys = differingKeys(before, after, new Set([...valueKeys, 'Kids']));
    if (keys.length > 0) return { level: 'OTHER', reason: `form field "${name}": ${keys.map((item) => `/${item}`).join(', ')} changed (filling a field changes only its value and appearance)` };
    if (!sameValue(before.get(PDFName.of('Kids')), after.get(PDFName.of('Kids')))) {
      const kids = this.kids(name, asArray(this.base.state.context.lookup(before.get(PDFName.of('Kids')))), asArray(this.later.state.context.lookup(after.get(PDFName.of('Kids')))));
      if (kids.level === 'OTHER') return kids;
    }
    if (!sameValue(before.get(PDFName.of('AP')), after.get(PDFName.of('AP'))) && !this.valueChanged(name)) {
      const was = appearanceText(this.base.state.context, before);
      const shows = appearanceText(this.later.state.context, after);
      // Text read on both sides only: an appearance drawn through a nested form or a two-byte font reads as nothing.
      if (was && shows && was !== shows) {
        return { level: 'OTHER', reason: `form field "${name}" now shows ${JSON.stringify(shows.slice(0, 60))} where it showed ${JSON.stringify(was.slice(0, 60))} when signed, though its value did not change` };
      }
      return { level: 'FORM_FILLING', reason: `appearance of form field "${name}" regenerated, showing the same text` };
    }
    return { level: 'FORM_FILLING', reason: `form field "${name}" filled in (value or appearance)` };
  }

  /**
   * A field's kids changed: adding or removing widgets is an annotation change; removing a child field, or
   * taking a widget out of its field while it stays on the page, changes the form itself.
   */
  private kids(name: string, before: PDFArray | null, after: PDFArray | null): Verdict {
    const refs = (array: PDFArray | null): string[] => (array?.asArray() ?? []).flatMap((item) => (item instanceof PDFRef ? [refText(item)] : []));
    const now = refs(after);
    for (const kid of refs(before).filter((item) => !now.includes(item))) {
      const dict = asDict(this.base.state.context.lookup(parseRef(kid)));
      if (dict?.has(PDFName.of('T'))) return { level: 'OTHER', reason: `child field ${kid} of "${name}" was removed` };
      if (this.later.roles.roles.get(kid)?.has('annotation')) return { level: 'OTHER', reason: `widget ${kid} was taken out of form field "${name}" but stays on the page, no longer part of the form` };
    }
    return { level: 'ANNOTATIONS', reason: `widgets of form field "${name}" were added or removed` };
  }

  /** The field's value (/V of the field or an ancestor) or a widget's appearance state (/AS) differs from the signed revision. */
  private valueChanged(name: string): boolean {
    const before = this.base.roles.fields.get(name);
    const after = this.later.roles.fields.get(name);
    if (!before || !after) return true;
    if (['V', 'I'].some((key) => !sameValue(before.dict.get(PDFName.of(key)), after.dict.get(PDFName.of(key))))) return true;
    const state = (snap: Snapshot, refs: PDFRef[]): PDFObject[] => refs.map((ref) => asDict(snap.state.context.lookup(ref))?.get(PDFName.of('AS')) ?? PDFName.of('None'));
    const statesBefore = state(this.base, before.widgets);
    const statesAfter = state(this.later, after.widgets);
    return statesBefore.length !== statesAfter.length || statesBefore.some((value, index) => !sameValue(value, statesAfter[index]));
  }

  /** Whether the field's value (in the later revision) is a document timestamp. */
  private timestamped(name: string): boolean {
    const value = asDict(this.later.state.context.lookup(this.later.roles.fields.get(name)?.dict.get(PDFName.of('V'))));
    return !!value && isTimestamp(this.later.state.context, value);
  }

  private newlySigned(name: string): boolean {
    const before = this.base.roles.fields.get(name);
    const after = this.later.roles.fields.get(name);
    return !!after?.dict.has(PDFName.of('V')) && !before?.dict.has(PDFName.of('V'));
  }

  /** Whether a signature field shows on a page (a widget with a non-empty /Rect), as pyHanko's is_field_visible. */
  visible(name: string): boolean {
    const field = this.later.roles.fields.get(name);
    if (!field) return false;
    const context = this.later.state.context;
    return [field.ref, ...field.widgets].some((ref) => {
      const rect = numbersOf(context, asDict(context.lookup(ref))?.get(PDFName.of('Rect')));
      return !!rect && rect.length === 4 && Math.abs(rect[2]! - rect[0]!) * Math.abs(rect[3]! - rect[1]!) > 0;
    });
  }

  private signatureField(key: string, before: PDFDict | null, after: PDFDict | null, now: PDFObject): Verdict {
    const name = this.later.roles.fieldOfObject.get(key) ?? this.base.roles.fieldOfObject.get(key) ?? '?';
    const visible = this.visible(name);
    if (!before) return visible && !this.timestamped(name) ? { level: 'FORM_FILLING', reason: `visible signature field "${name}" added` } : { level: 'LTA_UPDATES', reason: `${visible ? 'document timestamp' : 'invisible signature'} field "${name}" added` };
    if (!after) return now instanceof PDFArray && this.newlySigned(name) ? { level: 'LTA_UPDATES', reason: `widgets of signature field "${name}"` } : { level: 'OTHER', reason: `signature field "${name}" changed` };
    if (this.newlySigned(name)) {
      const keys = differingKeys(before, after, valueKeys);
      if (keys.length > 0) return { level: 'OTHER', reason: `signature field "${name}": ${keys.map((item) => `/${item}`).join(', ')} changed while it was signed` };
      return { level: 'LTA_UPDATES', reason: `signature field "${name}" signed` };
    }
    const keys = differingKeys(before, after, alwaysModifiable).filter((item) => item !== 'F' || hidingFlagsChanged(before, after));
    if (keys.length > 0) return { level: 'OTHER', reason: `signature field "${name}", ${before.has(PDFName.of('V')) ? 'signed before' : 'still unsigned'}, changed: ${keys.map((item) => `/${item}`).join(', ')}` };
    return { level: 'LTA_UPDATES', reason: `signature field "${name}" flags updated` };
  }

  private signatureValue(key: string, added: boolean, now: PDFObject): Verdict {
    const dict = asDict(now);
    const isSignature = !!dict && (dict.has(PDFName.of('ByteRange')) || ['Sig', 'DocTimeStamp'].includes(nameOf(this.later.state.context, dict.get(PDFName.of('Type'))) ?? ''));
    if (!added) return { level: 'OTHER', reason: isSignature ? 'a signature dictionary of the signed revision was rewritten (its signed values no longer match)' : 'data of a signature of the signed revision was rewritten' };
    if (!isSignature) return { level: 'LTA_UPDATES', reason: 'data of a new signature' };
    const field = this.later.roles.signatureField.get(key);
    // PAdES counts a document timestamp as long-term validation data (the DSS validator, visible or not; pyHanko only when invisible).
    if (isTimestamp(this.later.state.context, dict!)) return { level: 'LTA_UPDATES', reason: 'document timestamp added' };
    return { level: 'FORM_FILLING', reason: `signature added${field ? ` in field "${field}"` : ''}` };
  }

  private page(key: string, before: PDFDict | null, after: PDFDict | null): Verdict {
    const number = this.later.roles.pages.get(key)?.number ?? this.base.roles.pages.get(key)?.number;
    if (!before || !after) return { level: 'OTHER', reason: before ? `page ${number ?? '?'} is no longer a dictionary` : `page ${number ?? '?'} was added` };
    const keys = differingKeys(before, after, new Set(['Annots', 'Tabs', 'StructParents']));
    if (keys.length > 0) {
      const what: ObjectRole = keys.includes('Contents') ? 'page_content' : keys.includes('Resources') ? 'page_resources' : 'page';
      return { level: 'OTHER', reason: `page ${number ?? '?'}: ${keys.map((item) => `/${item}`).join(', ')} changed`, what };
    }
    let verdict = this.annotations(key);
    if (!sameValue(before.get(PDFName.of('Tabs')), after.get(PDFName.of('Tabs'))) && levelRank(verdict.level) < levelRank('ANNOTATIONS')) {
      verdict = { level: 'ANNOTATIONS', reason: `page ${number ?? '?'}: the tab order of its annotations (/Tabs) changed` };
    }
    return verdict;
  }

  /** Annotations added to or removed from one page: new signature widgets are LTA_UPDATES (pyHanko), anything else ANNOTATIONS. */
  private annotations(pageKey: string): Verdict {
    const number = this.later.roles.pages.get(pageKey)?.number ?? '?';
    const before = this.base.roles.pages.get(pageKey)?.annotations ?? [];
    const after = this.later.roles.pages.get(pageKey)?.annotations ?? [];
    const added = after.filter((item) => !before.includes(item));
    const removed = before.filter((item) => !after.includes(item));
    const others = added.filter((item) => !this.newSignatureWidget(item));
    if (removed.length > 0 || others.length > 0) {
      const parts = [others.length > 0 ? `${others.length} added` : null, removed.length > 0 ? `${removed.length} removed` : null].filter(Boolean).join(', ');
      return { level: 'ANNOTATIONS', reason: `page ${number}: annotations ${parts}`, what: 'annotation' };
    }
    if (added.length > 0) return { level: 'LTA_UPDATES', reason: `page ${number}: the widget of a new signature added to its annotations`, what: 'signature_field' };
    const reordered = before.length === after.length && before.some((item, index) => item !== after[index]);
    return reordered ? { level: 'ANNOTATIONS', reason: `page ${number}: annotations reordered`, what: 'annotation' } : { level: 'LTA_UPDATES', reason: `page ${number}: rewritten unchanged` };
  }

  private newSignatureWidget(key: string): boolean {
    if (!this.later.roles.roles.get(key)?.has('signature_field')) return false;
    const name = this.later.roles.fieldOfObject.get(key);
    return name !== undefined && (!this.base.roles.fields.has(name) || this.newlySigned(name));
  }

  private structure(key: string, signed: PDFObject | undefined, now: PDFObject): Verdict {
    if (this.later.roles.parentTree.has(key) || this.base.roles.parentTree.has(key)) return this.parentTree();
    const before = asDict(signed);
    const after = asDict(now);
    const context = this.later.state.context;
    const type = after ? nameOf(context, after.get(PDFName.of('Type'))) : null;
    if (!after) return signed === undefined ? { level: 'LTA_UPDATES', reason: 'structure data added' } : { level: 'OTHER', reason: 'structure tree data rewritten' };
    if (type === 'StructTreeRoot') {
      const keys = before ? differingKeys(before, after, new Set(['ParentTree', 'ParentTreeNextKey', 'K'])) : [];
      if (keys.length > 0) return { level: 'OTHER', reason: `structure tree root: ${keys.map((item) => `/${item}`).join(', ')} changed` };
      return this.children(before?.get(PDFName.of('K')), after.get(PDFName.of('K')), 'structure tree root');
    }
    if (type === 'StructElem' || after.has(PDFName.of('S'))) {
      if (!before) return this.children(undefined, after.get(PDFName.of('K')), 'new structure element');
      const keys = differingKeys(before, after, new Set(['K']));
      if (keys.length > 0) return { level: 'OTHER', reason: `structure element: ${keys.map((item) => `/${item}`).join(', ')} changed` };
      return this.children(before.get(PDFName.of('K')), after.get(PDFName.of('K')), 'structure element');
    }
    if (type === 'OBJR') return this.tagged(after.get(PDFName.of('Obj')));
    return signed === undefined ? { level: 'LTA_UPDATES', reason: 'structure data added' } : { level: 'OTHER', reason: 'structure tree data (role map, attributes) rewritten' };
  }

  /** Children of a structure element: the signed ones must all stay, in order; what is added is judged by what it tags. */
  private children(before: PDFObject | undefined, after: PDFObject | undefined, what: string): Verdict {
    const list = (object: PDFObject | undefined): PDFObject[] => (object === undefined ? [] : object instanceof PDFArray ? object.asArray() : [object]);
    const old = list(before);
    const now = list(after);
    const matched = new Set<number>();
    const removed: PDFObject[] = [];
    let cursor = 0;
    for (const item of old) {
      let index = cursor;
      while (index < now.length && !sameValue(now[index], item)) index++;
      if (index < now.length) {
        matched.add(index);
        cursor = index + 1;
      } else removed.push(item);
    }
    const extra = now.filter((_, index) => !matched.has(index));
    let level: ModificationLevel = 'LTA_UPDATES';
    if (removed.length > 0) {
      // Removing an annotation removes the structure entry that tagged it; anything else untags signed content.
      const untagged = removed.every((item) => {
        const target = asDict(this.base.state.context.lookup(item))?.get(PDFName.of('Obj'));
        return target instanceof PDFRef && this.base.roles.roles.get(refText(target))?.has('annotation') && !this.later.roles.roles.get(refText(target))?.has('annotation');
      });
      if (!untagged) return { level: 'OTHER', reason: `${what}: children of the signed revision were removed or reordered` };
      level = 'ANNOTATIONS';
    }
    for (const item of extra) {
      if (item instanceof PDFNumber) return { level: 'OTHER', reason: `${what}: tags new page content (marked-content ids)` };
      if (item instanceof PDFRef) {
        const dict = asDict(this.later.state.context.lookup(item));
        if (dict && nameOf(this.later.state.context, dict.get(PDFName.of('Type'))) === 'OBJR') level = maxLevel(level, this.tagged(dict.get(PDFName.of('Obj'))).level);
        continue;
      }
      const dict = asDict(item);
      if (dict?.has(PDFName.of('Obj'))) level = maxLevel(level, this.tagged(dict.get(PDFName.of('Obj'))).level);
      else if (dict?.has(PDFName.of('MCID'))) return { level: 'OTHER', reason: `${what}: tags new page content (marked-content references)` };
    }
    return { level, reason: `${what}: elements added for what was added` };
  }

  /** A structure reference to an object: tagging a new signature widget is form filling, tagging an annotation is an annotation change. */
  private tagged(target: PDFObject | undefined): Verdict {
    if (!(target instanceof PDFRef)) return { level: 'OTHER', reason: 'a structure element refers to no object' };
    const roles = this.later.roles.roles.get(refText(target));
    if (roles?.has('signature_field') || roles?.has('field')) return { level: 'FORM_FILLING', reason: 'structure element for a form field or signature widget' };
    if (roles?.has('annotation')) return { level: 'ANNOTATIONS', reason: 'structure element for an annotation' };
    return { level: 'OTHER', reason: 'a structure element tags an object that is not a field or annotation' };
  }

  private parentTreeVerdict: Verdict | null = null;

  /** The structure parent tree may gain entries; every entry of the signed revision must keep its value. */
  private parentTree(): Verdict {
    if (this.parentTreeVerdict) return this.parentTreeVerdict;
    const before = parentTreeEntries(this.base);
    const after = parentTreeEntries(this.later);
    const changed = [...before].filter(([index, value]) => {
      const now = after.get(index);
      return now === undefined || !sameEntry(this.base, value, this.later, now);
    });
    // The entry of an annotation that was removed goes with it.
    const removedAnnotations = new Set(
      [...this.base.roles.roles]
        .filter(([object, roles]) => roles.has('annotation') && !this.later.roles.roles.get(object)?.has('annotation'))
        .flatMap(([object]) => {
          const number = this.base.state.context.lookup(asDict(this.base.state.context.lookup(parseRef(object)))?.get(PDFName.of('StructParent')));
          return number instanceof PDFNumber ? [number.asNumber()] : [];
        }),
    );
    const unexplained = changed.filter(([index]) => !removedAnnotations.has(index));
    this.parentTreeVerdict =
      unexplained.length > 0
        ? { level: 'OTHER', reason: `structure parent tree entries ${unexplained.slice(0, 5).map(([index]) => index).join(', ')} of the signed revision were changed or removed` }
        : changed.length > 0
          ? { level: 'ANNOTATIONS', reason: 'structure parent tree: entries of removed annotations removed' }
          : { level: 'LTA_UPDATES', reason: 'structure parent tree: entries added' };
    return this.parentTreeVerdict;
  }
}

function parseRef(key: string): PDFRef {
  const [number, generation] = key.split(' ').map(Number);
  return PDFRef.of(number!, generation!);
}

/** Number-tree entries of the structure tree's /ParentTree, flattened. */
function parentTreeEntries(snap: Snapshot): Map<number, PDFObject> {
  const { context } = snap.state;
  const entries = new Map<number, PDFObject>();
  const structure = asDict(context.lookup(snap.state.root?.get(PDFName.of('StructTreeRoot'))));
  const walk = (node: PDFObject | undefined, depth: number): void => {
    const dict = asDict(context.lookup(node));
    if (!dict || depth > 32) return;
    const nums = asArray(context.lookup(dict.get(PDFName.of('Nums'))))?.asArray() ?? [];
    for (let index = 0; index + 1 < nums.length; index += 2) {
      const number = context.lookup(nums[index]);
      if (number instanceof PDFNumber) entries.set(number.asNumber(), nums[index + 1]!);
    }
    for (const kid of asArray(context.lookup(dict.get(PDFName.of('Kids'))))?.asArray() ?? []) walk(kid, depth + 1);
  };
  walk(structure?.get(PDFName.of('ParentTree')), 0);
  return entries;
}

/** Parent-tree values are equal when they point at the same elements, even through a new array object. */
function sameEntry(base: Snapshot, before: PDFObject, later: Snapshot, after: PDFObject): boolean {
  if (sameValue(before, after)) return true;
  const a = base.state.context.lookup(before);
  const b = later.state.context.lookup(after);
  return a instanceof PDFArray && b instanceof PDFArray && sameValue(a, b);
}

/** The text an annotation's normal appearance draws (the state shown, for a field with states), or null when it cannot be read. */
function appearanceText(context: PDFContext, widget: PDFDict): string | null {
  const normal = context.lookup(asDict(context.lookup(widget.get(PDFName.of('AP'))))?.get(PDFName.of('N')));
  if (normal instanceof PDFRawStream) return streamText(context, normal);
  const state = nameOf(context, widget.get(PDFName.of('AS')));
  const shown = state ? context.lookup(asDict(normal)?.get(PDFName.of(state))) : undefined;
  return shown instanceof PDFRawStream ? streamText(context, shown) : null;
}

function streamText(context: PDFContext, stream: PDFRawStream): string | null {
  const bytes = streamBytes(context, stream);
  if (!bytes) return null;
  return contentEvents(bytes)
    .flatMap((event) => (event.kind === 'text' ? [event.sample] : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A document timestamp: /Type /DocTimeStamp, or an RFC 3161 timestamp written with /Type /Sig. */
function isTimestamp(context: PDFContext, dict: PDFDict): boolean {
  return nameOf(context, dict.get(PDFName.of('Type'))) === 'DocTimeStamp' || nameOf(context, dict.get(PDFName.of('SubFilter'))) === 'ETSI.RFC3161';
}

/** Annotation flags that hide it (Invisible 1, Hidden 2, NoView 32): changing these changes what is shown; print, read-only and lock flags do not. */
function hidingFlagsChanged(before: PDFDict, after: PDFDict): boolean {
  const flags = (dict: PDFDict): number => {
    const value = dict.get(PDFName.of('F'));
    return value instanceof PDFNumber ? value.asNumber() & (1 | 2 | 32) : 0;
  };
  return flags(before) !== flags(after);
}
