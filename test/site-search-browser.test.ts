// The search page in Chromium (lib/chromium.ts says which) over the real server and API: words find tenders
// that link to their pages; filters go into the URL and come back from it; coverage is said in words; "Save
// this search" asks a signed-out reader to sign in and saves for a signed-in one (signed in through the emailed
// link); no console errors, failed requests or serious axe violations, at 390 and 1280 px. Then the issue's own
// journey on the fixture night: "cleaning" finds the open cleaning tenders of four states.
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../api/server.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, type SiteBrowser } from './helpers/site-browser.ts';
import { fixtureSiteRelease } from './helpers/site-release.ts';
import { decodedMessage } from './helpers/smtp-inbox.ts';
import { testDatabaseUrlFor } from './helpers/state.ts';

// Both releases are computed on a pinned clock; the browser's clock is set to it, so countdowns read as the API judges "open".
const RELEASE_CLOCK = new Date('2026-09-25T01:00:00.000Z');
const WIDTHS = [390, 1280];

/**
 * Waits for the tender search to answer (its status line says how many match, or why not) and the page search
 * under it to finish, so leaving the page aborts no request of either.
 */
async function searched(page: Page): Promise<string> {
  await page.waitForFunction(() => /match|failed/.test(document.getElementById('search-status')?.textContent ?? '')
    && document.getElementById('pages-status')?.textContent !== 'Searching pages…');
  return (await page.locator('#search-status').textContent())!;
}

async function noSidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

let site: SiteBrowser;
let fixtureDir: string | undefined;
let fixture: RunningServer;

before(async (t) => {
  // One test client makes every call from one address, many within a minute: the burst guard (tested on its
  // own) is widened so it does not stand between the reader and the pages.
  site = await openSiteBrowser('site-search', { tenders: 600, awards: 2000, plans: 200 }, (message) => t.diagnostic(message), {
    burst: { capacity: 1000, refillPerMinute: 60_000 },
  });
  fixtureDir = (await fixtureSiteRelease()).dataDir;
  fixture = await startServer({ dataDir: fixtureDir, databaseUrl: await testDatabaseUrlFor(fixtureDir), port: 0, log: () => {}, burst: { capacity: 1000, refillPerMinute: 60_000 } });
});
after(async () => {
  await fixture?.close();
  await site?.close();
  if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
});

/** A recording page (site-browser.ts) on the releases' clock. It is not tied to a server: it opens either. */
const open = async (width: number) => {
  const opened = await site.openPage(width);
  await opened.page.clock.setFixedTime(RELEASE_CLOCK);
  return opened;
};

describe('the search page on a synthetic release', () => {
  for (const width of WIDTHS) {
    test(`words find tenders linking to their pages, with closing times and coverage in words (${width} px)`, async () => {
      const { page, problems } = await open(width);
      await page.goto(`${site.server.url}/search/`);
      await page.getByLabel('Words', { exact: true }).fill('cleaning');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const status = await searched(page);
      await page.waitForURL((url) => url.search === '?q=cleaning');
      const api = await (await page.request.get(`${site.server.url}/v1/tenders?q=cleaning&limit=20`)).json() as { total: number; results: { page_key: string; title: string }[] };
      assert.ok(api.total > 0, 'the synthetic release holds cleaning tenders');
      assert.match(status, new RegExp(`^${api.total} open tenders and grant rounds match “cleaning”, best match first\\.`));
      const links = page.locator('#search-results li h3 a');
      assert.deepEqual(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), api.results.map((r) => `/tenders/${r.page_key}/`));
      assert.deepEqual(await links.allTextContents(), api.results.map((r) => r.title));
      const firstResult = (await page.locator('#search-results li').first().innerText());
      assert.match(firstResult, /(Closes today|Closes in \d+ days?|Open, no closing date published)/, 'a countdown');
      assert.match(firstResult, /\d{1,2} [A-Z][a-z]{2} \d{4}(, \d{1,2}:\d\d\s[ap]m A[CEW][SD]T| \(no time published\))|Open, no closing date/, 'the closing time in the buyer\'s zone');
      assert.match((await page.locator('#search-coverage').textContent())!, /Searched (\d+ sources|[^.;]+)[.;].*Read on the last run/, 'the sources searched, named when a few');
      assert.ok(await page.getByRole('heading', { name: 'Buyers and trades by name' }).isVisible(), 'the page search is its own labelled part');
      const pagesFound = await page.locator('#pages-results li a').count();
      assert.ok(pagesFound > 0 || /^No buyer or trade page matches/.test((await page.locator('#pages-status').textContent())!), 'pages found, or none said');

      await saveScreenshot(page, `search-${width}`);
      assert.ok((await noSidewaysScroll(page)) <= 1, 'no sideways scroll');
      assert.deepEqual(await seriousViolations(page), []);

      const href = await links.first().getAttribute('href');
      await links.first().click();
      await page.waitForURL((url) => url.pathname === href);
      assert.equal(await page.locator('h1').textContent(), api.results[0]!.title);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('filters go into the URL, come back from it on load, and page through the results', async () => {
    const { page, problems } = await open(1280);
    await page.goto(`${site.server.url}/search/`);
    await searched(page);
    await page.getByLabel('Where', { exact: true }).selectOption('AU-NSW');
    await page.getByLabel('Kind', { exact: true }).selectOption('tender');
    await page.getByLabel('Closing within (days)', { exact: true }).fill('200');
    await page.getByLabel('Order', { exact: true }).selectOption('closing');
    await page.getByLabel('Include closed', { exact: true }).check();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.search === '?jurisdiction=AU-NSW&kind=tender&closing_within_days=200&include_closed=true&sort=closing');
    await searched(page);
    const api = await (await page.request.get(`${site.server.url}/v1/tenders?jurisdiction=AU-NSW&kind=tender&closing_within_days=200&include_closed=true&limit=20`)).json() as { total: number };
    assert.ok(api.total > 20, `enough to page through (${api.total})`);

    // A fresh page from the shared address shows the same choices and results.
    const shared = page.url();
    const { page: again, problems: againProblems } = await open(390);
    await again.goto(`${shared}&trade=cleaning&q=services`);
    await searched(again);
    assert.equal(await again.getByLabel('Words', { exact: true }).inputValue(), 'services');
    assert.equal(await again.getByLabel('Where', { exact: true }).inputValue(), 'AU-NSW');
    assert.equal(await again.getByLabel('Trade', { exact: true }).inputValue(), 'cleaning');
    assert.equal(await again.getByLabel('Kind', { exact: true }).inputValue(), 'tender');
    assert.equal(await again.getByLabel('Closing within (days)', { exact: true }).inputValue(), '200');
    assert.equal(await again.getByLabel('Order', { exact: true }).inputValue(), 'closing');
    assert.equal(await again.getByLabel('Include closed', { exact: true }).isChecked(), true);
    assert.deepEqual(againProblems, []);
    await again.close();

    // Next page: a link to the same search one page on.
    const resultLinks = () => page.locator('#search-results li h3 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const firstPage = await resultLinks();
    assert.equal(firstPage.length, 20);
    await page.getByRole('link', { name: 'Next 20 →' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    assert.match(await searched(page), /Showing 21–/);
    const secondPage = await resultLinks();
    assert.ok(secondPage.length > 0 && secondPage.every((href) => !firstPage.includes(href)), 'the second page holds other tenders');
    await page.getByRole('link', { name: '← Previous 20' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await searched(page);
    assert.deepEqual(await resultLinks(), firstPage);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('nothing found says what to try; an API error shows its detail', async () => {
    const { page, problems } = await open(1280);
    await page.goto(`${site.server.url}/search/?q=zzyzxq&jurisdiction=AU-TAS&sort=relevance`);
    assert.equal(await searched(page), 'No open tenders and grant rounds match “zzyzxq”.');
    assert.equal(await page.getByLabel('Order', { exact: true }).inputValue(), '', 'sort=relevance shows as best match first');
    const tips = await page.locator('#search-tips li').allTextContents();
    assert.ok(tips.includes('Search every state, not only Tasmania.'), tips.join(' | '));
    await page.route('**/v1/tenders?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'No release is loaded yet.' }) }));
    await page.goto(`${site.server.url}/search/?q=roads`);
    assert.equal(await searched(page), 'The search failed: No release is loaded yet.');
    assert.deepEqual(problems.filter((problem) => !problem.includes('503')), []);
    await page.close();
  });

  test('"Save this search" asks a signed-out reader to sign in, and saves for a signed-in one', async () => {
    const { page, problems } = await open(1280);
    const searchPath = '/search/?q=cleaning&jurisdiction=AU-NSW';
    await page.goto(`${site.server.url}${searchPath}`);
    await searched(page);
    await page.getByRole('button', { name: 'Save this search' }).click();
    const signIn = page.getByRole('link', { name: 'Sign in to save this search' });
    await signIn.waitFor();
    assert.equal(await signIn.getAttribute('href'), `/account/sign-in/?next=${encodeURIComponent(`${searchPath}&then=save`)}`, 'signing in comes back to finish the save');
    // The session is asked first (200 either way), so a signed-out reader meets no refused request.
    assert.deepEqual(problems, []);
    problems.length = 0;

    // Sign in by the emailed link, as a reader does: the mail lands in the server's outbox folder.
    const email = 'saver@example.test';
    const login = await page.request.post(`${site.server.url}/v1/auth/login`, { data: { email } });
    assert.equal(login.status(), 202, await login.text());
    const outbox = site.server.mailDescription;
    const mails = await Promise.all((await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')));
    const link = /(https?:\/\/\S+\/v1\/auth\/callback\?token=[\w-]+)/.exec(decodedMessage(mails.find((mail) => mail.includes(email))!))?.[1];
    assert.ok(link, 'the sign-in mail carries its link');
    await page.goto(link);
    await page.goto(`${site.server.url}${searchPath}`);
    await searched(page);
    await page.getByRole('button', { name: 'Save this search' }).click();
    await page.getByText('Saved.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'your account page' }).getAttribute('href'), '/account/');
    const watches = await (await page.request.get(`${site.server.url}/v1/tenders/watch`)).json() as { watches: { kind: string; criteria: unknown }[] };
    assert.deepEqual(watches.watches.map((watch) => [watch.kind, watch.criteria]), [['search', { q: 'cleaning', jurisdiction: 'AU-NSW' }]]);
    // The reader sees it listed on the account page, in words, linking back to the same search.
    await page.getByRole('link', { name: 'your account page' }).click();
    const saved = page.locator('[data-watches] li a', { hasText: 'Saved search' });
    await saved.waitFor();
    assert.match((await saved.textContent())!, /“cleaning”.*New South Wales/);
    assert.equal(new URL((await saved.getAttribute('href'))!, site.server.url).search, new URL(searchPath, site.server.url).search);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('without JavaScript the page says what to do instead', async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.server.url}/search/?q=cleaning`);
    assert.match(await page.locator('main').innerText(), /needs JavaScript, which is off\. Without it, browse open tenders by state or trade/);
    await context.close();
  });
});

describe('the issue\'s journey on the fixture night', () => {
  test('searching "cleaning" finds the open cleaning tenders of four states, each linking its page', async () => {
    const api = await (await fetch(`${fixture.url}/v1/tenders?trade=cleaning&limit=100`)).json() as { results: { jurisdiction: string; page_key: string }[] };
    const states = [...new Set(api.results.map((r) => r.jurisdiction).filter((j) => j.startsWith('AU-')))].sort();
    assert.equal(states.length, 4, `the fixture night holds open cleaning tenders in four states (${states.join(', ')})`);

    for (const width of WIDTHS) {
      const { page, problems } = await open(width);
      await page.goto(`${fixture.url}/search/`);
      await page.getByLabel('Words', { exact: true }).fill('cleaning');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await searched(page);
      const found = await page.locator('#search-results li h3 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      for (const tender of api.results) assert.ok(found.includes(`/tenders/${tender.page_key}/`), `${tender.jurisdiction} cleaning tender found`);
      const text = await page.locator('#search-results').innerText();
      for (const name of ['New South Wales', 'Victoria', 'Tasmania', 'Northern Territory']) assert.ok(text.includes(name), `${name} among the results`);
      assert.match((await page.locator('#search-coverage').innerText()), /Tenders WA: refused by robots\.txt/);
      await saveScreenshot(page, `search-cleaning-fixture-${width}`);
      assert.ok((await noSidewaysScroll(page)) <= 1, 'no sideways scroll');
      if (width === 1280) assert.deepEqual(await seriousViolations(page), []);
      await page.locator('#search-results li h3 a').first().click();
      await page.waitForURL('**/tenders/*/');
      assert.match((await page.locator('h1').textContent())!, /Cleaning|Linen/);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
});
