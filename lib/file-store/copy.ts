import { checkedPrefix, type FileStore } from './store.ts';

export interface CopyReport {
  copied: number;
  /** Already in the target: bid files are named by their hash and library documents by a fresh id, so never stale. */
  present: number;
}

/**
 * Copies every key under `prefixes` from one store to another, streamed, leaving keys the target already holds:
 * how a single machine's folder moves to a bucket before its instances start on `SVC_FILE_STORE_URL`. Run again,
 * it copies only what is new.
 */
export async function copyFiles(from: FileStore, to: FileStore, prefixes: readonly string[]): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, present: 0 };
  for (const prefix of prefixes) {
    for (const key of await from.list(checkedPrefix(prefix))) {
      if (await to.has(key)) {
        report.present++;
        continue;
      }
      const body = await from.stream(key);
      // Removed meanwhile: nothing to copy.
      if (body === null) continue;
      await to.put(key, body);
      report.copied++;
    }
  }
  return report;
}
