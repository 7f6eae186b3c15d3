import { classifyPage } from '../../api/checkers/document-types.ts';
import type { Analysis } from '../../api/checkers/types.ts';
import type { ExtractionResult } from '../../api/checkers/extract/result.ts';
import type { IdentityResult } from '../../api/checkers/identity/result.ts';
import type { PackResult } from '../../api/checkers/pack/result.ts';
import type { ReadTextOptions, ReadTextResult } from '../../api/checkers/read-text.ts';
import type { WarrantAnalysis } from '../../api/checkers/warrants/bundle.ts';

/**
 * Analyses for tests of the pool and the checker routes, loaded by the worker threads by name: one that
 * answers, and ones that hang, exhaust memory, throw or end their thread, as a hostile file can make a real
 * engine do.
 */

/**
 * The real reading step of the checkers that judge text against the outside world. Loaded on first use:
 * read-text brings in the document engines (cheerio, the OCR and PDF readers), and every test thread loads
 * this module, so importing it up front would put half a second or more, far more under load, into the
 * first analysis of every thread and make the pool's time limit measure module loading.
 */
export const readText: Analysis<ReadTextOptions, ReadTextResult> = async (documents, options, context) => {
  const { readText: read } = await import('../../api/checkers/read-text.ts');
  return read(documents, options, context);
};

/** Reports two stages, then echoes what it was given (sizes, kinds, hashes, options, the clock). */
export const echo: Analysis<unknown, Record<string, unknown>> = async (documents, options, context) => {
  context.progress?.('reading');
  const delayMs = (options as { delay_ms?: number } | null)?.delay_ms ?? 0;
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  context.progress?.('checking');
  return {
    documents: documents.map((document) => ({ sha256: document.sha256, kind: document.kind, mime: document.mime, filename: document.filename, size: document.bytes.byteLength })),
    options,
    now: context.now,
  };
};

/** Never settles and keeps its thread busy. */
export const hang: Analysis<unknown, never> = async () => {
  for (;;) {
    // A busy loop: a hang that never yields, which only stopping the thread ends.
  }
};

/** Keeps every array it makes until the heap limit stops the thread. */
export const exhaustMemory: Analysis<unknown, never> = async () => {
  const kept: number[][] = [];
  for (;;) kept.push(new Array<number>(1_000_000).fill(1));
};

/** Classifies its first document from page 1 (a blank page), then throws, as an engine that fails on a later document does. */
export const readThenFail: Analysis<unknown, never> = async (documents, _options, context) => {
  context.firstPageClassified?.(documents[0]!.sha256, classifyPage(null, { isImage: false, largestImageShare: 0 }));
  throw new Error('the test analysis failed after reading page 1');
};

export const fail: Analysis<unknown, never> = async () => {
  throw new Error('the test analysis refuses every document');
};

/** Ends its thread from inside, as a native crash would. */
export const endThread: Analysis<unknown, never> = async () => {
  process.exit(3);
};

/**
 * Tells the page-1 classification (a blank page) of every document, as the real identity and pack analyses tell
 * each page 1 they read: a route takes an analysis told of none as one that could read no document.
 */
function classifyEach(documents: Parameters<Analysis<unknown, unknown>>[0], context: Parameters<Analysis<unknown, unknown>>[2]): void {
  for (const document of documents) context.firstPageClassified?.(document.sha256, classifyPage(null, { isImage: false, largestImageShare: 0 }));
}

/** An identity result naming each document it was given, so a test sees the route passed them on. */
export const identity: Analysis<{ scheme: 'afp_100_point' | 'austrac_safe_harbour' }, IdentityResult> = async (documents, options, context) => {
  context.progress?.('classifying');
  classifyEach(documents, context);
  return {
    scheme: { id: options.scheme, name: options.scheme, source: 'test analysis' },
    established: false,
    rule: options.scheme === 'afp_100_point' ? 'points_accumulation' : 'category_path',
    points: 0,
    target: 100,
    primaries: 0,
    satisfied_path: null,
    reason: `read ${documents.length} documents at ${context.now}`,
    documents: documents.map((document) => ({ filename: document.filename, classified_type: document.kind, shows: [], points: 0, counts: false, note: document.sha256, mrz: null })),
    limitations: 'Test analysis.',
  };
};

/** A pack result echoing its options in the scheme name. */
export const pack: Analysis<unknown, PackResult> = async (documents, options, context) => {
  classifyEach(documents, context);
  return {
    scheme: { id: 'test', name: JSON.stringify(options) },
    complete: false,
    slots: [],
    missing: [],
    documents: documents.map((document) => ({ filename: document.filename, classified_type: document.kind, confidence: 1 })),
    unmatched_documents: [],
    flags: [],
    limitations: 'Test analysis.',
  };
};

/** An extraction result with the document's size as a field and the options in `document_type`. */
export const extraction: Analysis<unknown, ExtractionResult> = async (documents, options, context) => {
  context.progress?.('reading');
  return {
    mode: 'fields',
    document_type: JSON.stringify(options),
    fields: { size: { value: documents[0]!.bytes.byteLength, confidence: 1, page: 1 } },
    not_found: [],
    pages_read: 1,
    page_limit: 10,
    page_count: 1,
    capabilities_used: [],
    limitations: 'Test analysis.',
  };
};

/** A warrant analysis of band `low` whose signal names the document's size, after two stages. */
export const warrant: Analysis<Record<string, never>, WarrantAnalysis> = async (documents, _options, context) => {
  const document = documents[0]!;
  context.progress?.('structure');
  context.progress?.('metadata');
  return {
    inspection_version: 'test-1',
    file_kind: document.kind === 'pdf' ? 'pdf' : 'image',
    sha256: document.sha256,
    risk_band: 'low',
    inspection_quality: 'full',
    recommended_action: 'None.',
    summary: { headline: 'Nothing found.', counts: { tampering: 0, structure: 1, metadata: 0, arithmetic: 0 }, band_rule: 'low: no signals', pages: 1, revisions: 1, producer: null, creator: null },
    signals: [{ code: 'test_size', group: 'structure', severity: 'info', title: 'Size', found: `${document.bytes.byteLength} bytes`, where: {} }],
  };
};
