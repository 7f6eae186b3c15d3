import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { listRequirements, recomputeRequirements, requirementsOnFileRead } from '../api/bids/requirements/store.ts';
import { bidRequirementRoutes } from '../api/routes/bid-requirements.ts';
import { startBidApp, type BidTestApp } from './helpers/bid-app.ts';
import { bidFixtures } from './helpers/bid-requirements-set.ts';
import { jsonRequest } from './helpers/org-app.ts';

interface Requirement {
  requirement_id: string;
  ref: string | null;
  text: string;
  kind: string;
  mandatory: boolean;
  state: string;
  weight: number | null;
  source: { file_id: string; page: number; start: number; end: number } | null;
  confidence: number;
  parents: string[];
  superseded_by: string[];
  origin: string;
  edited: boolean;
}

describe('bid requirements: extracted from files, filtered, added, changed, split and merged', () => {
  let t: BidTestApp;
  let member: string;
  let viewer: string;
  let outsider: string;
  let bidId: string;

  /** Uploads a labelled tender file through the files route; the requirements are extracted before it answers. */
  async function upload(name: string): Promise<string> {
    const bytes = new Uint8Array(await readFile(new URL(name, bidFixtures)));
    const form = new FormData();
    form.set('file', new File([bytes], name));
    const response = await t.app.request(`/v1/bids/${bidId}/files`, { method: 'POST', body: form, headers: { cookie: member } });
    assert.equal(response.status, 201, await response.clone().text());
    t.clock.advance(1000);
    return ((await response.json()) as { file_id: string }).file_id;
  }

  const pageText = async (fileId: string, n: number) => (await t.state.get<{ text: string }>('SELECT text FROM bid_file_pages WHERE file_id = ? AND n = ?', fileId, n))!.text;
  const get = (path: string, cookie?: string) => t.app.request(path, cookie ? { headers: { cookie } } : {});
  const list = async (query = '', cookie = member): Promise<Requirement[]> => {
    const response = await get(`/v1/bids/${bidId}/requirements${query}`, cookie);
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { requirements: Requirement[] }).requirements;
  };
  const send = (method: string, path: string, body: unknown, cookie = member) => t.app.request(`/v1/bids/${bidId}/requirements${path}`, jsonRequest(method, body, cookie));
  const detail = async (response: Response) => ((await response.json()) as { detail: string }).detail;
  const find = (requirements: Requirement[], start: string) => {
    const hit = requirements.find((requirement) => requirement.text.startsWith(start));
    assert.ok(hit, `a requirement starting "${start}"`);
    return hit;
  };

  let transportFile: string;

  before(async () => {
    // As api/app.ts wires it: requirements are extracted when a file's text is stored.
    t = await startBidApp({ onFileRead: [(bid) => requirementsOnFileRead(t.state, t.clock.now)(bid)] });
    t.app.route('/', bidRequirementRoutes({ state: t.state, now: t.clock.now }));
    const owner = await t.signIn('owner@harbour.test');
    member = await t.signIn('member@harbour.test');
    viewer = await t.signIn('viewer@harbour.test');
    outsider = await t.signIn('outsider@elsewhere.test');
    const org = await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Harbour Civil Pty Ltd' }, owner));
    const orgId = ((await org.json()) as { org_id: string }).org_id;
    await t.join(orgId, 'member@harbour.test', 'member');
    await t.join(orgId, 'viewer@harbour.test', 'viewer');
    await t.app.request('/v1/orgs', jsonRequest('POST', { company_name: 'Elsewhere Pty Ltd' }, outsider));
    const bid = await t.app.request('/v1/bids', jsonRequest('POST', { org_id: orgId, title: 'Bus stop maintenance' }, member));
    bidId = ((await bid.json()) as { bid_id: string }).bid_id;
    transportFile = await upload('nz-rfp-regional-transport.pdf');
  });

  after(() => t.close());

  it('an uploaded tender file gives its requirements, each span pointing at its page and characters', async () => {
    assert.ok((await listRequirements(t.state, bidId)).length >= 20, 'extracted when the upload stored the text, before any list');
    const requirements = await list('', viewer);
    assert.ok(requirements.length >= 20, `found ${requirements.length}`);
    const glass = find(requirements, 'The Supplier must repair or make safe any damaged shelter glass');
    assert.deepEqual([glass.kind, glass.mandatory, glass.state, glass.ref, glass.origin, glass.source?.page], ['clause', true, 'open', '2.1(b)', 'extracted', 1]);
    assert.equal((await pageText(transportFile, 1)).slice(glass.source!.start, glass.source!.end), 'The Supplier must repair or make safe any damaged shelter glass within 4 hours of notification.');
    const price = find(requirements, 'Respondents must complete the Price Schedule in Appendix B.');
    assert.equal(price.source?.page, 2, 'a requirement on the second page says so');
    assert.equal((await pageText(transportFile, 2)).slice(price.source!.start, price.source!.end), 'Respondents must complete the Price Schedule in Appendix B.');
    for (const requirement of requirements) {
      const slice = (await pageText(requirement.source!.file_id, requirement.source!.page)).slice(requirement.source!.start, requirement.source!.end);
      assert.equal(slice.replace(/\s+/g, ' ').trim(), requirement.text);
    }
    assert.ok(!requirements.some((requirement) => /Bus Stop Infrastructure Maintenance - Part 1/.test(requirement.text)), 'the running header is not a requirement');
  });

  it('filters by kind, mandatory and state, and refuses a filter value it does not take (400)', async () => {
    const criteria = await list('?kind=criterion');
    assert.deepEqual(criteria.map((criterion) => [criterion.text.replace(/\s*\d+%$/, ''), criterion.weight]), [
      ['Track record', 20],
      ['Capability of the Respondent to deliver the Requirements', 30],
      ['Capacity of the Respondent to deliver the Requirements', 20],
      ['Proposed solution', 30],
    ]);
    const optional = await list('?mandatory=false');
    assert.ok(optional.length > 0 && optional.every((requirement) => !requirement.mandatory));
    assert.ok(optional.some((requirement) => requirement.text.startsWith('Respondents should limit their Proposal to 20 pages')));
    // The three pass/fail pre-conditions, and the sentence saying what failing one does (a disqualifying
    // condition, as the real tender corpus labels them: fixtures/corpora/tenders/README.md).
    const conditions = await list('?kind=condition&mandatory=true');
    assert.equal(conditions.length, 4);
    assert.equal(conditions.filter((condition) => /pass\s*\/\s*fail$/i.test(condition.text)).length, 3);
    assert.ok(conditions.some((condition) => condition.text === 'Proposals that do not meet every pre-condition will be excluded.'));
    assert.deepEqual(await list('?state=met'), []);
    for (const [query, field] of [['?kind=bogus', 'kind'], ['?mandatory=yes', 'mandatory'], ['?state=done', 'state']] as const) {
      const response = await get(`/v1/bids/${bidId}/requirements${query}`, member);
      assert.equal(response.status, 400, query);
      assert.match(await detail(response), new RegExp(field));
    }
  });

  it('a member adds one (201); an unknown field is 400; a viewer writing is 403; an outsider is 404; no session is 401', async () => {
    const added = await send('POST', '', { text: 'Provide two referees from NZ councils.', kind: 'schedule' });
    assert.equal(added.status, 201);
    const requirement = (await added.json()) as Requirement;
    assert.deepEqual([requirement.origin, requirement.kind, requirement.mandatory, requirement.source, requirement.confidence, requirement.state], ['person', 'schedule', true, null, 1, 'open']);
    const unknown = await send('POST', '', { text: 'x', colour: 'red' });
    assert.equal(unknown.status, 400);
    assert.match(await detail(unknown), /takes only text, ref, kind, mandatory, weight/);
    assert.equal((await send('POST', '', { text: 'From a viewer' }, viewer)).status, 403);
    assert.equal((await send('PATCH', `/${requirement.requirement_id}`, { state: 'met' }, viewer)).status, 403);
    assert.equal((await get(`/v1/bids/${bidId}/requirements`, outsider)).status, 404);
    assert.equal((await send('POST', '', { text: 'From outside' }, outsider)).status, 404);
    assert.equal((await get(`/v1/bids/${bidId}/requirements`)).status, 401);
  });

  it('PATCH changes wording and state; an unknown field or a derived state is 400; an unknown id is 404', async () => {
    const glass = find(await list(), 'The Supplier must repair or make safe');
    const changed = await send('PATCH', `/${glass.requirement_id}`, { text: 'Make damaged shelter glass safe within 4 hours.', state: 'met' });
    assert.equal(changed.status, 200);
    const after = (await changed.json()) as Requirement;
    assert.deepEqual([after.text, after.state, after.edited, after.source?.start], ['Make damaged shelter glass safe within 4 hours.', 'met', true, glass.source?.start]);
    assert.equal((await send('PATCH', `/${glass.requirement_id}`, { colour: 'red' })).status, 400);
    assert.equal((await send('PATCH', `/${glass.requirement_id}`, { state: 'superseded' })).status, 400);
    assert.equal((await send('PATCH', '/req_0000000000000000', { state: 'met' })).status, 404);
    assert.deepEqual((await list('?state=met')).map((requirement) => requirement.requirement_id), [glass.requirement_id]);
  });

  it('a split gives parts that name their parent, which stays, superseded; a superseded one cannot change (409)', async () => {
    const lodge = find(await list(), 'Your Proposal must be submitted electronically through GETS');
    const response = await send('POST', `/${lodge.requirement_id}/split`, { parts: [{ text: 'Submit through GETS.' }, { text: 'Submit before the Deadline for Proposals.' }] });
    assert.equal(response.status, 201);
    const { parent, parts } = (await response.json()) as { parent: Requirement; parts: Requirement[] };
    assert.equal(parent.state, 'superseded');
    assert.deepEqual(parent.superseded_by, parts.map((part) => part.requirement_id));
    for (const part of parts) {
      // Lodging electronically is an instruction to tenderers (issue 26), and a part keeps its parent's kind.
      assert.deepEqual([part.origin, part.parents, part.kind, part.mandatory, part.ref], ['split', [lodge.requirement_id], 'instruction', true, lodge.ref]);
      assert.deepEqual(part.source, lodge.source, 'a part keeps the place in the file it came from');
    }
    const live = await list();
    assert.ok(!live.some((requirement) => requirement.requirement_id === lodge.requirement_id), 'the parent leaves the live list');
    assert.deepEqual((await list('?state=superseded')).map((requirement) => requirement.requirement_id), [lodge.requirement_id]);
    const again = await send('PATCH', `/${lodge.requirement_id}`, { text: 'changed' });
    assert.equal(again.status, 409);
    assert.match(await detail(again), new RegExp(`replaced by ${parts[0]!.requirement_id}`));
    assert.equal((await send('POST', `/${lodge.requirement_id}/split`, { parts: [{ text: 'a' }] })).status, 400, 'one part is not a split');
  });

  it('a merge gives one requirement naming every parent; the parents stay, superseded', async () => {
    const requirements = await list('?kind=criterion');
    const [capability, capacity] = [find(requirements, 'Capability of the Respondent'), find(requirements, 'Capacity of the Respondent')];
    const response = await send('POST', '/merge', { requirement_ids: [capability.requirement_id, capacity.requirement_id], text: 'Capability and capacity to deliver' });
    assert.equal(response.status, 201);
    const { merged, parents } = (await response.json()) as { merged: Requirement; parents: Requirement[] };
    assert.deepEqual([merged.origin, merged.parents, merged.kind, merged.weight, merged.mandatory, merged.source?.page], ['merged', [capability.requirement_id, capacity.requirement_id], 'criterion', 50, false, 2]);
    assert.deepEqual(parents.map((parent) => [parent.state, parent.superseded_by]), [
      ['superseded', [merged.requirement_id]],
      ['superseded', [merged.requirement_id]],
    ]);
    assert.equal((await send('POST', '/merge', { requirement_ids: [capability.requirement_id, merged.requirement_id] })).status, 409);
    assert.equal((await send('POST', '/merge', { requirement_ids: [merged.requirement_id, 'req_0000000000000000'] })).status, 404);
    assert.equal((await send('POST', '/merge', { requirement_ids: [merged.requirement_id] })).status, 400);
  });

  it('a recompute (and a new file) keeps people\'s edits, additions, splits and merges, and adds the new file\'s requirements', async () => {
    const before = await list();
    await upload('wa-rfq-cleaning.txt');
    const after = await list();
    for (const requirement of before) {
      const kept = after.find((candidate) => candidate.requirement_id === requirement.requirement_id);
      assert.deepEqual(kept, requirement, `${requirement.text} is unchanged`);
    }
    assert.ok(find(after, 'Make damaged shelter glass safe within 4 hours.').state === 'met');
    assert.ok(find(after, 'Offers must remain valid for a period of 90 days from the Closing Time.'), 'the new file\'s requirements appear');
    const summary = await recomputeRequirements(t.state, bidId, { now: t.clock.now() });
    assert.deepEqual([summary.added, summary.withdrawn], [0, 0], 'a second recompute over the same files changes nothing');
    assert.deepEqual(await list(), after);
  });

  it('recompute sets drafted from the drafts it is told of, and back to open when the draft goes; a person\'s state stays', async () => {
    const [first, second] = await list('?state=open');
    const metBefore = await list('?state=met');
    await recomputeRequirements(t.state, bidId, { now: t.clock.now(), drafted: new Set([first!.requirement_id, metBefore[0]!.requirement_id]) });
    assert.deepEqual((await list('?state=drafted')).map((requirement) => requirement.requirement_id), [first!.requirement_id]);
    assert.deepEqual(await list('?state=met'), metBefore, 'met was set by a person: a draft does not change it');
    await recomputeRequirements(t.state, bidId, { now: t.clock.now(), drafted: new Set([second!.requirement_id]) });
    assert.deepEqual((await list('?state=drafted')).map((requirement) => requirement.requirement_id), [second!.requirement_id]);
  });
});
