import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { buildPdf, type ObjectSpec } from './pdf-files.ts';

/**
 * The hostile-file set (issue 24): files made to cost a reader far more than their size, or to confuse it.
 * Generated here, never stored, so the set is the same on every machine and small in the repository.
 * Run `node --import ./lib/node-guard.mjs test/helpers/hostile-files.ts <folder>` to write them out.
 *
 * Inflation bombs are made without inflating anything: one sync-flushed Deflate block that stands for a
 * megabyte of zeros is repeated, which is a valid Deflate stream for that many megabytes (every block refers
 * back into the same window), so a 4 MB file inflates to 4 GB.
 */

export interface HostileFile {
  name: string;
  /** What a careless reader does with it. */
  threat: string;
  bytes: Uint8Array;
  /** The file name to send it under. */
  filename: string;
}

const MB = 1024 * 1024;
const latin = (text: string): Buffer => Buffer.from(text, 'latin1');

/** A zlib stream of `megabytes` MB of zeros, about 1 KB per megabyte, with a correct Adler-32. */
export function zerosZlib(megabytes: number): Uint8Array {
  const block = deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const total = megabytes * MB;
  // Adler-32 of n zero bytes: A stays 1, B adds 1 per byte.
  const adler = ((total % 65521) << 16) | 1;
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(adler >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: megabytes }, () => block), Buffer.from([0x03, 0x00]), trailer]);
}

function pdfWith(objects: ObjectSpec[], extra: ObjectSpec[] = []): Uint8Array {
  return buildPdf(
    [
      { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' },
      { num: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
      { num: 3, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>' },
      ...objects,
      ...extra,
    ],
    '/Root 1 0 R /Size 10',
  );
}

/** A page whose content stream inflates to `megabytes` MB. */
export function flateBombPdf(megabytes: number): Uint8Array {
  return pdfWith([{ num: 4, body: '<< /Filter /FlateDecode >>', stream: zerosZlib(megabytes) }]);
}

/** Flate over Flate: a few kilobytes that inflate to a megabyte that inflates to `megabytes` MB. */
export function doubleFlateBombPdf(megabytes: number): Uint8Array {
  return pdfWith([{ num: 4, body: '<< /Filter [/FlateDecode /Fl] >>', stream: deflateSync(zerosZlib(megabytes), { level: 9 }) }]);
}

/** The filter named through an indirect object, and escaped (`/Fl#61teDecode`), as a careless scanner misses. */
export function indirectFilterBombPdf(megabytes: number): Uint8Array {
  return pdfWith([{ num: 4, body: '<< /Filter 6 0 R >>', stream: zerosZlib(megabytes) }], [{ num: 6, body: '/Fl#61teDecode' }]);
}

/** An image XObject of 10 × 10 pixels whose data inflates to `megabytes` MB (pdfjs inflates an image's data whole). */
export function imageBombPdf(megabytes: number): Uint8Array {
  return pdfWith([
    { num: 4, body: '<< >>', stream: 'q 100 0 0 100 0 0 cm /Im1 Do Q' },
    { num: 5, body: '<< /Type /XObject /Subtype /Image /Width 10 /Height 10 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode >>', stream: zerosZlib(megabytes) },
  ]);
}

/** A content stream inflating to `megabytes` MB, the whole file encrypted (RC4, empty user password), so its streams cannot be measured. */
export function encryptedBombPdf(megabytes: number): Uint8Array {
  const id = createHash('md5').update('hostile').digest();
  const padding = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
  const ownerKey = rc4(createHash('md5').update(padding).digest().subarray(0, 5), padding);
  const permissions = -4;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const key = createHash('md5').update(Buffer.concat([padding, ownerKey, p, id])).digest().subarray(0, 5);
  const objectKey = (num: number) => createHash('md5').update(Buffer.concat([key, Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0])])).digest().subarray(0, 10);
  const userKey = rc4(key, padding);
  const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString('hex')}>`;
  return buildPdf(
    [
      { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' },
      { num: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
      { num: 3, body: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>' },
      { num: 4, body: '<< /Filter /FlateDecode >>', stream: rc4(objectKey(4), zerosZlib(megabytes)) },
      { num: 7, body: `<< /Filter /Standard /V 1 /R 2 /O ${hex(ownerKey)} /U ${hex(userKey)} /P ${permissions} >>` },
    ],
    `/Root 1 0 R /Size 10 /Encrypt 7 0 R /ID [${hex(id)} ${hex(id)}]`,
  );
}

/** RC4, written out: OpenSSL 3 keeps it in its legacy provider, which Node does not load. */
function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const state = Uint8Array.from({ length: 256 }, (_, n) => n);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + state[i]!) & 0xff;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[n] = data[n]! ^ state[(state[i]! + state[j]!) & 0xff]!;
  }
  return out;
}

/** Nested arrays a million deep, and a page tree whose kids lead back to itself. */
export function deepNestingPdf(): Uint8Array {
  return Buffer.concat([latin('%PDF-1.4\n1 0 obj\n'), latin('['.repeat(1_000_000)), latin('\nendobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')]);
}

export function pageTreeLoopPdf(): Uint8Array {
  return buildPdf(
    [
      { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' },
      { num: 2, body: '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 1000000000 >>' },
      { num: 3, body: '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1000000000 >>' },
    ],
    '/Root 1 0 R /Size 4',
  );
}

/** A PNG that declares `side` × `side` pixels with one row of data (sharp must refuse it from the header). */
export function hugePng(side: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([latin(type), data])));
    return Buffer.concat([length, latin(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(side * 3 + 1))), chunk('IEND', Buffer.alloc(0))]);
}

/** A ZIP writer for stored and deflated entries, so archives can lie about their sizes or hold odd names. */
export interface ZipEntrySpec {
  name: string;
  data: Uint8Array;
  /** Already-deflated data: stored with method 8 and these sizes instead of being compressed here. */
  deflated?: { compressed: Uint8Array; declaredSize: number };
}

export function zipOf(entries: ZipEntrySpec[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.deflated ? 8 : 0;
    const body = entry.deflated ? entry.deflated.compressed : entry.data;
    const size = entry.deflated ? entry.deflated.declaredSize : entry.data.length;
    const crc = entry.deflated ? 0 : crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, Buffer.from(body));
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  if (entries.length < 0xffff) return Buffer.concat([...locals, directory, end]);
  // More entries than the classic record counts: a Zip64 end record and its locator carry the count, as real archivers write.
  const zip64 = Buffer.alloc(56);
  zip64.writeUInt32LE(0x06064b50, 0);
  zip64.writeBigUInt64LE(44n, 4);
  zip64.writeUInt16LE(45, 12);
  zip64.writeUInt16LE(45, 14);
  zip64.writeBigUInt64LE(BigInt(entries.length), 24);
  zip64.writeBigUInt64LE(BigInt(entries.length), 32);
  zip64.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([...locals, directory, zip64, locator, end]);
}

const DOCUMENT_XML = latin('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Tender response</w:t></w:r></w:p></w:body></w:document>');
const CONTENT_TYPES = latin('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');

/** A .docx whose document.xml says it is small but inflates to `megabytes` MB of zeros. */
export function lyingZipBombDocx(megabytes: number): Uint8Array {
  const raw = zerosZlib(megabytes).subarray(2, -4);
  return zipOf([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'word/document.xml', data: new Uint8Array(), deflated: { compressed: raw, declaredSize: 2_000 } },
  ]);
}

/** A .docx with an honest entry that inflates to `megabytes` MB. */
export function zipBombDocx(megabytes: number): Uint8Array {
  return zipOf([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'word/document.xml', data: DOCUMENT_XML },
    { name: 'word/media/blank.bin', data: new Uint8Array(), deflated: { compressed: zerosZlib(megabytes).subarray(2, -4), declaredSize: megabytes * MB } },
  ]);
}

/** A .docx holding `count` empty entries besides its document (the 22 MB, 250,000-entry upload that stalled the server). */
export function manyEntryDocx(count: number): Uint8Array {
  const entries: ZipEntrySpec[] = [{ name: '[Content_Types].xml', data: CONTENT_TYPES }, { name: 'word/document.xml', data: DOCUMENT_XML }];
  for (let n = 0; n < count; n++) entries.push({ name: n.toString(36), data: new Uint8Array() });
  return zipOf(entries);
}

/** A .docx with an entry whose name climbs out of the archive (zip-slip). */
export function zipSlipDocx(): Uint8Array {
  return zipOf([
    { name: '[Content_Types].xml', data: CONTENT_TYPES },
    { name: 'word/document.xml', data: DOCUMENT_XML },
    { name: '../../etc/cron.d/evil', data: latin('* * * * * root true\n') },
  ]);
}

/** A ZIP that is no Word document. */
export function plainZip(): Uint8Array {
  return zipOf([{ name: 'notes.txt', data: latin('not a document') }]);
}

/** A PDF that is also a ZIP (a polyglot): readers disagree on what it is. */
export function pdfZipPolyglot(): Uint8Array {
  return Buffer.concat([flateBombPdf(1), zipOf([{ name: 'word/document.xml', data: DOCUMENT_XML }])]);
}

/** Every hostile file, at sizes that stand for gigabytes (the whole set is under 30 MB). */
export function hostileFiles(): HostileFile[] {
  return [
    { name: 'flate-bomb-4gb', threat: 'a 4 MB content stream inflating to 4 GB', bytes: flateBombPdf(4096), filename: 'invoice.pdf' },
    { name: 'double-flate-bomb-16gb', threat: 'Flate over Flate inflating to 16 GB', bytes: doubleFlateBombPdf(16384), filename: 'invoice.pdf' },
    { name: 'indirect-filter-bomb-2gb', threat: 'a filter named through an escaped indirect object', bytes: indirectFilterBombPdf(2048), filename: 'invoice.pdf' },
    { name: 'image-bomb-2gb', threat: 'a 10 × 10 image whose data inflates to 2 GB', bytes: imageBombPdf(2048), filename: 'scan.pdf' },
    { name: 'encrypted-bomb-1gb', threat: 'an encrypted content stream inflating to 1 GB (cannot be measured: the memory ceiling must stop it)', bytes: encryptedBombPdf(1024), filename: 'statement.pdf' },
    { name: 'deep-nesting', threat: 'arrays nested a million deep', bytes: deepNestingPdf(), filename: 'nested.pdf' },
    { name: 'page-tree-loop', threat: 'a page tree that leads back to itself and claims a billion pages', bytes: pageTreeLoopPdf(), filename: 'loop.pdf' },
    { name: 'png-30000', threat: 'a PNG declaring 30,000 × 30,000 pixels', bytes: hugePng(30_000), filename: 'licence.png' },
    { name: 'docx-lying-bomb-1gb', threat: 'a .docx whose document.xml claims 2 KB and inflates to 1 GB', bytes: lyingZipBombDocx(1024), filename: 'response.docx' },
    { name: 'docx-bomb-2gb', threat: 'a .docx holding an entry that inflates to 2 GB', bytes: zipBombDocx(2048), filename: 'response.docx' },
    { name: 'docx-250k-entries', threat: 'a 22 MB .docx with 250,000 entries', bytes: manyEntryDocx(250_000), filename: 'response.docx' },
    { name: 'docx-zip-slip', threat: 'an entry named ../../etc/cron.d/evil', bytes: zipSlipDocx(), filename: 'response.docx' },
    { name: 'zip-not-docx', threat: 'a ZIP archive sent as a document', bytes: plainZip(), filename: 'response.docx' },
    { name: 'pdf-zip-polyglot', threat: 'a PDF bomb that is also a ZIP', bytes: pdfZipPolyglot(), filename: 'invoice.pdf' },
  ];
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

if (import.meta.main) {
  const folder = process.argv[2];
  if (folder === undefined) throw new Error('usage: hostile-files.ts <folder>');
  mkdirSync(folder, { recursive: true });
  for (const file of hostileFiles()) writeFileSync(join(folder, `${file.name}-${file.filename}`), file.bytes);
  console.log(`wrote ${hostileFiles().length} hostile files to ${folder}`);
}
