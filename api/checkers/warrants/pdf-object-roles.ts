import { PDFArray, PDFDict, PDFName, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import { asArray, asDict, nameOf, textOf, type RevisionState } from './pdf-objects.ts';
import { refText } from './pdf-revisions.ts';

/**
 * What each indirect object of one revision is for, found by walking the document from its catalog the way
 * a validator's difference analysis reasons about paths (pyHanko's diff_analysis clears an object by the
 * place it is used from). An object used from several places has every role: an appearance stream that is
 * also a page XObject is both a field appearance and a page resource, so rewriting it is judged by the
 * stricter of the two.
 */
export type ObjectRole =
  | 'catalog'
  | 'info'
  | 'metadata'
  | 'dss'
  | 'extensions'
  | 'acroform'
  | 'form_resources'
  | 'field'
  | 'field_appearance'
  | 'signature_field'
  | 'signature_value'
  | 'signature_appearance'
  | 'page_tree'
  | 'page'
  | 'page_content'
  | 'page_resources'
  | 'annotation'
  | 'annotation_appearance'
  | 'structure_tree'
  | 'outline'
  | 'document_permissions'
  | 'encryption'
  | 'catalog_entry';

/** The words a person reads for each role (the classes the issue names). */
export const roleWords: Record<ObjectRole, string> = {
  catalog: 'document catalog',
  info: 'document information',
  metadata: 'XMP metadata',
  dss: 'DSS/VRI validation data',
  extensions: 'catalog extensions',
  acroform: 'form dictionary',
  form_resources: 'form resources',
  field: 'form field',
  field_appearance: 'form field appearance',
  signature_field: 'signature field and its widget',
  signature_value: 'signature dictionary',
  signature_appearance: 'signature appearance',
  page_tree: 'page tree',
  page: 'page dictionary',
  page_content: 'page content',
  page_resources: 'page resources',
  annotation: 'annotation',
  annotation_appearance: 'appearance stream of a non-field annotation',
  structure_tree: 'structure tree',
  outline: 'outlines',
  document_permissions: 'document permissions (/Perms)',
  encryption: 'encryption dictionary',
  catalog_entry: 'catalog entry',
};

/** A form field node that has a partial name, with its fully qualified name and inherited type. */
export interface FormField {
  name: string;
  ref: PDFRef;
  dict: PDFDict;
  /** /FT, inherited from the nearest ancestor that has one. */
  type: string | null;
  /** Widget annotations of the field: its kids without /T, or the field itself when it is merged with its widget. */
  widgets: PDFRef[];
  /** Named kids (child fields). */
  children: string[];
}

export interface ObjectRoles {
  roles: Map<string, Set<ObjectRole>>;
  /** Fields by fully qualified name. */
  fields: Map<string, FormField>;
  /** Field or widget object → the fully qualified name of the field it belongs to. */
  fieldOfObject: Map<string, string>;
  /** Objects of a field widget's appearance (its streams and what they draw with) → the field's name. */
  appearanceOwner: Map<string, string>;
  /** Leaf pages by object, with their number and their annotations. */
  pages: Map<string, { number: number; annotations: string[] }>;
  /** An indirect /Annots array → the page that uses it. */
  annotsOwner: Map<string, string>;
  /** Objects of the structure tree's /ParentTree (number tree nodes and their value arrays). */
  parentTree: Set<string>;
  /** Signature dictionaries (a field's /V) → the field's name. */
  signatureField: Map<string, string>;
}

/** Roles given per revision at most, a bound on hostile files; objects past it have no role and are judged as unused. */
export const ROLE_OBJECT_LIMIT = 200_000;
const DEPTH_LIMIT = 64;
/**
 * Keys that point back up a tree or across to what tags or owns an object (an annotation's page, a structure
 * element's parent, a reply's subject); pages, fields, annotations and signatures reached otherwise are kept out
 * by their kind.
 */
const backLinks = new Set(['Parent', 'P', 'Pg', 'Obj', 'Data', 'IRT', 'SE']);

type Kind = 'catalog' | 'pages' | 'page' | 'signature' | 'annotation' | 'field' | 'struct' | 'other';

/** The typed walks own these kinds; a generic walk never enters them. */
function kindOf(context: PDFContext, dict: PDFDict): Kind {
  const type = nameOf(context, dict.get(PDFName.of('Type')));
  if (type === 'Catalog') return 'catalog';
  if (type === 'Pages') return 'pages';
  if (type === 'Page') return 'page';
  if (type === 'Sig' || type === 'DocTimeStamp' || dict.has(PDFName.of('ByteRange'))) return 'signature';
  if (type === 'StructElem' || type === 'StructTreeRoot') return 'struct';
  if (dict.has(PDFName.of('FT')) || (dict.has(PDFName.of('T')) && dict.has(PDFName.of('Kids')))) return 'field';
  if (type === 'Annot' || (dict.has(PDFName.of('Subtype')) && dict.has(PDFName.of('Rect')))) return 'annotation';
  return 'other';
}

export function objectRoles(state: RevisionState): ObjectRoles {
  const { context } = state;
  const result: ObjectRoles = {
    roles: new Map(),
    fields: new Map(),
    fieldOfObject: new Map(),
    appearanceOwner: new Map(),
    pages: new Map(),
    annotsOwner: new Map(),
    parentTree: new Set(),
    signatureField: new Map(),
  };
  const mark = roleMarker(result);
  const generic = genericWalk(context, result, mark);

  const root = state.root;
  const rootRef = context.trailerInfo.Root;
  if (rootRef instanceof PDFRef) mark(rootRef, 'catalog');
  const info = context.trailerInfo.Info;
  if (info instanceof PDFRef) generic(info, 'info', 0);
  const encrypt = context.trailerInfo.Encrypt;
  if (encrypt instanceof PDFRef) generic(encrypt, 'encryption', 0);
  if (!root) return result;

  // The form first, so a widget reached again from a page's /Annots is known to be a field's.
  walkForm(context, root, result, mark, generic);
  walkCatalog(context, root, result, mark, generic);
  return result;
}

/** Gives an object a role; false when it already had that role or the object limit is reached, so a walk stops there. */
function roleMarker(result: ObjectRoles): Mark {
  let marked = 0;
  return (ref, role) => {
    const key = refText(ref);
    const set = result.roles.get(key);
    if (set?.has(role)) return false;
    if (marked++ > ROLE_OBJECT_LIMIT) return false;
    if (set) set.add(role);
    else result.roles.set(key, new Set([role]));
    return true;
  };
}

/** Everything reachable from `object` gets `role`, except objects a typed walk owns (pages, fields, annotations, signatures). */
function genericWalk(context: PDFContext, result: ObjectRoles, mark: Mark): Generic {
  const generic: Generic = (object, role, depth, enter = ['other'], owner) => {
    if (object === undefined || depth > DEPTH_LIMIT) return;
    if (object instanceof PDFRef) {
      const target = context.lookup(object);
      const dict = asDict(target);
      if (dict && !enter.includes(kindOf(context, dict))) return;
      if (owner !== undefined && !result.appearanceOwner.has(refText(object))) result.appearanceOwner.set(refText(object), owner);
      if (!mark(object, role)) return;
      generic(target, role, depth + 1, ['other'], owner);
      return;
    }
    if (object instanceof PDFArray) {
      for (const item of object.asArray()) generic(item, role, depth + 1, ['other'], owner);
      return;
    }
    const dict = asDict(object);
    if (!dict) return;
    for (const [key, value] of dict.entries()) if (!backLinks.has(key.decodeText())) generic(value, role, depth + 1, ['other'], owner);
  };
  return generic;
}

/** The catalog's /AcroForm: its fields walked as fields, its /DR as form resources, the rest as the form dictionary. */
function walkForm(context: PDFContext, root: PDFDict, result: ObjectRoles, mark: Mark, generic: Generic): void {
  const acroForm = root.get(PDFName.of('AcroForm'));
  markDirect(acroForm, 'acroform', mark);
  const form = asDict(context.lookup(acroForm));
  if (!form) return;
  for (const [key, value] of form.entries()) {
    const name = key.decodeText();
    if (name === 'Fields') {
      markDirect(value, 'acroform', mark);
      walkFields(context, asArray(context.lookup(value))?.asArray() ?? [], '', null, 0, result, mark, generic);
    } else if (name === 'DR') {
      generic(value, 'form_resources', 0);
    } else {
      generic(value, 'acroform', 0);
    }
  }
}

/** Every catalog entry but /AcroForm, each by the role its key gives (pages and the structure tree by their own walks). */
function walkCatalog(context: PDFContext, root: PDFDict, result: ObjectRoles, mark: Mark, generic: Generic): void {
  for (const [key, value] of root.entries()) {
    const name = key.decodeText();
    if (name === 'Pages') walkPages(context, value, 0, result, mark, generic, new Set());
    else if (name === 'AcroForm') continue;
    else if (name === 'DSS') generic(value, 'dss', 0);
    else if (name === 'Metadata') generic(value, 'metadata', 0);
    else if (name === 'Extensions' || name === 'MarkInfo' || name === 'Version') generic(value, 'extensions', 0);
    else if (name === 'Outlines') generic(value, 'outline', 0);
    else if (name === 'Perms') generic(value, 'document_permissions', 0);
    else if (name === 'Names') {
      // Named appearances (/AP) are annotation appearances; the other name trees (scripts, files, destinations) are not.
      markDirect(value, 'catalog_entry', mark);
      for (const [tree, entry] of asDict(context.lookup(value))?.entries() ?? []) generic(entry, tree.decodeText() === 'AP' ? 'annotation_appearance' : 'catalog_entry', 0);
    }
    else if (name === 'StructTreeRoot') walkStructure(context, value, result, mark, generic);
    else generic(value, 'catalog_entry', 0);
  }
}

type Mark = (ref: PDFRef, role: ObjectRole) => boolean;
type Generic = (object: PDFObject | undefined, role: ObjectRole, depth: number, enter?: Kind[], owner?: string) => void;

function walkFields(context: PDFContext, kids: PDFObject[], prefix: string, inheritedType: string | null, depth: number, result: ObjectRoles, mark: Mark, generic: Generic): string[] {
  const names: string[] = [];
  if (depth > 32) return names;
  for (const item of kids) {
    if (!(item instanceof PDFRef)) continue;
    const dict = asDict(context.lookup(item));
    if (!dict) continue;
    const partial = textOf(context, dict.get(PDFName.of('T')));
    const type = nameOf(context, dict.get(PDFName.of('FT'))) ?? inheritedType;
    const signature = type === 'Sig';
    const role: ObjectRole = signature ? 'signature_field' : 'field';
    if (!mark(item, role)) continue;
    const name = partial === null ? prefix : prefix === '' ? partial : `${prefix}.${partial}`;
    markDirect(dict.get(PDFName.of('Kids')), role, mark);
    const kidList = asArray(context.lookup(dict.get(PDFName.of('Kids'))))?.asArray() ?? [];
    // A kid without /T is a widget of this field, not a field of its own.
    const named = kidList.filter((kid) => asDict(context.lookup(kid))?.has(PDFName.of('T')));
    const widgets = kidList.filter((kid): kid is PDFRef => kid instanceof PDFRef && !asDict(context.lookup(kid))?.has(PDFName.of('T')));
    if (name !== '') result.fieldOfObject.set(refText(item), name);
    fieldEntries(context, dict, name, role, signature, result, generic);
    for (const widget of widgets) {
      if (!mark(widget, role)) continue;
      if (name !== '') result.fieldOfObject.set(refText(widget), name);
      const widgetDict = asDict(context.lookup(widget));
      if (widgetDict) fieldEntries(context, widgetDict, name, role, signature, result, generic);
    }
    const children = walkFields(context, named, name, type, depth + 1, result, mark, generic);
    if (partial !== null) {
      result.fields.set(name, { name, ref: item, dict, type, widgets: widgets.length > 0 ? widgets : dict.has(PDFName.of('Subtype')) ? [item] : [], children });
      names.push(name);
    }
  }
  return names;
}

function markDirect(object: PDFObject | undefined, role: ObjectRole, mark: Mark): void {
  if (object instanceof PDFRef) mark(object, role);
}

/** A field's or widget's own entries: its appearance, its signature value, the rest of the field. */
function fieldEntries(context: PDFContext, dict: PDFDict, name: string, role: ObjectRole, signature: boolean, result: ObjectRoles, generic: Generic): void {
  for (const [key, value] of dict.entries()) {
    const entry = key.decodeText();
    if (entry === 'Kids' || backLinks.has(entry)) continue;
    if (entry === 'AP') {
      const appearanceRole: ObjectRole = signature ? 'signature_appearance' : 'field_appearance';
      generic(value, appearanceRole, 0, ['other'], name === '' ? undefined : name);
    } else if (entry === 'V' && signature) {
      if (value instanceof PDFRef) {
        generic(value, 'signature_value', 0, ['signature', 'other']);
        if (name !== '') result.signatureField.set(refText(value), name);
      }
    } else if (entry === 'Popup') {
      generic(value, 'annotation', 0, ['annotation', 'other']);
    } else {
      generic(value, role, 0);
    }
  }
}

function walkPages(context: PDFContext, node: PDFObject | undefined, depth: number, result: ObjectRoles, mark: Mark, generic: Generic, seen: Set<string>): void {
  if (!(node instanceof PDFRef) || depth > 32 || seen.has(refText(node))) return;
  seen.add(refText(node));
  const dict = asDict(context.lookup(node));
  if (!dict) return;
  const kids = asArray(context.lookup(dict.get(PDFName.of('Kids'))));
  if (kids || nameOf(context, dict.get(PDFName.of('Type'))) === 'Pages') {
    mark(node, 'page_tree');
    markDirect(dict.get(PDFName.of('Kids')), 'page_tree', mark);
    for (const [key, value] of dict.entries()) {
      const name = key.decodeText();
      if (name === 'Kids' || name === 'Parent') continue;
      generic(value, name === 'Resources' ? 'page_resources' : 'page_tree', 0);
    }
    for (const kid of kids?.asArray() ?? []) walkPages(context, kid, depth + 1, result, mark, generic, seen);
    return;
  }
  mark(node, 'page');
  const annotations: string[] = [];
  result.pages.set(refText(node), { number: result.pages.size + 1, annotations });
  for (const [key, value] of dict.entries()) {
    const name = key.decodeText();
    if (name === 'Parent') continue;
    if (name === 'Contents') generic(value, 'page_content', 0);
    else if (name === 'Resources') generic(value, 'page_resources', 0);
    else if (name === 'Annots') {
      if (value instanceof PDFRef) {
        mark(value, 'annotation');
        result.annotsOwner.set(refText(value), refText(node));
      }
      for (const item of asArray(context.lookup(value))?.asArray() ?? []) {
        if (!(item instanceof PDFRef)) continue;
        annotations.push(refText(item));
        // A field's widget already has its role from the form.
        const known = result.roles.get(refText(item));
        if (known?.has('field') || known?.has('signature_field')) continue;
        walkAnnotation(context, item, result, mark, generic);
      }
    } else generic(value, 'page', 0);
  }
}

function walkAnnotation(context: PDFContext, ref: PDFRef, result: ObjectRoles, mark: Mark, generic: Generic): void {
  if (!mark(ref, 'annotation')) return;
  const dict = asDict(context.lookup(ref));
  if (!dict) return;
  for (const [key, value] of dict.entries()) {
    const name = key.decodeText();
    if (backLinks.has(name)) continue;
    if (name === 'AP') generic(value, 'annotation_appearance', 0);
    else if (name === 'Popup' && value instanceof PDFRef) walkAnnotation(context, value, result, mark, generic);
    else generic(value, 'annotation', 0);
  }
}

/** The structure tree: its elements, and its /ParentTree apart (a validator lets new entries be added there). */
function walkStructure(context: PDFContext, root: PDFObject | undefined, result: ObjectRoles, mark: Mark, generic: Generic): void {
  const stack: { object: PDFObject | undefined; depth: number }[] = [{ object: root, depth: 0 }];
  const parentTree = (object: PDFObject | undefined, depth: number): void => {
    if (object === undefined || depth > DEPTH_LIMIT) return;
    if (object instanceof PDFRef) {
      const target = context.lookup(object);
      const dict = asDict(target);
      const kind = dict ? kindOf(context, dict) : 'other';
      // The tree's values are structure elements (walked as elements) or arrays of them.
      if (kind === 'struct') stack.push({ object, depth });
      if (kind !== 'other' || !mark(object, 'structure_tree')) return;
      result.parentTree.add(refText(object));
      parentTree(target, depth + 1);
      return;
    }
    if (object instanceof PDFArray) for (const item of object.asArray()) parentTree(item, depth + 1);
    const dict = asDict(object);
    if (dict) for (const key of ['Nums', 'Kids']) parentTree(dict.get(PDFName.of(key)), depth + 1);
  };
  while (stack.length > 0) {
    const { object, depth } = stack.pop()!;
    if (object === undefined || depth > DEPTH_LIMIT) continue;
    if (object instanceof PDFRef) {
      const target = context.lookup(object);
      const dict = asDict(target);
      if (dict && !['struct', 'other'].includes(kindOf(context, dict))) continue;
      if (!mark(object, 'structure_tree')) continue;
      stack.push({ object: target, depth: depth + 1 });
      continue;
    }
    if (object instanceof PDFArray) {
      for (const item of object.asArray()) stack.push({ object: item, depth: depth + 1 });
      continue;
    }
    const dict = asDict(object);
    if (!dict) continue;
    for (const [key, value] of dict.entries()) {
      const name = key.decodeText();
      if (backLinks.has(name)) continue;
      if (name === 'ParentTree') parentTree(value, depth + 1);
      else if (name === 'K' || name === 'RoleMap' || name === 'ClassMap' || name === 'IDTree' || name === 'A' || name === 'C') stack.push({ object: value, depth: depth + 1 });
      else generic(value, 'structure_tree', 0);
    }
  }
}
