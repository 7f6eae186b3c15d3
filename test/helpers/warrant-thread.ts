import { createHash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { analyseWarrant } from '../../api/checkers/warrants/analyse.ts';

/**
 * Runs warrant analyses in a thread of their own, as the analysis pool does, and reports for each file its
 * band, quality and time, or what it threw. A rejection left behind by a library (pdfjs-dist leaves one on
 * some damaged page trees) is recorded and reported instead of killing the thread.
 */
export interface ThreadFile {
  name: string;
  bytes: Uint8Array;
}

export type ThreadReport = { name: string; ms: number; band: string; quality: string; rule: string } | { name: string; threw: string } | { done: true; strays: string[] };

const port = parentPort!;
const strays: string[] = [];
process.on('unhandledRejection', (reason) => strays.push(String(reason)));

for (const file of workerData.files as ThreadFile[]) {
  const started = performance.now();
  try {
    const bytes = new Uint8Array(file.bytes);
    const result = await analyseWarrant([{ bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'pdf', mime: 'application/pdf', filename: null }], {}, { now: '2026-03-01T00:00:00Z' });
    port.postMessage({ name: file.name, ms: performance.now() - started, band: result.risk_band, quality: result.inspection_quality, rule: result.summary.band_rule } satisfies ThreadReport);
  } catch (error) {
    port.postMessage({ name: file.name, threw: error instanceof Error ? error.message : String(error) } satisfies ThreadReport);
  }
}
// Give library promises left behind a moment to settle before reporting them.
await new Promise((resolve) => setTimeout(resolve, 50));
port.postMessage({ done: true, strays } satisfies ThreadReport);
