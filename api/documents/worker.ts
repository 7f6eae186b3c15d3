import { parentPort } from 'node:worker_threads';
import type { Analysis } from '../checkers/types.ts';
import type { WorkerJob, WorkerReport } from './pool.ts';

/**
 * One analysis thread of the pool (pool.ts). It loads each named analysis module once and keeps it, so a
 * second job of the same checker does not pay for loading pdfjs again; it runs one job at a time and posts
 * its progress stages, the page-1 classifications it makes (for the route to keep) and its result (or the
 * error it threw) back. Hangs and memory exhaustion are the pool's to handle: it terminates this thread and
 * starts another.
 */
if (parentPort === null) throw new Error('api/documents/worker.ts runs only as a worker thread of the analysis pool.');
const port = parentPort;
const loaded = new Map<string, Promise<Analysis<unknown, unknown>>>();

function load(moduleUrl: string, exportName: string): Promise<Analysis<unknown, unknown>> {
  const key = `${moduleUrl}#${exportName}`;
  let analysis = loaded.get(key);
  if (analysis === undefined) {
    analysis = import(moduleUrl).then((module: Record<string, unknown>) => {
      const exported = module[exportName];
      if (typeof exported !== 'function') throw new Error(`${moduleUrl} exports no analysis named ${exportName}`);
      return exported as Analysis<unknown, unknown>;
    });
    loaded.set(key, analysis);
  }
  return analysis;
}

port.on('message', async (job: WorkerJob) => {
  const report = (message: WorkerReport) => port.postMessage(message);
  try {
    const analysis = await load(job.moduleUrl, job.exportName);
    const result = await analysis(job.documents, job.options, {
      now: job.now,
      progress: (stage) => report({ type: 'progress', jobId: job.jobId, stage }),
      ...(job.firstPages === undefined ? {} : { firstPages: job.firstPages }),
      firstPageClassified: (sha256, classification) => report({ type: 'first-page', jobId: job.jobId, sha256, classification }),
    });
    report({ type: 'result', jobId: job.jobId, result });
  } catch (error) {
    report({ type: 'threw', jobId: job.jobId, message: error instanceof Error ? error.message : String(error) });
  }
});
