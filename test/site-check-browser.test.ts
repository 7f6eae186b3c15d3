// The "Check a document" page in Chromium (lib/chromium.ts says which), served by the real server with its
// real checkers: a person pastes prose for the AI-text estimate and drops a small PDF on the warrant checker,
// watches the streamed progress and reads the result with its report links; a refusal shows the reply's
// `detail`. No console errors or failed requests on the way; no serious axe violation; no sideways scroll at 390 px.
import { riskBandName } from '../lib/glossary.ts';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openSiteBrowser, saveScreenshot, seriousViolations, type SiteBrowser } from './helpers/site-browser.ts';
import { simplePdf, textLines } from './helpers/pdf-files.ts';


// About 190 words of ordinary English prose: enough for the estimate to answer rather than abstain.
const PROSE = [
  'When we moved the depot to the edge of town last winter, nobody expected the buses to run late for a month.',
  'The drivers knew the old roads by heart, and the new ones bent around a quarry that still had trucks coming and going at odd hours.',
  'Margaret, who has driven the school route for eleven years, kept a notebook of every delay and the reason for it.',
  'Most of the entries are short: a gate left shut, a detour for roadworks, a flat tyre on the hill past the dairy.',
  'By the third week she had worked out that leaving four minutes earlier fixed nearly all of it, and she told the office so.',
  'The office changed the timetable on a Friday afternoon without telling anyone, which is how these things usually go.',
  'On Monday the children were waiting in the rain at stops the bus had already passed.',
  'We have since put the timetable on the noticeboard at the shop as well as online, because half the parents never look at the website.',
  'It is a small fix, but the complaints stopped, and Margaret has started a second notebook for the new routes in spring.',
].join(' ');

let site: SiteBrowser;

before(async (t) => {
  // The page does not depend on the release's size: a small synthetic release keeps the build short.
  site = await openSiteBrowser('site-check-browser', { tenders: 200, awards: 1000, plans: 100 }, (message) => t.diagnostic(message));
});
after(() => site?.close());

const openPage = (width: number): Promise<{ page: Page; problems: string[] }> => site.openPage(width);

test('pasted prose gets an AI-text estimate with streamed progress, at 390 px', async () => {
  const { page, problems } = await openPage(390);
  await page.goto(`${site.server.url}/`);
  await page.getByRole('link', { name: 'Check a document' }).click();
  await page.waitForURL('**/check/');
  assert.equal(await page.locator('h1').textContent(), 'Check a document');

  await page.getByLabel('Checker').selectOption({ label: 'AI-written prose (estimate)' });
  await page.getByLabel('Pasted text').check();
  await page.getByLabel('Text to check').fill(PROSE);
  await page.getByRole('button', { name: 'Check' }).click();

  const heading = page.locator('#check-result h2');
  await heading.waitFor();
  const log = await page.locator('#check-log li').allTextContents();
  assert.match(log.join('\n'), /^Received document \(\d+ KB\)\.$/m, 'the received event is shown');
  assert.match(log.join('\n'), /^Working: .+, \d+\.\d s so far\.$/m, 'a working heartbeat is shown with its stage and time');
  assert.match((await heading.textContent())!, /^(Written by AI|Likely written by AI|Could be either|Likely written by a person|Written by a person)$/, 'the lean in words');
  assert.match((await page.locator('#check-result dd').first().textContent())!, /^\d+%$/, 'the probability is shown');
  assert.match((await page.locator('#check-result').textContent())!, /Words read\d+ words/);
  assert.match((await page.locator('#check-result').textContent())!, /LimitationsAlways|Limitations.+AUROC/s);
  assert.match((await page.locator('#check-status').textContent())!, /^Done in \d+\.\d s: (Written|Likely|Could)/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'check-result', 'focus moves to the result');

  await saveScreenshot(page, 'check-ai-text-390');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 1, `the page does not scroll sideways at 390 px (${overflow} px)`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a dropped PDF gets a warrant with its signals and report links; axe finds nothing serious', async () => {
  const { page, problems } = await openPage(1280);
  await page.goto(`${site.server.url}/check/`);
  assert.deepEqual(await seriousViolations(page), [], 'axe on the empty form');
  await page.getByLabel('Checker').selectOption({ label: 'Signs of editing (forensic warrant)' });
  const pdf = simplePdf({ pages: [textLines(['Tax invoice 1042', 'Cleaning services, March', 'Total $1,980.00'])] });
  // Dropped as a person would: a DataTransfer holding the file, dispatched on the drop zone.
  const dropped = await page.evaluateHandle((bytes) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(bytes)], 'invoice.pdf', { type: 'application/pdf' }));
    return transfer;
  }, [...pdf]);
  await page.locator('[data-drop]').dispatchEvent('drop', { dataTransfer: dropped });
  assert.equal(await page.locator('[data-file-names]').textContent(), 'Chosen: invoice.pdf');
  await page.getByRole('button', { name: 'Check' }).click();

  const heading = page.locator('#check-result h2');
  await heading.waitFor();
  const log = (await page.locator('#check-log li').allTextContents()).join('\n');
  assert.match(log, /^Received invoice\.pdf \(\d+ KB\)\.$/m);
  assert.match(log, /^Inspecting: .+, \d+\.\d s so far\.$/m, 'an inspecting heartbeat is shown');

  const links = await page.locator('#check-result a').evaluateAll((anchors) => anchors.map((a) => [a.textContent, (a as HTMLAnchorElement).href]));
  const permalink = links.find(([label]) => label === 'Permalink (JSON)')?.[1];
  assert.ok(permalink, JSON.stringify(links));
  const warrant = await (await page.request.get(permalink)).json() as { warrant_id: string; summary: { headline: string }; risk_band: string; signals: unknown[]; limitations: string };
  assert.equal(await heading.textContent(), warrant.summary.headline);
  assert.deepEqual(links.filter(([label]) => label?.startsWith('Report')), [
    ['Report (Markdown)', `${permalink}?format=md`],
    ['Report (PDF)', `${permalink}/report.pdf`],
  ]);
  assert.equal((await page.request.get(`${permalink}?format=md`)).headers()['content-type'], 'text/markdown; charset=utf-8');
  assert.equal((await page.request.get(`${permalink}/report.pdf`)).headers()['content-type'], 'application/pdf');
  assert.equal(await page.locator('#check-result dd').first().textContent(), riskBandName(warrant.risk_band), 'the level in words');
  assert.match((await page.locator('#check-result h3').first().textContent())!, new RegExp(`^Signals \\(${warrant.signals.length}\\)$`));
  assert.ok((await page.locator('#check-result').textContent())!.includes(warrant.limitations));
  assert.deepEqual(await seriousViolations(page), [], 'axe on the result');
  await saveScreenshot(page, 'check-warrant-1280');
  assert.deepEqual(problems, []);
  await page.close();
});

test("a check with nothing to send says so; a refused check shows the reply's detail", async () => {
  const { page, problems } = await openPage(1280);
  await page.goto(`${site.server.url}/check/`);
  await page.getByRole('button', { name: 'Check' }).click();
  assert.equal(await page.locator('#check-error').textContent(), 'Choose or drop a file to check.', 'nothing chosen: said before sending');
  await page.getByLabel('Checker').selectOption({ label: 'References and arithmetic (fact-check)' });
  await page.getByLabel('A web address').check();
  await page.getByLabel('Web address of the document').fill('http://127.0.0.1/report.html');
  await page.getByRole('button', { name: 'Check' }).click();
  const error = page.locator('#check-error');
  await error.waitFor();
  const refused = await fetch(`${site.server.url}/v1/verify-references?stream=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'http://127.0.0.1/report.html' }) });
  assert.equal(refused.status, 400);
  assert.equal(await error.textContent(), ((await refused.json()) as { detail: string }).detail);
  assert.equal(await page.locator('#check-result').isHidden(), true);
  // The refusal itself is the only failed request (Chromium reports it on the console too).
  assert.deepEqual(problems.filter((problem) => !problem.includes('400')), []);
  await page.close();
});

test('with JavaScript off the page says it needs it', async () => {
  const context = await site.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.server.url}/check/`);
  assert.match((await page.locator('main .note').first().textContent())!, /needs JavaScript/);
  await context.close();
});
