import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../api/server.ts';
import { publishSyntheticRelease, writeReleaseSiteJson } from '../../bench/site-bench.ts';
import { describeChromium, resolveChromium } from '../../lib/chromium.ts';
import { publishSite } from '../../pipeline/site-build.ts';

/** Where the browser tests save their screenshots. */
export const SHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'site');

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface SiteBrowser {
  server: RunningServer;
  browser: Browser;
  /** A page that records console errors and failed requests in `problems`. */
  openPage(width: number): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/**
 * A synthetic release (seeded) of the given size with its site built, served by the real server, and Chromium
 * (lib/chromium.ts says which: `diagnostic` is told).
 */
export async function openSiteBrowser(name: string, scale: { tenders: number; awards: number; plans: number }, diagnostic: (message: string) => void): Promise<SiteBrowser> {
  const workDir = await mkdtemp(join(tmpdir(), `${name}-`));
  const release = await publishSyntheticRelease(workDir, scale);
  await writeReleaseSiteJson(release);
  const site = await publishSite(release.releaseDir);
  if (!site.built) throw new Error(site.error);
  const browsing = await browseRelease(release.dataDir, diagnostic);
  return { ...browsing, async close() {
    await browsing.close();
    await rm(workDir, { recursive: true, force: true });
  } };
}

/** The current release of `dataDir` (its site built) served by the real server, and Chromium; closing leaves the data. */
export async function browseRelease(dataDir: string, diagnostic: (message: string) => void): Promise<SiteBrowser> {
  const server = await startServer({ dataDir, port: 0, log: () => {} });
  const found = await resolveChromium({ offline: true });
  diagnostic(`browser: ${describeChromium(found)}`);
  const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args, env: found.env });
  await mkdir(SHOTS, { recursive: true });
  return {
    server,
    browser,
    async openPage(width) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const problems: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
      page.on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`); });
      return { page, problems };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** axe's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run());
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}
