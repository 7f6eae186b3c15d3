import { serve } from '@hono/node-server';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { createService } from '../api/app.ts';
import { checkerAnalyses } from '../api/checkers/registry.ts';
import { createAnalysisPool } from '../api/documents/pool.ts';

export interface WarrantRatioResult {
  pages: number;
  /** Median of the rounds: pdfjs-dist alone opening the PDF and reading every page's text. */
  pdfjsMs: number;
  /** Median of the rounds: the warrant analysis as POST /v1/warrants runs it, in a pool thread. */
  warrantMs: number;
  ratio: number;
}

export interface ConcurrentWarrantsResult {
  uploads: number;
  bytesEach: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  wallMs: number;
}

/** A 10-page text PDF: 45 lines of text a page. */
async function tenPageText(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.setProducer('bench');
  for (let pageNumber = 1; pageNumber <= 10; pageNumber++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < 45; line++) page.drawText(`Page ${pageNumber}, line ${line + 1}: works completed under the contract as scheduled.`, { x: 50, y: 800 - line * 17, size: 10, font });
  }
  return pdf.save();
}

/** A one-page PDF of about 1 MB: a line of text and a picture of noise seeded by `seed`, so every file differs. */
async function megabytePdf(seed: number): Promise<Uint8Array> {
  const side = 580;
  const noise = Buffer.alloc(side * side * 3);
  // xorshift32: noise that does not compress, the same for the same seed.
  let state = seed | 0 || 1;
  for (let at = 0; at < noise.length; at++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    noise[at] = state & 0xff;
  }
  const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText(`Site photograph ${seed}`, { x: 50, y: 800, size: 12, font });
  page.drawImage(await pdf.embedPng(png), { x: 50, y: 150, width: 495, height: 495 });
  return pdf.save();
}

async function pdfjsAlone(bytes: Uint8Array): Promise<void> {
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) await (await pdf.getPage(pageNumber)).getTextContent();
  await pdf.destroy();
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

/**
 * The speed goal for warrants (≤ 3× pdfjs-dist alone reading every page's text of a 10-page text
 * PDF): both timed in the same run, alternating, after one warm-up each; the warrant runs in a pool thread,
 * as the route runs it.
 */
export async function benchWarrantRatio(rounds = 7): Promise<WarrantRatioResult> {
  const bytes = await tenPageText();
  const pool = createAnalysisPool({ analyses: checkerAnalyses, size: 1 });
  const document = { bytes, kind: 'pdf' as const, mime: 'application/pdf', sha256: createHash('sha256').update(bytes).digest('hex'), filename: null };
  const warrant = async () => {
    const outcome = await pool.run({ analysis: 'inspect_document', documents: [document], options: {}, now: '2026-06-01T00:00:00.000Z' });
    if (!outcome.ok) throw new Error(`bench: the warrant analysis failed: ${outcome.detail}`);
  };
  try {
    await pdfjsAlone(bytes);
    await warrant();
    const pdfjsTimes: number[] = [];
    const warrantTimes: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let start = performance.now();
      await pdfjsAlone(bytes);
      pdfjsTimes.push(performance.now() - start);
      start = performance.now();
      await warrant();
      warrantTimes.push(performance.now() - start);
    }
    const pdfjsMs = percentile(pdfjsTimes, 0.5);
    const warrantMs = percentile(warrantTimes, 0.5);
    return { pages: 10, pdfjsMs, warrantMs, ratio: warrantMs / pdfjsMs };
  } finally {
    await pool.close();
  }
}

/**
 * `uploads` distinct 1 MB PDFs posted to POST /v1/warrants at once over HTTP, through the whole stack and the
 * default pool: every reply must be a warrant (no error, no 503 from the queue); p50 and p99 of the replies.
 */
export async function benchConcurrentWarrants(uploads = 20): Promise<ConcurrentWarrantsResult> {
  const files = await Promise.all(Array.from({ length: uploads }, (_, index) => megabytePdf(index + 1)));
  const { app, analysisPool } = createService({
    store: { state: () => ({ ready: false, detail: 'The warrant bench needs no release.' }), now: () => new Date() },
    burst: false,
    caps: { anonymous: uploads * 2 },
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/warrants`;
  try {
    const started = performance.now();
    const replies = await Promise.all(
      files.map(async (bytes, index) => {
        const form = new FormData();
        form.append('file', new File([bytes as Uint8Array<ArrayBuffer>], `photo-${index}.pdf`));
        const sent = performance.now();
        const response = await fetch(url, { method: 'POST', body: form });
        const body = (await response.json()) as { risk_band?: string };
        return { ms: performance.now() - sent, ok: response.status === 200 && body.risk_band !== undefined && body.risk_band !== 'error' };
      }),
    );
    const times = replies.map((reply) => reply.ms);
    return {
      uploads,
      bytesEach: Math.round(files.reduce((sum, file) => sum + file.byteLength, 0) / uploads),
      errors: replies.filter((reply) => !reply.ok).length,
      p50Ms: percentile(times, 0.5),
      p99Ms: percentile(times, 0.99),
      wallMs: performance.now() - started,
    };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await analysisPool.close();
  }
}

if (import.meta.main) {
  const ratio = await benchWarrantRatio();
  process.stdout.write(`warrant, 10-page text PDF: ${ratio.warrantMs.toFixed(0)} ms; pdfjs alone: ${ratio.pdfjsMs.toFixed(0)} ms; ratio ${ratio.ratio.toFixed(2)}× (goal ≤ 3×)\n`);
  const concurrent = await benchConcurrentWarrants();
  process.stdout.write(
    `${concurrent.uploads} concurrent warrant uploads of ${(concurrent.bytesEach / 2 ** 20).toFixed(2)} MB: ${concurrent.errors} errors; ` +
      `p50 ${concurrent.p50Ms.toFixed(0)} ms, p99 ${concurrent.p99Ms.toFixed(0)} ms, all in ${concurrent.wallMs.toFixed(0)} ms\n`,
  );
}
