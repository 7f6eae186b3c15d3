import { join } from 'node:path';
import { readCurrentRelease, type Manifest } from '../../data/release.ts';
import { openStore, type Store } from '../../data/store.ts';
import { runNightly } from '../../pipeline/nightly.ts';
import abnBulkExtract from '../../sources/au_abn_bulk_extract.ts';
import asicCompanies from '../../sources/au_asic_companies.ts';
import type { SourceDefinition } from '../../sources/_contract/define-source.ts';
import { tempDir } from './temp-dir.ts';

/** The fixture release's clock: the capture date of the recorded registers. */
export const REGISTER_RELEASE_NOW = new Date('2026-09-25T01:00:00.000Z');

export interface RegisterRelease {
  dataDir: string;
  store: Store;
  storePath: string;
  manifest: Manifest;
}

const quiet = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };

/**
 * A fixture release holding only the two company registers (the ABN bulk extract and ASIC's company dataset,
 * from their recorded files), built by the nightly run itself, opened read-only as the API opens it. Close
 * `store` when done; the folder goes when the test file ends.
 */
export async function registerRelease(sources: SourceDefinition[] = [abnBulkExtract, asicCompanies]): Promise<RegisterRelease> {
  const dataDir = join(await tempDir('company-registers-'), 'data');
  await runNightly({ dataDir, fixtures: true, registry: sources, progress: quiet, politeness: { maxRetries: 0, timeoutSecs: 5 } });
  const current = await readCurrentRelease(dataDir);
  if (!current) throw new Error('the fixture nightly run published no release');
  return { dataDir, store: await openStore(current.storePath, { readOnly: true }), storePath: current.storePath, manifest: current.manifest };
}
