import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf } from '../../../../test/helpers/layout-pdf.ts';
import { links } from './links.ts';

test('link annotations with their target and covered text, and URLs and addresses written in the text', async () => {
  const bytes = await layoutPdf([
    {
      texts: [
        { text: 'Pay online', x: 50, top: 100 },
        { text: 'Terms at https://example.com.au/terms. Questions to accounts@example.com.au, thanks.', x: 50, top: 140 },
      ],
      links: [{ x: 50, top: 100, width: 50, height: 10, url: 'https://pay.example.net/inv/2041' }],
    },
    { texts: [{ text: 'Back to the invoice', x: 50, top: 60 }], links: [{ x: 50, top: 60, width: 90, height: 10, toPage: 1 }] },
  ]);
  const result = await links({ ...(await readLayoutPdf(bytes)), fields: {}, settings: true });
  assert.deepEqual(
    result.map(({ page, kind, target, text, source }) => ({ page, kind, target, text, source })),
    [
      { page: 1, kind: 'url', target: 'https://pay.example.net/inv/2041', text: 'Pay online', source: 'annotation' },
      { page: 1, kind: 'url', target: 'https://example.com.au/terms', text: 'https://example.com.au/terms', source: 'text' },
      { page: 1, kind: 'email', target: 'mailto:accounts@example.com.au', text: 'accounts@example.com.au', source: 'text' },
      { page: 2, kind: 'internal', target: 'page 1', text: 'Back to the invoice', source: 'annotation' },
    ],
  );
  assert.deepEqual(result[0]!.bbox, [50, 100, 50, 10]);
  const urlBox = result[1]!.bbox!;
  assert.equal(urlBox[1], 140);
  assert.ok(urlBox[0]! > 50 && urlBox[0]! < 110, `url starts at x ${urlBox[0]}`);
});

test('a document other than a PDF has only the links in its text', async () => {
  const pages = [{ page: 1, width: 100, height: 100, source: 'ocr' as const, confidence: 0.9, text: '', items: [{ text: 'see www.example.org', x: 0, y: 0, width: 90, height: 10, font: null }] }];
  const result = await links({ document: { bytes: new Uint8Array([1]), sha256: 'x', kind: 'image', mime: 'image/png', filename: null }, pages, fields: {}, settings: true });
  assert.deepEqual(result.map((link) => [link.kind, link.target, link.source]), [['url', 'www.example.org', 'text']]);
});
