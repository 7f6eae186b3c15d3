// A small business looking for work, in Chromium over the real server and the fixture night's release, at 390 and
// 1280 px: from the home page to a New South Wales cleaning tender closing this month in two clicks (the search box,
// then the tender); watch a buyer and a tender from their pages, signing in on the way and coming back to a saved
// watch and the buyer's largest suppliers named; save a search signed out and find it saved after signing in; add a tender's closing to a calendar. On every
// page: no console error or refused request for a reader signed out or in, no serious axe violation, no sideways
// scroll, every table's numbers on the screen. Screenshots of home, a tender, a buyer, search and check at both widths.
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { timeZoneOf, type Jurisdiction } from '../lib/jurisdictions.ts';
import { decodedMessage } from './helpers/smtp-inbox.ts';
import { browseRelease, saveScreenshot, seriousViolations, type SiteBrowser } from './helpers/site-browser.ts';
import { fixtureSiteRelease, type SiteRelease } from './helpers/site-release.ts';

let release: SiteRelease;
let site: SiteBrowser;

before(async (t) => {
  release = await fixtureSiteRelease();
  site = await browseRelease(release.dataDir, (message) => t.diagnostic(message), { burst: { capacity: 1000, refillPerMinute: 60_000 } });
});
after(async () => {
  await site?.close();
  if (release) await rm(release.dataDir, { recursive: true, force: true });
});

const WIDTHS = [390, 1280] as const;

/** Axe, no sideways scroll, no table cell off the screen, and a screenshot named `shot-width`. */
async function checkPage(page: Page, shot: string, width: number): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${shot} at ${width} px`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `${shot} does not scroll sideways at ${width} px (${overflow} px)`);
  const offScreen = await page.evaluate(() => Array.from(document.querySelectorAll('main td.num'))
    .filter((cell) => (cell as HTMLElement).offsetParent !== null && cell.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
    .map((cell) => cell.textContent));
  assert.deepEqual(offScreen, [], `${shot}: every number of its tables is on the screen at ${width} px`);
  await saveScreenshot(page, `bidder-${shot}-${width}`);
}

/** The sign-in link of the newest message to `email` in the server's outbox. */
async function emailedLink(email: string): Promise<string> {
  const outbox = site.server.mailDescription;
  const messages = await Promise.all((await readdir(outbox)).sort().map(async (name) => decodedMessage(await readFile(join(outbox, name), 'utf8'))));
  const message = messages.filter((text) => text.includes(`To: ${email}`)).at(-1);
  assert.ok(message, `a message to ${email} is in the outbox`);
  const link = /(http:\/\/\S+\/v1\/auth\/callback\?\S+)/.exec(message)?.[1];
  assert.ok(link, message);
  return link;
}

/** Follows a sign-in link asked for from the page (the form it shows after "Sign in to …"). */
async function signIn(page: Page, email: string): Promise<void> {
  await page.waitForURL('**/account/sign-in/?next=*');
  await page.getByLabel('Your email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.locator('[data-sign-in-sent]').waitFor();
  await page.goto(await emailedLink(email));
}

const twinOf = async <T>(path: string) => (await (await fetch(`${site.server.url}${path}`)).json()) as T;

for (const width of WIDTHS) {
  test(`home → a New South Wales cleaning tender closing this month in two clicks, focus on the results (${width} px)`, async () => {
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/`);
    await checkPage(page, 'home', width);
    await page.getByLabel('Where', { exact: true }).selectOption('AU-NSW');
    await page.getByLabel('Trade', { exact: true }).selectOption('cleaning');
    await page.getByLabel('Closing', { exact: true }).selectOption('31');
    await page.getByRole('button', { name: 'Find tenders' }).click(); // click 1
    await page.waitForURL('**/search/?**');
    const first = page.locator('#search-results li h3 a').first();
    await first.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'tenders-heading');
    assert.match((await page.locator('#search-status').textContent())!, /match(es)? these filters/);
    assert.match((await page.locator('#search-coverage').textContent())!, /Searched buy\.nsw opportunities and VendorPanel public tenders; not read: Tenderlink council tenders \(needs a login\)/,
      'the sources searched are named, by the rule the API counted them with');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.closest('#search-results li h3') !== null), true, 'the first result is one Tab away');
    await checkPage(page, 'search', width);
    const title = await first.textContent();
    await first.click(); // click 2
    await page.waitForURL('**/tenders/*/');
    assert.equal(await page.locator('h1').textContent(), title);
    const key = new URL(page.url()).pathname.split('/')[2]!;
    const tender = await twinOf<{ jurisdiction: string; trade: string; open: boolean; closing_date: string }>(`/tenders/${key}.json`);
    assert.deepEqual([tender.jurisdiction, tender.trade, tender.open], ['AU-NSW', 'cleaning', true]);
    const { computed_at } = await twinOf<{ computed_at: string }>('/index.json');
    assert.equal(tender.closing_date.slice(0, 7), computed_at.slice(0, 7), 'it closes this month');
    assert.match((await page.locator('table.facts').textContent())!, /Trade\s*Cleaning/);
    await checkPage(page, 'tender', width);
    assert.deepEqual(problems, [], 'no console error or refused request for a reader signed out');
    await page.close();
  });

  test(`add a tender's closing to a calendar: an .ics in the buyer's time zone (${width} px)`, async () => {
    const { page, problems } = await site.openPage(width);
    // A tender closing at a stated time outside Sydney's zone, so the zone in the file is the buyer's, not the site's.
    const { results } = await twinOf<{ results: { page_key: string; closing_at?: string; jurisdiction: Jurisdiction }[] }>('/v1/tenders?limit=100&kind=tender');
    const timed = results.find((t) => t.closing_at && timeZoneOf(t.jurisdiction) !== 'Australia/Sydney');
    assert.ok(timed, 'the fixture night has a tender with a closing time outside Sydney');
    await page.goto(`${site.server.url}/tenders/${timed.page_key}/`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Add to calendar' }).click()]);
    assert.match(download.suggestedFilename(), /^closes-.+\.ics$/);
    const ics = await readFile((await download.path())!, 'utf8');
    const zone = timeZoneOf(timed.jurisdiction);
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .format(new Date(timed.closing_at!)).replace(/[-:, ]/g, '').replace(/^(\d{8})(\d{4})$/, '$1T$200');
    assert.match(ics.replace(/\r\n /g, ''), new RegExp(`DTSTART;TZID=${zone.replace('/', '\\/')}:${local}\\r\\n`), 'the closing in the buyer\'s wall-clock time and zone');
    assert.match(ics, /BEGIN:VTIMEZONE\r\nTZID:/);
    assert.match(ics, /^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('watch a buyer and a tender from their pages: sign in on the way, come back to the watch saved, find both on the account page', async () => {
  for (const width of WIDTHS) {
    const email = `bidder-${width}@example.com`;
    const { page, problems } = await site.openPage(width);
    const buyers = await (await fetch(`${site.server.url}/buyers/in/qld/`)).text();
    const slug = /href="\/buyers\/(au-qld-transport-and-main-roads)\/"/.exec(buyers)?.[1] ?? /href="\/buyers\/(?!in\/)([^/"]+)\/"/.exec(buyers)![1]!;
    const detail = await twinOf<{ open_tenders: { page_key: string }[]; top_suppliers: { share: number; name?: string }[] }>(`/buyers/${slug}.json`);
    assert.ok(detail.top_suppliers.length > 0 && detail.top_suppliers.every((supplier) => supplier.name === undefined), 'the page\'s data has the suppliers\' shares and no name');
    await page.goto(`${site.server.url}/buyers/${slug}/`);
    await checkPage(page, 'buyer', width);
    const firstSupplier = page.locator('[data-supplier-name="0"]');
    assert.equal(await firstSupplier.textContent(), 'Named when you are signed in');
    await page.getByRole('link', { name: 'Sign in to watch this buyer' }).click();
    await signIn(page, email);
    await page.waitForURL(`**/buyers/${slug}/**`);
    await page.locator('[data-watch-done]').filter({ hasText: /^Saved: you watch this buyer\./ }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'the address no longer asks to watch');
    // Signed in, the largest suppliers are named (from the buyer's detail, which names them for a session).
    await page.waitForFunction(() => document.querySelector('[data-supplier-name="0"]')?.textContent !== 'Named when you are signed in');
    assert.match((await firstSupplier.textContent())!, /\p{L}/u);
    assert.ok(await page.getByRole('link', { name: 'Sign in to see the suppliers\' names' }).isHidden());

    // A tender of that buyer (or any open one), watched with one click now that the reader is signed in.
    const open = detail.open_tenders[0]?.page_key ?? (await twinOf<{ results: { page_key: string }[] }>('/v1/tenders?limit=1&kind=tender')).results[0]!.page_key;
    await page.goto(`${site.server.url}/tenders/${open}/`);
    await page.getByRole('button', { name: 'Watch this tender' }).click();
    await page.locator('[data-watch-done]').filter({ hasText: /^Saved: you watch this tender\. You get a daily email when its closing date changes or it closes\./ }).waitFor();
    await page.getByRole('link', { name: /^Open on / }).waitFor();
    await page.reload();
    await page.locator('[data-watch-done]').filter({ hasText: /^You watch this tender\./ }).waitFor();

    await page.goto(`${site.server.url}/account/`);
    const watches = page.locator('[data-watches] li');
    await watches.nth(1).waitFor();
    const listed = await watches.allTextContents();
    assert.ok(listed.some((text) => text.startsWith('New contracts, plans and tenders of ')), listed.join(' | '));
    assert.ok(listed.some((text) => text.startsWith('Changes to the closing date of “')), listed.join(' | '));
    assert.deepEqual(problems, [], `${width} px: no console error or refused request, signed out or in`);
    await page.close();
  }
});

test('save a search signed out: sign in from the search page, come back to it saved', async () => {
  const email = 'saver@example.com';
  const { page, problems } = await site.openPage(1280);
  await page.goto(`${site.server.url}/search/?q=cleaning&jurisdiction=AU-NSW`);
  await page.locator('#search-results li').first().waitFor();
  // The page search (Pagefind) runs beside the tender search; leaving before it has loaded aborts its fetches.
  await page.waitForFunction(() => document.getElementById('pages-status')?.textContent !== 'Searching pages…');
  await page.getByRole('button', { name: 'Save this search' }).click();
  await page.getByRole('link', { name: 'Sign in to save this search' }).click();
  await signIn(page, email);
  await page.waitForURL('**/search/?**');
  await page.locator('#save-status').filter({ hasText: /^Saved\./ }).waitFor();
  assert.equal(new URL(page.url()).searchParams.get('then'), null, 'the address no longer asks to save');
  await page.waitForFunction(() => document.getElementById('pages-status')?.textContent !== 'Searching pages…');
  await page.goto(`${site.server.url}/account/`);
  await page.locator('[data-watches] li', { hasText: 'Saved search' }).waitFor();
  assert.match((await page.locator('[data-watches] li').first().textContent())!, /matching “cleaning”, in New South Wales/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the check page at both widths: no console error, no serious axe violation, no sideways scroll', async () => {
  for (const width of WIDTHS) {
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/check/`);
    await page.locator('main form').first().waitFor();
    await checkPage(page, 'check', width);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('"Anywhere in Australia" keeps New Zealand out of the tenders and of the buyer and trade pages found by name', async () => {
  const { page, problems } = await site.openPage(1280);
  const pagesFound = async (query: string) => {
    await page.goto(`${site.server.url}/search/?${query}`);
    await page.locator('#search-status').filter({ hasText: /match|No open/ }).waitFor();
    await page.waitForFunction(() => !['', 'Searching pages…'].includes(document.getElementById('pages-status')?.textContent ?? '') || document.querySelectorAll('#pages-results li').length > 0);
    assert.doesNotMatch((await page.locator('#pages-status').textContent()) ?? '', /failed/, `the page search ran for ${query}`);
    return page.locator('#pages-results a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  };
  const australia = await pagesFound('q=ministry');
  assert.ok(australia.every((path) => !path.startsWith('/buyers/nz-')), `no New Zealand page: ${australia.join(' ')}`);
  const tenders = await page.locator('#search-results li .meta').allTextContents();
  assert.ok(tenders.every((about) => !about.includes('New Zealand')), 'no New Zealand tender');
  const newZealand = await pagesFound('q=ministry&jurisdiction=NZ');
  assert.ok(newZealand.some((path) => path.startsWith('/buyers/nz-')), `New Zealand's pages when New Zealand is asked for: ${newZealand.join(' ')}`);
  assert.deepEqual(problems, []);
  await page.close();
});
