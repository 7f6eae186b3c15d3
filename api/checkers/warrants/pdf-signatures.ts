import { PDFDict, PDFName } from 'pdf-lib';
import type { Signal, SignalSeverity } from './signal.ts';
import type { PdfLayout } from './pdf-layout.ts';
import { numbersOf, textOf, nameOf, type RevisionState } from './pdf-objects.ts';
import { refText } from './pdf-revisions.ts';
import { changeWords, type ChangeKind, type UpdateFindings } from './pdf-updates.ts';
import { pdfSignal } from './pdf-signals.ts';

/** Change kinds that alter what a page shows: after signing they make the change `high`. */
const contentKinds = new Set<ChangeKind>(['page_text', 'page_content', 'page_count']);
/** Change kinds that signing workflows make on their own (form filling, annotation, further signatures, LTV data). */
const workflowKinds = new Set<ChangeKind>(['form_values', 'annotations', 'signatures', 'security_store', 'info', 'metadata_stream']);

/**
 * Digital signatures and what changed after each was applied. Coverage follows pyHanko's levels: a
 * signature whose /ByteRange ends at the end of the file covers it all; one ending at an earlier revision's
 * %%EOF signed that revision and later updates were added after signing; anything else is unclear. The
 * signature's cryptography is not verified here.
 */
export function signatureSignals(bytes: Uint8Array, layout: PdfLayout, state: RevisionState, updates: UpdateFindings[], objectOffset: (object: string) => number | undefined): Signal[] {
  const signals: Signal[] = [];
  const { context } = state;
  let fileEnd = bytes.length;
  while (fileEnd > 0 && isBlank(bytes[fileEnd - 1]!)) fileEnd -= 1;
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : null;
    if (!dict?.has(PDFName.of('ByteRange'))) continue;
    const object_ = refText(ref);
    const where = { object: object_, byte_offset: objectOffset(object_) };
    const range = numbersOf(context, dict.get(PDFName.of('ByteRange')));
    const name = textOf(context, dict.get(PDFName.of('Name')));
    const signedAt = textOf(context, dict.get(PDFName.of('M')));
    const signer = [name ? `by ${name}` : null, signedAt ? `dated ${signedAt}` : null].filter(Boolean).join(', ') || 'no signer name or date';
    const kind = nameOf(context, dict.get(PDFName.of('Type'))) === 'DocTimeStamp' ? 'document timestamp' : 'signature';
    if (!range || range.length !== 4 || range[0] !== 0 || range[1]! >= range[2]! || bytes[range[1]!] !== 0x3c || bytes[range[2]! - 1] !== 0x3e) {
      signals.push(pdfSignal('signature_coverage_unclear', `The ${kind} in ${object_} has a /ByteRange ${JSON.stringify(range)} that does not cover the file from its first byte with only the signature value left out.`, where));
      continue;
    }
    const signedEnd = range[2]! + range[3]!;
    if (signedEnd >= fileEnd && signedEnd <= bytes.length) {
      signals.push(pdfSignal('digital_signature', `A ${kind} (${signer}) in ${object_} covers the whole file (bytes 0–${signedEnd} except its own value); its certificate and cryptography are not checked here.`, where));
      continue;
    }
    const signedRevision = layout.revisions.find((revision) => signedEnd >= revision.end && signedEnd <= revision.end + 2);
    if (!signedRevision) {
      signals.push(pdfSignal('signature_coverage_unclear', `The ${kind} in ${object_} signs bytes 0–${signedEnd}, which is not where any saved revision ends; ${bytes.length - signedEnd} bytes of the file are outside it.`, { ...where, byte_offset: signedEnd }));
      continue;
    }
    signals.push(pdfSignal('digital_signature', `A ${kind} (${signer}) in ${object_} signs revision ${signedRevision.index} (bytes 0–${signedEnd}); its certificate and cryptography are not checked here.`, { ...where, revision: signedRevision.index }));
    const later = updates.filter((update) => update.revision > signedRevision.index);
    const kinds = new Set(later.flatMap((update) => update.kinds));
    const severity: SignalSeverity = [...kinds].some((kind) => contentKinds.has(kind)) ? 'high' : [...kinds].every((kind) => workflowKinds.has(kind)) ? 'low' : 'medium';
    const what = kinds.size === 0 ? 'nothing a reader shows' : [...kinds].map((kind) => changeWords[kind]).join(', ');
    const reading = severity === 'high' ? 'what the signer saw is not what the file now shows' : severity === 'low' ? 'consistent with form filling, annotation or a further signature' : 'objects outside forms and annotations changed';
    signals.push(
      pdfSignal('modified_after_signing', `${bytes.length - signedEnd} bytes in ${later.length} update(s) were added after the ${kind} in ${object_} was applied; they changed ${what}: ${reading}.`, { byte_offset: signedEnd, revision: signedRevision.index + 1, object: object_ }, severity),
    );
  }
  return signals;
}

function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x00;
}
