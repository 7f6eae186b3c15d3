// Preparing a bid on the bid page, in Chromium over the real server (its job worker, its outbox) and a local
// fake of Stripe (test/helpers/fake-stripe.ts), at 390 px: a member uploads the tender, reads what a run does,
// finds "Prepare this bid" leads to the checkout while the bid is unpaid, pays, starts the run and watches its
// progress arrive by the run's event stream; the run waits on emailing the buyer, shown with the email in words;
// a second start is refused with the API's reason; Approve sends the one email and the run finishes with its
// findings, each with its requirement and what to do. At 1280 px a waiting run is stopped. No console errors
// or failed requests beyond the refusal asked for, no serious axe violation, no sideways scroll.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createBid } from '../api/bids/bids.ts';
import { createOrg } from '../api/orgs/orgs.ts';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { STRIPE_API_BASE_ENV, STRIPE_SECRET_KEY_ENV, STRIPE_WEBHOOK_SECRET_ENV } from '../api/providers/stripe.ts';
import { markBidPaid } from './helpers/bid-payments.ts';
import { RUN_TENDER } from './helpers/bid-run.ts';
import { startFakeStripe, type FakeStripe } from './helpers/fake-stripe.ts';
import { decodedMessage } from './helpers/smtp-inbox.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, signInBrowser, type SiteBrowser } from './helpers/site-browser.ts';

const SECRET_KEY = 'sk_test_site_run';
const WEBHOOK_SECRET = 'whsec_site_run';
const BUYER_ADDRESS = 'tenders@harbourcouncil.example';

let site: SiteBrowser;
let fake: FakeStripe;

before(async (t) => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  process.env[STRIPE_SECRET_KEY_ENV] = SECRET_KEY;
  process.env[STRIPE_WEBHOOK_SECRET_ENV] = WEBHOOK_SECRET;
  process.env[STRIPE_API_BASE_ENV] = fake.origin;
  // The run's calls come from one test address within a minute: the burst guard (tested on its own) is widened.
  site = await openSiteBrowser('site-bid-run', { tenders: 20, awards: 50, plans: 5 }, (message) => t.diagnostic(message), {
    bidPrice: { amount: 149, currency: 'AUD' },
    burst: { capacity: 1000, refillPerMinute: 60_000 },
  });
  fake.deliverTo(`${site.server.url}${PAYMENT_WEBHOOK_PATH}`);
});
after(async () => {
  await site?.close();
  await fake?.close();
});

async function checkPage(page: Page, shot: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${shot}`);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)) <= 1, `${shot} does not scroll sideways`);
  await saveScreenshot(page, shot);
}

/** A bid of a new organisation with the tender uploaded through the page. */
async function bidWithTender(page: Page, who: string): Promise<string> {
  const accountId = await signInBrowser(site, page, `${who}@harbour.test`);
  const org = await createOrg(site.server.state, accountId, `Harbour Civil ${who}`, new Date());
  const bid = await createBid(site.server.state, { orgId: org.org_id, accountId, tender: null, title: 'Footpath renewal, Harbour Street', dueDate: null, goal: null, now: new Date() });
  await page.goto(`${site.server.url}/account/bids/bid/?id=${bid.bid_id}`);
  await page.getByLabel('Add a file').setInputFiles({ name: 'RFQ-2026-41.txt', mimeType: 'text/plain', buffer: Buffer.from(RUN_TENDER) });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.locator('[data-upload-done]').filter({ hasText: 'RFQ-2026-41.txt' }).waitFor();
  return bid.bid_id;
}

/** Every text the run's progress line shows from now on. */
async function recordProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const line = document.querySelector('[data-run-progress]')!;
    const seen: string[] = [];
    (globalThis as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => seen.push(line.textContent ?? '')).observe(line, { childList: true, characterData: true, subtree: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as { progressSeen: string[] }).progressSeen);
}

const refusedOnPurpose = (problem: string) => /\b409\b/.test(problem) && /\/runs\b|status of 409/.test(problem);

test('at 390 px: pay, start a run, watch its progress, approve the email to the buyer, read the findings', async () => {
  const { page, problems } = await site.openPage(390);
  const bidId = await bidWithTender(page, 'runner');

  // Unpaid: what a run does, and the button leads to the checkout.
  await page.locator('[data-run-status]').filter({ hasText: 'A run needs bid preparation paid for' }).waitFor();
  // By keyboard: the disclosure opens with Enter.
  await page.getByText('What a run does', { exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-run-quote-body] li').filter({ hasText: 'Extract the requirements from them.' }).waitFor();
  assert.ok((await page.locator('[data-run-quote-body]').textContent())!.includes('Email the buyer the questions the documents leave open'));
  assert.doesNotMatch((await page.locator('[data-run-quote-body]').textContent())!, /send_clarification|fetch_pack|sign_off/, 'no internal names');
  await checkPage(page, 'bid-run-unpaid-390');
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.waitForURL(`${fake.origin}/c/pay/*`);
  await page.getByRole('button', { name: 'Pay AUD 149.00' }).click();
  await page.waitForURL(`**/account/bids/bid/?id=${bidId}&checkout=paid`);
  await page.locator('[data-run-status]').filter({ hasText: 'No run yet' }).waitFor();

  // The run: its progress line follows the events; it waits on the email to the buyer.
  const progress = await recordProgress(page);
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  const action = page.locator('[data-run-actions] li').filter({ hasText: `Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}` });
  await action.waitFor();
  assert.match((await action.textContent())!, new RegExp(`An email to ${BUYER_ADDRESS}, with replies to runner@harbour\\.test\\.Subject: Clarification request: Footpath renewal, Harbour Street.*Schedule 1 - Form of Quotation`, 's'));
  assert.match((await page.locator('[data-run-progress]').textContent())!, /^Waiting for your decision below\. \d+ (of \d+ steps|steps?) done\.$/);
  await checkPage(page, 'bid-run-waiting-390');

  // A second run while this one waits: the API's reason.
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-refused]').filter({ hasText: /^This bid already has a run \(run_\w+, waiting\); one runs at a time\.$/ }).waitFor();

  // Approved: the one email goes, the run goes on step by step and ends with its findings.
  await action.getByRole('button', { name: `Approve Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}` }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run finished' }).waitFor();
  const findings = page.locator('[data-findings] li');
  await findings.first().waitFor();
  const listed = ((await (await page.request.get(`${site.server.url}/v1/bids/${bidId}/findings`)).json()) as { findings: { title: string; kind: string }[] }).findings;
  assert.ok(listed.length > 0);
  assert.equal(await findings.count(), listed.length, 'every finding of the run is shown');
  const texts = await findings.allTextContents();
  for (const [i, finding] of listed.entries()) {
    assert.ok(texts[i]!.startsWith(finding.title), texts[i]);
    assert.ok(texts[i]!.includes('What to do: '), texts[i]);
  }
  assert.ok(texts.some((text) => text.includes('The requirement 1.1: The Respondent must hold public liability insurance')), texts.join('\n'));
  const seen = await progress();
  assert.ok(seen.some((text) => text.startsWith('Doing what was approved: emailing the questions to the buyer.')), seen.join(' | '));
  assert.ok(seen.some((text) => text.startsWith('Checking the response against the tender.')), `the steps arrived by the event stream: ${seen.join(' | ')}`);
  assert.ok(seen.every((text) => !/[a-z]+_[a-z]+|draft:|execute:/.test(text)), `no step names: ${seen.join(' | ')}`);
  const outbox = site.server.mailDescription;
  const sent = (await Promise.all((await readdir(outbox)).map(async (name) => decodedMessage(await readFile(join(outbox, name), 'utf8'))))).filter((text) => text.includes(`To: ${BUYER_ADDRESS}`));
  assert.equal(sent.length, 1, 'one email to the buyer');

  // The sign-off the run leaves, decided on the page.
  const signOff = page.locator('[data-run-actions] li').filter({ hasText: 'Sign off the response as ready to lodge' });
  await signOff.getByRole('button', { name: 'Approve Sign off the response as ready to lodge' }).click();
  await page.locator('[data-run-actions-part]').waitFor({ state: 'hidden' });
  await checkPage(page, 'bid-run-findings-390');

  // Opened again after the run: the findings are one button away, not read on load.
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  await page.reload();
  await page.locator('[data-findings-status]').filter({ hasText: `The latest run left ${listed.length} finding${listed.length === 1 ? '' : 's'}.` }).waitFor();
  assert.deepEqual(calls, ['GET /v1/auth/session', `GET /v1/bids/${bidId}?include=overview`], 'a bid with a finished run still loads in two calls');
  assert.equal(await findings.count(), 0);
  await page.getByRole('button', { name: 'Show the findings' }).click();
  await findings.nth(listed.length - 1).waitFor();
  assert.deepEqual(await findings.allTextContents(), texts);
  assert.deepEqual(problems.filter((problem) => !refusedOnPurpose(problem)), [], 'no problem beyond the refused second run');
  assert.equal(problems.filter(refusedOnPurpose).length > 0, true, 'the second run was refused by the API');
  await page.close();
});

test('at 1280 px: a waiting run is stopped from the page', async () => {
  const { page, problems } = await site.openPage(1280);
  const bidId = await bidWithTender(page, 'stopper');
  await markBidPaid(site.server.state, bidId, new Date(), 14_900, 'aud');
  await page.reload();
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  await page.getByRole('button', { name: 'Stop the run' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run was stopped' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Stop the run' }).isVisible(), false);
  assert.equal(await page.locator('[data-run-actions-part]').isVisible(), false, 'its action was cancelled with it');
  await checkPage(page, 'bid-run-stopped-1280');
  assert.deepEqual(problems, []);
  await page.close();
});
