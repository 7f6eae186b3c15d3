// The account in the browser, in Chromium (lib/chromium.ts says which) over the real server and a synthetic
// release: a reader signs in through the emailed link (read from the server's outbox) and lands back on the
// buyer page they came from, watches the buyer and finds it listed on the account page, removes it, creates a
// key (shown once) and revokes it; tender pages show the portal link signed in and a sign-in prompt signed
// out; the match page ranks tenders for an example and says what an anonymous reader does not see. No
// console errors or failed requests (the anonymous 401 of GET /v1/account is expected), no serious axe
// violation, no sideways scroll; screenshots of each new page at 390 and 1280 px.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { decodedMessage } from './helpers/smtp-inbox.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, type SiteBrowser } from './helpers/site-browser.ts';

let site: SiteBrowser;
let buyer: { buyer_key: string; name: string; slug: string };
let tenderKey: string;

before(async (t) => {
  // One test client makes every call from one address, many within a minute: the burst guard (tested on its
  // own) is widened so it does not stand between the reader and the pages.
  site = await openSiteBrowser('site-account-browser', { tenders: 3000, awards: 3000, plans: 100 }, (message) => t.diagnostic(message), {
    burst: { capacity: 1000, refillPerMinute: 60_000 },
  });
  // A listed buyer, as its page's JSON twin names it (the first buyer page the buyers index links to).
  const index = await (await fetch(`${site.server.url}/buyers/in/au/`)).text();
  const slug = /href="\/buyers\/(?!in\/)([^/"]+)\/"/.exec(index)?.[1];
  assert.ok(slug, 'the buyers index links a buyer page');
  buyer = { ...((await (await fetch(`${site.server.url}/buyers/${slug}.json`)).json()) as { buyer: Omit<typeof buyer, 'slug'> }).buyer, slug };
  const tenders = (await (await fetch(`${site.server.url}/v1/tenders?limit=1`)).json()) as { results: { page_key: string }[] };
  tenderKey = tenders.results[0]!.page_key;
});
after(() => site?.close());

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Axe, sideways scroll and a screenshot. `ignoring` names axe rules left to the page's own content outside
 * this change: at 390 px the buyer page's values table scrolls sideways in a region a keyboard cannot reach.
 */
async function checkPage(page: Page, shot: string, width: number, ignoring: readonly string[] = []): Promise<void> {
  const violations = await seriousViolations(page);
  assert.deepEqual(violations.filter((violation) => !ignoring.some((rule) => violation.startsWith(`${rule} `))), [], `axe on ${shot}`);
  assert.ok((await sideways(page)) <= 1, `${shot} does not scroll sideways at ${width} px`);
  await saveScreenshot(page, `${shot}-${width}`);
}

/** The sign-in link of the newest message to `email` in the server's outbox (`.eml` files). */
async function emailedLink(email: string): Promise<string> {
  const outbox = site.server.mailDescription;
  const messages = await Promise.all((await readdir(outbox)).sort().map(async (name) => decodedMessage(await readFile(join(outbox, name), 'utf8'))));
  const message = messages.filter((text) => text.includes(`To: ${email}`)).at(-1);
  assert.ok(message, `a message to ${email} is in the outbox`);
  const link = /(http:\/\/\S+\/v1\/auth\/callback\?\S+)/.exec(message)?.[1];
  assert.ok(link, message);
  return link;
}

for (const width of [390, 1280]) {
  test(`signed out at ${width} px: sign-in prompts on tender and buyer pages, the sign-in form on the account page`, async () => {
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/tenders/${tenderKey}/`);
    const portal = page.getByRole('link', { name: 'Sign in to open the original notice' });
    await portal.waitFor();
    assert.equal(await portal.getAttribute('href'), `/account/sign-in/?next=${encodeURIComponent(`/tenders/${tenderKey}/`)}`);
    // The page asked who is signed in and left the prompt: no portal call was made.
    await page.waitForLoadState('networkidle');
    assert.equal(await page.locator('[data-portal-link] a').count(), 1);
    await checkPage(page, 'tender-signed-out', width);

    await page.goto(`${site.server.url}/buyers/${buyer.slug}/`);
    const watch = page.getByRole('link', { name: 'Sign in to watch this buyer' });
    assert.equal(await watch.getAttribute('href'), `/account/sign-in/?next=${encodeURIComponent(`/buyers/${buyer.slug}/?then=watch`)}`, 'signing in comes back to finish the watch');
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('button', { name: 'Watch this buyer' }).isVisible(), false);

    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL('**/account/');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    assert.match((await page.locator('[data-signed-out]').textContent())!, /You are not signed in on this browser/);
    assert.equal(await page.locator('[data-signed-in]').isVisible(), false);
    await checkPage(page, 'account-signed-out', width);

    // A refusal shows the API's own sentence.
    await page.goto(`${site.server.url}/account/sign-in/`);
    await page.getByLabel('Your email address').fill('not an address');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    assert.equal(await refused.textContent(), 'Invalid body field email: must be an email address such as person@example.com.');
    await checkPage(page, 'sign-in', width);
    assert.deepEqual(problems.filter((problem) => !/422/.test(problem)), []);
    assert.equal(problems.length, 2, `the expected 422 reply and its console line only: ${problems.join('; ')}`);
    await page.close();
  });

  test(`signed in at ${width} px: back on the buyer page, watch it, list and remove it; a key shown once and revoked; the portal link`, async () => {
    const email = `reader-${width}@example.com`;
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/buyers/${buyer.slug}/`);
    await page.getByRole('link', { name: 'Sign in to watch this buyer' }).click();
    await page.waitForURL('**/account/sign-in/?next=*');
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const sent = page.locator('[data-sign-in-sent]');
    await sent.waitFor();
    assert.equal(await sent.textContent(), `We sent a sign-in link to ${email}. Open it in this browser within 15 minutes: it works once.`);

    await page.goto(await emailedLink(email));
    // Back signed in, the watch asked for before signing in is saved without a second click, and the address forgets the request.
    await page.waitForURL(`**/buyers/${buyer.slug}/**`);
    const save = page.getByRole('button', { name: 'Watch this buyer' });
    const done = page.locator('[data-watch-done]');
    await done.waitFor();
    assert.equal(await done.textContent(), `Saved: you watch this buyer. You get a daily email when ${buyer.name} has something new. See or remove it on your account.`);
    assert.equal(await done.getByRole('link', { name: 'your account' }).getAttribute('href'), '/account/');
    assert.equal(new URL(page.url()).search, '', 'the address no longer asks to watch');
    await checkPage(page, 'buyer-watched', width, ['scrollable-region-focusable']);
    // The page goes on to name the buyer's largest suppliers for the signed-in reader: leaving before that call
    // answers would abort it, so the reader stays until the page is quiet, as a person reading it would.
    await page.waitForLoadState('networkidle');
    await page.reload();
    await done.waitFor();
    assert.match((await done.textContent())!, /^You watch this buyer\./, 'a watched buyer says so on the next visit');
    assert.equal(await save.isVisible(), false);
    await page.waitForLoadState('networkidle');

    await page.goto(`${site.server.url}/tenders/${tenderKey}/`);
    const portal = page.locator('[data-portal-link] a');
    await page.getByRole('link', { name: /^Open on / }).waitFor();
    const reply = (await (await page.request.get(`${site.server.url}/v1/tenders/${tenderKey}/portal`)).json()) as { url: string; portal_name: string };
    assert.equal(await portal.textContent(), `Open on ${reply.portal_name}`);
    assert.equal(await portal.getAttribute('href'), reply.url);
    await checkPage(page, 'tender-signed-in', width);

    await page.goto(`${site.server.url}/account/`);
    await page.locator('[data-email]').filter({ hasText: email }).waitFor();
    const watches = page.locator('[data-watches] li');
    await watches.first().waitFor();
    assert.equal(await watches.count(), 1);
    const listed = watches.getByRole('link', { name: `New contracts, plans and tenders of ${buyer.name}` });
    assert.equal(await listed.getAttribute('href'), `/buyers/${buyer.slug}/`);
    assert.equal(await page.locator('[data-keys-status]').textContent(), 'You have no API keys.');

    await page.getByLabel('Name for a new key').fill('laptop');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const secret = page.getByLabel('Your new key');
    await secret.waitFor();
    const apiKey = await secret.inputValue();
    assert.match(apiKey, /^svc_/);
    assert.match((await page.locator('[data-new-key]').textContent())!, /It is shown this once and never again/);
    await page.locator('[data-keys] li').first().waitFor();
    assert.match((await page.locator('[data-keys] li').textContent())!, new RegExp(`^laptop \\(${apiKey.slice(0, 8)}`));
    assert.equal((await fetch(`${site.server.url}/v1/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).status, 200, 'the key works');
    await checkPage(page, 'account-signed-in', width);

    await page.reload();
    await page.locator('[data-keys] li').first().waitFor();
    assert.equal(await page.locator('[data-new-key]').isVisible(), false, 'the key is not shown again');
    assert.equal((await page.content()).includes(apiKey), false);
    await page.getByRole('button', { name: 'Revoke the key “laptop”' }).click();
    await page.locator('[data-keys-status]').filter({ hasText: 'Revoked “laptop”: it stops working at once.' }).waitFor();
    assert.equal(await page.locator('[data-keys] li').count(), 0);
    assert.equal((await fetch(`${site.server.url}/v1/keys`, { headers: { authorization: `Bearer ${apiKey}` } })).status, 401, 'the revoked key is refused');

    await page.getByRole('button', { name: `Remove “New contracts, plans and tenders of ${buyer.name}”` }).click();
    await page.locator('[data-watches-status]').filter({ hasText: /^Removed: / }).waitFor();
    assert.equal(await page.locator('[data-watches] li').count(), 0);
    const left = (await (await page.request.get(`${site.server.url}/v1/tenders/watch`)).json()) as { watches: unknown[] };
    assert.deepEqual(left.watches, []);

    await page.goto(`${site.server.url}/account/sign-in/`);
    const already = page.locator('[data-already-signed-in]');
    await already.waitFor();
    assert.equal(await already.textContent(), `You are already signed in as ${email}. Go to your account, or sign in below with another address.`);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    assert.equal((await page.request.get(`${site.server.url}/v1/account`)).status(), 401, 'signed out');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`the match page at ${width} px ranks tenders for an example, linked to their pages, and says what is withheld`, async () => {
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/`);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Match my business' }).click();
    await page.waitForURL('**/match/');
    await page.getByLabel('An example business').check();
    await page.getByLabel('Example business', { exact: true }).selectOption('facilities');
    await page.getByRole('button', { name: 'Find matching tenders' }).click();
    const results = page.locator('[data-match-results]');
    await results.waitFor();
    assert.equal(new URL(page.url()).search, '?example=facilities', 'the match is in the address');

    const reply = (await (await fetch(`${site.server.url}/v1/tenders/match`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"example":"facilities"}' })).json()) as {
      matched: number; withheld: number; results: { page_key: string; title: string; score: number }[];
    };
    assert.ok(reply.withheld > 0, `the synthetic release has more matches than an anonymous reader sees (${reply.matched})`);
    const items = page.locator('[data-match-list] li');
    assert.equal(await items.count(), reply.results.length);
    const first = items.first().getByRole('link', { name: reply.results[0]!.title });
    assert.equal(await first.getAttribute('href'), `/tenders/${reply.results[0]!.page_key}/`);
    assert.match((await items.first().textContent())!, new RegExp(`^${reply.results[0]!.score} / 100`));
    const withheld = page.locator('[data-match-withheld]');
    assert.equal(await withheld.textContent(), `${reply.results.length} shown; ${reply.withheld} more ${reply.withheld === 1 ? 'matches' : 'match'}: sign in to see them all.`);
    assert.equal(await withheld.getByRole('link').getAttribute('href'), `/account/sign-in/?next=${encodeURIComponent('/match/?example=facilities')}`);
    await checkPage(page, 'match', width);

    await first.click();
    await page.waitForURL(`**/tenders/${reply.results[0]!.page_key}/`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
