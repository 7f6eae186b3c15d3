import type { Analysis } from '../../api/checkers/types.ts';

/**
 * Analyses for tests of the pool and the checker routes, loaded by the worker threads by name: one that
 * answers, and ones that hang, exhaust memory, throw or end their thread, as a hostile file can make a real
 * engine do.
 */

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

export const fail: Analysis<unknown, never> = async () => {
  throw new Error('the test analysis refuses every document');
};

/** Ends its thread from inside, as a native crash would. */
export const endThread: Analysis<unknown, never> = async () => {
  process.exit(3);
};
