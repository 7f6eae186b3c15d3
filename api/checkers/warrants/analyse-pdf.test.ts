import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { appendUpdate, simplePdf, textLines } from '../../../test/helpers/pdf-files.ts';
import { analyseWarrant } from './analyse.ts';
import type { WarrantAnalysis } from './bundle.ts';
import { INSPECTION_VERSION } from './version.ts';

const now = '2026-03-01T00:00:00Z';

async function inspect(bytes: Uint8Array): Promise<WarrantAnalysis> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return analyseWarrant([{ bytes, sha256, kind: 'pdf', mime: 'application/pdf', filename: 'test.pdf' }], {}, { now });
}

/** The fastest of four runs: a baseline measured in the test that uses it, with the first call's warm-up left out. */
async function fastestMs(run: () => Promise<unknown>): Promise<number> {
  let fastest = Infinity;
  for (let attempt = 0; attempt < 4; attempt++) {
    const started = performance.now();
    await run();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

function signal(result: WarrantAnalysis, code: string) {
  const found = result.signals.find((item) => item.code === code);
  assert.ok(found, `expected ${code} among ${result.signals.map((item) => item.code).join(', ')}`);
  return found;
}

function codes(result: WarrantAnalysis): string[] {
  return result.signals.map((item) => item.code);
}

const invoice = textLines(['TAX INVOICE 2041', 'Harbour Plumbing Pty Ltd', 'Labour 2 hours 220.00', 'Total due 1200.00']);
const clean = simplePdf({ pages: [invoice] });
const trailer = '/Root 1 0 R /Info 4 0 R /Size 40';

test('a clean single-revision PDF is low, read in full, with no tampering or metadata signal', async () => {
  const result = await inspect(clean);
  assert.equal(result.risk_band, 'low');
  assert.equal(result.inspection_quality, 'full');
  assert.equal(result.inspection_version, INSPECTION_VERSION);
  assert.equal(result.summary.revisions, 1);
  assert.equal(result.summary.pages, 1);
  assert.equal(result.summary.producer, 'Test Writer 1.0');
  assert.deepEqual(result.signals.filter((item) => item.group !== 'structure'), []);
  assert.match(result.summary.band_rule, /Applied: low/);
});

test('page text changed by an incremental update is high and names the words removed and added', async () => {
  const edited = appendUpdate(clean, [{ num: 6, body: '<< >>', stream: invoice.replace('1200.00', '7200.00') }], trailer);
  const result = await inspect(edited);
  assert.equal(result.risk_band, 'high');
  assert.equal(result.summary.revisions, 2);
  const changed = signal(result, 'page_text_changed');
  assert.equal(changed.severity, 'high');
  assert.deepEqual({ page: changed.where.page, revision: changed.where.revision, object: changed.where.object }, { page: 1, revision: 1, object: '6 0 R' });
  assert.equal(changed.where.byte_offset, clean.length);
  assert.match(changed.found, /removed "1200\.00", added "7200\.00"/);
  assert.match(signal(result, 'incremental_update').found, /1 redefined objects; it changed page text/);
});

test('a drawing change that leaves the text alone is medium, not high', async () => {
  const edited = appendUpdate(clean, [{ num: 6, body: '<< >>', stream: `${invoice}\n0 0 1 rg 300 300 20 20 re f` }], trailer);
  const result = await inspect(edited);
  assert.equal(signal(result, 'page_content_changed').severity, 'medium');
  assert.equal(result.risk_band, 'medium');
});

const form = simplePdf({
  pages: [invoice],
  catalog: '/AcroForm << /Fields [20 0 R] >>',
  page: '/Annots [20 0 R]',
  objects: [{ num: 20, body: '<< /Type /Annot /Subtype /Widget /FT /Tx /T (Amount) /V (100.00) /Rect [300 600 400 620] /P 5 0 R >>' }],
});

test('a form value filled in a later revision is low: form filling alone never makes high', async () => {
  const filled = appendUpdate(form, [{ num: 20, body: '<< /Type /Annot /Subtype /Widget /FT /Tx /T (Amount) /V (900.00) /Rect [300 600 400 620] /P 5 0 R >>' }], trailer);
  const result = await inspect(filled);
  const value = signal(result, 'form_value_changed');
  assert.equal(value.where.field, 'Amount');
  assert.match(value.found, /from "100\.00" to "900\.00"/);
  assert.equal(result.risk_band, 'low');
  assert.ok(codes(result).includes('acroform'));
  assert.ok(!codes(result).includes('page_text_changed'));
});

test('an annotation added later is reported with its type; a FreeText box over the page weighs medium', async () => {
  const annotated = appendUpdate(
    clean,
    [
      { num: 5, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 6 0 R /Annots [21 0 R] >>' },
      { num: 21, body: '<< /Type /Annot /Subtype /FreeText /Rect [72 640 200 660] /Contents (7200.00) /DA (/Helv 12 Tf 0 g) >>' },
    ],
    trailer,
  );
  const result = await inspect(annotated);
  const added = signal(result, 'annotation_added');
  assert.equal(added.severity, 'medium');
  assert.match(added.found, /1 annotation\(s\) \(FreeText\) to page 1/);
  assert.equal(added.where.object, '21 0 R');
});

test('JavaScript run on open, a launch action and an embedded file are each named with their object', async () => {
  const active = simplePdf({
    pages: [invoice],
    catalog: '/OpenAction 20 0 R /Names << /EmbeddedFiles << /Names [(invoice.xml) 22 0 R] >> >>',
    page: '/AA << /O 21 0 R >>',
    objects: [
      { num: 20, body: '<< /Type /Action /S /JavaScript /JS (app.alert\\("hi"\\)) >>' },
      { num: 21, body: '<< /Type /Action /S /Launch /F (calc.exe) >>' },
      { num: 22, body: '<< /Type /Filespec /F (invoice.xml) /UF (invoice.xml) /EF << /F 23 0 R >> >>' },
      { num: 23, body: '<< /Type /EmbeddedFile >>', stream: '<invoice/>' },
    ],
  });
  const result = await inspect(active);
  assert.equal(signal(result, 'javascript').where.object, '20 0 R');
  assert.equal(signal(result, 'open_action').severity, 'medium');
  assert.match(signal(result, 'launch_action').found, /calc\.exe/);
  assert.match(signal(result, 'embedded_file').found, /invoice\.xml/);
  assert.ok(codes(result).includes('additional_actions'));
  // Scripts and attachments are structure: they raise the band to medium at most.
  assert.equal(result.risk_band, 'medium');
});

test('hex-escaped keyword names are reported as obfuscation', async () => {
  const hidden = simplePdf({ pages: [invoice], catalog: '/OpenAction 20 0 R', objects: [{ num: 20, body: '<< /S /J#61vaScript /JS (1) >>' }] });
  const result = await inspect(hidden);
  assert.match(signal(result, 'name_obfuscation').found, /\/J#61vaScript/);
});

test('a white box filled over text is high and quotes the text it hides', async () => {
  const covered = simplePdf({ pages: [`${invoice}\n1 1 1 rg 70 695 120 14 re f`] });
  const result = await inspect(covered);
  const cover = signal(result, 'white_box_over_text');
  assert.equal(cover.where.page, 1);
  assert.match(cover.found, /hiding "Total due 1200\.00"/);
  assert.equal(result.risk_band, 'high');
});

test('a white background drawn before the text is not a cover', async () => {
  const background = simplePdf({ pages: [`1 1 1 rg 60 600 300 200 re f\n${invoice}`] });
  assert.ok(!codes(await inspect(background)).includes('white_box_over_text'));
});

test('text drawn over different text is reported with both texts', async () => {
  const overdrawn = simplePdf({ pages: [`${invoice}\nBT /F1 12 Tf 72 700 Td (Total due 7200.00) Tj ET`] });
  const result = await inspect(overdrawn);
  assert.match(signal(result, 'text_over_text').found, /"Total due 1200\.00" under "Total due 7200\.00"/);
});

test('the Acrobat TouchUp_TextEdit marker is high', async () => {
  const touched = simplePdf({ pages: [`/TouchUp_TextEdit MP\n${invoice}`] });
  const result = await inspect(touched);
  assert.equal(signal(result, 'touchup_text_edit').where.page, 1);
  assert.equal(result.risk_band, 'high');
});

test('one font embedded as two subsets on the same page is medium', async () => {
  const fonts = simplePdf({
    pages: [`${invoice}\nBT /F2 12 Tf 300 500 Td (A) Tj ET BT /F3 12 Tf 300 480 Td (B) Tj ET`],
    fonts: '/F2 20 0 R /F3 21 0 R',
    objects: [
      { num: 20, body: '<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Arial >>' },
      { num: 21, body: '<< /Type /Font /Subtype /TrueType /BaseFont /GHIJKL+Arial >>' },
    ],
  });
  const duplicate = signal(await inspect(fonts), 'font_subset_duplicate');
  assert.equal(duplicate.severity, 'medium');
  assert.match(duplicate.found, /ABCDEF\+Arial, GHIJKL\+Arial/);
});

test('an online editor as producer of a file claiming accounting software, and Info against XMP, are metadata signals', async () => {
  const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description pdf:Producer="Xero Reports" xmp:CreatorTool="Xero" xmp:CreateDate="2025-03-01T09:00:00Z"/></rdf:RDF></x:xmpmeta>';
  const edited = simplePdf({
    pages: [invoice],
    info: '/Producer (iLovePDF) /Creator (Xero) /CreationDate (D:20250301090000Z) /ModDate (D:20250228090000Z)',
    catalog: '/Metadata 20 0 R',
    objects: [{ num: 20, body: '<< /Type /Metadata /Subtype /XML >>', stream: xmp }],
  });
  const result = await inspect(edited);
  assert.match(signal(result, 'editor_software').found, /iLovePDF/);
  assert.match(signal(result, 'producer_creator_mismatch').found, /creator says "Xero" but the producer is "iLovePDF"/);
  assert.match(signal(result, 'info_xmp_mismatch').found, /Producer differs: Info says "iLovePDF", XMP says "Xero Reports"/);
  assert.ok(codes(result).includes('moddate_before_creation'));
  assert.equal(result.risk_band, 'medium');
});

test('editing software in the XMP history and an editor\'s /PieceInfo on a page are reported', async () => {
  const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description><xmpMM:History><rdf:Seq><rdf:li stEvt:action="saved" stEvt:softwareAgent="Adobe Photoshop 24.1 (Windows)"/></rdf:Seq></xmpMM:History></rdf:Description></rdf:RDF></x:xmpmeta>';
  const traced = simplePdf({
    pages: [invoice],
    catalog: '/Metadata 20 0 R',
    page: '/PieceInfo << /Illustrator << /LastModified (D:20250301) >> >>',
    objects: [{ num: 20, body: '<< /Type /Metadata /Subtype /XML >>', stream: xmp }],
  });
  const result = await inspect(traced);
  assert.match(signal(result, 'xmp_edit_history').found, /"Adobe Photoshop 24\.1 \(Windows\)"/);
  assert.deepEqual(signal(result, 'editor_piece_info').where, { page: 1 });
});

test('a page added in a later revision is reported with both counts', async () => {
  const grown = appendUpdate(
    clean,
    [
      { num: 2, body: '<< /Type /Pages /Kids [5 0 R 30 0 R] /Count 2 >>' },
      { num: 30, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 31 0 R >>' },
      { num: 31, body: '<< >>', stream: textLines(['Addendum']) },
    ],
    trailer,
  );
  const result = await inspect(grown);
  assert.match(signal(result, 'page_count_changed').found, /from 1 to 2/);
  assert.equal(result.risk_band, 'medium');
});

test('dates after the inspection time and malformed dates are reported', async () => {
  const dated = simplePdf({ pages: [invoice], info: '/Producer (Test Writer 1.0) /CreationDate (D:20270101000000Z) /ModDate (D:2025133200)' });
  const result = await inspect(dated);
  assert.match(signal(result, 'future_date').found, /CreationDate D:20270101000000Z is after the time of inspection/);
  assert.match(signal(result, 'malformed_date').found, /ModDate "D:2025133200"/);
});

test('an ExifTool update block and bytes after the last %%EOF are found at their offsets', async () => {
  const exif = appendUpdate(clean, [{ num: 4, body: '<< /Producer (Test Writer 1.0) /Author (Someone Else) >>' }], trailer);
  const marked = Buffer.concat([exif.subarray(0, clean.length), Buffer.from('%BeginExifToolUpdate\n'), exif.subarray(clean.length), Buffer.from('junk after the end')]);
  const result = await inspect(marked);
  assert.equal(signal(result, 'exiftool_update').where.byte_offset, clean.length);
  assert.match(signal(result, 'bytes_after_last_eof').found, /^15 non-blank bytes/);
  assert.match(signal(result, 'info_changed').found, /Author \(none\) → "Someone Else"/);
});

test('a /Prev that loops back is reported and the file still gets a result', async () => {
  const once = appendUpdate(clean, [{ num: 4, body: '<< /Producer (Test Writer 1.0) >>' }], trailer);
  const lastXref = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(Buffer.from(once).toString('latin1'))![1]);
  const looped = Buffer.from(Buffer.from(once).toString('latin1').replace(/\/Prev \d+/, `/Prev ${lastXref}`), 'latin1');
  const result = await inspect(looped);
  assert.match(signal(result, 'prev_chain_broken').found, /loops back/);
});

test('bytes changed in place without fixing the cross-reference table are found at the first moved object', async () => {
  const patched = Buffer.from(Buffer.from(clean).toString('latin1').replace('(Test Writer 1.0)', '(Test Writer 10.0)'), 'latin1');
  const result = await inspect(patched);
  const broken = signal(result, 'xref_broken');
  assert.match(broken.found, /^2 of 6 entries in revision 0's cross-reference table point where their object is not \(first: object 5 at byte \d+\)/);
  assert.equal(broken.where.object, '5 0 R');
  assert.ok(!codes(await inspect(clean)).includes('xref_broken'));
});

test('a stream that inflates past the limit is held back and the band is insufficient', async () => {
  const bomb = deflateSync(Buffer.alloc(40 * 1024 * 1024));
  const pdf = simplePdf({ pages: [invoice], objects: [{ num: 20, body: '<< /Filter /FlateDecode >>', stream: bomb }] });
  const cleanMs = await fastestMs(() => inspect(clean));
  const started = performance.now();
  const result = await inspect(pdf);
  // Inflating stops at the limit: about 7 times the clean file's time here, where inflating the whole bomb takes 40.
  const ms = performance.now() - started;
  assert.ok(ms < 100 * cleanMs, `${Math.round(ms)} ms, ${Math.round(ms / cleanMs)}× the clean file's ${cleanMs.toFixed(1)} ms`);
  assert.ok(codes(result).includes('stream_inflation_limit'));
  assert.equal(result.risk_band, 'insufficient');
  assert.equal(result.inspection_quality, 'minimal');
});

test('a PDF whose pages carry no text is insufficient, not low', async () => {
  const result = await inspect(simplePdf({ pages: ['0 0 0 rg 100 100 200 200 re f'] }));
  assert.ok(codes(result).includes('no_text_layer'));
  assert.equal(result.risk_band, 'insufficient');
});

test('bytes that are not a PDF become an error result with a reason, not an exception', async () => {
  const result = await inspect(Buffer.from('this is not a pdf at all'));
  assert.equal(result.risk_band, 'error');
  assert.equal(result.inspection_quality, 'failed');
  assert.match(result.summary.band_rule, /Applied: error: /);
});
