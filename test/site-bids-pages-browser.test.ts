// The bid and organisation pages in ordinary use, in Chromium over the real server with the burst guard at the
// spec's numbers (10 at once, 30 a minute; the other browser tests widen it): a reader opens five bids in a row
// and every page loads without a refusal ("Too many requests at once"), each in at most two API calls (who is
// signed in, and the bid's overview); the organisation page loads in two calls as well. At 390 and 1280 px the
// bids page is a board by stage (columns side by side, a list stage by stage on a phone), each card giving the
// tender, buyer, value, closing date, days left and who leads it, in two API calls; from it a reader opens five
// bids in a row, back to the board each time, with no refusal, no serious axe violation and no sideways scroll. A member buys bid
// preparation: "Buy bid preparation" opens the hosted checkout of a local fake of Stripe
// (test/helpers/fake-stripe.ts), "Pay" delivers the signed event to the server's webhook and returns to the bid,
// which says it is paid.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createBid, updateBid, type BidTender } from '../api/bids/bids.ts';
import { bidIsPaid } from '../api/bids/payments.ts';
import { createOrg } from '../api/orgs/orgs.ts';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { STRIPE_API_BASE_ENV, STRIPE_SECRET_KEY_ENV, STRIPE_WEBHOOK_SECRET_ENV } from '../api/providers/stripe.ts';
import { startFakeStripe, type FakeStripe } from './helpers/fake-stripe.ts';
import { timeZoneOf, type Jurisdiction } from '../lib/jurisdictions.ts';
import { valueWords } from '../site/lib/bid-board.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, signInBrowser, type SiteBrowser } from './helpers/site-browser.ts';

const SECRET_KEY = 'sk_test_site_pages';
const WEBHOOK_SECRET = 'whsec_site_pages';

let site: SiteBrowser;
let fake: FakeStripe;

before(async (t) => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  // The server reads its payment provider from the environment, as `npm start` does.
  process.env[STRIPE_SECRET_KEY_ENV] = SECRET_KEY;
  process.env[STRIPE_WEBHOOK_SECRET_ENV] = WEBHOOK_SECRET;
  process.env[STRIPE_API_BASE_ENV] = fake.origin;
  site = await openSiteBrowser('site-bids-pages', { tenders: 60, awards: 200, plans: 10 }, (message) => t.diagnostic(message), { bidPrice: { amount: 149, currency: 'AUD' } });
  fake.deliverTo(`${site.server.url}${PAYMENT_WEBHOOK_PATH}`);
});
after(async () => {
  await site?.close();
  await fake?.close();
});

/** The API calls a page makes (paths under /v1/), counted from the moment this is called. */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return calls;
}

test('five bids opened in a row each load in two API calls with the burst guard at 10 at once; the organisation page in two', async () => {
  const { page, problems } = await site.openPage(1280);
  const accountId = await signInBrowser(site, page, 'five-bids@example.com');
  const org = await createOrg(site.server.state, accountId, 'Five Bids Pty Ltd', new Date());
  const bids = [];
  for (let i = 0; i < 5; i++) {
    bids.push(await createBid(site.server.state, { orgId: org.org_id, accountId, tender: null, title: `Bid number ${i + 1}`, dueDate: null, goal: null, now: new Date() }));
  }
  const calls = apiCalls(page);
  for (const bid of bids) {
    const before = calls.length;
    await page.goto(`${site.server.url}/account/bids/bid/?id=${bid.bid_id}`);
    await page.getByRole('heading', { level: 1, name: bid.title }).waitFor();
    await page.locator('[data-files-status]').filter({ hasText: 'No files yet' }).waitFor();
    await page.locator('[data-payment-status]').filter({ hasText: 'Preparing this bid costs AUD 149.00, paid once.' }).waitFor();
    assert.equal(await page.locator('[data-bid-refused]').isVisible(), false, `${bid.title} is not refused`);
    assert.deepEqual(calls.slice(before), ['GET /v1/auth/session', `GET /v1/bids/${bid.bid_id}?include=overview`], `${bid.title} loads in two calls`);
  }
  assert.deepEqual(problems, [], 'no refusal, console error or failed request');
  await page.close();

  // A colleague's first look at the organisation page: two calls too.
  const colleague = await site.openPage(390);
  const colleagueId = await signInBrowser(site, colleague.page, 'colleague@example.com');
  await site.server.state.run("INSERT INTO memberships (org_id, account_id, role, joined_at) VALUES (?, ?, 'member', ?)", org.org_id, colleagueId, new Date().toISOString());
  const orgCalls = apiCalls(colleague.page);
  await colleague.page.goto(`${site.server.url}/account/orgs/org/?id=${org.org_id}`);
  await colleague.page.getByRole('heading', { level: 1, name: 'Five Bids Pty Ltd' }).waitFor();
  await colleague.page.locator('[data-org-role]').filter({ hasText: 'Your role here: Member.' }).waitFor();
  await colleague.page.locator('[data-members] li').nth(1).waitFor();
  assert.deepEqual(orgCalls, ['GET /v1/auth/session', `GET /v1/orgs/${org.org_id}`]);
  assert.deepEqual(colleague.problems, []);
  await colleague.page.close();
});

interface ReleaseTender {
  page_key: string;
  title: string;
  buyer?: string;
  jurisdiction: Jurisdiction;
  closing_date?: string;
  closing_at?: string;
  value_text?: string;
}

/** Open tenders of the release with a closing day. */
async function openTenders(n: number): Promise<ReleaseTender[]> {
  const reply = (await (await fetch(`${site.server.url}/v1/tenders?closing_within_days=300&kind=tender&limit=${n}`)).json()) as { results: ReleaseTender[] };
  assert.equal(reply.results.length, n, `the synthetic release has ${n} open tenders`);
  return reply.results;
}

const bidTender = (tender: ReleaseTender): BidTender => ({
  page_key: tender.page_key,
  title: tender.title,
  buyer: tender.buyer ?? null,
  jurisdiction: tender.jurisdiction,
  closing_date: tender.closing_date ?? null,
  closing_at: tender.closing_at ?? null,
  time_zone: timeZoneOf(tender.jurisdiction),
});

for (const width of [390, 1280]) {
  test(`at ${width} px: the bids board by stage, each card with tender, buyer, value, closing and owner; five bids opened in a row from it with the burst guard at 10 at once`, async () => {
    const { page, problems } = await site.openPage(width);
    const email = `board-${width}@example.com`;
    const accountId = await signInBrowser(site, page, email);
    const org = await createOrg(site.server.state, accountId, `Board Test ${width} Pty Ltd`, new Date());
    const tenders = await openTenders(5);
    const stages = ['qualifying', 'qualifying', 'preparing', 'reviewing', 'submitted'] as const;
    const bids = [];
    for (const [i, tender] of tenders.entries()) {
      const created = await createBid(site.server.state, { orgId: org.org_id, accountId, tender: bidTender(tender), title: tender.title, dueDate: null, goal: null, now: new Date() });
      bids.push(await updateBid(site.server.state, created, { stage: stages[i]! }, new Date()));
    }
    const won = await createBid(site.server.state, { orgId: org.org_id, accountId, tender: null, title: `Depot cleaning ${width}`, dueDate: null, goal: null, now: new Date() });
    await updateBid(site.server.state, won, { stage: 'won', ownerId: null }, new Date());

    const calls = apiCalls(page);
    await page.goto(`${site.server.url}/account/bids/`);
    const board = page.locator('[data-bids]');
    await page.locator('[data-bids-status]').filter({ hasText: '6 bids.' }).waitFor();
    const column = (name: RegExp) => board.getByRole('region', { name });
    const headings = await board.locator('h3').allTextContents();
    assert.deepEqual(headings, ['Deciding whether to bid (2 bids)', 'Preparing (1 bid)', 'In review (1 bid)', 'Submitted (1 bid)', 'Finished (1 bid)'], 'a column per open stage in words, then the finished bids');
    assert.equal(await column(/^Deciding whether to bid/).locator('.bid-card').count(), 2);
    assert.match((await column(/^Finished/).locator('.bid-card').textContent())!, new RegExp(`Depot cleaning ${width}WonA tender outside this siteNo closing dateNobody leads it yet`));

    // Each card: the buyer, its value as the tender's JSON twin publishes it, the closing day and days left, who leads it.
    for (const tender of tenders) {
      const card = board.locator('.bid-card').filter({ has: page.getByRole('link', { name: tender.title, exact: true }) });
      await card.locator('.value').filter({ hasText: valueWords(tender.value_text) }).waitFor();
      const facts = await card.locator('.card-facts li').allTextContents();
      assert.equal(facts[0], tender.buyer ?? 'Buyer not published');
      assert.ok(facts.some((fact) => /^(Closes \d{1,2} [A-Z][a-z]{2} \d{4} · \d+ days? left|Closes today, .+|Closed \d{1,2} [A-Z][a-z]{2} \d{4})$/.test(fact)), facts.join(' | '));
      assert.equal(facts.at(-1), 'Led by you', 'the reader leads the bids they created');
    }
    assert.deepEqual(calls, ['GET /v1/auth/session', 'GET /v1/bids'], 'the board loads in two API calls: tender values come from static files');

    // Side by side where there is room; stage after stage on a phone, without the empty stages.
    const tops = await board.locator('section.stage').evaluateAll((sections) => sections.map((section) => Math.round(section.getBoundingClientRect().top)));
    if (width === 1280) assert.equal(new Set(tops).size, 1, `every column starts on one line at 1280 px (${tops})`);
    else assert.ok(tops.every((top, i) => i === 0 || top > tops[i - 1]!), `stages are stacked one under another at 390 px (${tops})`);
    assert.deepEqual(await seriousViolations(page), [], `axe on the board at ${width} px`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)) <= 1, `the board does not scroll sideways at ${width} px`);
    await saveScreenshot(page, `bids-board-${width}`);

    // Five bids in a row from the board, back to it each time by the bid page's link: ten pages, none refused.
    const opened = [...bids].reverse();
    for (const [i, bid] of opened.entries()) {
      await page.getByRole('link', { name: bid.title, exact: true }).click();
      await page.waitForURL(`**/account/bids/bid/?id=${bid.bid_id}`);
      await page.getByRole('heading', { level: 1, name: bid.title }).waitFor();
      await page.locator('[data-payment-status]').filter({ hasText: 'Preparing this bid costs' }).waitFor();
      assert.equal(await page.locator('[data-bid-refused]').isVisible(), false, `${bid.title} is not refused`);
      if (i === opened.length - 1) break;
      await page.getByRole('link', { name: 'All your bids' }).click();
      await page.locator('[data-bids-status]').filter({ hasText: '6 bids.' }).waitFor();
    }
    assert.equal(calls.filter((call) => call !== 'GET /v1/auth/session').length, 10, `five board loads and five bid pages, each one counted call: ${calls.join(', ')}`);
    assert.deepEqual(problems, [], 'no refusal, console error or failed request');
    await page.close();
  });
}

test('a member buys bid preparation through the hosted checkout and comes back to a paid bid', async () => {
  const { page, problems } = await site.openPage(1280);
  const accountId = await signInBrowser(site, page, 'buyer@example.com');
  const org = await createOrg(site.server.state, accountId, 'Buyer Pty Ltd', new Date());
  const bid = await createBid(site.server.state, { orgId: org.org_id, accountId, tender: null, title: 'Depot cleaning', dueDate: null, goal: null, now: new Date() });
  await page.goto(`${site.server.url}/account/bids/bid/?id=${bid.bid_id}`);
  await page.getByRole('button', { name: 'Buy bid preparation' }).click();
  await page.waitForURL(`${fake.origin}/c/pay/*`);
  await page.getByRole('button', { name: 'Pay AUD 149.00' }).click();
  await page.waitForURL(`**/account/bids/bid/?id=${bid.bid_id}&checkout=paid`);
  await page.locator('[data-payment-status]').filter({ hasText: /^Paid on .*: this bid's preparation is bought\.$/ }).waitFor();
  assert.equal(await page.locator('[data-payment-return]').textContent(), 'Thank you: the payment is confirmed.');
  assert.equal(await page.getByRole('button', { name: 'Buy bid preparation' }).isVisible(), false);
  assert.equal(await bidIsPaid(site.server.state, bid.bid_id), true);
  assert.deepEqual(fake.events.map((delivered) => [delivered.event.type, delivered.deliveredStatus]), [['checkout.session.completed', 200]]);
  assert.deepEqual(problems, []);
  await page.close();
});
