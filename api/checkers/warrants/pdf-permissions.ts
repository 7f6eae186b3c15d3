import { PDFDict, PDFName, PDFNumber, type PDFContext, type PDFObject } from 'pdf-lib';
import { asArray, asDict, nameOf, textOf } from './pdf-objects.ts';

/**
 * What a signature allows to change after it (ISO 32000-2 §12.8.2): a certification signature's DocMDP /P
 * (1 no changes, 2 form filling and signing, 3 also annotations), and a field lock (FieldMDP transform or
 * the signature field's /Lock) naming fields that must not change again, with its own optional /P.
 */
export interface SignaturePermissions {
  /** /P of the signature's DocMDP transform when it certifies the document (2 when /P is absent). */
  docMdp: number | null;
  lock: FieldLock | null;
}

export interface FieldLock {
  action: 'All' | 'Include' | 'Exclude';
  fields: string[];
  /** PDF 2.0 /P of the lock: the DocMDP level the document keeps from then on. */
  permission: number | null;
}

export function signaturePermissions(context: PDFContext, signature: PDFDict, field: PDFDict | null): SignaturePermissions {
  let docMdp: number | null = null;
  let lock: FieldLock | null = null;
  for (const reference of asArray(context.lookup(signature.get(PDFName.of('Reference'))))?.asArray() ?? []) {
    const entry = asDict(context.lookup(reference));
    if (!entry) continue;
    const method = nameOf(context, entry.get(PDFName.of('TransformMethod')));
    const params = asDict(context.lookup(entry.get(PDFName.of('TransformParams'))));
    if (method === 'DocMDP') docMdp = permissionOf(context, params?.get(PDFName.of('P'))) ?? 2;
    if (method === 'FieldMDP' && params) lock = lockOf(context, params) ?? lock;
  }
  const fieldLock = asDict(context.lookup(field?.get(PDFName.of('Lock'))));
  if (!lock && fieldLock) lock = lockOf(context, fieldLock);
  return { docMdp, lock };
}

function lockOf(context: PDFContext, dict: PDFDict): FieldLock | null {
  const action = nameOf(context, dict.get(PDFName.of('Action')));
  if (action !== 'All' && action !== 'Include' && action !== 'Exclude') return null;
  const fields = (asArray(context.lookup(dict.get(PDFName.of('Fields'))))?.asArray() ?? []).flatMap((item: PDFObject) => {
    const name = textOf(context, item);
    return name === null ? [] : [name];
  });
  return { action, fields, permission: permissionOf(context, dict.get(PDFName.of('P'))) };
}

function permissionOf(context: PDFContext, value: PDFObject | undefined): number | null {
  const resolved = value === undefined ? undefined : context.lookup(value);
  const number = resolved instanceof PDFNumber ? resolved.asNumber() : null;
  return number === 1 || number === 2 || number === 3 ? number : null;
}

/** Whether a lock covers a field: the field itself or any field below a named one. */
export function isLocked(lock: FieldLock, field: string): boolean {
  const named = lock.fields.some((name) => field === name || field.startsWith(`${name}.`));
  return lock.action === 'All' || (lock.action === 'Include' ? named : !named);
}
