import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startAbnLookupFake } from '../../test/helpers/abn-lookup-fake.ts';
import { createAbnLookup, unwrapJsonp } from './abn-lookup.ts';
import { createProviderTransport } from './http.ts';

const transport = (timeoutMs = 2_000) => createProviderTransport({ userAgent: 'TenderIntelBot/test', timeoutMs, minIntervalMs: 0 });

test('JSONP bodies are unwrapped whatever the callback is called, with or without a semicolon', () => {
  assert.deepEqual(unwrapJsonp('callback({"Abn":"51824753556"})'), { Abn: '51824753556' });
  assert.deepEqual(unwrapJsonp('cb({"Names":[]});\n'), { Names: [] });
  assert.deepEqual(unwrapJsonp('{"Message":""}'), { Message: '' });
  assert.equal(unwrapJsonp('<html>down for maintenance</html>'), undefined);
});

test('without a GUID every call answers not configured and nothing is sent', async () => {
  const fake = await startAbnLookupFake();
  try {
    const lookup = createAbnLookup({ guid: undefined, baseUrl: fake.baseUrl, transport: transport() });
    assert.equal(lookup.configured, false);
    const answer = await lookup.byAbn('51824753556');
    assert.deepEqual(answer, { ok: false, reason: 'not_configured', detail: 'ABN Lookup is not configured on this server (SVC_ABN_LOOKUP_GUID is unset), so it was not consulted.' });
    assert.equal((await lookup.byName('taxation', 5)).ok, false);
    assert.equal(fake.requests.length, 0);
  } finally {
    await fake.close();
  }
});

test('ABN, ACN and name searches are read from the JSONP replies, sending the GUID and a callback', async () => {
  const fake = await startAbnLookupFake();
  try {
    const lookup = createAbnLookup({ guid: fake.guid, baseUrl: fake.baseUrl, transport: transport() });
    assert.deepEqual(await lookup.byAbn('51824753556'), {
      ok: true,
      value: { abn: '51824753556', abn_status: 'active', abn_status_from: '1999-11-01', acn: null, entity_name: 'AUSTRALIAN TAXATION OFFICE', entity_type: 'Commonwealth Government Entity', business_names: [] },
    });
    const byAcn = await lookup.byAcn('608139724');
    assert.equal(byAcn.ok && byAcn.value?.abn, '96608139724');
    assert.equal(byAcn.ok && byAcn.value?.abn_status, 'cancelled');
    assert.deepEqual(await lookup.byAbn('53004085616'), { ok: true, value: null });
    assert.deepEqual(await lookup.byName('coastal modular', 10), {
      ok: true,
      value: [{ abn: '96608139724', name: 'COASTAL MODULAR BUILDINGS PTY LTD', name_type: 'Entity Name', current: true, abn_status: 'cancelled', score: 100 }],
    });
    const sent = fake.requests[0]!;
    assert.equal(sent.pathname, '/json/AbnDetails.aspx');
    assert.equal(sent.searchParams.get('guid'), fake.guid);
    assert.equal(sent.searchParams.get('callback'), 'callback');
    assert.equal(fake.requests[3]!.searchParams.get('maxResults'), '10');
  } finally {
    await fake.close();
  }
});

test('a GUID the ABR does not recognise is refused; a 5xx or a hang is unreachable now, never "no entry"', async () => {
  const fake = await startAbnLookupFake();
  try {
    const wrongGuid = createAbnLookup({ guid: 'not-registered', baseUrl: fake.baseUrl, transport: transport() });
    const refused = await wrongGuid.byAbn('51824753556');
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.reason, 'refused');
    assert.match(!refused.ok ? refused.detail : '', /not recognised as a Registered Party/);

    const lookup = createAbnLookup({ guid: fake.guid, baseUrl: fake.baseUrl, transport: transport(300) });
    fake.mode = 'http500';
    const failed = await lookup.byAbn('51824753556');
    assert.deepEqual(failed, { ok: false, reason: 'unreachable', detail: `127.0.0.1:${new URL(fake.baseUrl).port} answered HTTP 500; try again later.` });
    fake.mode = 'hang';
    const hung = await lookup.byName('taxation', 5);
    assert.equal(!hung.ok && hung.reason, 'unreachable');
    assert.match(!hung.ok ? hung.detail : '', /did not answer within/);
  } finally {
    await fake.close();
  }
});
