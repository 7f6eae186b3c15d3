import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { doubleFlateBombPdf, encryptedBombPdf, flateBombPdf, imageBombPdf, indirectFilterBombPdf, lyingZipBombDocx, manyEntryDocx, plainZip, zipBombDocx, zipSlipDocx } from '../../test/helpers/hostile-files.ts';
import { buildPdf } from '../../test/helpers/pdf-files.ts';
import { guardDocx, guardPdf } from './guard.ts';
import { measurePdf, PDF_LIMITS } from './pdf-guard.ts';
import { DocumentRefused } from './refusal.ts';
import { decodeAscii85, decodeAsciiHex, decodeLzw, decodeMeasured, decodeRunLength } from './stream-filters.ts';

describe('measured stream filters', () => {
  it('decode the standard\'s own examples', () => {
    // ISO 32000-1 §7.4.4.2, Example 2: the codes 256 45 258 258 65 259 66 257 packed at 9 bits.
    assert.deepEqual([...decodeLzw(Uint8Array.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]), 1000)], [0x2d, 0x2d, 0x2d, 0x2d, 0x2d, 0x41, 0x2d, 0x2d, 0x2d, 0x42]);
    assert.equal(Buffer.from(decodeAsciiHex(Buffer.from('48 65 6c6C6f7>'))).toString('latin1'), 'Hellop');
    assert.equal(Buffer.from(decodeAscii85(Buffer.from('87cURD]i,"Ebo80~>'), 1000)).toString('latin1'), 'Hello World!');
    assert.deepEqual([...decodeRunLength(Uint8Array.from([2, 1, 2, 3, 254, 9, 128, 7]), 100)], [1, 2, 3, 9, 9, 9]);
  });

  it('stop at the ceiling, and decode corrupt data as far as it goes', async () => {
    assert.equal(decodeAscii85(Buffer.from('z'.repeat(1000)), 100).length, 100);
    assert.equal(decodeRunLength(Uint8Array.from(Array.from({ length: 100 }, (_, n) => (n % 2 === 0 ? 129 : 0))), 500).length, 500);
    const flate = await decodeMeasured('FlateDecode', deflateSync(Buffer.alloc(10_000_000)), 1_000_000, false);
    assert.deepEqual([flate.overLimit, flate.length > 1_000_000], [true, true]);
    const broken = deflateSync(Buffer.alloc(2_000_000));
    broken[broken.length - 10]! ^= 0xff;
    const partial = await decodeMeasured('FlateDecode', broken, 10_000_000, true);
    assert.equal(partial.overLimit, false);
    assert.ok(partial.length > 1_000_000, `a broken tail still counts what its head inflated to (${partial.length})`);
  });
});

describe('the guarded open', () => {
  it('refuses every PDF bomb that can be measured, saying which stream and which limit', async () => {
    for (const [name, bytes, reason] of [
      ['Flate', flateBombPdf(256), /a stream at byte \d+ decompresses past 48 MB, the most one stream may decode to/],
      ['Flate over Flate', doubleFlateBombPdf(4096), /a stream at byte \d+ decompresses past 400 times its stored size/],
      ['an escaped indirect filter', indirectFilterBombPdf(256), /a stream at byte \d+ decompresses past 48 MB/],
      ['image data', imageBombPdf(64), /an image at byte \d+ decompresses past what its declared size needs \(1 KB\) by more than a megabyte/],
    ] as const) {
      await assert.rejects(guardPdf(bytes), (error: unknown) => error instanceof DocumentRefused && error.status === 422 && reason.test(error.message), name);
    }
  });

  it('lets an encrypted file through unmeasured (the process ceiling stops it) and says so', async () => {
    const measure = await measurePdf(encryptedBombPdf(8));
    assert.deepEqual([measure.encrypted, measure.refusal], [true, null]);
  });

  it('counts streams other than images together, against the total', async () => {
    const objects = [
      { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' },
      { num: 2, body: '<< /Type /Pages /Kids [] /Count 0 >>' },
      // Five streams of 3 MB of varied bytes (so no ratio limit applies): each under the 4 MB a stream may take, together past 8 MB.
      ...Array.from({ length: 5 }, (_, n) => ({ num: 3 + n, body: '<< /Filter /FlateDecode >>', stream: deflateSync(Buffer.from(Array.from({ length: (3 * 1024 * 1024) / 16 }, (_, i) => String((i * 7919 + n) % 1e9).padStart(16, '0')).join(''))) })),
    ];
    const limits = { ...PDF_LIMITS, streamBytes: 4 * 1024 * 1024, totalBytes: 8 * 1024 * 1024 };
    const measure = await measurePdf(buildPdf(objects, '/Root 1 0 R /Size 9'), limits);
    assert.match(measure.refusal?.reason ?? '', /what is left of the 8 MB the file's streams may decode to together/);
  });

  it('refuses none of the real PDFs the repository holds', async () => {
    const files = globSync('fixtures/**/*.pdf', { cwd: new URL('../..', import.meta.url).pathname });
    assert.ok(files.length > 300, `${files.length} PDFs`);
    const refused: string[] = [];
    for (const file of files) {
      const measure = await measurePdf(new Uint8Array(readFileSync(new URL(`../../${file}`, import.meta.url))));
      if (measure.refusal !== null) refused.push(`${file}: ${measure.refusal.reason}`);
    }
    assert.deepEqual(refused, []);
  });

  it('checks a Word document\'s container: bombs, entry counts, names and the Word part', async () => {
    for (const [name, bytes, status, reason] of [
      ['an honest bomb', zipBombDocx(256), 422, /its entry word\/media\/blank\.bin inflates \d+-fold/],
      ['a lying entry', lyingZipBombDocx(64), 400, /too many bytes|not read/],
      ['too many entries', manyEntryDocx(6000), 422, /holds 6002 entries, and a Word document is read with at most 5000/],
      ['zip-slip', zipSlipDocx(), 400, /relative path|\.\./],
      ['no Word part', plainZip(), 400, /holds no Word document/],
    ] as const) {
      await assert.rejects(guardDocx(bytes), (error: unknown) => error instanceof DocumentRefused && error.status === status && reason.test(error.message), name);
    }
    const real = readFileSync(new URL('../../fixtures/bids/qld-ito-fleet-telematics.docx', import.meta.url));
    await guardDocx(new Uint8Array(real));
  });
});
