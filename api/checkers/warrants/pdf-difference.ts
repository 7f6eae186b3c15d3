/**
 * Difference analysis after signing, following pyHanko's (sign/diff_analysis, DEFAULT_DIFF_POLICY): every
 * object a later revision adds, rewrites or stops using is compared with the signed revision and cleared at
 * the lowest ModificationLevel whose rules explain it; what no rule explains is OTHER. Written here for
 * pdf-lib's object tables (pyHanko is Python). Where a rule follows the DSS and iText
 * validators rather than pyHanko's default policy (annotations, document timestamps, tagged structure), the
 * warrants README says so.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';
import { asDict, differingKeys, nameOf, sameValue } from './pdf-objects.ts';
import { roleWords, type ObjectRole } from './pdf-object-roles.ts';
import { levelRank, maxLevel, type ModificationLevel, type ObjectChange, type Snapshot, type Verdict } from './pdf-modification-level.ts';
import { refFromText, refText } from './pdf-revisions.ts';
import { FormRules } from './pdf-form-rules.ts';
import { StructureRules } from './pdf-structure-rules.ts';

export interface RevisionDifference {
  revision: number;
  level: ModificationLevel;
  changes: ObjectChange[];
  /** Fields whose value, appearance or widgets changed (what a FieldMDP lock forbids). */
  changedFields: Set<string>;
}

/**
 * Catalog keys other rules judge or that may change freely: pyHanko's ROOT_EXEMPT_STRICT_COMPARISON, with
 * /PieceInfo (applications' private data, which no reader draws from and Acrobat updates on every save; the
 * DSS validator accepts it too).
 */
const rootExempt = new Set(['AcroForm', 'DSS', 'Extensions', 'Metadata', 'MarkInfo', 'Version', 'PieceInfo']);
/** AcroForm keys that may change (pyHanko's ACROFORM_EXEMPT_STRICT_COMPARISON, with /SigFlags, which signing sets). */
const acroFormExempt = new Set(['Fields', 'DR', 'DA', 'Q', 'NeedAppearances', 'SigFlags']);
/** Entries of a page tree node (ISO 32000-1 Table 29, with the inheritable page attributes); a reader draws from no other. */
const pageTreeKeys = new Set(['Type', 'Parent', 'Kids', 'Count', 'Resources', 'MediaBox', 'CropBox', 'Rotate']);
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
  changes.push(...judge.form.fieldChanges());
  // One entry per object: the strictest judgement of it.
  const byObject = new Map<string, ObjectChange>();
  for (const change of changes) {
    const known = byObject.get(change.object);
    if (!known || levelRank(change.level) > levelRank(known.level)) byObject.set(change.object, change);
  }
  let level: ModificationLevel = 'LTA_UPDATES';
  for (const change of byObject.values()) level = maxLevel(level, change.level);
  return { revision, level, changes: [...byObject.values()], changedFields: judge.form.changedFields() };
}

/** The rules, for one signed revision and one later revision. */
class Judge {
  readonly base: Snapshot;
  readonly later: Snapshot;
  readonly form: FormRules;
  private readonly structureRules: StructureRules;

  constructor(base: Snapshot, later: Snapshot) {
    this.base = base;
    this.later = later;
    this.form = new FormRules(base, later);
    this.structureRules = new StructureRules(base, later);
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
      const signed = this.base.state.context.lookup(refFromText(key));
      if (!this.form.baseFieldObjects().has(key)) {
        if (nameOf(this.base.state.context, asDict(signed)?.get(PDFName.of('Subtype'))) === 'Widget') return { object: key, change: 'removed', what: role, level: 'ANNOTATIONS', reason: `a widget of form field "${field}" was removed`, ...located };
        if (signed instanceof PDFArray) return { object: key, change: 'removed', what: role, level: 'ANNOTATIONS', reason: `the widget list of form field "${field}" was replaced`, ...located };
        return { object: key, change: 'removed', what: role, level: 'FORM_FILLING', reason: `a value or setting object of form field "${field}" was replaced`, ...located };
      }
    }
    return { object: key, change: 'removed', what: role, level: 'OTHER', reason: `the signed revision's ${roleWords[role]} is no longer used`, ...located };
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
        return this.form.changedFields().size > 0 ? { level: 'FORM_FILLING', reason: 'form default resources (fonts for filled-in fields) updated' } : { level: 'LTA_UPDATES', reason: 'fonts added to the form default resources, used by no changed field' };
      case 'field':
        return this.form.field(key, before, now);
      case 'field_appearance':
        return this.form.fieldAppearance(key, signed, now);
      case 'signature_field':
        return this.form.signatureField(key, before, after, now);
      case 'signature_value':
        return this.form.signatureValue(key, added, now);
      case 'signature_appearance':
        return this.form.signatureAppearance(key, added);
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
        return this.structureRules.verdict(key, signed, now);
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
    const known = new Set(before);
    const kept = new Set(after);
    const added = after.filter((item) => !known.has(item));
    const removed = before.filter((item) => !kept.has(item));
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
    return name !== undefined && (!this.base.roles.fields.has(name) || this.form.newlySigned(name));
  }

}
