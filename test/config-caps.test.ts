import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { createApp } from '../api/app.ts';
import { weeklyCaps } from '../lib/config.ts';

const saved = { anonymous: process.env.SVC_WEEKLY_CAP_ANONYMOUS, identified: process.env.SVC_WEEKLY_CAP_IDENTIFIED };
afterEach(() => {
  for (const [name, value] of [['SVC_WEEKLY_CAP_ANONYMOUS', saved.anonymous], ['SVC_WEEKLY_CAP_IDENTIFIED', saved.identified]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test('weekly caps come from SVC_WEEKLY_CAP_*; unset ones keep the spec\'s, and GET /v1/pricing shows those in force', async () => {
  delete process.env.SVC_WEEKLY_CAP_ANONYMOUS;
  process.env.SVC_WEEKLY_CAP_IDENTIFIED = '250';
  const caps = weeklyCaps();
  assert.deepEqual(caps, { identified: 250 });
  const app = await createApp({ store: { state: () => ({ ready: false, detail: 'none' }), now: () => new Date() }, caps, burst: false });
  const pricing = (await (await app.request('/v1/pricing')).json()) as { checkers: { weekly_allowance: { anonymous_per_ip: number; per_account: number } } };
  assert.deepEqual(pricing.checkers.weekly_allowance, { anonymous_per_ip: 20, per_account: 250 });
});

test('a weekly cap that is not a positive whole number stops the server at start-up with the variable named', () => {
  process.env.SVC_WEEKLY_CAP_ANONYMOUS = '2.5';
  assert.throws(() => weeklyCaps(), /SVC_WEEKLY_CAP_ANONYMOUS must be a whole number/);
  process.env.SVC_WEEKLY_CAP_ANONYMOUS = '-3';
  assert.throws(() => weeklyCaps(), /SVC_WEEKLY_CAP_ANONYMOUS must be a positive number/);
});
