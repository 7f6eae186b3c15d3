import { PDFArray, PDFName, PDFNumber, PDFRef, type PDFObject } from 'pdf-lib';
import { asArray, asDict, differingKeys, nameOf, sameValue } from './pdf-objects.ts';
import { maxLevel, type ModificationLevel, type Snapshot, type Verdict } from './pdf-modification-level.ts';
import { refFromText, refText } from './pdf-revisions.ts';

/**
 * Changes to a tagged file's structure tree after signing. The DSS and iText validators let the tree gain
 * what tags the objects added (a structure element for a new signature widget or annotation, parent-tree
 * entries) and drop what tagged a removed annotation; any other change to it is OTHER.
 */
export class StructureRules {
  readonly base: Snapshot;
  readonly later: Snapshot;

  constructor(base: Snapshot, later: Snapshot) {
    this.base = base;
    this.later = later;
  }

  verdict(key: string, signed: PDFObject | undefined, now: PDFObject): Verdict {
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
    // Each signed child is matched to its next occurrence after the previous match, found by its written form
    // (a pointer per form, so a long /K stays linear).
    const positions = new Map<string, number[]>();
    now.forEach((item, index) => {
      const list = positions.get(writtenForm(item));
      if (list) list.push(index);
      else positions.set(writtenForm(item), [index]);
    });
    const next = new Map<string, number>();
    const matched = new Set<number>();
    const removed: PDFObject[] = [];
    let cursor = 0;
    for (const item of old) {
      const form = writtenForm(item);
      const list = positions.get(form) ?? [];
      let at = next.get(form) ?? 0;
      while (at < list.length && list[at]! < cursor) at++;
      if (at < list.length) {
        matched.add(list[at]!);
        cursor = list[at]! + 1;
        at++;
      } else removed.push(item);
      next.set(form, at);
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
          const number = this.base.state.context.lookup(asDict(this.base.state.context.lookup(refFromText(object)))?.get(PDFName.of('StructParent')));
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

/** Number-tree entries of the structure tree's /ParentTree, flattened. */
function parentTreeEntries(snap: Snapshot): Map<number, PDFObject> {
  const { context } = snap.state;
  const entries = new Map<number, PDFObject>();
  const structure = asDict(context.lookup(snap.state.root?.get(PDFName.of('StructTreeRoot'))));
  const seen = new Set<string>();
  const walk = (node: PDFObject | undefined, depth: number): void => {
    if (node instanceof PDFRef) {
      if (seen.has(refText(node))) return;
      seen.add(refText(node));
    }
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

/** A child as written, to index children by (references by number, direct objects by their text). */
function writtenForm(item: PDFObject): string {
  return item instanceof PDFRef ? refText(item) : item.toString();
}
