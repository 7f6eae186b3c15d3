import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type RunningServer, type ServerOptions } from '../../api/server.ts';
import { publishSyntheticRelease, writeReleaseSiteJson } from '../../bench/site-bench.ts';
import { describeChromium, resolveChromium } from '../../lib/chromium.ts';
import { publishSite } from '../../pipeline/site-build.ts';
import { SESSION_COOKIE } from '../../api/middleware/caller.ts';
import { signIn } from './access.ts';
import { testDatabaseUrlFor } from './state.ts';

/** Where the browser tests save their screenshots. */
export const SHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'site');

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface SiteBrowser {
  server: RunningServer;
  browser: Browser;
  /** A page that records console errors, failed requests and error replies in `problems` (except EXPECTED_REFUSALS). */
  openPage(width: number): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/**
 * Error replies a page asks for on purpose, so not problems: none. A page asks GET /v1/auth/session who is signed
 * in, which answers 200 whether or not anyone is, so a signed-out reader's console stays clean.
 */
const EXPECTED_REFUSALS: readonly { status: number; path: string }[] = [];
const expectedRefusal = (status: number, url: string | undefined) =>
  url !== undefined && URL.canParse(url) && EXPECTED_REFUSALS.some((refusal) => refusal.status === status && new URL(url).pathname === refusal.path);
// Chromium's console line for an error reply names its status, and the message's location names the URL.
const refusedStatus = (text: string) => Number(/the server responded with a status of (\d{3})/.exec(text)?.[1]);

/** What a browser test may set on its server: the burst guard, the bid price, the mail server and the job worker's numbers. */
export type BrowserServerOptions = Pick<ServerOptions, 'burst' | 'bidPrice' | 'smtpUrl' | 'jobs'>;

/**
 * A synthetic release (seeded) of the given size with its site built, served by the real server (with
 * `serverOptions`' burst guard, bid price, mail server and job numbers, when given), and Chromium (lib/chromium.ts says which: `diagnostic` is told).
 */
export async function openSiteBrowser(
  name: string,
  scale: { tenders: number; awards: number; plans: number },
  diagnostic: (message: string) => void,
  serverOptions: BrowserServerOptions = {},
): Promise<SiteBrowser> {
  const workDir = await mkdtemp(join(tmpdir(), `${name}-`));
  const release = await publishSyntheticRelease(workDir, scale);
  await writeReleaseSiteJson(release);
  const site = await publishSite(release.releaseDir);
  if (!site.built) throw new Error(site.error);
  const browsing = await browseRelease(release.dataDir, diagnostic, serverOptions);
  return { ...browsing, async close() {
    await browsing.close();
    await rm(workDir, { recursive: true, force: true });
  } };
}

/**
 * The current release of `dataDir` (its site built) served by the real server (with `serverOptions`' burst guard,
 * when given), and Chromium; closing leaves the data.
 */
export async function browseRelease(dataDir: string, diagnostic: (message: string) => void, serverOptions: BrowserServerOptions = {}): Promise<SiteBrowser> {
  const server = await startServer({ dataDir, databaseUrl: await testDatabaseUrlFor(dataDir), port: 0, log: () => {}, ...serverOptions });
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
      page.on('console', (message) => {
        if (message.type() === 'error' && !expectedRefusal(refusedStatus(message.text()), message.location().url)) problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));
      page.on('response', (response) => {
        if (response.status() >= 400 && !expectedRefusal(response.status(), response.url())) problems.push(`${response.status()}: ${response.url()}`);
      });
      return { page, problems };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

// Chromium cannot capture a page taller than its largest texture, and under load a very tall capture fails
// with "Unable to capture screenshot"; the top of a long page shows its type well enough.
const TALLEST_SHOT_PX = 6000;

/** Saves a screenshot of the page (its first 6,000 px at most) as `<name>.png` under SHOTS, trying twice. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  const height = Math.min(TALLEST_SHOT_PX, await page.evaluate(() => document.documentElement.scrollHeight));
  const options = { path: join(SHOTS, `${name}.png`), fullPage: true, clip: { x: 0, y: 0, width, height } };
  try {
    await page.screenshot(options);
  } catch {
    await page.screenshot(options);
  }
}

/** axe's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const results = await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run());
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Signs `email` in for the browser (the session cookie set on the server's address); returns the account. */
export async function signInBrowser(site: SiteBrowser, page: Page, email: string): Promise<string> {
  const signedIn = await signIn(site.server.state, email);
  const token = /svc_session=([^;]+)/.exec(signedIn.headers.cookie!)![1]!;
  await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: site.server.url }]);
  return signedIn.accountId;
}
