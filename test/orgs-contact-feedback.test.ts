import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonRequest, startOrgApp, type OrgTestApp } from './helpers/org-app.ts';

const message = { name: 'Sam Lee', email: 'sam@builder.test', message: 'Do you cover Tasmanian council tenders?' };

describe('POST /v1/contact', () => {
  let t: OrgTestApp;
  before(async () => {
    t = await startOrgApp();
  });
  after(() => t.close());

  const send = (body: unknown) => t.app.request('/v1/contact', jsonRequest('POST', body));
  const stored = async () => (await t.state.all<{ name: string; message: string }>('SELECT name, message FROM contact_submissions')).map((row) => ({ ...row }));
  const secondsAgo = (seconds: number) => new Date(t.clock.now().getTime() - seconds * 1000).toISOString();

  it('keeps a message a person sent', async () => {
    const response = await send({ ...message, company: 'Lee Builders', website: '', started_at: secondsAgo(40) });
    assert.equal(response.status, 202);
    assert.deepEqual(await response.json(), { received: true });
    assert.deepEqual(await stored(), [{ name: 'Sam Lee', message: message.message }]);
    await t.state.run('DELETE FROM contact_submissions');
  });

  it('drops a filled honeypot and a too-fast submission silently, with the same reply as a kept one', async () => {
    const kept = await send({ ...message, started_at: t.clock.now().getTime() - 10_000 });
    const keptReply = { status: kept.status, body: await kept.text() };
    await t.state.run('DELETE FROM contact_submissions');

    for (const body of [
      { ...message, website: 'https://cheap-seo.test' },
      { ...message, started_at: secondsAgo(1) },
      { ...message, started_at: t.clock.now().getTime() - 2_999 },
    ]) {
      const response = await send(body);
      assert.deepEqual({ status: response.status, body: await response.text() }, keptReply, JSON.stringify(body));
    }
    assert.deepEqual(await stored(), [], 'nothing stored');
  });

  it('keeps a submission whose started_at is ahead of our clock: only the sender clock is wrong', async () => {
    await send({ ...message, started_at: new Date(t.clock.now().getTime() + 120_000).toISOString() });
    assert.equal((await stored()).length, 1);
    await t.state.run('DELETE FROM contact_submissions');
  });

  it('answers 422 to a body that does not match the schema', async () => {
    for (const body of [
      { name: 'Sam', email: 'sam@builder.test' },
      { ...message, email: 'not an email' },
      { ...message, phone: '0400 000 000' },
      { ...message, started_at: 'yesterday' },
    ]) {
      const response = await send(body);
      assert.equal(response.status, 422, JSON.stringify(body));
      assert.match(((await response.json()) as { detail: string }).detail, /body field/);
    }
    assert.deepEqual(await stored(), []);
  });

  it('answers 415 with a sentence to a body that is not JSON', async () => {
    const response = await t.app.request('/v1/contact', { method: 'POST', body: new URLSearchParams(message) });
    assert.equal(response.status, 415);
    assert.match(((await response.json()) as { detail: string }).detail, /Content-Type: application\/json/);
  });
});
