import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNightly, type NightlyResult } from '../../pipeline/nightly.ts';
import type { ProgressReporter } from '../../pipeline/progress.ts';

const quiet: ProgressReporter = { stage() {}, sourceStarted() {}, sourceProgress() {}, sourceFinished() {}, done() {} };

export interface SiteRelease extends NightlyResult {
  dataDir: string;
  siteDir: string;
}

/** One fixture night, whose publish stage builds the static site into the release (once per test file). */
export async function fixtureSiteRelease(): Promise<SiteRelease> {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-test-'));
  const result = await runNightly({ dataDir, fixtures: true, progress: quiet });
  if (!result.site.built) throw new Error(`the site did not build: ${result.site.error}`);
  return { ...result, dataDir, siteDir: join(result.releaseDir, 'site') };
}
