import { PDFDict, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import type { Signal } from './signal.ts';
import { asArray, asDict, lookup, nameOf, textOf, type RevisionState } from './pdf-objects.ts';
import { formFields, OBJECT_LIMIT, refText } from './pdf-revisions.ts';
import { pdfSignal, type PdfSignalCode } from './pdf-signals.ts';

/**
 * Active and interactive content (the pdfid/peepdf keyword families): scripts, automatic and launch actions,
 * embedded files, forms and rich media, found by walking every object of the final revision (so objects
 * inside compressed object streams count too), plus hex-escaped keyword names in the raw bytes.
 */
export function activeContentSignals(text: string, state: RevisionState, objectOffset: (object: string) => number | undefined): Signal[] {
  const { context } = state;
  const hits = new Map<PdfSignalCode, { count: number; first: string; detail: Set<string> }>();
  const note = (code: PdfSignalCode, object: string, detail?: string | null): void => {
    const hit = hits.get(code) ?? { count: 0, first: object, detail: new Set<string>() };
    hit.count += 1;
    if (detail) hit.detail.add(detail);
    hits.set(code, hit);
  };
  for (const [ref, object] of context.enumerateIndirectObjects().slice(0, OBJECT_LIMIT)) {
    const dict = object instanceof PDFRawStream ? object.dict : object instanceof PDFDict ? object : null;
    if (!dict) continue;
    const id = refText(ref);
    const action = nameOf(context, dict.get(PDFName.of('S')));
    const type = nameOf(context, dict.get(PDFName.of('Type')));
    const subtype = nameOf(context, dict.get(PDFName.of('Subtype')));
    if (action === 'JavaScript' || dict.has(PDFName.of('JS'))) note('javascript', id);
    if (action === 'Launch') note('launch_action', id, textOf(context, lookup(context, asDict(lookup(context, dict, 'Win')), 'F')) ?? textOf(context, dict.get(PDFName.of('F'))));
    if (action === 'SubmitForm' || action === 'ImportData') note('submit_or_import_action', id, action);
    if (dict.has(PDFName.of('AA'))) note('additional_actions', id);
    if (type === 'EmbeddedFile') note('embedded_file', id);
    if (type === 'Filespec' && dict.has(PDFName.of('EF'))) note('embedded_file', id, textOf(context, dict.get(PDFName.of('UF'))) ?? textOf(context, dict.get(PDFName.of('F'))));
    if (subtype === 'RichMedia' || subtype === 'Movie' || subtype === 'Sound' || subtype === '3D') note('rich_media', id, subtype);
  }
  const signals: Signal[] = [];
  const place = (object: string): Signal['where'] => ({ object, byte_offset: objectOffset(object) });
  const words = (code: PdfSignalCode): string => {
    const hit = hits.get(code)!;
    const detail = hit.detail.size > 0 ? ` (${[...hit.detail].slice(0, 5).join(', ')})` : '';
    return `${hit.count} object(s), first ${hit.first}${detail}`;
  };
  if (hits.has('javascript')) signals.push(pdfSignal('javascript', `JavaScript is attached in ${words('javascript')}; a viewer that runs it can change what the document shows.`, place(hits.get('javascript')!.first)));
  if (hits.has('launch_action')) signals.push(pdfSignal('launch_action', `A launch action that starts a program or opens a file is in ${words('launch_action')}.`, place(hits.get('launch_action')!.first)));
  if (hits.has('submit_or_import_action')) signals.push(pdfSignal('submit_or_import_action', `Form submit or import actions are in ${words('submit_or_import_action')}.`, place(hits.get('submit_or_import_action')!.first)));
  if (hits.has('additional_actions')) signals.push(pdfSignal('additional_actions', `Additional actions (/AA, run on page or field events) are in ${words('additional_actions')}.`, place(hits.get('additional_actions')!.first)));
  if (hits.has('embedded_file')) signals.push(pdfSignal('embedded_file', `Files are embedded in ${words('embedded_file')}; what they contain is not inspected.`, place(hits.get('embedded_file')!.first)));
  if (hits.has('rich_media')) signals.push(pdfSignal('rich_media', `Rich media is in ${words('rich_media')}.`, place(hits.get('rich_media')!.first)));

  const openAction = state.root?.get(PDFName.of('OpenAction'));
  if (openAction !== undefined) {
    const actionDict = asDict(context.lookup(openAction));
    const kind = actionDict ? (nameOf(context, actionDict.get(PDFName.of('S'))) ?? 'action') : 'go to a page';
    const risky = kind === 'JavaScript' || kind === 'Launch';
    // A direct /OpenAction sits in the catalog: point there.
    const holder = openAction instanceof PDFRef ? refText(openAction) : rootObject(state);
    const where = holder ? place(holder) : {};
    signals.push(pdfSignal('open_action', `The document runs an /OpenAction (${kind}) when it is opened.`, where, risky ? 'medium' : 'info'));
  }
  const acroForm = asDict(lookup(context, state.root, 'AcroForm'));
  if (acroForm) {
    const formRef = state.root?.get(PDFName.of('AcroForm'));
    const form = formRef instanceof PDFRef ? refText(formRef) : rootObject(state);
    const formPlace = form ? place(form) : {};
    const fields = formFields(state);
    const filled = fields.filter((field) => field.dict.has(PDFName.of('V'))).length;
    signals.push(pdfSignal('acroform', `The document has an interactive form with ${fields.length} field(s), ${filled} with a value${form ? ` (its dictionary in ${form})` : ''}.`, formPlace));
    const xfa = acroForm.get(PDFName.of('XFA'));
    if (xfa !== undefined) {
      const parts = asArray(context.lookup(xfa));
      signals.push(pdfSignal('xfa_form', `The form also carries XFA${parts ? ` (${Math.floor(parts.size() / 2)} parts)` : ''}: XFA-aware viewers may show different content from the page content other viewers draw.`, xfa instanceof PDFRef ? place(refText(xfa)) : formPlace));
    }
  }
  const obfuscated = obfuscatedKeywords(text);
  if (obfuscated.length > 0) {
    signals.push(pdfSignal('name_obfuscation', `Keyword names are written with hex escapes (${obfuscated.slice(0, 5).map((hit) => hit.raw).join(', ')}), a way to hide them from simple scanners.`, { byte_offset: obfuscated[0]!.offset }));
  }
  return signals;
}

function rootObject(state: RevisionState): string | null {
  const root = state.context.trailerInfo.Root;
  return root instanceof PDFRef ? refText(root) : null;
}

const watchedNames = new Set(['JavaScript', 'JS', 'OpenAction', 'AA', 'Launch', 'EmbeddedFile', 'EmbeddedFiles', 'AcroForm', 'XFA', 'RichMedia', 'JBIG2Decode', 'ObjStm', 'URI', 'SubmitForm']);

function obfuscatedKeywords(text: string): { raw: string; offset: number }[] {
  const hits: { raw: string; offset: number }[] = [];
  for (const match of text.matchAll(/\/[A-Za-z0-9#]*#[0-9A-Fa-f]{2}[A-Za-z0-9#]*/g)) {
    const decoded = match[0].slice(1).replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (watchedNames.has(decoded)) hits.push({ raw: match[0], offset: match.index });
    if (hits.length >= 20) break;
  }
  return hits;
}
