import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPdf, readPagesText } from '../../documents/pdf.ts';
import { warrantBundle, type WarrantBundle } from './bundle.ts';
import { warrantMarkdown } from './report-md.ts';
import { warrantReportPdf } from './report-pdf.ts';
import type { Signal } from './signal.ts';

const signals: Signal[] = [
  { code: 'incremental_update', group: 'structure', severity: 'low', title: 'Saved again after creation', found: 'The file has 2 revisions; revision 1 replaced the content stream of page 1.', where: { revision: 1, byte_offset: 18230 } },
  { code: 'arith_total_mismatch', group: 'arithmetic', severity: 'high', title: 'Total is not subtotal plus GST', found: 'Subtotal 419.40 + GST 41.94 = 461.34, but the total says 561.34.', where: { page: 1, field: 'Total' } },
  { code: 'image_editor_software', group: 'tampering', severity: 'medium', title: 'Saved by an image editor', found: 'Software names an image editor: "Adobe Photoshop 25.0 | Windows".', where: { exif_tag: 'Software' } },
  { code: 'producer', group: 'metadata', severity: 'info', title: 'Producer named', found: 'Producer is "Microsoft® Word for Microsoft 365" → converted ≠ edited.', where: { object: '1 0 R' } },
];

function bundle(overrides: Partial<WarrantBundle> = {}): WarrantBundle {
  return warrantBundle.parse({
    warrant_id: 'warrant_0123456789abcdef',
    inspection_version: '2026.11.1',
    file_kind: 'pdf',
    sha256: 'a'.repeat(64),
    risk_band: 'high',
    inspection_quality: 'full',
    recommended_action: 'Ask the issuer for a copy sent directly to you and compare the totals before relying on this invoice.',
    summary: {
      headline: 'The totals do not add up and the file was saved again after it was made.',
      counts: { tampering: 1, structure: 1, metadata: 1, arithmetic: 1 },
      band_rule: 'high: a high-severity tampering or arithmetic signal is present (arith_total_mismatch).',
      pages: 1,
      revisions: 2,
      producer: 'Microsoft® Word for Microsoft 365',
      creator: null,
    },
    signals,
    filename: 'invoice-INV-2041 (final) ✓.pdf',
    size_bytes: 48213,
    inspected_at: '2026-11-24T10:00:00.000Z',
    engine_version: '0.7.0',
    permalink: 'https://example.test/v1/warrants/warrant_0123456789abcdef',
    report_pdf: 'https://example.test/v1/warrants/warrant_0123456789abcdef/report.pdf',
    limitations: 'A warrant reports signals for a person to review; it is not a fraud verdict. Absence of signals does not show a document is genuine.',
    ...overrides,
  });
}

test('the Markdown report shows the band, the file and every signal grouped with where it was found', () => {
  const markdown = warrantMarkdown(bundle());
  assert.match(markdown, /^# Forensic warrant warrant_0123456789abcdef$/m);
  assert.match(markdown, /\*\*Risk band: HIGH\*\* · inspection quality: full/);
  assert.match(markdown, new RegExp(`\\| SHA-256 \\| \`${'a'.repeat(64)}\` \\|`));
  const headings = [...markdown.matchAll(/^### (\w+) \((\d+)\)$/gm)].map((match) => match[1]);
  assert.deepEqual(headings, ['Tampering', 'Arithmetic', 'Structure', 'Metadata']);
  // A pipe inside a finding is escaped so the table keeps its four columns.
  assert.match(markdown, /\| medium \| `image_editor_software` Saved by an image editor \| Software names an image editor: "Adobe Photoshop 25\.0 \\\| Windows"\. \| tag Software \|/);
  assert.match(markdown, /\| revision 1, byte 18230 \|/);
  assert.match(markdown, /## Limitations\n\nA warrant reports signals/);
});

test('the PDF scorecard parses, has one page, and carries the band, the hash and the signal codes', async () => {
  const bytes = await warrantReportPdf(bundle());
  const pdf = await openPdf(bytes);
  assert.equal(pdf.numPages, 1);
  const text = (await readPagesText(pdf)).map((page) => page.text).join('\n');
  assert.match(text, /Risk band: HIGH/);
  assert.match(text, new RegExp('a'.repeat(64)));
  for (const signal of signals) assert.match(text, new RegExp(signal.code));
  assert.match(text, /Where: tag Software/);
  // Characters outside the standard fonts' encoding do not break the report.
  assert.match(text, /invoice-INV-2041 \(final\) \?\.pdf/);
  assert.match(text, /365" -> converted != edited/);
  await pdf.destroy();
});

test('a warrant with many long signals stays within two pages and says how many were left out', async () => {
  const many = Array.from({ length: 60 }, (_, index): Signal => ({
    code: `signal_number_${index}`,
    group: index % 2 ? 'structure' : 'tampering',
    severity: index % 3 ? 'low' : 'medium',
    title: 'A long finding',
    found: `Finding ${index}: ${'the object was redefined in a later revision and its text differs from the original; '.repeat(3)}`,
    where: { page: 1 + (index % 4), object: `${index} 0 R` },
  }));
  const bytes = await warrantReportPdf(bundle({ signals: many, risk_band: 'medium' }));
  const pdf = await openPdf(bytes);
  assert.equal(pdf.numPages, 2);
  const text = (await readPagesText(pdf)).map((page) => page.text).join('\n');
  assert.match(text, /Risk band: MEDIUM/);
  assert.match(text, /signal_number_0/);
  const shown = new Set([...text.matchAll(/signal_number_(\d+)/g)].map((match) => match[1]));
  assert.match(text, new RegExp(`${60 - shown.size} more signal\\(s\\) did not fit`));
  assert.match(text, /Limitations/);
  await pdf.destroy();
});
