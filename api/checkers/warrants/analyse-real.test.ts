import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { PDFName, PDFRef } from 'pdf-lib';
import { appendUpdate } from '../../../test/helpers/pdf-files.ts';
import { analyseWarrant } from './analyse.ts';
import type { WarrantAnalysis } from './bundle.ts';
import { loadRevisionState, pageContent } from './pdf-objects.ts';

/** Real PDFs from public test corpora (fixtures/documents/real/SOURCES.md says where each came from). */
const folder = new URL('../../../fixtures/documents/real/', import.meta.url);
const sources = JSON.parse(readFileSync(new URL('sources.json', folder), 'utf8')) as { file: string; repository: string; commit: string; path: string }[];

function bytesOf(file: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(file, folder)));
}

async function inspect(bytes: Uint8Array): Promise<WarrantAnalysis> {
  return analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'pdf', mime: 'application/pdf', filename: null }], {}, { now: '2026-11-24T00:00:00Z' });
}

/** What each real file must and must not raise, and the bands it may get. */
const expectations: Record<string, { raises?: string[]; never?: string[]; bands: WarrantAnalysis['risk_band'][] }> = {
  // Benign structure: form filling, annotation, linearisation, object streams (signed files: the signatures corpus).
  'pypdf-form_acrobatReader.pdf': { raises: ['form_value_changed', 'incremental_update'], bands: ['low'] },
  'pypdf-commented.pdf': { raises: ['annotation_added'], bands: ['low'] },
  'pypdf-crazyones.pdf': { raises: ['object_streams'], bands: ['low'] },
  'pypdf-example.pdf': { raises: ['linearized', 'object_streams', 'embedded_file'], never: ['incremental_update'], bands: ['medium'] },
  'pypdf-issue-301.pdf': { raises: ['linearized'], never: ['text_over_text', 'incremental_update'], bands: ['low'] },
  'pypdf-issue-914-xmp-data.pdf': { raises: ['linearized'], never: ['font_subset_duplicate'], bands: ['low'] },
  'pypdf-libreoffice-form.pdf': { raises: ['acroform'], never: ['white_box_over_text'], bands: ['low'] },
  // Files that carry what the signals are for.
  'pyhanko-fontembed.pdf': { raises: ['page_text_changed'], bands: ['high'] },
  'pypdf-commented-xmp.pdf': { raises: ['exiftool_update'], bands: ['medium'] },
  'pypdf-attachment.pdf': { raises: ['embedded_file'], bands: ['medium'] },
  'pypdf-issue-297.pdf': { raises: ['javascript', 'open_action'], bands: ['medium'] },
  'pypdf-SF424_page2.pdf': { raises: ['javascript', 'launch_action', 'additional_actions'], bands: ['medium'] },
  'pypdf-encrypted-file.pdf': { raises: ['encrypted'], bands: ['insufficient'] },
};

test('every real file has its source recorded and an expectation here', () => {
  assert.deepEqual(sources.map((source) => source.file).sort(), Object.keys(expectations).sort());
  for (const source of sources) assert.match(source.commit, /^[0-9a-f]{40}$/);
});

for (const [file, expected] of Object.entries(expectations)) {
  test(`real file ${file}: ${expected.bands.join('/')}${expected.raises ? `, raises ${expected.raises.join(', ')}` : ''}`, async () => {
    const result = await inspect(bytesOf(file));
    const codes = new Set(result.signals.map((signal) => signal.code));
    for (const code of expected.raises ?? []) assert.ok(codes.has(code), `${file} should raise ${code}; raised ${[...codes].join(', ')}`);
    for (const code of expected.never ?? []) assert.ok(!codes.has(code), `${file} should not raise ${code}`);
    assert.ok(expected.bands.includes(result.risk_band), `${file} got ${result.risk_band}: ${result.summary.band_rule}`);
  });
}

test('page text changed after a real signature is high', async () => {
  // A one-page file signed four times, its page text untouched by any signature (fixtures/corpora/signatures/PROVENANCE.tsv).
  const signed = new Uint8Array(readFileSync(new URL('../../../fixtures/corpora/signatures/dss-muestra-firmado-firmado.pdf', import.meta.url)));
  const state = await loadRevisionState(signed);
  const page = state.pages[0]!;
  const contents = page.dict.get(PDFName.of('Contents'));
  assert.ok(contents instanceof PDFRef);
  const text = Buffer.from(pageContent(state.context, page.dict)).toString('latin1');
  const altered = text.replace(/\((.*?)\)\s*Tj/, '(Altered after signing) Tj');
  assert.notEqual(altered, text);
  const root = state.context.trailerInfo.Root as PDFRef;
  const tampered = appendUpdate(signed, [{ num: contents.objectNumber, body: '<< >>', stream: altered }], `/Root ${root.objectNumber} 0 R /Size ${state.context.largestObjectNumber + 1}`);
  const result = await inspect(tampered);
  const afterSigning = result.signals.filter((signal) => signal.code === 'modified_after_signing');
  // Every one of the four signatures is broken by it, each naming the rewritten content stream.
  assert.equal(afterSigning.length, 4);
  for (const signal of afterSigning) {
    assert.equal(signal.severity, 'high');
    assert.match(signal.found, new RegExp(`${contents.objectNumber} 0 R in revision 7 \\(page content`));
    assert.match(signal.found, new RegExp(`${tampered.length - signal.where.byte_offset!} bytes \\(offsets ${signal.where.byte_offset}–${tampered.length}\\)`));
  }
  const change = result.signals.find((signal) => signal.code === 'change_not_permitted');
  assert.deepEqual(change?.where, { object: `${contents.objectNumber} 0 R`, revision: 7, byte_offset: Buffer.from(tampered).lastIndexOf(`${contents.objectNumber} 0 obj`) });
  assert.equal(result.risk_band, 'high');
});

test('an untouched signature: its byte range checked exactly, nothing after it', async () => {
  const result = await inspect(new Uint8Array(readFileSync(new URL('../../../fixtures/corpora/signatures/dss-pdf-signed-original.pdf', import.meta.url))));
  const signature = result.signals.find((signal) => signal.code === 'digital_signature');
  assert.match(signature?.found ?? '', /covers the whole file .* checked exactly/);
  assert.equal(result.signals.some((signal) => ['modified_after_signing', 'signature_byte_range_invalid', 'change_not_permitted'].includes(signal.code)), false);
});

test('bytes appended after a signed file that are no revision are reported with their offsets', async () => {
  const signed = new Uint8Array(readFileSync(new URL('../../../fixtures/corpora/signatures/dss-pdf-signed-original.pdf', import.meta.url)));
  const appended = Buffer.concat([signed, Buffer.from('\n% appended after signing\n')]);
  const result = await inspect(new Uint8Array(appended));
  const afterSigning = result.signals.find((signal) => signal.code === 'modified_after_signing');
  assert.equal(afterSigning?.severity, 'medium');
  assert.equal(afterSigning?.where.byte_offset, signed.length);
  assert.match(afterSigning?.found ?? '', new RegExp(`${appended.length - signed.length} bytes \\(offsets ${signed.length}–${appended.length}\\).*not a saved revision`));
});

test('a byte range moved off the signature value is invalid, not unclear', async () => {
  const signed = Buffer.from(readFileSync(new URL('../../../fixtures/corpora/signatures/dss-pdf-signed-original.pdf', import.meta.url)));
  const text = signed.toString('latin1');
  const match = /\/ByteRange\s*\[\s*0\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text)!;
  // Same length, first range one byte shorter: the gap now starts one byte before the hex string.
  const shorter = String(Number(match[1]) - 1).padStart(match[1]!.length, '0');
  const moved = Buffer.from(text.slice(0, match.index) + match[0].replace(match[1]!, shorter) + text.slice(match.index + match[0].length), 'latin1');
  const result = await inspect(new Uint8Array(moved));
  const invalid = result.signals.find((signal) => signal.code === 'signature_byte_range_invalid');
  assert.equal(invalid?.severity, 'high');
  assert.equal(result.signals.some((signal) => signal.code === 'signature_coverage_unclear'), false);
});
