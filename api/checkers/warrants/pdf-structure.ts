import type { Signal } from './signal.ts';
import { followPrevChain, xrefTableMismatches, type PdfLayout } from './pdf-layout.ts';
import { pdfSignal } from './pdf-signals.ts';

/** Signals about how the file's bytes are laid out: revisions, trailing bytes, cross-reference health. */
export function structureSignals(bytes: Uint8Array, layout: PdfLayout): Signal[] {
  const signals: Signal[] = [];
  if (layout.headerOffset > 0) {
    signals.push(pdfSignal('header_not_at_start', `${layout.headerOffset} bytes come before the %PDF header.`, { byte_offset: 0 }));
  }
  if (layout.trailingBytes > 0) {
    const lastEof = layout.eofMarkers.at(-1)!;
    signals.push(pdfSignal('bytes_after_last_eof', `${layout.trailingBytes} non-blank bytes follow the last %%EOF (at byte ${lastEof}); a reader ignores them, so they are hidden from view.`, { byte_offset: lastEof + 5 }));
  }
  if (layout.revisions.length === 0) {
    // Where the file stops: the ending a reader looks for is missing there.
    signals.push(pdfSignal('xref_missing', `No "startxref … %%EOF" ending was found (${layout.eofMarkers.length} %%EOF markers); the file is truncated or was not saved as a complete PDF.`, { byte_offset: layout.eofMarkers.at(-1) ?? Math.max(0, bytes.length - 1) }));
  }
  for (const revision of layout.revisions) {
    if (revision.xrefKind === 'missing') {
      signals.push(pdfSignal('startxref_invalid', `Revision ${revision.index}'s startxref names byte ${revision.xrefOffset}, where there is no cross-reference table or stream.`, { byte_offset: revision.startxrefAt, revision: revision.index }));
    }
  }
  // One stray entry is a careless writer; several mean the objects after an edit moved.
  for (const mismatch of xrefTableMismatches(bytes, layout)) {
    const first = mismatch.first!;
    signals.push(
      pdfSignal('xref_broken', `${mismatch.wrong} of ${mismatch.checked} entries in revision ${mismatch.revision}'s cross-reference table point where their object is not (first: object ${first.object} at byte ${first.offset}); bytes were changed after the file was written, or it is damaged.`, { byte_offset: first.offset, object: `${first.object} 0 R`, revision: mismatch.revision }, mismatch.wrong === 1 ? 'low' : 'medium'),
    );
  }
  const kinds = new Set(layout.revisions.map((revision) => revision.xrefKind).filter((kind) => kind !== 'missing'));
  const hybrid = layout.revisions.find((revision) => revision.xrefStm !== null);
  if (kinds.size > 1 || hybrid) {
    const detail = hybrid ? `revision ${hybrid.index}'s trailer also points to a cross-reference stream (/XRefStm ${hybrid.xrefStm})` : 'some revisions use classic tables and others cross-reference streams, as happens when a different program saved a later revision';
    signals.push(pdfSignal('xref_mixed', `Cross-reference tables and streams are mixed: ${detail}.`, { byte_offset: (hybrid ?? layout.revisions[0]!).xrefOffset }));
  }
  const chain = followPrevChain(bytes, layout);
  if (chain.problem) {
    const what = { cycle: 'loops back to an offset already visited', dangling: 'points to an offset with no cross-reference section', too_long: 'is longer than 64 links' }[chain.problem];
    signals.push(pdfSignal('prev_chain_broken', `The /Prev chain of the last cross-reference section ${what} (byte ${chain.at}); a reader has to rebuild the object table.`, { byte_offset: chain.at ?? undefined }));
  }
  if (layout.linearized) signals.push(pdfSignal('linearized', 'The file is linearised (saved for fast web view); its first-page cross-reference section is not counted as an update.', { byte_offset: layout.headerOffset }));
  if (layout.objectStreams > 0 && layout.firstObjectStream) {
    const first = layout.firstObjectStream;
    signals.push(pdfSignal('object_streams', `${layout.objectStreams} compressed object streams hold objects (the first is ${first.object}); they are read like any other object.`, { object: first.object, byte_offset: first.offset }));
  }
  if (layout.encrypted && layout.encryptAt !== null) signals.push(pdfSignal('encrypted', 'The file is encrypted: strings and streams cannot be read without its key, so text and metadata checks cover less.', { byte_offset: layout.encryptAt }));
  return signals;
}
