import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OpenAPIHono } from '@hono/zod-openapi';
import JSZip from 'jszip';
import { createService } from '../api/app.ts';
import { BidFileStore } from '../api/bids/file-store.ts';
import { checkerAnalyses } from '../api/checkers/registry.ts';
import { createAnalysisPool, type AnalysisPool } from '../api/checkers/_runner/pool.ts';
import { caller } from '../api/middleware/caller.ts';
import { errorReplies } from '../api/middleware/errors.ts';
import { invalidInputHook } from '../api/schemas/invalid-input.ts';
import { DocumentLibrary } from '../api/orgs/documents.ts';
import { chatModelFromEnv, unconfiguredChatModel, type ChatModel } from '../api/providers/chat-model.ts';
import { ReleaseStore } from '../api/release-store.ts';
import { bidWorkspaceRoutes } from '../api/routes/bid-workspace.ts';
import { bidRoutes } from '../api/routes/bids.ts';
import { orgRoutes } from '../api/routes/orgs.ts';
import type { WorkspaceRequirement } from '../api/bids/workspace-requirement.ts';
import { readModel } from '../data/build.ts';
import { openStateDb, type StateDb } from '../data/state/db.ts';
import { openStore } from '../data/store.ts';
import { createMailer } from '../lib/mailer.ts';
import { RUN_AT, seedAwardModels } from './helpers/award-seed.ts';
import { startFakeChatModel, type FakeChatModel } from './helpers/fake-chat-model.ts';
import { LINK_SECRET } from './helpers/bid-app.ts';
import { layoutPdf } from './helpers/layout-pdf.ts';
import { jsonRequest, PUBLIC_URL, signInAs, testClock } from './helpers/org-app.ts';
import { seedRelease, sourceRow, tenderRow } from './helpers/seed-release.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation } from './helpers/state.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// The tender closes at 14:00 on Tuesday 6 October 2026 in Sydney, two days after daylight saving starts there.
const tender = tenderRow({ title: 'Regional road maintenance', reference: 'TFNSW-RRM', buyer: 'Transport for NSW', closing_date: '2026-10-06', closing_at: '2026-10-06T03:00:00.000Z' });

const requirementsOf = (bidId: string): WorkspaceRequirement[] => [
  { requirement_id: `${bidId}-r1`, ref: '4.1', text: 'The Respondent must hold public liability insurance of at least $20 million.', kind: 'clause', mandatory: true, state: 'open', weight: null },
  { requirement_id: `${bidId}-r2`, ref: '4.2', text: 'The Respondent must be certified to ISO 9001.', kind: 'clause', mandatory: true, state: 'open', weight: null },
  { requirement_id: `${bidId}-r3`, ref: '5.1', text: 'Describe your experience with traffic management on arterial roads.', kind: 'criterion', mandatory: false, state: 'open', weight: 40 },
  { requirement_id: `${bidId}-r4`, ref: '4.3', text: 'Tenderers must hold accreditation under the Federal Safety Commissioner scheme.', kind: 'condition', mandatory: true, state: 'open', weight: null },
];

describe('the bid workspace: drafts, gaps, partners, plan, export, worth-bidding', () => {
  let dataDir: string;
  let state: StateDb;
  let release: ReleaseStore;
  let pool: AnalysisPool;
  let fake: FakeChatModel;
  let app: OpenAPIHono;
  let owner: string, member: string, viewer: string, outsider: string;
  let orgId: string, bidId: string;
  let releaseLoading = false;
  let model: ChatModel = unconfiguredChatModel;
  const recomputedRequirements: { bidId: string; drafted: string[] | null }[] = [];
  const clock = testClock(RUN_AT); // Friday 25 September 2026, 11:00 in Sydney

  const get = async (path: string, cookie: string) => {
    const response = await app.request(path, { headers: { cookie } });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const send = async (method: string, path: string, body: unknown, cookie: string) => {
    const response = await app.request(path, jsonRequest(method, body, cookie));
    return { status: response.status, body: (await response.json()) as Json };
  };
  const recompute = () => send('POST', `/v1/bids/${bidId}/plan/recompute`, {}, member);
  const draftOf = async (requirement: string) => (await get(`/v1/bids/${bidId}/drafts`, viewer)).body.drafts.find((draft: Json) => draft.requirement_id === `${bidId}-${requirement}`);

  before(async () => {
    dataDir = await tempDir('bids-workspace-');
    const { dir } = await seedRelease({ dataDir, tenders: [tender], sources: [sourceRow({ tender_count: 1 }), sourceRow({ id: 'au_nsw_contract_awards', name: 'NSW contract awards', kinds: ['award'] })], computedAt: RUN_AT });
    const store = await openStore(join(dir, 'store.duckdb'));
    try {
      await seedAwardModels(store);
      await store.exec(`${await readModel('award_terms')}; ${await readModel('tender_terms')}`);
    } finally {
      store.close();
    }
    release = await ReleaseStore.open({ dataDir, now: clock.now, log: () => {} });
    const served = { state: () => (releaseLoading ? { ready: false as const, detail: 'The release is still loading.' } : release.state()), now: clock.now };
    state = await openStateDb(await testStateLocation(dataDir));
    pool = createAnalysisPool({ analyses: checkerAnalyses, size: 1 });
    fake = await startFakeChatModel();
    const documentsDir = join(dataDir, 'state', 'documents');
    const errors = errorReplies({ log: () => {} });
    app = new OpenAPIHono({ defaultHook: invalidInputHook() });
    app.notFound(errors.notFound);
    app.onError(errors.onError);
    app.use('*', caller({ state, now: clock.now }));
    app.route('/', orgRoutes({ state, mailer: createMailer({ outboxDir: join(dataDir, 'outbox') }), documentFiles: documentsDir, publicUrl: PUBLIC_URL, now: clock.now, log: () => {} }));
    app.route('/', bidRoutes({ state, store: served, files: new BidFileStore(join(dataDir, 'state', 'bid-files')), pool, linkSecret: LINK_SECRET, publicUrl: PUBLIC_URL, now: clock.now, log: () => {} }));
    app.route('/', bidWorkspaceRoutes({
      state,
      store: served,
      library: new DocumentLibrary(state, documentsDir),
      pool,
      // Switched by the tests between none and the local fake.
      model: { get model() { return model.model; }, complete: (messages) => model.complete(messages) },
      requirements: {
        list: async (_state, id) => requirementsOf(id),
        recompute: async (_state, id, { drafted }) => recomputedRequirements.push({ bidId: id, drafted: drafted ? [...drafted].sort() : null }),
      },
      now: clock.now,
    }));

    owner = await signInAs(state, clock.now(), 'owner@harbour.test');
    orgId = (await send('POST', '/v1/orgs', { company_name: 'Harbour Civil Pty Ltd' }, owner)).body.org_id;
    await send('PATCH', `/v1/orgs/${orgId}/profile`, { region: 'AU-NSW', description: 'Road maintenance and asphalt resurfacing for councils and state agencies.' }, owner);
    member = await signInAs(state, clock.now(), 'member@harbour.test');
    viewer = await signInAs(state, clock.now(), 'viewer@harbour.test');
    outsider = await signInAs(state, clock.now(), 'outsider@elsewhere.test');
    for (const [email, role] of [['member@harbour.test', 'member'], ['viewer@harbour.test', 'viewer']] as const) {
      await state.run('INSERT INTO memberships (org_id, account_id, role, joined_at) SELECT ?, account_id, ?, ? FROM accounts WHERE email = ?', orgId, role, clock.now().toISOString(), email);
    }

    // The library: an insurance certificate (a two-page PDF) that expires before the tender closes, and a capability statement.
    const certificate = await layoutPdf([
      { texts: [{ text: 'Certificate of currency', x: 50, top: 60, size: 18 }, { text: 'Issued by Harbour Mutual Insurance to Harbour Civil Pty Ltd.', x: 50, top: 100 }] },
      { texts: [{ text: 'Public liability insurance: cover of $20 million for each occurrence.', x: 50, top: 60 }, { text: 'Period of insurance ends 1 October 2026.', x: 50, top: 80 }] },
    ]);
    const upload = async (file: File) => {
      const form = new FormData();
      form.set('file', file);
      const response = await app.request(`/v1/orgs/${orgId}/documents`, { method: 'POST', body: form, headers: { cookie: owner } });
      return ((await response.json()) as Json).doc_id as string;
    };
    const certificateId = await upload(new File([new Uint8Array(certificate)], 'Certificate of currency.pdf', { type: 'application/pdf' }));
    await send('PATCH', `/v1/orgs/${orgId}/documents/${certificateId}`, { expires_on: '2026-10-01' }, owner);
    await upload(new File(['Capability statement\n\nOur crews run traffic management on arterial roads for Transport for NSW, with 40 accredited traffic controllers.'], 'Capability statement.txt', { type: 'text/plain' }));

    bidId = (await send('POST', '/v1/bids', { org_id: orgId, page_key: tender.tender_key }, owner)).body.bid_id;
  });

  after(async () => {
    await pool.close();
    await fake.close();
    await release.close();
    await state.close();
  });

  it('recompute is for members and above; a viewer gets 403 and an outsider the same 404 as a missing bid', async () => {
    assert.equal((await recompute()).status, 200);
    // Extracted again first; then, once drafted, the requirements whose draft carries evidence are marked drafted.
    assert.deepEqual(recomputedRequirements, [{ bidId, drafted: null }, { bidId, drafted: [`${bidId}-r1`, `${bidId}-r3`] }]);
    const refused = await send('POST', `/v1/bids/${bidId}/plan/recompute`, {}, viewer);
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /\(viewer\) may read its bids but not create or change them/);
    const hidden = await send('POST', `/v1/bids/${bidId}/plan/recompute`, {}, outsider);
    const missing = await send('POST', '/v1/bids/bid_0000000000000000/plan/recompute', {}, outsider);
    assert.deepEqual([hidden.status, hidden.body], [missing.status, missing.body]);
    assert.equal(hidden.status, 404);
    assert.equal((await get(`/v1/bids/${bidId}/drafts`, outsider)).status, 404);
    assert.equal((await app.request(`/v1/bids/${bidId}/drafts`)).status, 401);
  });

  it("without a language model, a draft is the cited passages from the library (document and page) and says so", async () => {
    const draft = await draftOf('r1');
    assert.equal(draft.origin, 'assembled');
    assert.match(draft.text, /^No language model is configured on this server, so this draft is the retrieved passages as written, each with its source\./);
    assert.match(draft.text, /\(Source: Certificate of currency\.pdf, page 2\)/);
    assert.deepEqual([draft.citations[0].source, draft.citations[0].document, draft.citations[0].page], ['library', 'Certificate of currency.pdf', 2]);
    assert.match(draft.citations[0].excerpt, /Public liability insurance: cover of \$20 million/);
    const traffic = await draftOf('r3');
    assert.deepEqual([traffic.citations[0].document, traffic.citations[0].page], ['Capability statement.txt', 1]);
    assert.deepEqual((await draftOf('r4')).citations, [], 'nothing in the library answers the Federal Safety Commissioner condition');
  });

  it('with the language model configured, the draft is its reply to the requirement and the retrieved passages, asked once while they stay the same', async () => {
    model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    fake.reply = (request) => `Answer to: ${request.body.messages.at(-1)!.content.split('\n')[1]} [1]`;
    try {
      assert.equal((await recompute()).status, 200);
      const asked = fake.requests.length;
      assert.equal(asked, 2, 'one call for each requirement with passages (r2 and r4 have none)');
      assert.equal((await recompute()).status, 200);
      assert.equal(fake.requests.length, asked, 'unchanged requirements and passages: the drafts are kept, the model not asked again');
    } finally {
      model = unconfiguredChatModel;
    }
    const draft = await draftOf('r1');
    assert.deepEqual([draft.origin, draft.model, draft.text], ['model', 'drafting-model', 'Answer to: The Respondent must hold public liability insurance of at least $20 million. [1]']);
    const asked = fake.requests.find((request) => request.body.messages.at(-1)!.content.includes('public liability insurance of at least'))!;
    assert.equal(asked.body.model, 'drafting-model');
    assert.match(asked.body.messages.at(-1)!.content, /^Requirement:\nThe Respondent must hold public liability insurance of at least \$20 million\.\n\nPassages:\n\[1\] Public liability insurance: cover of \$20 million/);
  });

  it("a person's draft is stored, refused to viewers, checked for unknown fields, and never overwritten by a recompute", async () => {
    const path = `/v1/bids/${bidId}/drafts/${bidId}-r3`;
    assert.equal((await send('PATCH', path, { text: 'Viewer text' }, viewer)).status, 403);
    const unknown = await send('PATCH', path, { text: 'x', tone: 'formal' }, member);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /this body takes only text/);
    assert.equal((await send('PATCH', `/v1/bids/${bidId}/drafts/${bidId}-r99`, { text: 'x' }, member)).status, 404);
    const saved = await send('PATCH', path, { text: 'We have managed traffic on the Pacific Highway since 2019.' }, member);
    assert.equal(saved.status, 200);
    assert.deepEqual([saved.body.origin, saved.body.edited_by], ['person', 'member@harbour.test']);
    assert.equal((await recompute()).status, 200);
    const after = await draftOf('r3');
    assert.deepEqual([after.origin, after.text], ['person', 'We have managed traffic on the Pacific Highway since 2019.']);
  });

  it('derives the gaps, attaches partners serving their category and region, and counts them per category', async () => {
    const { status, body } = await get(`/v1/bids/${bidId}/gaps`, viewer);
    assert.equal(status, 200);
    const gaps = Object.fromEntries(body.gaps.map((gap: Json) => [gap.gap_key, gap]));
    assert.deepEqual(Object.keys(gaps).sort(), [`evidence:${bidId}-r2`, `evidence:${bidId}-r4`, 'credential:iso_9001', `expiry:${(await draftOf('r1')).citations[0].doc_id}`].sort());
    const expiry = body.gaps.find((gap: Json) => gap.kind === 'document_expiry');
    assert.deepEqual([expiry.category, expiry.region, expiry.status], ['insurance', 'AU-NSW', 'open']);
    assert.equal(expiry.title, 'Certificate of currency.pdf expires on 2026-10-01, before the tender closes');
    assert.deepEqual(expiry.partners.map((partner: Json) => partner.name), ['Harbourline Insurance Brokers']);
    assert.deepEqual(gaps['credential:iso_9001'].partners.map((partner: Json) => partner.partner_id), ['ptn_clearstandard']);
    assert.deepEqual(gaps[`evidence:${bidId}-r4`].partners.map((partner: Json) => partner.partner_id), ['ptn_quill_tenders']);
    assert.deepEqual(body.counts, { bid_writing: 2, insurance: 1, quality_certification: 1 });
  });

  it('a gap takes only status NA, only with a reason; NA survives recompute', async () => {
    const gap = (await get(`/v1/bids/${bidId}/gaps`, viewer)).body.gaps.find((row: Json) => row.gap_key === 'credential:iso_9001');
    const path = `/v1/bids/${bidId}/gaps/${gap.gap_id}`;
    for (const body of [{ status: 'closed', reason: 'done' }, { status: 'open' }, { status: 'NA' }, { status: 'NA', reason: '  ' }, { status: 'NA', reason: 'ok', note: 'x' }]) {
      const refused = await send('PATCH', path, body, member);
      assert.equal(refused.status, 400, JSON.stringify(body));
    }
    assert.match((await send('PATCH', path, { status: 'open' }, member)).body.detail, /must be NA: a gap can only be marked not applicable/);
    assert.equal((await send('PATCH', path, { status: 'NA', reason: 'Accepted by the buyer' }, viewer)).status, 403);
    const marked = await send('PATCH', path, { status: 'NA', reason: 'The buyer accepts our own quality system for this panel.' }, member);
    assert.deepEqual([marked.status, marked.body.status, marked.body.na_reason], [200, 'NA', 'The buyer accepts our own quality system for this panel.']);
    assert.equal((await recompute()).body.open_gaps, 3);
    const kept = (await get(`/v1/bids/${bidId}/gaps`, viewer)).body.gaps.find((row: Json) => row.gap_id === gap.gap_id);
    assert.deepEqual([kept.status, kept.na_reason], ['NA', 'The buyer accepts our own quality system for this panel.']);
  });

  it("back-schedules the plan from the closing day in Sydney time, across the start of daylight saving", async () => {
    const { status, body } = await get(`/v1/bids/${bidId}/plan`, viewer);
    assert.equal(status, 200);
    assert.deepEqual([body.time_zone, body.closing_date], ['Australia/Sydney', '2026-10-06']);
    const task = (id: string) => body.tasks.find((row: Json) => row.task_id === id);
    // Before 4 October Sydney is +10:00, from then on +11:00: the same 17:00 is a different UTC hour.
    assert.deepEqual([task(`gap:evidence:${bidId}-r4`).due_local, task(`gap:evidence:${bidId}-r4`).due_at], ['2026-09-29 17:00', '2026-09-29T07:00:00.000Z']);
    assert.deepEqual([task('lodge').due_local, task('lodge').due_at, task('lodge').owner], ['2026-10-05 17:00', '2026-10-05T06:00:00.000Z', 'owner@harbour.test']);
    assert.deepEqual(task('drafts:condition').depends_on, [`gap:evidence:${bidId}-r4`]);
    assert.equal(task('gap:credential:iso_9001'), undefined, 'a gap marked NA needs no task');
  });

  it('exports a .docx with every requirement, its draft and the citations, and the same as Markdown', async () => {
    const response = await app.request(`/v1/bids/${bidId}/export`, { headers: { cookie: viewer } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="Regional road maintenance.docx"');
    const xml = await (await JSZip.loadAsync(await response.arrayBuffer())).file('word/document.xml')!.async('string');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((match) => match[1]).join('\n');
    for (const expected of ['Regional road maintenance', '4.1. Clause (mandatory)', 'The Respondent must hold public liability insurance of at least $20 million.',
      // recomputed since without the model: the passages as found
      'No language model is configured on this server, so this draft is the retrieved passages as written, each with its source.', '[1] Certificate of currency.pdf, page 2',
      '5.1. Evaluation criterion, weight 40%', 'We have managed traffic on the Pacific Highway since 2019.', '4.3. Condition of participation (mandatory)']) {
      assert.ok(text.includes(expected), `the .docx holds "${expected}"`);
    }
    const markdown = await app.request(`/v1/bids/${bidId}/export?format=md`, { headers: { cookie: viewer } });
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(await markdown.text(), /## 4\.1\. Clause \(mandatory\)\n\n> The Respondent must hold public liability insurance of at least \$20 million\.\n\n### Response\n\nNo language model is configured on this server[^\n]*\n\n\[1\] Public liability insurance: cover of \$20 million[^\n]*\n\(Source: Certificate of currency\.pdf, page 2\)\n\n### Sources\n\n- \[1\] Certificate of currency\.pdf, page 2/);
    assert.equal((await app.request(`/v1/bids/${bidId}/export?format=pdf`, { headers: { cookie: viewer } })).status, 400);
  });

  it("gives the worth-bidding card from the release's intelligence, and 503 {ready: false} while it loads", async () => {
    const { status, body } = await get(`/v1/bids/${bidId}/worth-bidding`, viewer);
    assert.equal(status, 200);
    assert.equal(body.buyer.name, 'Transport for NSW');
    assert.equal(typeof body.buyer.award_count, 'number');
    assert.ok(body.buyer.award_count > 20);
    assert.equal(body.buyer.value_currency, 'AUD');
    assert.ok(Array.isArray(body.buyer.recent_suppliers));
    assert.equal(body.similar_work.method, 'heuristic');
    assert.match(body.similar_work.rule, /shares the tender's title keywords/);
    assert.deepEqual(body.similar_work.keywords, ['regional', 'road', 'maintenance']);
    assert.deepEqual([body.incumbent.contract_title, body.incumbent.end_date], ['Road maintenance', '2026-09-25']);
    // 25 September to 6 October; r2 (ISO 9001) and r4 have no evidence; three gaps are open (one is NA).
    assert.deepEqual(body.checks, { days_to_close: 11, mandatory_without_draft: 2, open_gaps: 3 });
    releaseLoading = true;
    try {
      const loading = await app.request(`/v1/bids/${bidId}/worth-bidding`, { headers: { cookie: viewer } });
      assert.equal(loading.status, 503);
      assert.equal(loading.headers.get('retry-after'), '30');
      assert.deepEqual(await loading.json(), { ready: false, detail: 'The release is still loading. Try again later.' });
    } finally {
      releaseLoading = false;
    }
  });

  it('GET /v1/partners: signed-in members of an organisation only; an unknown category is 400', async () => {
    const signedOut = await app.request('/v1/partners');
    assert.equal(signedOut.status, 401);
    assert.match(((await signedOut.json()) as Json).detail, /The partners catalogue needs a signed-in session/);
    const lonely = await get('/v1/partners', outsider);
    assert.equal(lonely.status, 403);
    assert.match(lonely.body.detail, /create one with POST \/v1\/orgs/);
    const all = await get('/v1/partners', viewer);
    assert.equal(all.status, 200);
    assert.ok(all.body.partners.every((partner: Json) => partner.active === true));
    assert.equal(all.body.partners.some((partner: Json) => partner.partner_id === 'ptn_retired_broker'), false);
    const insurance = await get('/v1/partners?category=insurance', viewer);
    assert.deepEqual(insurance.body.partners.map((partner: Json) => partner.partner_id), ['ptn_harbourline_brokers', 'ptn_kahu_insurance', 'ptn_southgate_cover', 'ptn_westbrook_risk']);
    const unknown = await get('/v1/partners?category=catering', viewer);
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.detail, /must be one of insurance/);
  });
});

describe('the bid workspace in the whole app, on the requirements store', () => {
  it('a tender file uploaded to a bid gives requirements; recompute drafts them from the library, marks them drafted, and every workspace route is in /openapi.json', async () => {
    const clock = testClock('2026-06-10T02:00:00.000Z');
    const dataDir = await tempDir('bids-workspace-app-');
    const state = await openStateDb(await testStateLocation(dataDir));
    const service = await createService({
      store: { state: () => ({ ready: false, detail: 'No release in this test.' }), now: clock.now },
      state,
      now: clock.now,
      publicUrl: PUBLIC_URL,
      burst: false,
      documentsDir: join(dataDir, 'state', 'documents'),
      bidFilesDir: join(dataDir, 'state', 'bid-files'),
      chatModel: unconfiguredChatModel,
    });
    try {
      const cookie = await signInAs(state, clock.now(), 'owner@harbour.test');
      // Cookie writes must come from the service's own origin (api/middleware/same-origin.ts).
      const write = async (method: string, path: string, body: BodyInit, type?: string) => {
        const response = await service.app.request(path, { method, body, headers: { cookie, origin: PUBLIC_URL, ...(type ? { 'content-type': type } : {}) } });
        return { status: response.status, body: (await response.json()) as Json };
      };
      const read = async (path: string) => (await (await service.app.request(path, { headers: { cookie } })).json()) as Json;
      const orgId = (await write('POST', '/v1/orgs', JSON.stringify({ company_name: 'Harbour Civil Pty Ltd' }), 'application/json')).body.org_id;
      const library = new FormData();
      library.set('file', new File(['Insurance\n\nHarbour Civil holds public liability insurance of $20 million with Harbour Mutual.'], 'Insurance summary.txt', { type: 'text/plain' }));
      assert.equal((await write('POST', `/v1/orgs/${orgId}/documents`, library)).status, 201);
      const bidId = (await write('POST', '/v1/bids', JSON.stringify({ org_id: orgId, title: 'Council fleet servicing', due_date: '2026-07-20' }), 'application/json')).body.bid_id;
      const tenderFile = new FormData();
      tenderFile.set('file', new File(['Conditions of tender\n\n4.1 The Respondent must hold public liability insurance of at least $20 million.\n'], 'Conditions.txt', { type: 'text/plain' }));
      assert.equal((await write('POST', `/v1/bids/${bidId}/files`, tenderFile)).status, 201);

      const recomputed = await write('POST', `/v1/bids/${bidId}/plan/recompute`, '{}', 'application/json');
      assert.equal(recomputed.status, 200);
      assert.equal(recomputed.body.requirements, 1);
      const [requirement] = (await read(`/v1/bids/${bidId}/requirements`)).requirements as Json[];
      assert.deepEqual([requirement!.ref, requirement!.mandatory, requirement!.state], ['4.1', true, 'drafted']);
      const [draft] = (await read(`/v1/bids/${bidId}/drafts`)).drafts as Json[];
      assert.deepEqual([draft!.requirement_id, draft!.origin, draft!.citations[0].document, draft!.citations[0].page], [requirement!.requirement_id, 'assembled', 'Insurance summary.txt', 1]);
      const plan = await read(`/v1/bids/${bidId}/plan`);
      assert.deepEqual([plan.closing_date, plan.tasks.at(-1).task_id, plan.tasks.at(-1).due_local], ['2026-07-20', 'lodge', '2026-07-19 17:00']);
      // The chat's recap counts the work as it now stands.
      const { recap } = await read(`/v1/bids/${bidId}/chat`);
      assert.deepEqual(
        [recap.requirements, recap.mandatory_requirements, recap.mandatory_without_draft, recap.drafts_by_people, recap.plan_tasks > 0],
        [1, 1, 0, 0, true],
      );
      assert.match(recap.summary, /1 requirement, 1 mandatory; 0 drafts written by people\. .*The plan has \d+ tasks\./);

      const document = (await (await service.app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
      for (const [path, method] of [
        ['/v1/bids/{bid}/drafts', 'get'], ['/v1/bids/{bid}/drafts/{requirement}', 'patch'], ['/v1/bids/{bid}/gaps', 'get'], ['/v1/bids/{bid}/gaps/{gap}', 'patch'],
        ['/v1/bids/{bid}/plan', 'get'], ['/v1/bids/{bid}/plan/recompute', 'post'], ['/v1/bids/{bid}/export', 'get'], ['/v1/bids/{bid}/worth-bidding', 'get'],
      ] as const) {
        assert.deepEqual(document.paths[path]?.[method]?.security, [{ session: [] }, { bearer: [] }], `${method.toUpperCase()} ${path}`);
      }
      assert.deepEqual(document.paths['/v1/partners']?.['get']?.security, [{ session: [] }], 'the partners catalogue needs a session (spec, Bids)');
    } finally {
      await service.analysisPool.close();
      await state.close();
    }
  });
});
