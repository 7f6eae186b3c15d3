import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import { contentEvents } from './pdf-content-stream.ts';
import { asArray, asDict, differingKeys, nameOf, numbersOf, sameValue, streamBytes } from './pdf-objects.ts';
import type { ObjectChange, Snapshot, Verdict } from './pdf-modification-level.ts';
import { refFromText, refText } from './pdf-revisions.ts';

/**
 * Field keys that filling in a field may change: pyHanko's VALUE_UPDATE_KEYS, with a choice field's selected
 * indices (/I) and the default value (/DV, what a reset restores), which the DSS validator counts as form filling.
 */
const valueKeys = new Set(['Ff', 'Type', 'AP', 'AS', 'V', 'F', 'DA', 'Q', 'I', 'DV']);
/** Field keys a locked or signed field may still change (pyHanko's FORMFIELD_ALWAYS_MODIFIABLE). */
const alwaysModifiable = new Set(['Ff', 'Type']);

/**
 * Form fields and signatures after signing (pyHanko's FormUpdatingRule with SigFieldCreationRule,
 * SigFieldModificationRule and GenericFieldModificationRule): which fields were filled, signed, added,
 * removed or locked, and how each field, signature and appearance object is cleared.
 */
export class FormRules {
  readonly base: Snapshot;
  readonly later: Snapshot;

  constructor(base: Snapshot, later: Snapshot) {
    this.base = base;
    this.later = later;
  }

  private fieldObjects: Set<string> | null = null;

  /** Objects that are named fields in the signed revision. */
  baseFieldObjects(): Set<string> {
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
    const ref = refFromText(key);
    const before = this.base.state.context.lookup(ref);
    return before !== undefined && !sameValue(before, this.later.state.context.lookup(ref));
  }


  field(key: string, before: PDFDict | null, now: PDFObject): Verdict {
    const name = this.later.roles.fieldOfObject.get(key) ?? this.base.roles.fieldOfObject.get(key) ?? '?';
    if (!before) {
      const field = this.later.roles.fields.get(name);
      if (field && refText(field.ref) === key && !this.base.roles.fields.has(name)) return { level: 'OTHER', reason: `form field "${name}" was added after signing (only signature fields may be)` };
      if (now instanceof PDFArray || field?.widgets.some((widget) => refText(widget) === key)) return { level: 'ANNOTATIONS', reason: `a widget was added to form field "${name}"` };
      return { level: 'FORM_FILLING', reason: `new data of form field "${name}"` };
    }
    const after = asDict(now);
    if (!after) return now instanceof PDFArray && before === null ? this.kids(name, asArray(this.base.state.context.lookup(refFromText(key))), now) : { level: 'OTHER', reason: `form field "${name}" is no longer a dictionary` };
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
    const now = new Set(refs(after));
    for (const kid of refs(before).filter((item) => !now.has(item))) {
      const dict = asDict(this.base.state.context.lookup(refFromText(kid)));
      if (dict?.has(PDFName.of('T'))) return { level: 'OTHER', reason: `child field ${kid} of "${name}" was removed` };
      if (this.later.roles.roles.get(kid)?.has('annotation')) return { level: 'OTHER', reason: `widget ${kid} was taken out of form field "${name}" but stays on the page, no longer part of the form` };
    }
    return { level: 'ANNOTATIONS', reason: `widgets of form field "${name}" were added or removed` };
  }

  /** The field's value (/V of the field or an ancestor) or a widget's appearance state (/AS) differs from the signed revision. */
  valueChanged(name: string): boolean {
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
  timestamped(name: string): boolean {
    const value = asDict(this.later.state.context.lookup(this.later.roles.fields.get(name)?.dict.get(PDFName.of('V'))));
    return !!value && isTimestamp(this.later.state.context, value);
  }

  newlySigned(name: string): boolean {
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

  signatureField(key: string, before: PDFDict | null, after: PDFDict | null, now: PDFObject): Verdict {
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

  signatureValue(key: string, added: boolean, now: PDFObject): Verdict {
    const dict = asDict(now);
    const isSignature = !!dict && (dict.has(PDFName.of('ByteRange')) || ['Sig', 'DocTimeStamp'].includes(nameOf(this.later.state.context, dict.get(PDFName.of('Type'))) ?? ''));
    if (!added) return { level: 'OTHER', reason: isSignature ? 'a signature dictionary of the signed revision was rewritten (its signed values no longer match)' : 'data of a signature of the signed revision was rewritten' };
    if (!isSignature) return { level: 'LTA_UPDATES', reason: 'data of a new signature' };
    const field = this.later.roles.signatureField.get(key);
    // PAdES counts a document timestamp as long-term validation data (the DSS validator, visible or not; pyHanko only when invisible).
    if (isTimestamp(this.later.state.context, dict!)) return { level: 'LTA_UPDATES', reason: 'document timestamp added' };
    return { level: 'FORM_FILLING', reason: `signature added${field ? ` in field "${field}"` : ''}` };
  }


  /** An appearance stream (or what it draws with) of a form field, added or rewritten in place. */
  fieldAppearance(key: string, signed: PDFObject | undefined, now: PDFObject): Verdict {
    const added = signed === undefined;
    const owner = this.later.roles.appearanceOwner.get(key) ?? this.base.roles.appearanceOwner.get(key);
    if (added) return { level: 'FORM_FILLING', reason: `new appearance for form field "${owner ?? '?'}"` };
    if (owner && this.valueChanged(owner)) return { level: 'FORM_FILLING', reason: `appearance of form field "${owner}" redrawn with its new value` };
    const was = signed instanceof PDFRawStream ? streamText(this.base.state.context, signed) : null;
    const shows = now instanceof PDFRawStream ? streamText(this.later.state.context, now) : null;
    // As for a field's new appearance: only text read on both sides is compared.
    if (was && shows && was !== shows) return { level: 'OTHER', reason: `an appearance stream of form field "${owner ?? '?'}" was rewritten in place to show ${JSON.stringify(shows.slice(0, 60))} instead of ${JSON.stringify(was.slice(0, 60))} while the field's value stayed the same` };
    return { level: 'FORM_FILLING', reason: `appearance of form field "${owner ?? '?'}" redrawn in place, showing the same text` };
  }

  /** An appearance object of a signature field. */
  signatureAppearance(key: string, added: boolean): Verdict {
    const owner = this.later.roles.appearanceOwner.get(key);
    // An invisible field's appearance is never shown; a timestamp's is part of adding it.
    if (owner && (!this.visible(owner) || this.timestamped(owner)) && (added || this.newlySigned(owner))) return { level: 'LTA_UPDATES', reason: `appearance of ${this.timestamped(owner) ? 'the document timestamp in' : 'invisible'} signature field "${owner}"` };
    if (added || (owner && this.newlySigned(owner))) return { level: 'FORM_FILLING', reason: `appearance of signature field "${owner ?? '?'}"` };
    return { level: 'OTHER', reason: `the appearance of signature field "${owner ?? '?'}", signed before, was rewritten` };
  }
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
