// Preparing a bid on the bid page, in Chromium over the real server (its job worker, its outbox) and a local
// fake of Stripe (test/helpers/fake-stripe.ts), at 390 px: a member uploads the tender, reads what a run does,
// finds "Prepare this bid" leads to the checkout while the bid is unpaid, pays, starts the run and watches its
// progress arrive by the run's event stream; the run waits on emailing the buyer, shown with the email in words;
// a second start is refused with the API's reason; Approve sends the one email and the run finishes with its
// findings, each with its requirement and what to do. At 1280 px a waiting run is stopped; a person rejects the
// email (declined, with who and when; the loopback mail server receives nothing; the run goes on and finishes);
// the page's event stream is cut mid-run and the page resumes it by Last-Event-ID, its log showing each event of
// the run once. At 390 px a run fails (the mail server refuses until its attempts are spent): the page says where
// and why, and what to do, and a new run starts. No console errors or failed requests beyond those asked for, no
// serious axe violation, no sideways scroll.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { createBid } from '../api/bids/bids.ts';
import { createOrg } from '../api/orgs/orgs.ts';
import { PAYMENT_WEBHOOK_PATH } from '../api/routes/bid-checkout.ts';
import { STRIPE_API_BASE_ENV, STRIPE_SECRET_KEY_ENV, STRIPE_WEBHOOK_SECRET_ENV } from '../api/providers/stripe.ts';
import { markBidPaid } from './helpers/bid-payments.ts';
import { eventually, readEventStream, RUN_TENDER } from './helpers/bid-run.ts';
import { startFakeStripe, type FakeStripe } from './helpers/fake-stripe.ts';
import { decodedMessage, startSmtpInbox, type SmtpInbox } from './helpers/smtp-inbox.ts';
import { instant } from '../site/lib/format.ts';
import { FAILED_RUN_NEXT } from '../site/lib/run-words.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, signInBrowser, type SiteBrowser } from './helpers/site-browser.ts';

const SECRET_KEY = 'sk_test_site_run';
const WEBHOOK_SECRET = 'whsec_site_run';
const BUYER_ADDRESS = 'tenders@harbourcouncil.example';

let site: SiteBrowser;
let fake: FakeStripe;
let inbox: SmtpInbox;

before(async (t) => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  process.env[STRIPE_SECRET_KEY_ENV] = SECRET_KEY;
  process.env[STRIPE_WEBHOOK_SECRET_ENV] = WEBHOOK_SECRET;
  process.env[STRIPE_API_BASE_ENV] = fake.origin;
  inbox = await startSmtpInbox();
  // The run's calls come from one test address within a minute: the burst guard (tested on its own) is widened.
  site = await openSiteBrowser('site-bid-run', { tenders: 20, awards: 50, plans: 5 }, (message) => t.diagnostic(message), {
    bidPrice: { amount: 149, currency: 'AUD' },
    burst: { capacity: 1000, refillPerMinute: 60_000 },
    smtpUrl: inbox.smtpUrl,
    // A failing step is tried again after 50 ms, doubling, so a run spends its attempts within a second.
    jobs: { retryBaseMs: 50 },
  });
  fake.deliverTo(`${site.server.url}${PAYMENT_WEBHOOK_PATH}`);
});
after(async () => {
  await site?.close();
  await fake?.close();
  await inbox?.close();
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
  // The page reads the bid again after the upload: the callers reload next, which would abort that read.
  const readAgain = page.waitForResponse((response) => response.url().endsWith(`/v1/bids/${bid.bid_id}?include=overview`) && response.request().method() === 'GET');
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.locator('[data-upload-done]').filter({ hasText: 'RFQ-2026-41.txt' }).waitFor();
  await readAgain;
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

/** The messages the loopback mail server received for the buyer. */
const mailToBuyer = () => inbox.messages.map(decodedMessage).filter((text) => text.includes(`To: ${BUYER_ADDRESS}`));

/** The page's cookies for the server, as a Cookie header. */
const cookieOf = async (page: Page): Promise<string> => (await page.context().cookies(site.server.url)).map((c) => `${c.name}=${c.value}`).join('; ');

/** Calls the API as the page's signed-in person, from the test (outside the page). */
async function callAsPage(page: Page, method: string, path: string): Promise<Response> {
  return await fetch(`${site.server.url}${path}`, { method, headers: { cookie: await cookieOf(page), origin: site.server.url } });
}

/** Every event of the run, read whole from GET …/runs/{run}/events once the run has ended. */
async function wholeEventLog(page: Page, bidId: string, runId: string): Promise<string[]> {
  return (await readEventStream(await callAsPage(page, 'GET', `/v1/bids/${bidId}/runs/${runId}/events`))).events.map((event) => event.id!);
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
  assert.equal(mailToBuyer().length, 1, 'one email to the buyer');
  const decided = page.locator('[data-run-decided] li').filter({ hasText: `Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}` });
  assert.match((await decided.textContent())!, new RegExp(`Approved by runner@harbour\\.test, .*The email went to ${BUYER_ADDRESS}\\.$`));

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

test('at 1280 px: a person rejects the email to the buyer: it shows as declined, with who and when; nothing is sent; the run goes on and finishes', async () => {
  const { page, problems } = await site.openPage(1280);
  const bidId = await bidWithTender(page, 'rejecter');
  await markBidPaid(site.server.state, bidId, new Date(), 14_900, 'aud');
  await page.reload();
  const received = inbox.messages.length;
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  const title = `Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}`;
  await page.locator('[data-run-actions] li').filter({ hasText: title }).getByRole('button', { name: `Reject ${title}` }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run finished' }).waitFor();

  // Declined, by whom and when (as GET …/actions records it), and what that did, in words.
  const listed = ((await (await callAsPage(page, 'GET', `/v1/bids/${bidId}/actions`)).json()) as { actions: { kind: string; state: string; decided_by: string; decided_at: string; run_id: string }[] }).actions;
  const rejected = listed.find((action) => action.kind === 'send_clarification')!;
  assert.deepEqual([rejected.state, rejected.decided_by], ['rejected', 'rejecter@harbour.test']);
  const declined = page.locator('[data-run-decided] li').filter({ hasText: title });
  // Node and Chromium may space a time differently (a narrow no-break space before "pm").
  const spaced = (text: string) => text.replace(/\s/g, ' ');
  assert.equal(
    spaced((await declined.textContent())!),
    spaced(`${title}Declined by rejecter@harbour.test, ${instant(rejected.decided_at)}.Nothing was sent: no email went to ${BUYER_ADDRESS}, and the run went on without asking the buyer.`),
  );
  assert.equal(await page.locator('[data-run-actions] li').filter({ hasText: title }).count(), 0, 'no longer waiting for a decision');
  assert.equal(inbox.messages.length, received, 'the loopback mail server received nothing');
  assert.ok(await site.server.state.get("SELECT 1 AS audited FROM bid_audit WHERE what = 'action.reject' AND bid_id = ?", bidId), 'the rejection is audited');
  // The spec's row: rejected, audited; here the run went on without the email, to its end.
  const run = (await (await callAsPage(page, 'GET', `/v1/bids/${bidId}/runs/${rejected.run_id}`)).json()) as { state: string };
  assert.equal(run.state, 'completed');
  const log = await page.locator('[data-run-log] li').allTextContents();
  assert.ok(log.includes('Declined by a person.') && log.at(-1) === 'Finished.', log.join(' | '));
  assert.ok(!log.some((line) => line.includes('emailing the questions')), 'the email step never began');
  await checkPage(page, 'bid-run-rejected-1280');
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * A run followed on the page whose event stream is cut mid-run: the page's first stream is the server's own,
 * ended after the run's `run_waiting` event, as a server that stops ends it (the browser cannot cut an open stream
 * by going offline). With `refuseReconnect`, the browser's reconnection is answered 503, so the browser gives up
 * and the page must open the stream again itself. The page's next request is held until the run, approved
 * meanwhile, has gone on to its end, then reaches the server as it is. Returns the `since_seq` of each stream the
 * page opened and the seq of the last event it showed before the cut, having checked that the page's log shows
 * every event of the run once, in order, as GET …/runs/{run}/events read whole gives them.
 */
async function runWithStreamCut(page: Page, who: string, refuseReconnect: boolean): Promise<{ sinceSeqs: (string | null)[]; lastBeforeCut: string }> {
  const bidId = await bidWithTender(page, who);
  await markBidPaid(site.server.state, bidId, new Date(), 14_900, 'aud');
  await page.reload();
  const sinceSeqs: (string | null)[] = [];
  let reconnect: () => void = () => {};
  const reconnecting = new Promise<void>((resolve) => (reconnect = resolve));
  await page.route('**/runs/*/events?*', async (route) => {
    sinceSeqs.push(new URL(route.request().url()).searchParams.get('since_seq'));
    if (sinceSeqs.length === 1) {
      const upstream = new AbortController();
      const reply = await fetch(route.request().url(), { headers: { cookie: await cookieOf(page) }, signal: upstream.signal });
      const reader = reply.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!/event: run_waiting\n[^]*?\n\n/.test(text)) text += (await reader.read()).value ?? '';
      upstream.abort();
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body: /^[^]*?event: run_waiting\n[^]*?\n\n/.exec(text)![0] });
    } else if (refuseReconnect && sinceSeqs.length === 2) {
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'This instance is stopping; try again.' }) });
    } else {
      await reconnecting;
      await route.continue();
    }
  });
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  const lines = page.locator('[data-run-log] li');
  const seqsShown = () => lines.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['seq']!));
  // The log is folded away under "What the run has done": its lines are there, not shown.
  await lines.filter({ hasText: 'Waiting for your decision.' }).waitFor({ state: 'attached' });
  const seenBeforeCut = await seqsShown();

  // While the page is cut off, the run is approved and goes on to its end.
  const actions = ((await (await callAsPage(page, 'GET', `/v1/bids/${bidId}/actions`)).json()) as { actions: { action_id: string; run_id: string; state: string }[] }).actions;
  const waitedOn = actions.find((action) => action.state === 'pending' && action.run_id !== null)!;
  assert.equal((await callAsPage(page, 'POST', `/v1/bids/${bidId}/actions/${waitedOn.action_id}/approve`)).status, 200);
  await eventually(async () => ((await (await callAsPage(page, 'GET', `/v1/bids/${bidId}/runs/${waitedOn.run_id}`)).json()) as { state: string }).state === 'completed', 'the run to finish while the page is cut off');
  assert.deepEqual(await seqsShown(), seenBeforeCut, 'nothing arrived while cut off');
  reconnect();

  await page.locator('[data-run-status]').filter({ hasText: 'The latest run finished' }).waitFor();
  await lines.filter({ hasText: 'Finished.' }).waitFor({ state: 'attached' });
  assert.deepEqual(await seqsShown(), await wholeEventLog(page, bidId, waitedOn.run_id), 'every event of the run, once, in order');
  await page.unrouteAll();
  return { sinceSeqs, lastBeforeCut: seenBeforeCut.at(-1)! };
}

test("at 1280 px: the run's event stream ends mid-run; the browser resumes it by Last-Event-ID and the page shows every event once", async () => {
  const { page, problems } = await site.openPage(1280);
  const { sinceSeqs } = await runWithStreamCut(page, 'reconnecter', false);
  // The browser reconnected once, to the same address (since_seq=0): that the server answered from the event
  // after the last one seen, repeating none, is the browser's Last-Event-ID at work (Chromium adds the header
  // below where the test can read a request's headers).
  assert.deepEqual(sinceSeqs, ['0', '0']);
  await checkPage(page, 'bid-run-reconnected-1280');
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 1280 px: when the reconnection is refused, the page opens the stream again after the last event it showed', async () => {
  const { page, problems } = await site.openPage(1280);
  const { sinceSeqs, lastBeforeCut } = await runWithStreamCut(page, 'reopener', true);
  assert.deepEqual(sinceSeqs, ['0', '0', lastBeforeCut], 'the browser gave up on the refusal; the page asked from its last event');
  assert.equal(await page.locator('[data-run-refused]').isVisible(), false, 'no complaint once it follows again');
  // The refused reconnection: its 503, and the browser dropping the request it will not read as a stream.
  const theRefusal = (problem: string) => /^503: .*\/events\?since_seq=0$/.test(problem) || /status of 503/.test(problem) || /^failed: .*\/events\?since_seq=0 net::ERR_ABORTED$/.test(problem);
  assert.deepEqual(problems.filter((problem) => !theRefusal(problem)), [], 'only the refusal asked for');
  assert.ok(problems.length > 0, 'the refusal reached the page');
  await page.close();
});

test('at 390 px: a run that fails says where and why, and what to do; no progress is left showing; a new run starts', async () => {
  const { page, problems } = await site.openPage(390);
  const bidId = await bidWithTender(page, 'failer');
  await markBidPaid(site.server.state, bidId, new Date(), 14_900, 'aud');
  await page.reload();
  await page.getByRole('button', { name: 'Prepare this bid' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  // The buyer's mail server refuses every message for now: the email step fails on each of its attempts.
  const received = inbox.messages.length;
  inbox.refusal = '451 4.3.0 Mailbox temporarily unavailable, try again later';
  try {
    const title = `Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}`;
    await page.locator('[data-run-actions] li').filter({ hasText: title }).getByRole('button', { name: `Approve ${title}` }).click();
    await page.locator('[data-run-status]').filter({ hasText: 'The latest run failed' }).waitFor();
  } finally {
    inbox.refusal = null;
  }
  const progress = (await page.locator('[data-run-progress]').textContent())!;
  assert.match(progress, /^The run failed while doing what was approved: emailing the questions to the buyer, and gave up\. The last error: .*451 4\.3\.0 Mailbox temporarily unavailable/);
  assert.equal(await page.locator('[data-run-next]').textContent(), FAILED_RUN_NEXT);
  assert.equal(await page.getByRole('button', { name: 'Stop the run' }).isVisible(), false);
  assert.equal(await page.locator('[data-run-actions-part]').isVisible(), false, 'nothing waits for a decision');
  assert.equal(await page.locator('[aria-busy="true"]').count(), 0, 'nothing is shown as still working');
  const log = await page.locator('[data-run-log] li').allTextContents();
  assert.match(log.at(-1)!, /^Failed: .*451 4\.3\.0/);
  assert.equal(log.filter((line) => line.startsWith('That failed (')).length, 4, `tried again 4 times: ${log.join(' | ')}`);
  assert.equal(inbox.messages.length, received, 'the mail server kept nothing');
  const decided = (await page.locator('[data-run-decided] li').filter({ hasText: `Email 2 clarification questions to the buyer at ${BUYER_ADDRESS}` }).textContent())!;
  assert.match(decided, new RegExp(`Approved by failer@harbour\\.test, .*No email went to ${BUYER_ADDRESS}: the run ended before sending it\\.$`));
  await checkPage(page, 'bid-run-failed-390');

  // What to do: start again.
  const start = page.getByRole('button', { name: 'Prepare this bid' });
  assert.equal(await start.isEnabled(), true);
  await start.click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run waits for your decision' }).waitFor();
  assert.equal(await page.locator('[data-run-next]').isVisible(), false, 'the failure is no longer the latest run');
  await page.getByRole('button', { name: 'Stop the run' }).click();
  await page.locator('[data-run-status]').filter({ hasText: 'The latest run was stopped' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
