import { PDFHexString, PDFName, PDFNumber, PDFOperator, PDFOperatorNames, PDFString, type PDFDocument } from 'pdf-lib';
import { cents, money, renderSpec, textWithRole, withText, type DocumentSpec, type Step } from './documents.ts';
import { withExifSegment } from './exif.ts';
import { crop, decodeJpeg, encodeJpeg, exifDate, paint, type CameraShot } from './images.ts';
import { appendChanges, appendContentFrom } from './pdf-update.ts';

/**
 * The kinds of edit the corpus applies to clean originals, each with the signal codes it is expected to
 * raise. A PDF edit starts from a clean spec (and its rendered bytes); an image edit from a camera shot.
 */

/** The time the corpus is inspected at (dates after it are "in the future"). */
export const corpusNow = '2026-01-15T00:00:00.000Z';

export interface PdfEdit {
  kind: string;
  target: 'pdf';
  expected: string[];
  /** Which clean documents this edit makes sense on. */
  fits: (spec: DocumentSpec) => boolean;
  apply: (spec: DocumentSpec, original: Uint8Array) => Promise<Uint8Array>;
}

export interface ImageEdit {
  kind: string;
  target: 'image';
  expected: string[];
  apply: (shot: CameraShot) => Promise<Uint8Array>;
}

export type Edit = PdfEdit | ImageEdit;

/** The text a forger would put in place of `text`: a figure raised, or another name. */
function altered(text: string): string {
  const figure = /\$([\d,]+)\.(\d{2})/.exec(text);
  if (figure) {
    const value = Number(figure[1]!.replaceAll(',', '')) + 1000 + Number(figure[2]) / 100;
    return text.replace(figure[0], money(cents(value)));
  }
  // A name: another first name of the same length, so the forged line sits where the original did.
  const first = /^\S+/.exec(text)?.[0] ?? '';
  const names = ['Ava', 'Noah', 'Chloe', 'Harper', 'Abigail', 'Isabella', 'Charlotte'];
  return text.replace(first, names.find((name) => name.length === first.length && name !== first) ?? 'Alexandra');
}

/** The role whose text the edit changes: the total of an invoice, else the document's key figure or name. */
const keyRole = (spec: DocumentSpec): string => (spec.type === 'invoice' ? 'total' : 'amount');

const isInvoice = (spec: DocumentSpec): boolean => spec.type === 'invoice';
const any = (): boolean => true;
const hasXmp = (spec: DocumentSpec): boolean => spec.producer.xmp;
/** Creators that generate documents from records (the engine's generator list), so an editor as producer is a mismatch. */
const generatorCreator = (spec: DocumentSpec): boolean => /word|writer|myob|bi publisher|crystal|quickbooks/i.test(spec.producer.creator);

/** A text step at the key figure's place, with the key figure's size and alignment. */
function overKeyText(spec: DocumentSpec, text: string): Step {
  const key = textWithRole(spec, keyRole(spec));
  return { ...key, text, role: 'overdrawn' };
}

/**
 * Covers the key figure with a white rectangle and draws the replacement text on top. Half the copies
 * draw the box with `re` + `f` (Acrobat's white-out), half point by point as pdf-lib's drawRectangle does
 * (the online editors built on it).
 */
function coverKeyText(spec: DocumentSpec): Step[] {
  const key = textWithRole(spec, keyRole(spec));
  const width = key.text.length * key.size * 0.62;
  const x = key.align === 'right' ? key.x - width : key.align === 'center' ? key.x - width / 2 : key.x;
  const box = { x: x - 3, y: key.y - 3, width: width + 6, height: key.size + 5 };
  const number = (value: number): PDFNumber => PDFNumber.of(Math.round(value * 100) / 100);
  const cover: Step =
    spec.seed % 2 === 0
      ? { kind: 'rect', ...box, fill: [1, 1, 1] }
      : {
          kind: 'operators',
          operators: [
            PDFOperator.of(PDFOperatorNames.PushGraphicsState),
            PDFOperator.of(PDFOperatorNames.NonStrokingColorRgb, [number(1), number(1), number(1)]),
            PDFOperator.of(PDFOperatorNames.AppendRectangle, [number(box.x), number(box.y), number(box.width), number(box.height)]),
            PDFOperator.of(PDFOperatorNames.FillNonZero),
            PDFOperator.of(PDFOperatorNames.PopGraphicsState),
          ],
        };
  return [cover, { ...key, text: altered(key.text), role: 'cover-text' }];
}

function lastPage(spec: DocumentSpec, steps: Step[]): DocumentSpec {
  const key = keyRole(spec);
  const page = spec.pages.findIndex((items) => items.some((step) => step.kind === 'text' && step.role === key));
  return { ...spec, pages: spec.pages.map((items, index) => (index === page ? [...items, ...steps] : items)) };
}

const later = (date: Date, days: number): Date => new Date(date.getTime() + days * 86_400_000);

export const pdfEdits: PdfEdit[] = [
  {
    kind: 'incremental_text_change',
    target: 'pdf',
    expected: ['page_text_changed'],
    fits: any,
    apply: async (spec, original) => appendContentFrom(original, await renderSpec(withText(spec, keyRole(spec), altered(textWithRole(spec, keyRole(spec)).text)))),
  },
  {
    kind: 'white_box_over_text',
    target: 'pdf',
    expected: ['white_box_over_text'],
    fits: any,
    apply: async (spec) => renderSpec(lastPage(spec, coverKeyText(spec))),
  },
  {
    kind: 'text_over_text',
    target: 'pdf',
    expected: ['text_over_text'],
    fits: any,
    apply: async (spec) => renderSpec(lastPage(spec, [overKeyText(spec, altered(textWithRole(spec, keyRole(spec)).text))])),
  },
  {
    kind: 'info_xmp_mismatch',
    target: 'pdf',
    expected: ['info_xmp_mismatch'],
    fits: hasXmp,
    apply: async (spec) => renderSpec({ ...spec, info: { producer: 'Microsoft® Word 2016', creator: 'Microsoft® Word 2016' } }),
  },
  {
    kind: 'moddate_before_creation',
    target: 'pdf',
    expected: ['moddate_before_creation'],
    fits: (spec) => !spec.producer.xmp,
    apply: async (spec) => renderSpec({ ...spec, modified: later(spec.created, -3) }),
  },
  {
    kind: 'future_date',
    target: 'pdf',
    expected: ['future_date'],
    fits: (spec) => !spec.producer.xmp,
    apply: async (spec) => renderSpec({ ...spec, modified: new Date(Date.parse(corpusNow) + 200 * 86_400_000) }),
  },
  {
    kind: 'editor_producer',
    target: 'pdf',
    expected: ['editor_software', 'producer_creator_mismatch'],
    fits: (spec) => generatorCreator(spec) && !spec.producer.xmp,
    apply: async (spec) => renderSpec({ ...spec, info: { producer: ['iLovePDF', 'Smallpdf.com', 'Sejda PDF Desktop (https://www.sejda.com)', 'PDF24 Tools'][spec.seed % 4]! }, modified: later(spec.created, 20) }),
  },
  {
    kind: 'touchup_text_edit',
    target: 'pdf',
    expected: ['touchup_text_edit'],
    fits: any,
    apply: async (spec) =>
      renderSpec(
        lastPage(withText(spec, keyRole(spec), altered(textWithRole(spec, keyRole(spec)).text)), [
          { kind: 'operators', operators: [PDFOperator.of(PDFOperatorNames.MarkedContentPoint, [PDFName.of('TouchUp_TextEdit')])] },
        ]),
      ),
  },
  {
    kind: 'font_subset_duplicate',
    target: 'pdf',
    expected: ['font_subset_duplicate'],
    fits: any,
    apply: async (spec) => {
      const key = textWithRole(spec, keyRole(spec));
      // The original figure set in one subset of Arial, the replacement in a second subset of the same font.
      const draw = (font: string, text: string, x: number, y: number): PDFOperator[] => [
        PDFOperator.of(PDFOperatorNames.BeginText),
        PDFOperator.of(PDFOperatorNames.SetFontAndSize, [PDFName.of(font), PDFNumber.of(key.size)]),
        PDFOperator.of(PDFOperatorNames.MoveText, [PDFNumber.of(x), PDFNumber.of(y)]),
        PDFOperator.of(PDFOperatorNames.ShowText, [PDFString.of(text)]),
        PDFOperator.of(PDFOperatorNames.EndText),
      ];
      const fonts = { FA1: 'ABCDEF+ArialMT', FA2: 'QRSTUV+ArialMT' };
      const x = key.align === 'left' || !key.align ? key.x : key.x - key.text.length * key.size * 0.55;
      return renderSpec({
        ...lastPage(withText(spec, keyRole(spec), ''), [{ kind: 'operators', operators: [...draw('FA1', 'Ref.', 50, 60), ...draw('FA2', altered(key.text), x, key.y)] }]),
        extraFonts: fonts,
      });
    },
  },
  {
    kind: 'javascript_added',
    target: 'pdf',
    expected: ['javascript'],
    fits: any,
    apply: async (_spec, original) =>
      appendChanges(original, (document: PDFDocument) => {
        const action = document.context.register(document.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of("app.alert('Please enable editing to view this document.');") }));
        document.catalog.set(PDFName.of('OpenAction'), action);
      }),
  },
  {
    kind: 'embedded_file_added',
    target: 'pdf',
    expected: ['embedded_file'],
    fits: any,
    apply: async (spec) =>
      renderSpec(spec, {
        finish: async (document) => {
          await document.attach(new TextEncoder().encode('Amount,Due\n1200.00,2025-03-01\n'), 'figures.csv', { mimeType: 'text/csv', creationDate: spec.created, modificationDate: spec.created });
        },
      }),
  },
  {
    kind: 'signed_then_changed',
    target: 'pdf',
    expected: ['modified_after_signing', 'page_text_changed'],
    fits: any,
    apply: async (spec, original) => {
      const signed = await signRevision(original, spec);
      return appendContentFrom(signed, await renderSpec(withText(spec, keyRole(spec), altered(textWithRole(spec, keyRole(spec)).text))));
    },
  },
  {
    kind: 'exiftool_update',
    target: 'pdf',
    expected: ['exiftool_update'],
    fits: any,
    apply: async (spec, original) =>
      appendChanges(
        original,
        (document) => {
          document.setAuthor('Accounts Department');
          document.setModificationDate(later(spec.modified, 2));
        },
        { prefix: '%BeginExifToolUpdate\n' },
      ),
  },
  {
    kind: 'invoice_total_altered',
    target: 'pdf',
    expected: ['arith_total_mismatch'],
    fits: isInvoice,
    apply: async (spec) => renderSpec(withText(spec, 'total', altered(textWithRole(spec, 'total').text))),
  },
  {
    kind: 'gst_wrong',
    target: 'pdf',
    expected: ['arith_gst_not_ten_percent'],
    fits: isInvoice,
    apply: async (spec) => {
      const subtotal = Number(textWithRole(spec, 'subtotal').text.replace(/[$,]/g, ''));
      const gst = cents(subtotal * 0.125);
      return renderSpec(withText(withText(spec, 'gst', money(gst)), 'total', money(cents(subtotal + gst))));
    },
  },
  {
    kind: 'line_item_altered',
    target: 'pdf',
    expected: ['arith_line_item_mismatch', 'arith_items_subtotal_mismatch'],
    fits: isInvoice,
    apply: async (spec) => renderSpec(withText(spec, 'item-amount-0', altered(textWithRole(spec, 'item-amount-0').text))),
  },
];

/**
 * Appends a signature revision: a signature field on page 1 whose /ByteRange covers the whole file as it
 * then stood except its /Contents (zeros: the cryptography is not what the corpus tests).
 */
export async function signRevision(original: Uint8Array, spec: DocumentSpec): Promise<Uint8Array> {
  const placeholder = '/ByteRange [0 0000000000 0000000000 0000000000]';
  const contents = `<${'0'.repeat(2048)}>`;
  const prepared = await appendChanges(original, (document) => {
    const signature = document.context.register(
      document.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached', Name: PDFString.of(spec.author), M: PDFString.fromDate(later(spec.modified, 1)), Contents: PDFHexString.of('00'), ByteRange: [0, 0, 0, 0] }),
    );
    const page = document.getPage(0);
    const field = document.context.register(
      document.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Signature1'), V: signature, F: 132, Rect: [0, 0, 0, 0], P: page.ref }),
    );
    page.node.set(PDFName.of('Annots'), document.context.obj([field]));
    document.catalog.set(PDFName.of('AcroForm'), document.context.obj({ Fields: [field], SigFlags: 3 }));
  });
  // Swap the short placeholders pdf-lib wrote for fixed-width ones, then fill in the real byte range.
  let text = Buffer.from(prepared).toString('latin1');
  const start = original.length;
  const tail = text.slice(start).replace(/\/Contents <00>/, `/Contents ${contents}`).replace(/\/ByteRange \[ 0 0 0 0 \]/, placeholder);
  text = text.slice(0, start) + fixXref(tail, start);
  const from = text.indexOf(`/Contents ${contents}`) + '/Contents '.length;
  const to = from + contents.length;
  const range = `/ByteRange [0 ${String(from).padStart(10, '0')} ${String(to).padStart(10, '0')} ${String(text.length - to).padStart(10, '0')}]`;
  return Buffer.from(text.replace(placeholder, range), 'latin1');
}

/** Recomputes the object offsets of an appended section after its objects changed length. */
function fixXref(section: string, base: number): string {
  // The section's own xref keyword starts a line; the later 'startxref' must not be taken for it.
  const xrefAt = section.lastIndexOf('\nxref\n') + 1;
  const body = section.slice(0, xrefAt);
  const offsets = new Map<string, number>();
  for (const match of body.matchAll(/(\d+) (\d+) obj\n/g)) offsets.set(match[1]!, base + match.index);
  const xref = section
    .slice(xrefAt)
    .replace(/^(\d+) 1\n\d{10}/gm, (_, num: string) => `${num} 1\n${String(offsets.get(num)).padStart(10, '0')}`)
    .replace(/startxref\n\d+/, `startxref\n${base + xrefAt}`);
  return body + xref;
}

/** The XMP APP1 segment (Adobe's namespace header) inserted after the JPEG's first segment. */
export function withXmpSegment(jpeg: Uint8Array, packet: string): Uint8Array {
  const payload = Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(packet, 'utf8')]);
  const header = Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), header, payload, jpeg.subarray(2)]);
}

const photoshopHistory = (when: string): string =>
  [
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/">',
    '<xmpMM:History><rdf:Seq>',
    `<rdf:li rdf:parseType="Resource"><stEvt:action>saved</stEvt:action><stEvt:when>${when}</stEvt:when><stEvt:softwareAgent>Adobe Photoshop 25.0 (Windows)</stEvt:softwareAgent><stEvt:changed>/</stEvt:changed></rdf:li>`,
    '</rdf:Seq></xmpMM:History>',
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
  ].join('');

const shiftExifDate = (date: string, days: number): string => exifDate(Date.parse(`${date.slice(0, 10).replace(/:/g, '-')}T${date.slice(11)}Z`) + days * 86_400_000);

export const imageEdits: ImageEdit[] = [
  {
    kind: 'image_editor_resave',
    target: 'image',
    expected: ['image_editor_software', 'jpeg_tables_not_camera'],
    apply: async (shot) => {
      const software = ['Adobe Photoshop 25.0 (Windows)', 'GIMP 2.10.36', 'Snapseed 2.0', 'Adobe Photoshop Lightroom Classic 13.0'][shot.quality % 4]!;
      const resaved = await encodeJpeg(await decodeJpeg(shot.jpeg), { quality: 92 });
      return withExifSegment(resaved, { ...shot.exif, software, modifyDate: shiftExifDate(shot.exif.dateTimeOriginal!, 2) });
    },
  },
  {
    kind: 'image_crop_stale_size',
    target: 'image',
    expected: ['image_dimensions_mismatch'],
    apply: async (shot) => {
      const { width, height } = shot.picture;
      const cropped = crop(await decodeJpeg(shot.jpeg), Math.round(width * 0.1), Math.round(height * 0.1), Math.round(width * 0.8), Math.round(height * 0.8));
      const { thumbnail: _dropped, ...exif } = shot.exif;
      return withExifSegment(await encodeJpeg(cropped, { quality: 90 }), exif);
    },
  },
  {
    kind: 'image_thumbnail_stale',
    target: 'image',
    expected: ['image_thumbnail_mismatch'],
    apply: async (shot) => {
      const { width, height } = shot.picture;
      const covered = paint(await decodeJpeg(shot.jpeg), Math.round(width * 0.3), Math.round(height * 0.2), Math.round(width * 0.55), Math.round(height * 0.6), [30, 34, 40]);
      return withExifSegment(await encodeJpeg(covered, { quality: shot.quality, quantisationTable: 8 }), shot.exif);
    },
  },
  {
    kind: 'image_double_jpeg',
    target: 'image',
    expected: ['jpeg_double_compression', 'jpeg_tables_not_camera'],
    apply: async (shot) => withExifSegment(await encodeJpeg(await decodeJpeg(shot.jpeg), { quality: 96 }), { ...shot.exif, software: undefined }),
  },
  {
    kind: 'image_dates_edited',
    target: 'image',
    expected: ['image_dates_inconsistent'],
    apply: async (shot) => withExifSegment(shot.jpeg, { ...shot.exif, dateTimeOriginal: shiftExifDate(shot.exif.dateTimeOriginal!, 9) }),
  },
  {
    kind: 'image_future_date',
    target: 'image',
    expected: ['image_future_date'],
    apply: async (shot) => {
      const future = exifDate(Date.parse(corpusNow) + 120 * 86_400_000);
      return withExifSegment(shot.jpeg, { ...shot.exif, dateTimeOriginal: future, dateTimeDigitized: future, modifyDate: future });
    },
  },
  {
    kind: 'image_xmp_history',
    target: 'image',
    expected: ['image_xmp_edit_history'],
    apply: async (shot) => withXmpSegment(withExifSegment(shot.jpeg, shot.exif), photoshopHistory('2025-03-02T10:15:00+11:00')),
  },
];

