import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import JSZip from 'jszip';
import sharp from 'sharp';
import { acceptedList, sniffDocument } from './intake.ts';

const text = (value: string) => new TextEncoder().encode(value);

/** A 1×1 24-bit BMP: file header, info header, one padded pixel row. */
function bmp(): Uint8Array {
  const bytes = Buffer.alloc(58);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(58, 2);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(1, 18);
  bytes.writeInt32LE(1, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  bytes.writeUInt32LE(4, 34);
  return new Uint8Array(bytes);
}

async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array' });
}

describe('sniffDocument judges a document by its content', () => {
  it('names the formats checkers read, with their media types', async () => {
    const pixel = sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } });
    const cases: [Uint8Array, string, string][] = [
      [text('%PDF-1.7\n%%EOF\n'), 'pdf', 'application/pdf'],
      [await pixel.clone().png().toBuffer(), 'png', 'image/png'],
      [await pixel.clone().jpeg().toBuffer(), 'jpeg', 'image/jpeg'],
      [await pixel.clone().webp().toBuffer(), 'webp', 'image/webp'],
      [await pixel.clone().tiff().toBuffer(), 'tiff', 'image/tiff'],
      [bmp(), 'bmp', 'image/bmp'],
      [await zipOf({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }), 'docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [text('Payslip for June\nGross pay $4,000.00\n'), 'text', 'text/plain'],
      [text('\ufeff  <!DOCTYPE html><html><body>Invoice</body></html>'), 'html', 'text/html'],
      [text('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'), 'html', 'text/html'],
    ];
    for (const [bytes, format, mime] of cases) {
      const sniffed = await sniffDocument(bytes);
      assert.deepEqual(sniffed.format === null ? sniffed : [sniffed.format, sniffed.mime], [format, mime], format);
    }
  });

  it('says what arrived when it is none of them', async () => {
    const cases: [Uint8Array, string][] = [
      [await zipOf({ 'scan.pdf': '%PDF-1.4' }), 'a ZIP archive'],
      [await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).gif().toBuffer(), 'a GIF image'],
      [Uint8Array.from([0, 1, 2, 3, 255, 254, 0, 7]), 'binary data of a type that could not be recognised'],
      [text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'an XML file'],
    ];
    for (const [bytes, received] of cases) assert.deepEqual(await sniffDocument(bytes), { format: null, received });
  });

  it('lists accepted formats as a sentence does', () => {
    assert.equal(acceptedList(['pdf', 'png', 'jpeg', 'webp', 'bmp', 'tiff']), 'PDF, PNG, JPEG, WebP, BMP or TIFF');
    assert.equal(acceptedList(['pdf']), 'PDF');
  });
});
