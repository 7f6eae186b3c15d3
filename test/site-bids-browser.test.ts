// The bid area in the browser, in Chromium (lib/chromium.ts says which) over the real server and a
// synthetic release, at 390 and 1280 px: a reader signed out gets the sign-in form, signs in through the
// emailed link (read from the server's outbox) and lands back on the organisations page; creates an
// organisation, fills its profile and adds a library document with an expiry date; opens a tender of the
// release and follows "Prepare a bid"; uploads a tender file (a .docx of fixtures/bids/) and sees its
// requirements; edits a draft and finds it kept after a reload; recomputes and sees gaps with partners and
// the plan in the buyer's time; marks a gap not applicable; posts to the thread; exports the .docx (a Word
// document) and the Markdown (holding the edited draft). A signed-out bid page's sign-in returns to that bid;
// a stage move the API refuses shows its reason; an invited viewer accepts the emailed link on the
// organisations page and is offered nothing that changes the bid. No console errors or failed requests
// beyond the replies named, no serious axe violation, no sideways scroll; screenshots of each page at both widths.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { day, instantIn } from '../site/lib/format.ts';
import { decodedMessage } from './helpers/smtp-inbox.ts';
import { openSiteBrowser, saveScreenshot, seriousViolations, type SiteBrowser } from './helpers/site-browser.ts';

const TENDER_FILE = join(import.meta.dirname, '..', 'fixtures', 'bids', 'qld-ito-fleet-telematics.docx');

let site: SiteBrowser;
let tender: { page_key: string; title: string; buyer?: string };

before(async (t) => {
  // One test client makes every call from one address, many within a minute: the burst guard (tested on its
  // own) is widened so it does not stand between the reader and the pages.
  site = await openSiteBrowser('site-bids-browser', { tenders: 400, awards: 2000, plans: 50 }, (message) => t.diagnostic(message), {
    burst: { capacity: 1000, refillPerMinute: 60_000 },
  });
  // An open tender of the release with a closing day, so the plan counts back from it.
  const open = (await (await fetch(`${site.server.url}/v1/tenders?closing_within_days=200&jurisdiction=AU-NSW&kind=tender&limit=1`)).json()) as { results: typeof tender[] };
  assert.ok(open.results[0], 'the synthetic release has an open NSW tender with a closing day');
  tender = open.results[0];
});
after(() => site?.close());

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Axe, sideways scroll and a screenshot of the page as it is now. */
async function checkPage(page: Page, shot: string, width: number): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `axe on ${shot} at ${width} px`);
  assert.ok((await sideways(page)) <= 1, `${shot} does not scroll sideways at ${width} px`);
  await saveScreenshot(page, `${shot}-${width}`);
}

const SIGN_IN_LINK = /(http:\/\/\S+\/v1\/auth\/callback\?\S+)/;
const INVITATION_PAGE = /(http:\/\/\S+\/account\/orgs\/#invite=\S+)/;

/** The link (a sign-in link unless `pattern` says otherwise) of the newest such message to `email` in the server's outbox (`.eml` files). */
async function emailedLink(email: string, pattern = SIGN_IN_LINK): Promise<string> {
  const outbox = site.server.mailDescription;
  const messages = await Promise.all((await readdir(outbox)).sort().map(async (name) => decodedMessage(await readFile(join(outbox, name), 'utf8'))));
  const message = messages.filter((text) => text.includes(`To: ${email}`) && pattern.test(text)).at(-1);
  assert.ok(message, `a message to ${email} is in the outbox`);
  const link = pattern.exec(message)?.[1];
  assert.ok(link, message);
  return link;
}

for (const width of [390, 1280]) {
  test(`at ${width} px: sign in, an organisation with its profile and documents, a bid for a tender with files, requirements, drafts, gaps, plan, thread and export`, async () => {
    const email = `bidder-${width}@example.com`;
    const company = `Harbour Fleet Services ${width}`;
    const { page, problems } = await site.openPage(width);

    // Signed out: the sign-in form, returning here.
    await page.goto(`${site.server.url}/account/orgs/`);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
    assert.equal(await page.locator('[data-signed-in]').isVisible(), false);
    await checkPage(page, 'orgs-signed-out', width);
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.locator('[data-sign-in-sent]').waitFor();
    const signIn = await emailedLink(email);
    assert.equal(new URL(signIn).searchParams.get('next'), '/account/orgs/', 'the link returns to the page the reader signed in from');
    await page.goto(signIn);
    await page.waitForURL('**/account/orgs/');

    // An organisation: created, then its profile and a library document with an expiry date.
    await page.locator('[data-orgs-status]').filter({ hasText: 'You belong to no organisation yet' }).waitFor();
    await page.getByLabel('Company name').fill(company);
    await page.getByRole('button', { name: 'Create the organisation' }).click();
    await page.waitForURL('**/account/orgs/org/?id=org_*');
    const orgId = new URL(page.url()).searchParams.get('id')!;
    await page.getByRole('heading', { level: 1, name: company }).waitFor();
    assert.equal(await page.locator('[data-org-role]').textContent(), 'Your role here: Owner.');
    await page.getByLabel('ABN').fill('51 824 753 556');
    await page.getByLabel('Region').selectOption('AU-NSW');
    await page.getByLabel('What it does').fill('We install and support vehicle telematics and GPS fleet tracking for councils and state agencies, with 24/7 support from Sydney.');
    await page.getByRole('button', { name: 'Save the profile' }).click();
    await page.locator('[data-profile-done]').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal(await page.getByLabel('ABN').inputValue(), '51824753556', 'the stored ABN is shown');
    await page.getByLabel('ABN').fill('51 824 753 557');
    await page.getByRole('button', { name: 'Save the profile' }).click();
    const profileRefused = page.locator('[data-profile-refused]');
    await profileRefused.waitFor();
    assert.match((await profileRefused.textContent())!, /abn/i, 'a refused ABN shows the API\'s detail');
    assert.equal(await page.locator('[data-members] li').count(), 1);
    assert.match((await page.locator('[data-members] li').textContent())!, new RegExp(`^${email}Owner, joined `));

    await page.getByLabel('Add a document').setInputFiles({
      name: 'capability-statement.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Capability statement. We have installed GPS telematics units in more than 900 council vehicles, with driver behaviour reporting and a 99.9% monthly availability record.\n'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('[data-upload-done]').filter({ hasText: 'Uploaded capability-statement.txt' }).waitFor();
    const doc = page.locator('[data-library] li').first();
    assert.match((await doc.textContent())!, /capability-statement\.txt.*no expiry date set/);
    await page.getByLabel('Expiry date of capability-statement.txt').fill('2027-06-30');
    await page.getByRole('button', { name: 'Set the expiry date of capability-statement.txt' }).click();
    await page.locator('[data-library-status]').filter({ hasText: `capability-statement.txt now expires ${day('2027-06-30')}.` }).waitFor();
    assert.match((await page.locator('[data-library] li .meta').first().textContent())!, new RegExp(`expires ${day('2027-06-30')}$`));
    assert.equal(await page.getByLabel('Expiry date of capability-statement.txt').inputValue(), '2027-06-30');
    await page.getByLabel('Add a document').setInputFiles({ name: 'old-certificate.txt', mimeType: 'text/plain', buffer: Buffer.from('A certificate that lapsed.\n') });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('[data-upload-done]').filter({ hasText: 'Uploaded old-certificate.txt' }).waitFor();
    await page.getByRole('button', { name: 'Delete old-certificate.txt' }).click();
    await page.locator('[data-library-status]').filter({ hasText: 'Deleted old-certificate.txt.' }).waitFor();
    assert.equal(await page.locator('[data-library] li').count(), 1);

    await page.getByLabel('Invite someone by email').fill(`colleague-${width}@example.com`);
    assert.deepEqual(await page.getByLabel('As', { exact: true }).locator('option').allTextContents(), ['Owner', 'Administrator', 'Member', 'Viewer'], 'an owner may invite at any role');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    await page.locator('[data-invite-done]').filter({ hasText: `Invitation emailed to colleague-${width}@example.com as member; the link works until ` }).waitFor();
    await checkPage(page, 'org', width);

    // The account page leads to the organisations and the bids.
    await page.goto(`${site.server.url}/account/`);
    assert.equal(await page.getByRole('link', { name: 'Your bids' }).getAttribute('href'), '/account/bids/');
    await page.getByRole('link', { name: 'Your organisations' }).click();
    await page.getByRole('link', { name: company }).waitFor();
    assert.match((await page.locator('[data-orgs] li').textContent())!, /Owner, joined /);
    await checkPage(page, 'orgs', width);

    // A bid for a tender of the release, from the tender page's "Prepare a bid".
    await page.goto(`${site.server.url}/tenders/${tender.page_key}/`);
    await page.getByRole('link', { name: 'Prepare a bid' }).click();
    await page.waitForURL(`**/account/bids/?tender=${tender.page_key}`);
    await page.locator('[data-tender-named]').filter({ hasText: tender.title }).waitFor();
    assert.equal(await page.getByLabel('For the organisation').inputValue(), orgId);
    await checkPage(page, 'bids-new', width);
    await page.getByRole('button', { name: 'Create the bid' }).click();
    await page.waitForURL('**/account/bids/bid/?id=bid_*');
    const bidId = new URL(page.url()).searchParams.get('id')!;
    await page.getByRole('heading', { level: 1, name: tender.title }).waitFor();
    assert.equal(await page.locator('[data-stage]').textContent(), 'Deciding whether to bid', 'the stage in words');
    await page.getByLabel('Move it to').selectOption('preparing');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.locator('[data-stage]').filter({ hasText: 'Preparing' }).waitFor();
    await page.locator('[data-worth] .figures').waitFor();
    assert.match((await page.locator('[data-worth]').textContent())!, /days? to close/);

    // A tender file: its requirements appear.
    await page.getByLabel('Add a file').setInputFiles(TENDER_FILE);
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('[data-upload-done]').filter({ hasText: 'Uploaded qld-ito-fleet-telematics.docx' }).waitFor();
    const requirements = page.locator('[data-requirements] > li');
    await requirements.first().waitFor();
    const api = (await (await page.request.get(`${site.server.url}/v1/bids/${bidId}/requirements`)).json()) as { requirements: { requirement_id: string; text: string; ref: string | null; mandatory: boolean }[] };
    assert.ok(api.requirements.length >= 5, `the file gave requirements (${api.requirements.length})`);
    assert.equal(await requirements.count(), api.requirements.length);
    assert.equal(await requirements.first().locator('.requirement-text').textContent(), api.requirements[0]!.text);
    assert.match((await page.locator('[data-files] li').textContent())!, /qld-ito-fleet-telematics\.docx.*DOCX/);
    await page.getByRole('button', { name: 'Show text of that page of qld-ito-fleet-telematics.docx' }).click();
    assert.match((await page.locator('.page-text').textContent())!, /telematics/i);
    await page.getByRole('button', { name: 'Link to qld-ito-fleet-telematics.docx' }).click();
    const fileLink = page.getByRole('link', { name: 'Open qld-ito-fleet-telematics.docx' });
    await fileLink.waitFor();
    const served = await fetch(new URL((await fileLink.getAttribute('href'))!, site.server.url));
    assert.equal(served.status, 200, 'the signed link serves the file without the session');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), await readFile(TENDER_FILE));

    await page.getByLabel('Mandatory only').check();
    await page.locator('[data-requirements-status]').filter({ hasText: 'that are mandatory' }).waitFor();
    assert.equal(await requirements.count(), api.requirements.filter((requirement) => requirement.mandatory).length);
    await page.getByLabel('Mandatory only').uncheck();
    await page.locator('[data-requirements-status]').filter({ hasText: /mandatory;/ }).waitFor();

    // A draft edited, kept after a reload.
    const first = api.requirements[0]!;
    const name = first.ref ? `clause ${first.ref}` : 'requirement 1';
    const edited = `Harbour Fleet Services answers ${name} in full (edited at ${width} px).`;
    await page.getByLabel(`Draft for ${name}`, { exact: true }).fill(edited);
    await page.getByRole('button', { name: `Save the draft for ${name}`, exact: true }).click();
    await requirements.first().getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.reload();
    await requirements.first().waitFor();
    assert.equal(await page.getByLabel(`Draft for ${name}`, { exact: true }).inputValue(), edited);
    assert.match((await requirements.first().textContent())!, new RegExp(`Written by ${email}`));

    // Recompute: drafts, gaps with partners, the plan in the buyer's time.
    await page.getByRole('button', { name: 'Recompute drafts, gaps and plan' }).click();
    await page.locator('[data-plan] li').first().waitFor();
    assert.equal(await page.getByLabel(`Draft for ${name}`, { exact: true }).inputValue(), edited, 'recompute keeps the person\'s draft');
    assert.ok((await page.locator('[data-requirements] .meta').filter({ hasText: 'Sources: [1] capability-statement.txt' }).count()) > 0, 'a draft cites the library document');
    const plan = (await (await page.request.get(`${site.server.url}/v1/bids/${bidId}/plan`)).json()) as { time_zone: string; tasks: { title: string; due_at: string }[] };
    assert.equal(plan.time_zone, 'Australia/Sydney');
    assert.equal(await page.locator('[data-plan] li').count(), plan.tasks.length);
    assert.equal(await page.locator('[data-plan] li .task').first().textContent(), plan.tasks[0]!.title);
    // Chromium's ICU puts a plain space before am/pm where Node's puts a narrow one.
    const spaced = (text: string | null) => text?.replace(/\s/g, ' ');
    assert.equal(spaced(await page.locator('[data-plan] li time').first().textContent()), spaced(instantIn(plan.tasks[0]!.due_at, 'Australia/Sydney')));
    const gaps = page.locator('[data-gaps] > li');
    await gaps.first().waitFor();
    const withPartners = gaps.filter({ has: page.locator('.partners') }).first();
    await withPartners.waitFor();
    assert.ok((await withPartners.locator('.partners li').count()) > 0, 'a gap lists partners');
    const gapTitle = (await withPartners.locator('strong').textContent())!;
    await withPartners.getByLabel('Why it does not apply').fill('Our telematics partner supplies this under our own contract.');
    await withPartners.getByRole('button', { name: 'Mark not applicable' }).click();
    await gaps.filter({ hasText: gapTitle }).filter({ hasText: 'not applicable: Our telematics partner supplies this under our own contract.' }).first().waitFor();

    await page.getByLabel('Message').fill('Files are in; drafting the mandatory clauses first.');
    await page.getByRole('button', { name: 'Post', exact: true }).click();
    await page.locator('[data-thread] li').filter({ hasText: 'Files are in; drafting the mandatory clauses first.' }).waitFor();
    assert.match((await page.locator('[data-thread] li').first().textContent())!, new RegExp(`^${email}, `));
    await checkPage(page, 'bid', width);

    // Export: the .docx download is a Word document; the Markdown holds the edited draft.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Word document (.docx)' }).click()]);
    assert.match(download.suggestedFilename(), /\.docx$/);
    const docx = await readFile((await download.path())!);
    assert.equal(docx.subarray(0, 2).toString(), 'PK', 'a zip');
    assert.ok(docx.includes('word/document.xml'), 'holding a Word document');
    const markdown = await page.request.get(`${site.server.url}${await page.getByRole('link', { name: 'Markdown' }).getAttribute('href')}`);
    assert.equal(markdown.status(), 200);
    assert.ok((await markdown.text()).includes(edited), 'the Markdown holds the edited draft');

    await page.goto(`${site.server.url}/account/bids/`);
    await page.getByRole('link', { name: tender.title }).waitFor();
    // The board: the bid in its stage's column, with the tender's buyer and closing, led by its creator.
    const card = page.getByRole('region', { name: /^Preparing/ }).locator('.bid-card');
    assert.equal(await card.count(), 1);
    const facts = await card.locator('.card-facts li').allTextContents();
    assert.equal(facts[0], tender.buyer ?? 'Buyer not published');
    assert.ok(facts.some((fact) => /^(Closes .+ · \d+ days? left|Closes today, .+|Closed .+)$/.test(fact)), facts.join(' | '));
    assert.equal(facts.at(-1), 'Led by you', 'the reader leads the bids they created');
    await card.locator('.value').filter({ hasText: /^Value / }).waitFor();
    await checkPage(page, 'bids', width);
    // Only the refused ABN's reply, asked for above.
    assert.deepEqual(problems.filter((problem) => !problem.startsWith('console: Failed to load resource')), [`400: ${site.server.url}/v1/orgs/${orgId}/profile`]);
    assert.equal(problems.length, 2, `the 400 reply and its console line only: ${problems.join('; ')}`);
    await page.close();
  });

  test(`at ${width} px: signed out, a bid page's sign-in returns to it; a stage move the API refuses shows its reason; a bid id not visible to the reader shows the API's sentence; an invited viewer accepts on the organisations page and only reads`, async () => {
    const email = `stage-${width}@example.com`;
    const { page, problems } = await site.openPage(width);
    await page.goto(`${site.server.url}/account/bids/`);
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.locator('[data-sign-in-sent]').waitFor();
    await page.goto(await emailedLink(email));
    await page.waitForURL('**/account/bids/');
    await page.getByRole('link', { name: 'create one' }).waitFor();

    const post = async (path: string, data?: unknown) => (await page.request.post(`${site.server.url}${path}`, { data, headers: { origin: site.server.url } })).json();
    const org = (await post('/v1/orgs', { company_name: `Stage Test ${width}` })) as { org_id: string };
    // With no bid yet the form is open: the tender is found by words of its title and chosen with the keyboard.
    await page.reload();
    const finder = page.getByRole('combobox', { name: /^Tender/ });
    await finder.waitFor();
    await page.getByLabel('For the organisation').selectOption(org.org_id);
    await finder.pressSequentially(tender.title.split(' ').slice(0, 3).join(' '), { delay: 20 });
    const options = page.getByRole('listbox', { name: 'Matching tenders' }).getByRole('option');
    await options.first().waitFor();
    assert.equal(await finder.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await seriousViolations(page), [], `axe with the matches open at ${width} px`);
    await saveScreenshot(page, `bids-find-tender-open-${width}`);
    const firstTitle = (await options.first().locator('.option-title').textContent())!;
    await finder.press('ArrowDown');
    assert.equal(await options.first().getAttribute('aria-selected'), 'true');
    assert.equal(await finder.getAttribute('aria-activedescendant'), await options.first().getAttribute('id'));
    await finder.press('Enter');
    await page.locator('[data-tender-named]').filter({ hasText: `Chosen: ${firstTitle}.` }).waitFor();
    assert.equal(await finder.inputValue(), firstTitle);
    assert.equal(await finder.getAttribute('aria-expanded'), 'false');
    await checkPage(page, 'bids-find-tender', width);
    await page.getByRole('button', { name: 'Create the bid' }).click();
    await page.waitForURL('**/account/bids/bid/?id=bid_*');
    await page.getByRole('heading', { level: 1, name: firstTitle }).waitFor();

    const bid = (await post('/v1/bids', { org_id: org.org_id, title: 'Cleaning of depots' })) as { bid_id: string };

    // Signed out, the bid page offers the sign-in form, and the emailed link returns to this very bid.
    await post('/v1/auth/logout');
    const bidPage = `/account/bids/bid/?id=${bid.bid_id}`;
    await page.goto(`${site.server.url}${bidPage}`);
    await page.getByLabel('Your email address').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.locator('[data-sign-in-sent]').waitFor();
    const signIn = await emailedLink(email);
    assert.equal(new URL(signIn).searchParams.get('next'), bidPage);
    await page.goto(signIn);
    await page.waitForURL(`**${bidPage}`);
    await page.locator('[data-stage]').filter({ hasText: 'Deciding whether to bid' }).waitFor();
    // Meanwhile someone else moves the bid on, to a stage from which the page's offer is not allowed.
    for (const stage of ['preparing', 'reviewing', 'submitted']) {
      const moved = await page.request.patch(`${site.server.url}/v1/bids/${bid.bid_id}`, { data: { stage }, headers: { origin: site.server.url } });
      assert.equal(moved.status(), 200);
    }
    await page.getByLabel('Move it to').selectOption('preparing');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const refused = page.locator('[data-stage-refused]');
    await refused.waitFor();
    assert.equal(await refused.textContent(), 'A bid in the stage submitted may move only to won, lost or withdrawn, not to preparing.');
    await page.locator('[data-stage]').filter({ hasText: 'Submitted' }).waitFor();
    assert.match((await page.locator('[data-plan-status]').textContent())!, /No plan: the bid has neither a closing day nor your own due date/);

    await page.goto(`${site.server.url}/account/bids/bid/?id=bid_0000000000000000`);
    const missing = page.locator('[data-bid-refused]');
    await missing.waitFor();
    assert.match((await missing.textContent())!, /^No bid/);
    const expected = [`409: ${site.server.url}/v1/bids/${bid.bid_id}`, `404: ${site.server.url}/v1/bids/bid_0000000000000000?include=overview`];
    assert.deepEqual(problems.filter((problem) => !problem.startsWith('console: Failed to load resource')), expected);
    assert.equal(problems.length, 4, `the 409 and 404 replies and their console lines only: ${problems.join('; ')}`);

    // A viewer, invited by email, follows the emailed link to the organisations page, signs in there, comes back to
    // it with the invitation filled in, accepts with one press, and may only read the bid.
    const viewerEmail = `viewer-${width}@example.com`;
    await post(`/v1/orgs/${org.org_id}/invites`, { email: viewerEmail, role: 'viewer' });
    const viewer = await site.openPage(width);
    const invitation = await emailedLink(viewerEmail, INVITATION_PAGE);
    await viewer.page.goto(invitation);
    await viewer.page.getByLabel('Your email address').fill(viewerEmail);
    await viewer.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await viewer.page.locator('[data-sign-in-sent]').waitFor();
    await viewer.page.goto(await emailedLink(viewerEmail));
    await viewer.page.waitForURL((url) => url.pathname === '/account/orgs/' && url.hash.startsWith('#invite='));
    // The page fills the link in once it knows who is signed in.
    await viewer.page.waitForFunction(() => document.querySelector<HTMLInputElement>('#invite-link')?.value !== '');
    assert.equal(await viewer.page.getByLabel('The link from the invitation email').inputValue(), invitation);
    await viewer.page.getByRole('button', { name: 'Accept the invitation' }).click();
    await viewer.page.waitForURL(`**/account/orgs/org/?id=${org.org_id}`);
    await viewer.page.locator('[data-org-role]').filter({ hasText: 'Your role here: Viewer.' }).waitFor();
    assert.equal(await viewer.page.getByRole('button', { name: 'Upload' }).isVisible(), false);
    assert.equal(await viewer.page.getByRole('button', { name: 'Send the invitation' }).isVisible(), false);
    await viewer.page.goto(`${site.server.url}${bidPage}`);
    await viewer.page.locator('[data-read-only]').waitFor();
    await viewer.page.locator('[data-stage]').filter({ hasText: 'Submitted' }).waitFor();
    for (const control of ['Upload', 'Recompute drafts, gaps and plan', 'Post', 'Move']) {
      assert.equal(await viewer.page.getByRole('button', { name: control, exact: true }).count(), 0, `a viewer is not offered ${control}`);
    }
    await checkPage(viewer.page, 'bid-viewer', width);
    assert.deepEqual(viewer.problems, []);
    await viewer.page.close();
    await page.close();
  });
}
