import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendUpdate, buildPdf, type ObjectSpec } from '../../../test/helpers/pdf-files.ts';
import { inspectPdf, type PdfInspection } from './pdf-inspect.ts';

/**
 * The difference analysis after signing on hand-written files: a one-page form whose text field "Name" is
 * drawn by stream 21, which the page also draws as its XObject /X (one object, two uses), signed in
 * revision 1. Each test appends one update and reads the signature's level and verdict.
 */
const widget = (value: string, appearance: number): string => `<< /Type /Annot /Subtype /Widget /FT /Tx /T (Name) /V (${value}) /Rect [72 700 272 720] /P 5 0 R /AP << /N ${appearance} 0 R >> >>`;
const appearance = (text: string): string => `BT /F1 10 Tf 2 5 Td (${text}) Tj ET`;
const formDict = '<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 3 0 R >> >> >>';

function form(): Uint8Array {
  const objects: ObjectSpec[] = [
    { num: 1, body: '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R] >> >>' },
    { num: 2, body: '<< /Type /Pages /Kids [5 0 R] /Count 1 >>' },
    { num: 3, body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
    { num: 5, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> /XObject << /X 21 0 R >> >> /Contents 6 0 R /Annots [20 0 R] >>' },
    { num: 6, body: '<< >>', stream: 'q 1 0 0 1 72 600 cm /X Do Q BT /F1 12 Tf 72 760 Td (Invoice 1042) Tj ET' },
    { num: 20, body: widget('Alice', 21) },
    { num: 21, body: formDict, stream: appearance('Alice') },
  ];
  return buildPdf(objects, '/Size 22 /Root 1 0 R');
}

/** Signs `bytes` in a new revision: `reference` goes into the signature dictionary, `catalog` into the catalog. */
function sign(bytes: Uint8Array, reference = '', catalog = ''): Uint8Array {
  const contents = `<${'0'.repeat(64)}>`;
  const placeholder = '/ByteRange [0 0000000000 0000000000 0000000000]';
  const update = appendUpdate(
    bytes,
    [
      { num: 1, body: `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R 31 0 R] /SigFlags 3 >> ${catalog} >>` },
      { num: 5, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> /XObject << /X 21 0 R >> >> /Contents 6 0 R /Annots [20 0 R 31 0 R] >>' },
      { num: 30, body: `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached ${reference} ${placeholder} /Contents ${contents} >>` },
      { num: 31, body: '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /V 30 0 R /F 132 /Rect [0 0 0 0] /P 5 0 R >>' },
    ],
    '/Size 32 /Root 1 0 R',
  );
  const text = Buffer.from(update).toString('latin1');
  const from = text.indexOf(`/Contents ${contents}`) + '/Contents '.length;
  const to = from + contents.length;
  const range = `/ByteRange [0 ${String(from).padStart(10, '0')} ${String(to).padStart(10, '0')} ${String(text.length - to).padStart(10, '0')}]`;
  return Buffer.from(text.replace(placeholder, range), 'latin1');
}

async function inspect(bytes: Uint8Array): Promise<PdfInspection> {
  return inspectPdf(bytes, { now: '2026-11-24T00:00:00Z' });
}

const fill = (signed: Uint8Array): Uint8Array => appendUpdate(signed, [{ num: 20, body: widget('Bob', 40) }, { num: 40, body: formDict, stream: appearance('Bob') }], '/Size 41 /Root 1 0 R');

function verdict(inspection: PdfInspection): { severity: string | undefined; notPermitted: string[] } {
  return {
    severity: inspection.signals.find((signal) => signal.code === 'modified_after_signing')?.severity,
    notPermitted: inspection.signals.filter((signal) => signal.code === 'change_not_permitted').map((signal) => signal.where.object!),
  };
}

test('an untouched signed form: the byte range covers the whole file, nothing after it', async () => {
  const result = await inspect(sign(form()));
  assert.equal(result.signatures.length, 1);
  assert.deepEqual([result.signatures[0]!.coverage.kind, result.signatures[0]!.level], ['whole_file', 'NONE']);
});

test('filling the field after an approval signature is FORM_FILLING, permitted and low', async () => {
  const result = await inspect(fill(sign(form())));
  const signature = result.signatures[0]!;
  assert.deepEqual([signature.coverage.kind, signature.level, signature.allowed, signature.permitted], ['revision', 'FORM_FILLING', 'ANNOTATIONS', true]);
  assert.deepEqual(verdict(result), { severity: 'low', notPermitted: [] });
});

test('rewriting in place a stream the page also draws is OTHER, whatever the field it serves', async () => {
  const clobbered = appendUpdate(sign(form()), [{ num: 20, body: widget('Bob', 21) }, { num: 21, body: formDict, stream: appearance('Bob') }], '/Size 32 /Root 1 0 R');
  const result = await inspect(clobbered);
  assert.equal(result.signatures[0]!.level, 'OTHER');
  const change = result.signatures[0]!.differences[0]!.changes.find((item) => item.object === '21 0 R');
  assert.equal(change?.what, 'page_resources');
  assert.deepEqual(verdict(result), { severity: 'high', notPermitted: ['21 0 R'] });
});

test('a new appearance showing other text while the value stays is OTHER', async () => {
  const redrawn = appendUpdate(sign(form()), [{ num: 20, body: widget('Alice', 40) }, { num: 40, body: formDict, stream: appearance('Mallory') }], '/Size 41 /Root 1 0 R');
  const result = await inspect(redrawn);
  assert.equal(result.signatures[0]!.level, 'OTHER');
  assert.match(result.signatures[0]!.differences[0]!.changes.find((item) => item.object === '20 0 R')?.reason ?? '', /now shows "Mallory" where it showed "Alice"/);
});

test('a certification with DocMDP P=1 forbids filling the field', async () => {
  const certified = sign(form(), '/Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 1 /V /1.2 >> >>]', '/Perms << /DocMDP 30 0 R >>');
  const result = await inspect(fill(certified));
  const signature = result.signatures[0]!;
  assert.deepEqual([signature.level, signature.allowed, signature.permitted], ['FORM_FILLING', 'LTA_UPDATES', false]);
  assert.equal(verdict(result).severity, 'high');
  assert.ok(verdict(result).notPermitted.includes('20 0 R'));
});

test('a FieldMDP lock on the field forbids filling it; a lock on another field does not', async () => {
  const lock = (fields: string): string => `/Reference [<< /Type /SigRef /TransformMethod /FieldMDP /TransformParams << /Type /TransformParams /Action /Include /Fields [${fields}] /V /1.2 >> >>]`;
  const locked = await inspect(fill(sign(form(), lock('(Name)'))));
  assert.deepEqual([locked.signatures[0]!.level, locked.signatures[0]!.permitted], ['OTHER', false]);
  assert.deepEqual(locked.signatures[0]!.lockViolations.map((violation) => violation.field), ['Name']);
  const other = await inspect(fill(sign(form(), lock('(Address)'))));
  assert.deepEqual([other.signatures[0]!.level, other.signatures[0]!.permitted], ['FORM_FILLING', true]);
});

test('adding validation data (a DSS with a certificate) is LTA_UPDATES', async () => {
  const extended = appendUpdate(
    sign(form()),
    [
      { num: 1, body: '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [20 0 R 31 0 R] /SigFlags 3 >> /DSS 50 0 R >>' },
      { num: 50, body: '<< /Type /DSS /Certs [51 0 R] >>' },
      { num: 51, body: '<< >>', stream: 'certificate bytes' },
    ],
    '/Size 52 /Root 1 0 R',
  );
  const result = await inspect(extended);
  assert.deepEqual([result.signatures[0]!.level, result.signatures[0]!.permitted], ['LTA_UPDATES', true]);
});

test('a page added after signing is OTHER: the page tree changed', async () => {
  const added = appendUpdate(sign(form()), [{ num: 2, body: '<< /Type /Pages /Kids [5 0 R 60 0 R] /Count 2 >>' }, { num: 60, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 6 0 R >>' }], '/Size 61 /Root 1 0 R');
  const result = await inspect(added);
  assert.equal(result.signatures[0]!.level, 'OTHER');
  assert.ok(verdict(result).notPermitted.includes('2 0 R'));
});
