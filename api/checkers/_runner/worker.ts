import type { Analysis } from '../types.ts';
import type { WorkerJob, WorkerReport } from './pool.ts';
import { DocumentRefused } from '../../documents/refusal.ts';

/**
 * One analysis process of the pool (pool.ts). It loads each named analysis module once and keeps it, so a
 * second job of the same checker does not pay for loading pdfjs again; it runs one job at a time and sends
 * its progress stages, the page-1 classifications it makes (for the route to keep) and its result, the
 * guarded open's refusal, or the error it threw back. Hangs and memory are the pool's to handle: it kills
 * this process and starts another. When the server goes away (its channel closes), this process ends too.
 */
if (process.send === undefined) throw new Error('api/checkers/_runner/worker.ts runs only as an analysis process of the pool.');
const send = (message: WorkerReport) => process.send!(message);
const loaded = new Map<string, Promise<Analysis<unknown, unknown>>>();

// pdfjs leaves an unawaited rejection behind on some damaged page trees; it never reaches a result, and
// must not end the process the next job would use.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`analysis: a library left a rejection unhandled: ${reason instanceof Error ? reason.message : String(reason)}\n`);
});
process.on('disconnect', () => process.exit(0));

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

process.on('message', async (job: WorkerJob) => {
  try {
    const analysis = await load(job.moduleUrl, job.exportName);
    send({ type: 'started', jobId: job.jobId });
    const result = await analysis(job.documents, job.options, {
      now: job.now,
      progress: (stage) => send({ type: 'progress', jobId: job.jobId, stage }),
      ...(job.firstPages === undefined ? {} : { firstPages: job.firstPages }),
      firstPageClassified: (sha256, classification) => send({ type: 'first-page', jobId: job.jobId, sha256, classification }),
    });
    send({ type: 'result', jobId: job.jobId, result });
  } catch (error) {
    if (error instanceof DocumentRefused) send({ type: 'refused', jobId: job.jobId, status: error.status, message: error.message });
    else send({ type: 'threw', jobId: job.jobId, message: error instanceof Error ? error.message : String(error) });
  }
});
