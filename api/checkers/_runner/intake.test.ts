import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import JSZip from 'jszip';
import sharp from 'sharp';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { acceptedList, sniffDocument } from '../../documents/sniff.ts';
import { readDocuments, type IntakeRules } from './intake.ts';

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

  it('takes a PDF header within the first 1,024 bytes as a PDF, as pdf.js and qpdf do, whatever the junk before it looks like', async () => {
    // An MP3 frame sync (0xFF 0xFB) before the header once made file-type call a readable PDF audio.
    const junk = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, ...new Array(600).fill(0x20)]);
    const pdf = text('%PDF-1.7\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n');
    assert.deepEqual(await sniffDocument(Buffer.concat([junk, pdf])), { format: 'pdf', kind: 'pdf', mime: 'application/pdf' });
    const tooFar = Buffer.concat([text('x'.repeat(1100)), pdf]);
    assert.equal((await sniffDocument(tooFar)).format, 'text', 'a header past 1,024 bytes is text that mentions a PDF');
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

describe('a JSON `text` field as the document', () => {
  const rules = (textField: boolean): IntakeRules => ({ checker: 'reference checks', accepts: ['text', 'html', 'pdf'], maxDocuments: 1, url: 'unavailable', textField });
  const server = (textField: boolean) => {
    const app = new Hono();
    app.post('/', async (c) => {
      try {
        const intake = await readDocuments(c, rules(textField));
        return c.json({ documents: intake.documents.map((document) => ({ kind: document.kind, filename: document.filename, text: new TextDecoder().decode(document.bytes) })), fields: intake.fields });
      } catch (error) {
        if (error instanceof HTTPException) return c.json({ detail: error.message }, error.status);
        throw error;
      }
    });
    return app;
  };
  const post = (textField: boolean, body: unknown) => server(textField).request('/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('reads `text` as a document judged by its content, keeping the other fields', async () => {
    const reply = await post(true, { text: 'See https://example.org/report.', deep: true });
    assert.deepEqual(await reply.json(), { documents: [{ kind: 'text', filename: null, text: 'See https://example.org/report.' }], fields: { deep: true } });
    const html = await post(true, { text: '<html><body>Hi</body></html>', filename: 'page.html' });
    assert.deepEqual(((await html.json()) as { documents: unknown[] }).documents, [{ kind: 'html', filename: 'page.html', text: '<html><body>Hi</body></html>' }]);
  });

  it('refuses text that is not a string, text with another document, and empty text', async () => {
    const cases: [unknown, string][] = [
      [{ text: 5 }, "`text` must be a string: the document's text."],
      [{ text: 'a', url: 'https://example.org/' }, 'The body has both text and url; send one document.'],
      [{ text: '' }, 'The document is empty (0 bytes); send the file\'s content.'],
    ];
    for (const [body, detail] of cases) {
      const reply = await post(true, body);
      assert.equal(reply.status, 400);
      assert.deepEqual(await reply.json(), { detail });
    }
  });

  it('leaves `text` an ordinary field for checkers that do not take it', async () => {
    const reply = await post(false, { text: 'hello' });
    assert.equal(reply.status, 400);
    assert.match(((await reply.json()) as { detail: string }).detail, /^No document was sent/);
  });
});
