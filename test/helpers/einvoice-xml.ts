import { inflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { embeddedFileStream } from '../../api/checkers/warrants/pdf-einvoice.ts';
import { loadRevisionState } from '../../api/checkers/warrants/pdf-objects.ts';

/** The names the Factur-X, ZUGFeRD and XRechnung specifications give the attachment. */
const attachmentNames = ['factur-x.xml', 'ZUGFeRD-invoice.xml', 'zugferd-invoice.xml', 'xrechnung.xml'];

/** The embedded e-invoice's stream in a loaded copy, with its XML; null when it has none. */
export async function embeddedInvoiceXml(bytes: Uint8Array, document: PDFDocument): Promise<{ ref: PDFRef; stream: PDFRawStream; xml: string } | null> {
  const state = await loadRevisionState(bytes);
  for (const name of attachmentNames) {
    const object = embeddedFileStream(state, name);
    if (!object) continue;
    const ref = PDFRef.of(Number(object.split(' ')[0]), Number(object.split(' ')[1]));
    const stream = document.context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    const filter = stream.dict.get(PDFName.of('Filter'));
    return { ref, stream, xml: new TextDecoder().decode(filter ? inflateSync(stream.contents) : stream.contents) };
  }
  return null;
}

/** The file with its embedded XML replaced by `rewrite`'s (stored unfiltered), saved whole by pdf-lib; null when it has none or `rewrite` gives null. */
export async function withEmbeddedXmlRewritten(bytes: Uint8Array, rewrite: (xml: string) => string | null): Promise<Uint8Array | null> {
  const document = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  const embedded = await embeddedInvoiceXml(bytes, document);
  const rewritten = embedded && rewrite(embedded.xml);
  if (!embedded || rewritten === null) return null;
  const dict = embedded.stream.dict.clone(document.context);
  dict.delete(PDFName.of('Filter'));
  dict.delete(PDFName.of('DecodeParms'));
  const contents = new TextEncoder().encode(rewritten);
  dict.set(PDFName.of('Length'), document.context.obj(contents.length));
  document.context.assign(embedded.ref, PDFRawStream.of(dict, contents));
  return document.save({ useObjectStreams: false, updateFieldAppearances: false });
}
