import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chatModelFromEnv, unconfiguredChatModel } from '../../providers/chat-model.ts';
import { startFakeChatModel, type FakeChatModel } from '../../../test/helpers/fake-chat-model.ts';
import { citedNumbers, composeDraft } from './compose.ts';
import type { RetrievedPassage } from './retrieval.ts';

const requirement = 'The Respondent must hold current ISO 9001 quality management certification.';
const passages: RetrievedPassage[] = [
  { text: 'Harbour Civil has held ISO 9001:2015 certification since 2019, audited yearly by an accredited body.', citation: { source: 'library', document: 'Quality certificate.pdf', page: 2, doc_id: 'doc_1' }, score: 4.2 },
  { text: 'Our quality manual covers inspection and test plans for every project.', citation: { source: 'profile', document: 'Organisation profile', page: null }, score: 2.1 },
];

describe('composing a draft', () => {
  let fake: FakeChatModel;
  before(async () => void (fake = await startFakeChatModel()));
  after(() => fake.close());

  it('with a model configured, the draft is its reply, and the model is sent only the requirement and the passages', async () => {
    const model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model', SVC_LLM_KEY: 'test-key' });
    fake.reply = () => 'We have held ISO 9001 certification since 2019 [1].';
    const draft = await composeDraft(requirement, passages, model);
    assert.equal(draft.text, 'We have held ISO 9001 certification since 2019 [1].');
    assert.equal(draft.origin, 'model');
    assert.equal(draft.model, 'drafting-model');
    // Only the passage the reply cites is kept as a citation.
    assert.deepEqual(draft.citations.map((citation) => [citation.n, citation.document, citation.page]), [[1, 'Quality certificate.pdf', 2]]);
    assert.equal(draft.undrafted, null);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.authorization, 'Bearer test-key');
    assert.equal(sent.body.model, 'drafting-model');
    const user = sent.body.messages.find((message) => message.role === 'user')!.content;
    assert.equal(user, `Requirement:\n${requirement}\n\nPassages:\n[1] ${passages[0]!.text}\n\n[2] ${passages[1]!.text}`);
    // Document names are not part of what leaves the server.
    assert.doesNotMatch(JSON.stringify(sent.body), /Quality certificate\.pdf|Organisation profile/);
  });

  it("the reply's [n] markers select the citations; a reply citing nothing, or a passage it was not given, is not kept", async () => {
    const model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    assert.deepEqual(citedNumbers('We are certified [2]; see also [1, 2] and [3;4].'), [1, 2, 3, 4]);
    fake.reply = () => 'Our quality manual covers inspection [2], and we hold ISO 9001 [1][2].';
    const both = await composeDraft(requirement, passages, model);
    assert.deepEqual(both.citations.map((citation) => citation.n), [1, 2]);

    fake.reply = () => 'We have held ISO 9001 certification since 2019.';
    const uncited = await composeDraft(requirement, passages, model);
    assert.deepEqual([uncited.origin, uncited.citations], ['model', []]);
    assert.match(uncited.undrafted!, /^The language model drafting-model answered without citing any of the 2 passages it was given, so its reply is not used/);
    assert.equal(uncited.text, uncited.undrafted, 'the uncited reply is not stored as the answer');

    fake.reply = () => 'We have held ISO 9001 certification since 2019 [1] and audit yearly [3].';
    const invented = await composeDraft(requirement, passages, model);
    assert.deepEqual(invented.citations, []);
    assert.match(invented.undrafted!, /cited \[3\], but was given only 2 passages/);
  });

  it('with a reason not to ask the model, it is not asked and the draft is the passages with that reason', async () => {
    const model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    const before = fake.requests.length;
    const draft = await composeDraft(requirement, passages, model, 'A person declined the language model for this run');
    assert.equal(fake.requests.length, before);
    assert.equal(draft.origin, 'assembled');
    assert.match(draft.text, /^A person declined the language model for this run, so this draft is the retrieved passages as written/);
    assert.equal(draft.citations.length, 2);
  });

  it('without a model, the draft is the cited passages and says so plainly', async () => {
    const draft = await composeDraft(requirement, passages, unconfiguredChatModel);
    assert.equal(draft.origin, 'assembled');
    assert.match(draft.text, /^No language model is configured on this server, so this draft is the retrieved passages as written, each with its source\./);
    assert.match(draft.text, /\[1\] Harbour Civil has held ISO 9001:2015 certification since 2019, audited yearly by an accredited body\.\n\(Source: Quality certificate\.pdf, page 2\)/);
    assert.match(draft.text, /\[2\] Our quality manual .*\n\(Source: Organisation profile\)/);
  });

  it('when the model fails, the draft falls back to the passages and says why', async () => {
    const model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    fake.failWith = 500;
    try {
      const draft = await composeDraft(requirement, passages, model);
      assert.equal(draft.origin, 'assembled');
      assert.match(draft.note, /^The language model could not write this draft \(127\.0\.0\.1:\d+ answered HTTP 500; try again later\.\)/);
    } finally {
      fake.failWith = null;
    }
  });

  it('with nothing retrieved, the model is not asked and the draft says what to do', async () => {
    const model = chatModelFromEnv({ SVC_LLM_URL: fake.baseUrl, SVC_LLM_MODEL: 'drafting-model' });
    const before = fake.requests.length;
    const draft = await composeDraft(requirement, [], model);
    assert.equal(fake.requests.length, before);
    assert.deepEqual(draft.citations, []);
    assert.match(draft.text, /^Nothing in the organisation's profile, library documents or earlier bids answers this requirement yet/);
  });

  it('refuses a URL without a model, or a URL that is not http, at start-up', () => {
    assert.throws(() => chatModelFromEnv({ SVC_LLM_URL: 'http://127.0.0.1:1/v1' }), /SVC_LLM_MODEL must name the model/);
    assert.throws(() => chatModelFromEnv({ SVC_LLM_URL: 'ftp://models.example/v1', SVC_LLM_MODEL: 'm' }), /must be an http or https URL/);
    assert.equal(chatModelFromEnv({}).model, null);
  });
});
